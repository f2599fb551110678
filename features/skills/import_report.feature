@skills @seed-003 @beyond-seed
Feature: Skill 导入命令的完整报告与命令行错误
  The seed fixes the meaning of the conflict and similarity hints; the rest of the report follows the
  original's lines: `Imported:` / `Skipped:` lists, a `Conflicts:` and a `Similar Skills:` section, and
  `Import completed. No skills found.` when every list is empty.  A command line the handler cannot use is
  answered with an error naming the offending part and the usage, and nothing is imported; a command
  other than `skill:import` is answered with the original's `Unknown skill command: <command>`.

  @SKL-006
  Scenario: 导入成功时应逐行列出已导入与跳过的技能
    Given `skill:import` 的导入器返回结果
      """
      {"imported": ["git-commit", "commit-helper → git-commit"], "skipped": ["broken-skill"], "conflicts": [], "similar": []}
      """
    When 执行 skill 命令 `skill:import /tmp/incoming`
    Then `skill:import` 的 stdout 应为
      """
      Imported: git-commit, commit-helper → git-commit
      Skipped: broken-skill
      """
    And `skill:import` 应以退出码 0 结束且 stderr 为空

  @SKL-007
  Scenario: 没有任何可导入的技能时应说明未找到技能
    Given `skill:import` 的导入器什么也没有导入
    When 执行 skill 命令 `skill:import /tmp/incoming`
    Then `skill:import` 的 stdout 应为
      """
      Import completed. No skills found.
      """
    And `skill:import` 应以退出码 0 结束且 stderr 为空

  @SKL-008
  Scenario: 混合结果应按 Imported/Skipped/Conflicts/Similar Skills 的顺序逐节输出
    # <改名并重新导入的指引> stands for one line telling to rename in the source directory and re-import.
    Given `skill:import` 的导入器返回结果
      """
      {
        "imported": ["lint-fix"],
        "skipped": ["broken-skill", "empty-skill"],
        "conflicts": [
          {"name": "git-commit", "existingPath": "/home/dev/.synapse/skills/git-commit", "newPath": "/tmp/incoming/git-commit"},
          {"name": "code-review", "existingPath": "/home/dev/.synapse/skills/code-review", "newPath": "/tmp/incoming/code-review"}
        ],
        "similar": [
          {"name": "commit-helper", "similarTo": "git-commit", "reason": "Both handle git commits"},
          {"name": "pr-notes", "similarTo": "pr-summary", "reason": "Both summarise a pull request"}
        ]
      }
      """
    When 执行 skill 命令 `skill:import /tmp/incoming`
    Then `skill:import` 的 stdout 应为
      """
      Imported: lint-fix
      Skipped: broken-skill, empty-skill
      Conflicts:
        - git-commit
        - code-review
      <改名并重新导入的指引>
      Similar Skills:
        - commit-helper ~ git-commit: Both handle git commits
          --continue=commit-helper
          --merge=commit-helper:git-commit
        - pr-notes ~ pr-summary: Both summarise a pull request
          --continue=pr-notes
          --merge=pr-notes:pr-summary
      """
    And `skill:import` 应以退出码 0 结束且 stderr 为空

  @SKL-009
  Scenario Outline: `--help` 与 `-h` 应输出用法说明且不导入
    Given `skill:import` 的导入器什么也没有导入
    When 执行 skill 命令 `<command>`
    Then `skill:import` 应输出用法说明
    And `skill:import` 应以退出码 0 结束且 stderr 为空
    And 导入器不应被调用

    Examples:
      | command                          |
      | skill:import --help              |
      | skill:import -h                  |
      | skill:import /tmp/incoming --help |

  @SKL-010
  Scenario Outline: 不是 `skill:import` 的命令应报错且不导入
    Given `skill:import` 的导入器什么也没有导入
    When 执行 skill 命令 `<command>`
    Then `skill:import` 的 stderr 应包含 "<name>"
    And `skill:import` 的退出码应为 1
    And 导入器不应被调用

    Examples:
      | command                    | name                                              |
      | skill:list                 | skill:list                                        |
      | skill:export /tmp/incoming | Unknown skill command: skill:export /tmp/incoming |

  @SKL-011
  Scenario Outline: 无法识别的参数应报错、给出用法说明且不导入
    Given `skill:import` 的导入器什么也没有导入
    When 执行 skill 命令 `<command>`
    Then `skill:import` 的 stderr 应包含 "<argument>"
    And `skill:import` 应输出用法说明
    And `skill:import` 的退出码应为 1
    And 导入器不应被调用

    Examples:
      | command                                          | argument              |
      | skill:import --force /tmp/incoming               | --force               |
      | skill:import /tmp/incoming /tmp/other            | /tmp/other            |
      | skill:import /tmp/incoming --continue            | --continue            |
      | skill:import /tmp/incoming --merge=commit-helper | --merge=commit-helper |
      | skill:import /tmp/incoming --merge :git-commit   | --merge               |

  @SKL-012
  Scenario: 引号不配对的命令应报错、给出用法说明且不导入
    Given `skill:import` 的导入器什么也没有导入
    When 执行 skill 命令 `skill:import "/tmp/incoming --continue=commit-helper`
    Then `skill:import` 的 stderr 不应为空
    And `skill:import` 应输出用法说明
    And `skill:import` 的退出码应为 1
    And 导入器不应被调用

  @SKL-013
  Scenario: 导入器抛出不带消息的错误时 stderr 仍应说明失败
    Given `skill:import` 的导入器抛出不带消息的错误
    When 执行 skill 命令 `skill:import /tmp/incoming`
    Then `skill:import` 的 stderr 不应为空
    And `skill:import` 的退出码应为 1

  @SKL-082
  Scenario: 冲突一节之后的改名指引是原实现的那一行
    The seed gives the meaning of the guidance after the conflicts; the original's command prints it as
    `Please rename the conflicting skills in the source directory and re-import.`, and so does the handler.
    Given `skill:import` 的导入器返回结果
      """
      {"imported": [], "skipped": [], "conflicts": [{"name": "git-commit", "existingPath": "/home/dev/.synapse/skills/git-commit", "newPath": "/tmp/incoming/git-commit"}], "similar": []}
      """
    When 执行 skill 命令 `skill:import /tmp/incoming`
    Then `skill:import` 的 stdout 应为
      """
      Conflicts:
        - git-commit
      Please rename the conflicting skills in the source directory and re-import.
      """
    And `skill:import` 应以退出码 0 结束且 stderr 为空
