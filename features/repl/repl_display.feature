@repl @seed-004
Feature: REPL 显示层鲁棒性
  REPL 的斜杠命令返回要显示的文本；技能目录是注入的 `<SYNAPSE_HOME>/skills`（默认 `~/.synapse/skills`），
  `/tools` 的工具来源与 `/compact` 的 runner 都是替身。

  The REPL's slash commands return the text to display; the skills directory is the injected
  `<SYNAPSE_HOME>/skills` (default `~/.synapse/skills`), and the tool source of `/tools` and the runner of
  `/compact` are doubles.

  @REPL-001
  Scenario: `/skills` 在技能目录缺失时提示创建路径
    Given `~/.synapse/skills` 目录不存在
    When 执行 `/skills`
    Then 输出应包含 `No skills directory found.`
    And 输出应包含建议创建路径

  @REPL-002
  Scenario: `/skills` 在 SKILL.md 无描述字段时显示默认描述
    Given 技能目录存在但 `SKILL.md` 无法提取 description
      | skill      | SKILL.md                                                            |
      | bare-skill | # Bare skill\n\nRun the steps below.\n                              |
      | demo-skill | ---\nname: demo-skill\ndescription: Demo skill description\n---\n\n# Demo\n |
    When 执行 `/skills`
    Then 该技能描述应显示 `(No description)`
    And 有描述的技能 `demo-skill` 应显示其描述 `Demo skill description`

  @REPL-003
  Scenario: `/tools` 输出应移除 `Found N tools` 头部行
    Given `McpInstaller.formatSearchResult` 输出首行包含 `Found N tools`
      """
      Found 3 tools:

      MCP Tools:
        mcp:git:status
          Show the working tree status

      Skill Tools:
        skill:demo:run
        skill:demo:lint
      """
    When 执行 `/tools`
    Then 显示内容应移除该头部行
    And 保留工具主体列表

  @REPL-004
  Scenario: `/compact` 在无 runner 上下文时返回不可用提示
    Given `agentRunner=null`
    When 执行 `/compact`
    Then 输出应包含 `Compact unavailable in this context.`

  @REPL-005
  Scenario: `/compact` 异常时返回带原因的失败信息
    Given `forceCompact()` 抛出异常
    And 异常 message 为 "disk full"
    When 执行 `/compact`
    Then 输出应包含 `压缩失败`
    And 输出应包含异常 message
