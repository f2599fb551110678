@repl @seed-004 @beyond-seed
Feature: REPL 输出在计数与混合文本下的规则
  The `Found N tools` line is removed whatever N is (one tool, ten or more tools), and the skill
  enhancement progress text is highlighted wherever it appears in a streamed chunk, also when the chunk
  carries other text around it.

  @REPL-040
  Scenario Outline: 技能增强进度文本在 TTY 下高亮 — 进度文本与其它文本在同一段输出中
    Given `process.stdout.isTTY=true`，流式输出的一段文本为 "<text>"
    When 调用 `formatStreamText(text)`
    Then 返回值应包含高亮 ANSI 前缀/后缀
    And 文本内容保持不变

    Examples:
      | text                                                   |
      | [StopHook] Analyzing skill enhancement... (1/2)       |
      | \nSkill hook: Analyzing skill enhancement...\nDone.\n |

  @REPL-041
  Scenario: `/tools` 输出应移除 `Found N tools` 头部行 — 十个以上工具
    Given `McpInstaller.formatSearchResult` 输出首行包含 `Found N tools`
      """
      Found 12 tools:

      MCP Tools:
        mcp:git:status
        mcp:git:log
        mcp:git:diff
        mcp:git:show
        mcp:git:blame
        mcp:git:branch
        mcp:git:tag
        mcp:git:stash
        mcp:fs:read
        mcp:fs:write

      Skill Tools:
        skill:demo:run
        skill:demo:lint
      """
    When 执行 `/tools`
    Then 显示内容应移除该头部行
    And 保留工具主体列表

  @REPL-042
  Scenario: `/tools` 输出应移除 `Found N tools` 头部行 — 只有一个工具
    Given `McpInstaller.formatSearchResult` 输出首行包含 `Found N tools`
      """
      Found 1 tool:

      Skill Tools:
        skill:demo:run
      """
    When 执行 `/tools`
    Then 输出应逐行为:
      """
      Available Tools
      ══════════════════════════════════════════════════
      Skill Tools:
        skill:demo:run
      """
