@skills @seed-003
Feature: Skill 导入反馈可操作性
  `skill:import` tells the user what to do next: conflicting names are to be renamed in the source and
  imported again, similar skills can be imported anyway (`--continue`) or merged (`--merge`).

  @SKL-001
  Scenario: 导入发生冲突时应提示修改名称后重试
    Given `skill:import` 返回命名冲突列表
      | name        | existingPath                     | newPath                      |
      | git-commit  | /home/dev/.synapse/skills/git-commit  | /tmp/incoming/git-commit  |
      | code-review | /home/dev/.synapse/skills/code-review | /tmp/incoming/code-review |
    When Handler 格式化输出
    Then 输出应包含冲突 skill 名称
    And 给出“修改源目录名称后重新导入”的明确指引
    And Handler 应把命令中的导入源原样交给导入器

  @SKL-002
  Scenario: 发现相似技能时应提供 `--continue` 与 `--merge` 示例
    Given `skill:import` 返回 similar 列表
      | name          | similarTo  | reason                        |
      | commit-helper | git-commit | Both handle git commits       |
      | pr-notes      | pr-summary | Both summarise a pull request |
    When Handler 生成提示文本
    Then 输出应包含 `--continue=<skill>` 示例
    And 同时包含 `--merge=<source>:<target>` 示例
    And Handler 应把命令中的导入源原样交给导入器
