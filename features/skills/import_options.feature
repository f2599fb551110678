@skills @seed-003 @beyond-seed
Feature: Skill 导入命令的选项与错误
  The `--continue` / `--merge` options that the import feedback suggests must reach the importer, and a
  failed import must be reported as an error, so that following the feedback actually works.

  @SKL-003
  Scenario Outline: 按提示重新导入时应把 `--continue` 与 `--merge` 交给导入器
    Given `skill:import` 的导入器什么也没有导入
    When 执行 skill 命令 `<command>`
    Then 导入器收到的导入源应为 `/tmp/incoming`
    And 导入器收到的 continueSkills 应为 `<continue>`
    And 导入器收到的 mergeInto 应为 `<merge>`
    And `skill:import` 应以退出码 0 结束且 stderr 为空

    Examples:
      | command                                                                        | continue                 | merge                                   |
      | skill:import /tmp/incoming --continue=commit-helper                            | commit-helper            |                                         |
      | skill:import /tmp/incoming --continue=a,b --continue c                         | a, b, c                  |                                         |
      | skill:import /tmp/incoming --merge=commit-helper:git-commit                    |                          | commit-helper:git-commit                |
      | skill:import /tmp/incoming --merge commit-helper:git-commit,pr-notes:pr-summary |                          | commit-helper:git-commit, pr-notes:pr-summary |
      | skill:import /tmp/incoming --continue commit-helper --merge pr-notes:pr-summary | commit-helper            | pr-notes:pr-summary                     |
      | skill:import /tmp/incoming --continue "a, b ,c,"                               | a, b, c                  |                                         |
      | skill:import /tmp/incoming --merge "commit-helper:git-commit, pr-notes:pr-summary" |                      | commit-helper:git-commit, pr-notes:pr-summary |
      | skill:import /tmp/incoming --merge=commit-helper:git-commit --merge pr-notes:pr-summary |                          | commit-helper:git-commit, pr-notes:pr-summary |
      | skill:import /tmp/incoming --merge "commit-helper : git-commit,pr-notes:  pr-summary" |                  | commit-helper:git-commit, pr-notes:pr-summary |

  @SKL-004
  Scenario: 导入器失败时错误应写入 stderr 且退出码为 1
    Given `skill:import` 的导入器抛出错误 "Source not found: /tmp/missing"
    When 执行 skill 命令 `skill:import /tmp/missing`
    Then `skill:import` 的 stderr 应包含 "Source not found: /tmp/missing"
    And `skill:import` 的退出码应为 1

  @SKL-005
  Scenario: 缺少导入源时应输出用法说明且不调用导入器
    Given `skill:import` 的导入器什么也没有导入
    When 执行 skill 命令 `skill:import`
    Then `skill:import` 应输出用法说明
    And `skill:import` 的退出码应为 1
    And 导入器不应被调用

  @SKL-096 @beyond-seed
  Scenario Outline: 命令如原版分词：只在空格与 Tab 处分开，引号外的反斜杠是路径的一部分 — <command>
    The original splits the command with its own parser (parseCommandArgs): words are separated by spaces
    and tabs, quotes group a word and are removed, and outside quotes a backslash is a plain character, so
    a Windows or UNC path keeps its separators. A POSIX shell's reading (Python's shlex) would take each
    backslash as an escape and drop it.
    Given `skill:import` 的导入器什么也没有导入
    When 执行 skill 命令 `<command>`
    Then 导入器收到的导入源应为 `<source>`
    And 导入器收到的 continueSkills 应为 `<continue>`
    And `skill:import` 应以退出码 0 结束且 stderr 为空

    Examples:
      | command                                                  | source               | continue      |
      | skill:import C:\Users\dev\skills --continue=commit-helper | C:\Users\dev\skills  | commit-helper |
      | skill:import \\\\fileserver\\skills                      | \\\\fileserver\\skills | |
      | skill:import "D:\Shared skills" --continue commit-helper  | D:\Shared skills     | commit-helper |

  @SKL-099 @beyond-seed
  Scenario Outline: 引号没有闭合时命令失败，stderr 以原版的 Unclosed quote in arguments 开头，导入器不被调用 — <command>
    The original's parseCommandArgs throws `Unclosed quote in arguments` when a quote is left open, so
    nothing is imported from a half-typed path; the message is the original's, and it comes first.
    Given `skill:import` 的导入器什么也没有导入
    When 执行 skill 命令 `<command>`
    Then `skill:import` 的 stderr 应以 "Unclosed quote in arguments" 开头
    And `skill:import` 的退出码应为 1
    And 导入器不应被调用

    Examples:
      | command                                  |
      | skill:import "C:\\Shared skills        |
      | skill:import ./skills --continue='a,b    |
      | skill:import "say \"hi\"               |

  @SKL-098 @beyond-seed
  Scenario Outline: 引号内的反斜杠如原版转义：引号、反斜杠与 n、t、r，其它反斜杠原样保留 — <情形>
    Inside quotes the original's parseCommandArgs reads a backslash before the quote character, another
    backslash, `n`, `t` or `r` as an escape, and keeps any other backslash as it is; the letter X is a
    character like any other. The expected source is written as a JSON string so a newline or a tab can be
    shown (table cells double every backslash).
    Given `skill:import` 的导入器什么也没有导入
    When 执行 skill 命令 `<command>`
    Then 导入器收到的导入源按 JSON 字符串应为 `<source_json>`
    And `skill:import` 应以退出码 0 结束且 stderr 为空

    Examples:
      | 情形               | command                            | source_json              |
      | 换行               | skill:import "a\\nb"               | "a\\nb"                  |
      | 制表符             | skill:import "a\\tb"               | "a\\tb"                  |
      | 回车               | skill:import "a\\rb"               | "a\\rb"                  |
      | 两个反斜杠         | skill:import "C:\\\\skills"        | "C:\\\\skills"           |
      | 双引号内的双引号   | skill:import "say \\"hi\\""        | "say \\"hi\\""           |
      | 单引号内的单引号   | skill:import 'it\\'s'              | "it's"                   |
      | 不认识的转义       | skill:import "C:\\dev"             | "C:\\\\dev"              |
      | 单引号内的双引号   | skill:import 'a\\"b'               | "a\\\\\\"b"              |
      | 含 X 的路径        | skill:import C:\\Users\\Xavier     | "C:\\\\Users\\\\Xavier"  |
