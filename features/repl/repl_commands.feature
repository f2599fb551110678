@repl @beyond-seed
Feature: REPL 斜杠命令的分派与输出
  `handle(line)` 只处理以 `/` 开头的输入（去掉首尾空白、不区分大小写），其余输入交给模型。
  `/cost`、`/skills`、`/tools` 与 `/compact` 的输出按原实现逐行给出（参考说明中的原文）；runner 与工具来源都是替身，
  技能目录是注入的 `<SYNAPSE_HOME>/skills`。

  `handle(line)` handles only input starting with `/` (trimmed, case-insensitive); any other input goes to
  the model. The output of `/cost`, `/skills`, `/tools` and `/compact` is pinned line by line as the original prints it
  (the reference notes' texts); the runner and the tool source are doubles, and the skills directory is the
  injected `<SYNAPSE_HOME>/skills`.

  @REPL-013
  Scenario Outline: 不以斜杠开头的输入不是命令
    When 用户输入 "<输入>"
    Then 该输入不应被当作命令处理

    Examples:
      | 输入                     |
      | 帮我看看 build.log       |
      | 请解释 /compact 的作用   |

  @REPL-014
  Scenario Outline: 退出命令结束 REPL
    When 用户输入 "<输入>"
    Then 命令应被处理且应结束 REPL

    Examples:
      | 输入      |
      | /exit     |
      | /quit     |
      | /q        |
      | "  /EXIT " |

  @REPL-015
  Scenario Outline: `/help` 列出全部命令且不结束 REPL
    When 用户输入 "<输入>"
    Then 命令应被处理且不应结束 REPL
    And 帮助应列出这些命令:
      | 命令        |
      | /help       |
      | /exit       |
      | /quit       |
      | /clear      |
      | /compact    |
      | /cost       |
      | /skills     |
      | /skill:list |
      | /tools      |

    Examples:
      | 输入        |
      | /help       |
      | /h          |
      | /?          |
      | "  /HELP  " |
      | "　/help　" |

  @REPL-016
  Scenario Outline: 未知命令提示使用 `/help`
    When 用户输入 "<输入>"
    Then 命令应被处理且不应结束 REPL
    And 输出应逐行为:
      """
      Unknown command: <命令>
      Type /help for available commands.
      """

    Examples:
      | 输入         | 命令         |
      | /Frobnicate  | /frobnicate  |
      | /help me     | /help me     |
      | /Ärger       | /ärger       |
      | " /ÜBER　"  | /über        |

  @REPL-017
  Scenario: `/cost` 按原实现格式显示会话用量
    Given runner 的会话用量为:
      | totalInputOther | totalOutput | totalCacheRead | totalCacheCreation | totalCost |
      | 1545            | 3456        | 9600           | 1200               | 0.42      |
    When 执行 `/cost`
    Then 命令应被处理且不应结束 REPL
    And 输出应逐行为:
      """
      Token: 12,345 in / 3,456 out | Cache: 9,600 read / 1,200 write (78% hit) | Cost: $0.42
      """

  @REPL-018
  Scenario: `/cost` 在 runner 没有会话时提示无活动会话
    Given runner 没有会话
    When 执行 `/cost`
    Then 输出应逐行为:
      """
      No active session.
      """

  @REPL-019
  Scenario Outline: `/cost` 在无法取得用量时返回不可用提示
    Given <runner>
    When 执行 `/cost`
    Then 输出应逐行为:
      """
      Cost stats unavailable in this context.
      """

    Examples:
      | runner                           |
      | `agentRunner=null`               |
      | runner 只提供 `forceCompact()`   |

  @REPL-020
  Scenario: `/clear` 通过 runner 清空当前会话
    Given runner 可以清空会话
    When 执行 `/clear`
    Then 命令应被处理且不应结束 REPL
    And runner 的会话应被清空 1 次
    And 输出应确认会话已清空

  @REPL-021
  Scenario Outline: `/clear` 在 runner 不支持清空时返回不可用提示
    Given <runner>
    When 执行 `/clear`
    Then 命令应被处理且不应结束 REPL
    And 输出应说明 `/clear` 不可用

    Examples:
      | runner                           |
      | `agentRunner=null`               |
      | runner 只提供 `forceCompact()`   |

  @REPL-022
  Scenario Outline: `/skills` 逐个列出技能的描述与版本
    Given 技能目录中有:
      | path                                     | content                                                     |
      | alpha/SKILL.md                           | ---\nname: alpha\ndescription: Demo skill description\n---\n |
      | alpha/versions/2026-02-10-001/SKILL.md   | old                                                         |
      | alpha/versions/2026-02-10-002/SKILL.md   | new                                                         |
      | beta/SKILL.md                            | # Beta\n\nNo front matter here.\n                           |
      | drafts/notes.md                          | not a skill yet                                             |
      | index.json                               | {}                                                          |
    When 执行 `<命令>`
    Then 输出应逐行为:
      """
      Available Skills
      ══════════════════════════════════════════════════
        alpha
          Demo skill description
          versions: 2026-02-10-002, 2026-02-10-001
        beta
          (No description)
          versions: (none)
      """

    Examples:
      | 命令        |
      | /skills     |
      | /skill:list |

  @REPL-023
  Scenario: `/skills` 从 front matter 或正文的 description 行取描述
    Given 技能目录中有:
      | path             | content                                                        |
      | quoted/SKILL.md  | ---\nname: quoted\ndescription: "Xcode project helper"\n---\n  |
      | bold/SKILL.md    | # Bold\n\n**Description**: Bold description line\n             |
      | upper/SKILL.md   | ---\nDESCRIPTION:   Upper case key   \n---\n                   |
      | empty/SKILL.md   | ---\ndescription: ''\n---\n\ndescription: too late\n           |
      | blank/SKILL.md   | ---\ndescription:\nname: blank\n---\n                         |
    When 执行 `/skills`
    Then 输出应逐行为:
      """
      Available Skills
      ══════════════════════════════════════════════════
        blank
          (No description)
          versions: (none)
        bold
          Bold description line
          versions: (none)
        empty
          (No description)
          versions: (none)
        quoted
          Xcode project helper
          versions: (none)
        upper
          Upper case key
          versions: (none)
      """

  @REPL-054
  Scenario: `/skill:list` 只去掉整个包住描述的一对引号，描述中开头或结尾的单个引号是文字
    The original's front-matter parser removes quotes only when the same quote begins and ends the value
    (its stripWrappingQuotes); a quote that only begins or only ends it, or a pair of two different quotes,
    stays part of the description.
    Given 技能目录中有:
      | path              | content                                                            |
      | ends/SKILL.md     | ---\nname: ends\ndescription: Run "make test"\n---\n               |
      | begins/SKILL.md   | ---\nname: begins\ndescription: 'lint' then format\n---\n          |
      | mixed/SKILL.md    | ---\nname: mixed\ndescription: "Mixed quotes'\n---\n               |
      | wrapped/SKILL.md  | ---\nname: wrapped\ndescription: ' Say "hi" '\n---\n               |
    When 执行 `/skill:list`
    Then 输出应逐行为:
      """
      Available Skills
      ══════════════════════════════════════════════════
        begins
          'lint' then format
          versions: (none)
        ends
          Run "make test"
          versions: (none)
        mixed
          "Mixed quotes'
          versions: (none)
        wrapped
          Say "hi"
          versions: (none)
      """

  @REPL-024
  Scenario: `/skills` 在技能目录中没有技能时提示创建路径
    Given 技能目录中有:
      | path            | content         |
      | drafts/notes.md | not a skill yet |
    When 执行 `/skills`
    Then 输出应逐行为:
      """
      Available Skills
      ══════════════════════════════════════════════════
        No skills installed.
        Create skills in: <skills-dir>
      """

  @REPL-025
  Scenario: `/skills` 未注入目录时读取 `SYNAPSE_HOME` 下的技能目录
    Given 未向 REPL 注入 Synapse 主目录
    And `~/.synapse/skills` 目录不存在
    When 执行 `/skills`
    Then 输出应逐行为:
      """
      Available Skills
      ══════════════════════════════════════════════════
        No skills directory found.
        Create skills in: <skills-dir>
      """

  @REPL-048
  Scenario Outline: `<命令>` 未注入目录且 `SYNAPSE_HOME` 为空字符串时读取 `~/.synapse/skills`
    Given 未向 REPL 注入 Synapse 主目录
    And `SYNAPSE_HOME` 为空字符串，`HOME` 指向场景目录
    And `~/.synapse/skills` 目录不存在
    When 执行 `<命令>`
    Then 输出应逐行为:
      """
      Available Skills
      ══════════════════════════════════════════════════
        No skills directory found.
        Create skills in: <skills-dir>
      """

    Examples:
      | 命令        |
      | /skills     |
      | /skill:list |

  @REPL-026
  Scenario: `/skills` 读取技能目录出错时显示错误而不中断
    Given 技能目录中有:
      | path           | content                                                 |
      | alpha/SKILL.md | ---\nname: alpha\ndescription: Demo skill description\n---\n |
    When 无法再打开文件时执行 `/skills`
    Then 输出应以这些行开头:
      """
      Available Skills
      ══════════════════════════════════════════════════
      """
    And 输出应有一行以 `  Error reading skills: ` 开头

  @REPL-027
  Scenario: `/tools` 在标题行下显示去掉计数行的工具列表
    Given `McpInstaller.formatSearchResult` 输出首行包含 `Found N tools`
      """
      Found 2 tools:

      MCP Tools:
        mcp:git:status
          Show the working tree status
        mcp:git:log
      """
    When 执行 `/tools`
    Then 输出应逐行为:
      """
      Available Tools
      ══════════════════════════════════════════════════
      MCP Tools:
        mcp:git:status
          Show the working tree status
        mcp:git:log
      """

  @REPL-028
  Scenario: `/tools` 没有工具来源时返回不可用提示
    Given 没有工具来源
    When 执行 `/tools`
    Then 命令应被处理且不应结束 REPL
    And 输出应说明工具列表不可用

  @REPL-029
  Scenario: `/compact` 异常没有 message 时失败信息说明异常类型
    Given `forceCompact()` 抛出没有 message 的 `TimeoutError`
    When 执行 `/compact`
    Then 输出应包含 `压缩失败`
    And 输出应包含 `TimeoutError`

  @REPL-030
  Scenario: `/compact` 只释放 1 个 token 时仍报告压缩完成
    Given `forceCompact()` 返回 `success=true` 且释放了 token
      | previousTokens | currentTokens | freedTokens | deletedFiles |
      | 20001          | 20000         | 1           | 0            |
    When 用户执行 `/compact`
    Then 输出应包含 `before -> after` token 数值
    And 输出应包含释放量与删除文件数量

  @REPL-031
  Scenario: `/compact` 的摘要比删去的历史还长时按无需压缩提示
    Given `forceCompact()` 返回 `success=true`，释放的 token 为负数
      | previousTokens | currentTokens | freedTokens |
      | 3000           | 3200          | -200        |
    When 用户执行 `/compact`
    Then 输出应包含“无需压缩”提示
    And 命令处理结果仍应为已处理

  @REPL-032
  Scenario: `/skills` 在 SKILL.md 含无效 UTF-8 字节时仍列出该技能
    Given 技能 "legacy" 的 SKILL.md 含无效 UTF-8 字节
    When 执行 `/skills`
    Then 输出应逐行为:
      """
      Available Skills
      ══════════════════════════════════════════════════
        legacy
          Caf� helper
          versions: (none)
      """

  @REPL-043
  Scenario: `/compact` 异常时按原实现的文字输出失败原因
    Given `forceCompact()` 抛出异常
    And 异常 message 为 "disk full"
    When 执行 `/compact`
    Then 输出应逐行为:
      """
      ❌ 压缩失败：disk full
      """

  @REPL-044
  Scenario Outline: `/compact` 未压缩时按原实现的文字说明原因 — <情形>
    Given <runner>
    When 执行 `/compact`
    Then 输出应逐行为:
      """
      <输出>
      """

    Examples:
      | 情形        | runner                                   | 输出                        |
      | 压缩失败      | `forceCompact()` 返回 `success=false`          | ❌ 压缩失败，保持原历史不变          |
      | 无需压缩      | `forceCompact()` 返回 `freedTokens=0` 且前后 token 相同 | ✅ 无需压缩：历史消息较短或已足够精简      |
      | 异常没有 message | `forceCompact()` 抛出没有 message 的 `TimeoutError` | ❌ 压缩失败：TimeoutError       |

  @REPL-045
  Scenario: `/compact` 成功时按原实现的文字与千位分隔符输出两行统计
    Given `forceCompact()` 返回 `success=true` 且释放了 token
      | previousTokens | currentTokens | freedTokens | deletedFiles |
      | 1234567        | 20000         | 1214567     | 3            |
    When 执行 `/compact`
    Then 输出应逐行为:
      """
      ✅ 压缩完成：1,234,567 → 20,000 tokens
      释放 1,214,567 tokens，删除 3 个卸载文件
      """

  @REPL-046
  Scenario Outline: `<命令>` 按目录名的字符串顺序从大到小列出版本，`v9` 排在 `v10` 之前
    Given 技能目录中有:
      | path                         | content                                            |
      | gamma/SKILL.md               | ---\nname: gamma\ndescription: Release notes\n---\n |
      | gamma/versions/v10/SKILL.md  | tenth                                              |
      | gamma/versions/v9/SKILL.md   | ninth                                              |
      | gamma/versions/v1/SKILL.md   | first                                              |
    When 执行 `<命令>`
    Then 输出应逐行为:
      """
      Available Skills
      ══════════════════════════════════════════════════
        gamma
          Release notes
          versions: v9, v10, v1
      """

    Examples:
      | 命令        |
      | /skills     |
      | /skill:list |

  @REPL-047
  Scenario: `/skill:list` 读取以 CRLF 换行的 SKILL.md 时，描述与 LF 文件的相同
    Given 技能目录中有以 CRLF 换行的文件:
      | path             | content                                                    |
      | crlf/SKILL.md    | ---\nname: crlf\ndescription: "Windows helper"\n---\n      |
      | plain/SKILL.md   | ---\nname: plain\ndescription: Plain value\n---\n          |
    When 执行 `/skill:list`
    Then 输出应逐行为:
      """
      Available Skills
      ══════════════════════════════════════════════════
        crlf
          Windows helper
          versions: (none)
        plain
          Plain value
          versions: (none)
      """

  @REPL-049 @beyond-seed
  Scenario: `/skill:list` 只把 `versions/` 下的目录当作版本，旁边的文件不算
    The original keeps the entries that are directories (readdirSync with withFileTypes, isDirectory()):
    a note or an archive left in `versions/` is no version.
    Given 技能目录中有:
      | path                          | content                                            |
      | delta/SKILL.md                | ---\nname: delta\ndescription: Deploy helper\n---\n |
      | delta/versions/v2/SKILL.md    | second                                             |
      | delta/versions/v1/SKILL.md    | first                                              |
      | delta/versions/v3.tar         | an archive                                         |
      | delta/versions/README.md      | how versions are kept                              |
      | echo/SKILL.md                 | ---\nname: echo\ndescription: Echo helper\n---\n    |
      | echo/versions/notes.txt       | no version yet                                     |
    When 执行 `/skill:list`
    Then 输出应逐行为:
      """
      Available Skills
      ══════════════════════════════════════════════════
        delta
          Deploy helper
          versions: v2, v1
        echo
          Echo helper
          versions: (none)
      """

  @REPL-050 @beyond-seed
  Scenario: `/skill:list` 不把 `versions/` 下以点开头的目录当作版本
    The original keeps only directories whose name does not start with a dot: a hidden directory (a copy
    being staged, a tool's own folder) is no version.
    Given 技能目录中有:
      | path                             | content                                              |
      | delta/SKILL.md                   | ---\nname: delta\ndescription: Deploy helper\n---\n |
      | delta/versions/v1/SKILL.md       | first                                                |
      | delta/versions/.v2.staging/SKILL.md | half copied                                       |
      | delta/versions/.git/HEAD         | ref: refs/heads/main                                 |
      | echo/SKILL.md                    | ---\nname: echo\ndescription: Echo helper\n---\n    |
      | echo/versions/.hidden/SKILL.md   | not a version                                        |
    When 执行 `/skill:list`
    Then 输出应逐行为:
      """
      Available Skills
      ══════════════════════════════════════════════════
        delta
          Deploy helper
          versions: v1
        echo
          Echo helper
          versions: (none)
      """

  @REPL-051 @beyond-seed
  Scenario: `/skill:list` 不列出技能目录中以点开头的目录
    The original's skill index skips every entry of the skills directory whose name starts with a dot: a
    hidden directory (the staging copy of an import that was interrupted, a tool's own folder) is no skill,
    even when it holds a SKILL.md.
    Given 技能目录中有:
      | path                            | content                                                  |
      | .lint-fix.importing/SKILL.md    | ---\nname: lint-fix\ndescription: Half imported\n---\n   |
      | .hidden/SKILL.md                | ---\nname: hidden\ndescription: Not a skill\n---\n       |
      | lint-fix/SKILL.md               | ---\nname: lint-fix\ndescription: Fix lint errors\n---\n |
    When 执行 `/skill:list`
    Then 输出应逐行为:
      """
      Available Skills
      ══════════════════════════════════════════════════
        lint-fix
          Fix lint errors
          versions: (none)
      """

  @REPL-052 @beyond-seed
  Scenario: `/cost` 把没有任何字段的用量记录按 0 显示，不当作没有会话
    Only a missing record (`null`) means no active session; an empty record is a session whose totals are
    all missing, and a missing total is shown as 0 (SES-021), the cost as `$0.00` while no round is recorded.
    Given runner 的会话用量是 JSON 记录 `{}`
    When 执行 `/cost`
    Then 命令应被处理且不应结束 REPL
    And 输出应逐行为:
      """
      Token: 0 in / 0 out | Cache: 0 read / 0 write (0% hit) | Cost: $0.00
      """

  @REPL-053 @beyond-seed
  Scenario: `/tools` 只去掉列表开头的计数行，正文中以 `Found` 开头的行原样保留
    The original removes `/^Found \d+.*\n\n?/` once, at the start of the listing: a tool description that
    runs over several lines may have a line of its own starting with `Found 2`, which stays.
    Given `McpInstaller.formatSearchResult` 输出首行包含 `Found N tools`
      """
      Found 2 tools:

      MCP Tools:
        mcp:search:grep
          Searches the working tree.
      Found 2 matches or more: the first ones are shown.
        mcp:git:log
      """
    When 执行 `/tools`
    Then 输出应逐行为:
      """
      Available Tools
      ══════════════════════════════════════════════════
      MCP Tools:
        mcp:search:grep
          Searches the working tree.
      Found 2 matches or more: the first ones are shown.
        mcp:git:log
      """

  @REPL-055
  Scenario: `/clear` 的确认是原实现的那一行
    The original's REPL confirms a cleared conversation with `Conversation history cleared.`; the
    handler's output is that line.
    Given runner 可以清空会话
    When 执行 `/clear`
    Then 命令应被处理且不应结束 REPL
    And runner 的会话应被清空 1 次
    And 输出应逐行为:
      """
      Conversation history cleared.
      """

  @REPL-062 @beyond-seed
  Scenario: `/clear` 清空失败时按原实现的文字说明失败原因，不确认已清空，REPL 继续
    The original prints `Failed to clear session: <message>` when clearing fails, and then confirms the
    clear anyway; a failed clear is reported as failed only, and the REPL goes on (the reference let the
    error end the REPL).
    Given runner 清空会话时抛出 message 为 "disk full" 的错误
    When 执行 `/clear`
    Then 命令应被处理且不应结束 REPL
    And runner 的会话应被清空 1 次
    And 输出应逐行为:
      """
      Failed to clear session: disk full
      """

  @REPL-056 @beyond-seed
  Scenario: `/tools` 去掉计数行时只带走其后的一个空行，列表自己的第二个空行保留
    The original removes `/^Found \d+.*\n\n?/`: the count line and at most one blank line after it. A
    catalog that sets its first group apart with a second blank line keeps that line in the listing.
    Given `McpInstaller.formatSearchResult` 输出首行包含 `Found N tools`
      """
      Found 2 tools:


      MCP Tools:
        mcp:git:status
          Show the working tree status
        mcp:git:log
      """
    When 执行 `/tools`
    Then 输出应逐行为:
      """
      Available Tools
      ══════════════════════════════════════════════════

      MCP Tools:
        mcp:git:status
          Show the working tree status
        mcp:git:log
      """

  @REPL-057 @beyond-seed
  Scenario: 注入了 Synapse 主目录时 `/skills` 列出其中的技能，不读 `SYNAPSE_HOME` 指向的另一个目录
    The environment is the fallback for a REPL given no home (REPL-025); the home the REPL was started
    with wins over it, as an option passed in wins over the environment elsewhere in Synapse.
    Given 技能目录中有:
      | path           | content                                               |
      | alpha/SKILL.md | ---\nname: alpha\ndescription: Injected skill\n---\n  |
    And `SYNAPSE_HOME` 指向另一个目录，其技能目录中有:
      | path          | content                                               |
      | beta/SKILL.md | ---\nname: beta\ndescription: Exported skill\n---\n   |
    When 执行 `/skills`
    Then 输出应逐行为:
      """
      Available Skills
      ══════════════════════════════════════════════════
        alpha
          Injected skill
          versions: (none)
      """

  @REPL-058 @beyond-seed
  Scenario: `/skills` 按 localeCompare 的顺序列出技能：大小写与重音不把名称排到别处，同名时小写在前，标点、数字在字母之前
    The original lists the skills of its index, which it sorts with a.name.localeCompare(b.name) (ICU):
    names compare without case or accents first, so `Beta` and `éclair` take their places among the
    others, an accent weighs more than case (`Eclair` before `éclair`), the lower-case one of two names
    differing only in case comes first, punctuation (`_` before `-`) and digits come before letters,
    and other scripts after Latin letters. A sort by code points
    would list every capitalised name before the lower-case ones and `éclair` after `Zeta`.
    Given 技能目录中有:
      | path                | content                                                  |
      | gamma/SKILL.md      | ---\nname: gamma\ndescription: Third\n---\n              |
      | Beta/SKILL.md       | ---\nname: Beta\ndescription: Second, capitalised\n---\n |
      | alpha/SKILL.md      | ---\nname: alpha\ndescription: First\n---\n              |
      | 代码审查/SKILL.md   | ---\nname: 代码审查\ndescription: Code review\n---\n     |
      | beta/SKILL.md       | ---\nname: beta\ndescription: Second\n---\n              |
      | lint-fix/SKILL.md   | ---\nname: lint-fix\ndescription: Fix lint errors\n---\n |
      | Zeta/SKILL.md       | ---\nname: Zeta\ndescription: Last of the letters\n---\n |
      | éclair/SKILL.md     | ---\nname: éclair\ndescription: Accented\n---\n          |
      | lint_fix/SKILL.md   | ---\nname: lint_fix\ndescription: Underscore\n---\n      |
      | 2fa-helper/SKILL.md | ---\nname: 2fa-helper\ndescription: Digits first\n---\n  |
      | linter/SKILL.md     | ---\nname: linter\ndescription: After the punctuation\n---\n |
      | Xcode-helper/SKILL.md | ---\nname: Xcode-helper\ndescription: Capital X\n---\n   |
      | eagle/SKILL.md      | ---\nname: eagle\ndescription: Before the accented e\n---\n |
      | Eclair/SKILL.md     | ---\nname: Eclair\ndescription: Capital, no accent\n---\n |
    When 执行 `/skills`
    Then 输出应逐行为:
      """
      Available Skills
      ══════════════════════════════════════════════════
        2fa-helper
          Digits first
          versions: (none)
        alpha
          First
          versions: (none)
        beta
          Second
          versions: (none)
        Beta
          Second, capitalised
          versions: (none)
        eagle
          Before the accented e
          versions: (none)
        Eclair
          Capital, no accent
          versions: (none)
        éclair
          Accented
          versions: (none)
        gamma
          Third
          versions: (none)
        lint_fix
          Underscore
          versions: (none)
        lint-fix
          Fix lint errors
          versions: (none)
        linter
          After the punctuation
          versions: (none)
        Xcode-helper
          Capital X
          versions: (none)
        Zeta
          Last of the letters
          versions: (none)
        代码审查
          Code review
          versions: (none)
      """

  @REPL-059
  Scenario: `/compact` 的 token 数带千位分隔符，删除的卸载文件数原样写出
    The original groups the three token counts with toLocaleString() but writes the number of deleted
    offload files as it is (`deletedFiles.length` in a template string): a compaction that removed 1234
    files says 1234, not 1,234.
    Given `forceCompact()` 返回 `success=true` 且释放了 token
      | previousTokens | currentTokens | freedTokens | deletedFiles |
      | 2500000        | 1500          | 2498500     | 1234         |
    When 执行 `/compact`
    Then 输出应逐行为:
      """
      ✅ 压缩完成：2,500,000 → 1,500 tokens
      释放 2,498,500 tokens，删除 1234 个卸载文件
      """

  @REPL-060 @beyond-seed
  Scenario: `/skill:list` 按 UTF-16 码元从大到小列出版本：表情符号排在全角字符之后
    The original sorts the version names with JavaScript's default sort and reverses them
    (`.sort().reverse()`), which compares UTF-16 code units: a character outside the Basic Multilingual
    Plane (an emoji, a surrogate pair from U+D800) comes before U+E000..U+FFFF (full-width forms such as
    `２`), while code points put it after them. Names of ASCII, of CJK or of emoji alone sort alike either way.
    Given 技能目录中有:
      | path                          | content                                            |
      | notes/SKILL.md                | ---\nname: notes\ndescription: Release notes\n---\n |
      | notes/versions/draft-🚀/SKILL.md | rocket                                          |
      | notes/versions/draft-２/SKILL.md | full-width two                                  |
      | notes/versions/draft-草/SKILL.md | CJK                                             |
      | notes/versions/draft-a/SKILL.md  | ASCII                                           |
    When 执行 `/skill:list`
    Then 输出应逐行为:
      """
      Available Skills
      ══════════════════════════════════════════════════
        notes
          Release notes
          versions: draft-２, draft-🚀, draft-草, draft-a
      """

  @REPL-061 @beyond-seed
  Scenario: `/skill:list` 把版本目录名中不是 UTF-8 的字节显示为 U+FFFD，如 Node 与 bun 读目录时那样
    A directory name is bytes, and a copied or unpacked skill can carry a version named in another
    encoding. The original reads the names with Node's directory read, which decodes them as UTF-8 and
    puts one U+FFFD for each maximal invalid sequence (a lone byte, or the first three bytes of an emoji
    cut short); it then sorts them by UTF-16 code units, where U+FFFD comes after the full-width `２`. A
    listing that keeps the raw bytes, writes one U+FFFD per byte, or fails on the name is caught.
    Given 技能目录中有这些文件，路径中的 %XX 是一个字节:
      | path                                 | content                                             |
      | notes/SKILL.md                       | ---\nname: notes\ndescription: Release notes\n---\n |
      | notes/versions/v1/SKILL.md           | plain                                               |
      | notes/versions/v%EF%BC%92/SKILL.md   | full-width two, valid UTF-8                         |
      | notes/versions/v%FF2/SKILL.md        | a byte that is never UTF-8                          |
      | notes/versions/w%F0%9F%98-2/SKILL.md | an emoji cut after three bytes                      |
    When 执行 `/skill:list`
    Then 输出应逐行为:
      """
      Available Skills
      ══════════════════════════════════════════════════
        notes
          Release notes
          versions: w�-2, v�2, v２, v1
      """
