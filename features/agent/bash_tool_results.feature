@agent @beyond-seed
Feature: 实现自己的 Bash 工具如何向模型报告命令的结果
  The implementation's own Bash tool reports each call the way the original's does, since that text is what
  the model reads in its next request (the tool message is the result's output and message joined by a blank
  line, the empty ones left out): standard output as it is, then `[stderr]` and the error output (bytes that
  are not UTF-8 read as U+FFFD, line ends as they were: a `\r\n` or a progress bar's lone `\r` stays); a
  command that printed nothing says so; a failed command adds `Command failed with exit code N` and a hint
  to read the command's `--help`, which a misuse (a missing command, a usage message on stderr) also gets
  after its output. A call the tool cannot run (no `command`, arguments that are not a JSON object, an
  unknown tool, a working directory that is gone) is an error result that names the problem, never an
  exception: the run goes on and the model sees why. Each result is also checked as the toolset returns it:
  `is_error`, `extras.failureCategory` (which decides whether the consecutive-failure stop counts it:
  `command_not_found` and `invalid_usage` count, `execution_error` does not), and the `brief` label the
  original gives each kind of result (AGT-080, AGT-081). The exit code is the status a shell reports: a
  command ended by signal N exits with 128 + N; a failed command's result carries it as the integer
  `extras.exitCode` (AGT-110). A command that runs too long is the subject of `bash_tool_timeout.feature`.

  实现自己的 Bash 工具按原实现的措辞报告每次调用，因为模型在下一次请求中读到的正是这段文字（tool 消息是
  结果的 output 与 message 以空行相连，空的略去）：标准输出原样给出，其后是 `[stderr]` 与错误输出；什么
  也没输出的命令说明它成功执行而无输出；失败的命令再加上 `Command failed with exit code N` 与查看该命令
  `--help` 的提示，误用（命令不存在、stderr 中有用法说明）在输出之后也带这条提示。工具无法执行的调用
  （没有 `command`、参数不是 JSON 对象、未知的工具、工作目录已不存在）得到指明问题的错误结果而不是异常：
  run 继续，模型看到原因。每个结果也按工具集返回的样子检查：`is_error`、决定连续失败是否计数的
  `extras.failureCategory`（`command_not_found`、`invalid_usage` 计数，`execution_error` 不计），以及原实现
  为每类结果给出的 `brief` 标签（AGT-080、AGT-081）。原实现对没有输出的失败命令也说“成功执行而无输出”，
  这里不这样说：它的 output 为空。成功的命令只输出了空白（空格、换行）时，按原实现的说法算作没有输出。被信号 N 结束的命令，退出码按 shell 的报告为 128 + N；失败命令的结果在 `extras.exitCode` 中以整数带上退出码（AGT-110）。输出中不是 UTF-8 的字节显示为 U+FFFD。表中的 `\\n` 表示换行。

  Background:
    Given runner 使用实现自己的 Bash 工具集，命令在空的工作目录中运行

  @AGT-072
  Scenario Outline: 成功的命令：模型看到它的标准输出，有错误输出时附上 [stderr]
    Given 模型首轮调用 Bash 命令 `<命令>`，看到结果后回复 "完成"
    When 执行 `runner.run(...)`
    Then run 应返回 "完成"
    And 模型应被调用 2 次
    And 模型第 2 次调用看到的 tool 消息文本应为 "<文本>"
    And 工具集直接处理同一调用应返回 is_error 为 false，没有 failureCategory

    Examples:
      | 命令                                     | 文本                                           |
      | printf out                               | out                                            |
      | echo 你好                                | 你好\\n                                        |
      | printf out; printf err >&2               | out\\n\\n[stderr]\\nerr                        |
      | printf err >&2                           | [stderr]\\nerr                                 |
      | true                                     | (Command executed successfully with no output) |
      | printf 'caf\\351'; printf 'caf\\351' >&2 | caf�\\n\\n[stderr]\\ncaf�                      |
      | printf '\\n' >&2                         | [stderr]\\n\\n                               |
      | printf 'x: command not found' >&2        | [stderr]\\nx: command not found               |
      | printf '\\n\\n'                          | (Command executed successfully with no output) |
      | printf ' \\t\\n'                        | (Command executed successfully with no output) |
      | printf '\\357\\273\\277\\n'              | (Command executed successfully with no output) |
      | printf '\\037'                          | {U+001F}                                       |
      | printf 'get 50%%\\rget 100%%\\r\\n'         | get 50%{U+000D}get 100%{U+000D}\\n            |

  @AGT-073
  Scenario Outline: 失败的命令：模型看到输出、退出码与查看 --help 的提示，run 继续
    Given 模型首轮调用 Bash 命令 `<命令>`，看到结果后回复 "完成"
    When 执行 `runner.run(...)`
    Then run 应返回 "完成"
    And 模型应被调用 2 次
    And 模型第 2 次调用看到的 tool 消息文本应为 "<文本>"，其中 {stderr} 是 /bin/bash 运行该命令时的错误输出
    And 工具集直接处理同一调用应返回 is_error 为 true，failureCategory 为 "<类别>"

    Examples:
      | 命令                                       | 类别              | 文本 |
      | printf out; printf err >&2; exit 3          | execution_error   | out\\n\\n[stderr]\\nerr\\n\\nCommand failed with exit code 3\\n\\nSelf-description: The command failed. Next step: run `Bash(command="printf --help")` to learn usage, then retry with valid arguments. |
      | exit 4                                      | execution_error   | Command failed with exit code 4\\n\\nSelf-description: The command failed. Next step: run `Bash(command="exit --help")` to learn usage, then retry with valid arguments. |
      | no-such-command-xyz --flag                  | command_not_found | [stderr]\\n{stderr}\\n\\nSelf-description: The command failed. Next step: run `Bash(command="no-such-command-xyz --help")` to learn usage, then retry with valid arguments.\\n\\nCommand failed with exit code 127\\n\\nSelf-description: The command failed. Next step: run `Bash(command="no-such-command-xyz --help")` to learn usage, then retry with valid arguments. |
      | printf 'Usage: tool [path]' >&2; exit 2     | invalid_usage     | [stderr]\\nUsage: tool [path]\\n\\nSelf-description: The command failed. Next step: run `Bash(command="printf --help")` to learn usage, then retry with valid arguments.\\n\\nCommand failed with exit code 2\\n\\nSelf-description: The command failed. Next step: run `Bash(command="printf --help")` to learn usage, then retry with valid arguments. |
      | sh -c 'kill -TERM $$'                       | execution_error   | Command failed with exit code 143\\n\\nSelf-description: The command failed. Next step: run `Bash(command="sh --help")` to learn usage, then retry with valid arguments. |

  @AGT-074
  Scenario Outline: 失败命令的错误输出决定它是否算作误用
    Given 模型首轮调用 Bash 命令 `printf '<错误输出>' >&2; exit 1`，看到结果后回复 "完成"
    When 执行 `runner.run(...)`
    Then run 应返回 "完成"
    And 工具集直接处理同一调用应返回 is_error 为 true，failureCategory 为 "<类别>"

    Examples:
      | 错误输出                            | 类别              |
      | x: command not found                | command_not_found |
      | Unknown tool: x                     | command_not_found |
      | x: unknown command y                | command_not_found |
      | usage: x [path]                     | invalid_usage     |
      | x: requires a number argument       | invalid_usage     |
      | x: must be a non-negative number    | invalid_usage     |
      | x: unexpected argument: y           | invalid_usage     |
      | Invalid parameters for x            | invalid_usage     |
      | x: No such file or directory        | execution_error   |
      | x: command not found; usage: x [p]  | command_not_found |
      | warning: x is old\\nusage: x [path] | invalid_usage     |
      | x: starting\\nx: y: command not found | command_not_found |

  @AGT-075
  Scenario Outline: 无法执行的调用：模型看到指明问题的错误，run 继续
    Given 模型首轮以参数 `<参数>` 调用工具 "<工具>"，看到结果后回复 "完成"
    When 执行 `runner.run(...)`
    Then run 应返回 "完成"
    And 模型应被调用 2 次
    And 模型第 2 次调用看到的 tool 消息文本应<文本>
    And 工具集直接处理同一调用应返回 is_error 为 true，failureCategory 为 "<类别>"

    Examples:
      | 工具 | 参数                 | 类别              | 文本 |
      | Bash | {}                   | invalid_usage     | 以 "Invalid parameters:" 开头并提到 "command" |
      | Bash | {"cmd": "ls"}        | invalid_usage     | 以 "Invalid parameters:" 开头并提到 "command" |
      | Bash | {"command": 42}      | invalid_usage     | 以 "Invalid parameters:" 开头并提到 "command" |
      | Bash | {"command": "  "}    | invalid_usage     | 以 "Invalid parameters:" 开头并提到 "command" |
      | Read | {"path": "a.txt"}    | command_not_found | 为 "Unknown tool: Read\\n\\nCORRECTION: You can ONLY call the "Bash" tool. To use "Read", call Bash with command parameter:\\nBash(command="Read <args>")\\n\\nExample: Bash(command="read ./README.md")" |
      | bash | {"command": "ls"}    | command_not_found | 为 "Unknown tool: bash\\n\\nCORRECTION: You can ONLY call the "Bash" tool. To use "bash", call Bash with command parameter:\\nBash(command="bash <args>")\\n\\nExample: Bash(command="read ./README.md")" |
      | Bash | {"command": "Bash"} | invalid_usage | 为 "Invalid command: `Bash` is a tool name, not a runnable shell command.\\nDo not wrap with `Bash(...)` inside the command string.\\nUse the inner command text only. Examples:\\n- Bash(command="read ./README.md")\\n- Bash(command="ls -la")\\n\\nTool misuse detected: you attempted to execute the Bash tool itself as a command. CORRECTION: pass only the actual command string in `command`, then retry. Examples: Bash(command="read ./README.md"), Bash(command="ls -la")." |
      | Bash | {"command": " Bash\\tls -la"} | invalid_usage | 为 "Invalid command: `Bash` is a tool name, not a runnable shell command.\\nDo not wrap with `Bash(...)` inside the command string.\\nUse the inner command text only. Examples:\\n- Bash(command="read ./README.md")\\n- Bash(command="ls -la")\\n\\nTool misuse detected: you attempted to execute the Bash tool itself as a command. CORRECTION: pass only the actual command string in `command`, then retry. Examples: Bash(command="read ./README.md"), Bash(command="ls -la")." |
      | Bash | {"command": "Bash(ls -la)"} | invalid_usage | 为 "Invalid command: `Bash` is a tool name, not a runnable shell command.\\nDo not wrap with `Bash(...)` inside the command string.\\nUse the inner command text only. Examples:\\n- Bash(command="read ./README.md")\\n- Bash(command="ls -la")\\n\\nTool misuse detected: you attempted to execute the Bash tool itself as a command. CORRECTION: pass only the actual command string in `command`, then retry. Examples: Bash(command="read ./README.md"), Bash(command="ls -la")." |
      | Bash | {"command": "Bashful"} | command_not_found | 以 "[stderr]" 开头并提到 "Bashful: command not found" |

  @AGT-076
  Scenario Outline: 参数不是 JSON 对象：工具返回指明问题的错误，run 继续
    The runner's sanitizer leaves a round whose arguments are not a JSON object out of what it sends to the
    model (see the sanitizer's features), so the model never reads these results: they are checked as the
    toolset returns them, as the text a model would read.

    Given 模型首轮以参数 `<参数>` 调用工具 "Bash"，看到结果后回复 "完成"
    When 执行 `runner.run(...)`
    Then run 应返回 "完成"
    And 模型应被调用 2 次
    And 工具集直接处理同一调用应返回 is_error 为 true，failureCategory 为 "invalid_usage"
    And 工具集直接处理同一调用的结果文本应<文本>

    Examples:
      | 参数   | 文本                                                          |
      |        | 以 "Invalid parameters:" 开头并提到 "command" |
      | ["ls"] | 以 "Invalid parameters:" 开头并提到 "object"  |
      | "ls"   | 以 "Invalid parameters:" 开头并提到 "object"  |

  @AGT-077
  Scenario: 工作目录已不存在：模型看到命令无法执行，run 继续
    Given 模型首轮调用 Bash 命令 `printf out`，看到结果后回复 "完成"
    And 工作目录在命令运行前被删除
    When 执行 `runner.run(...)`
    Then run 应返回 "完成"
    And 模型第 2 次调用看到的 tool 消息文本应以 "Command execution failed: " 开头，其后是错误原因
    And 工具集直接处理同一调用应返回 is_error 为 true，failureCategory 为 "execution_error"

  @AGT-078
  Scenario: 工具集向模型提供 Bash 工具，并供沙箱授权回合取用
    Given 模型首轮调用 Bash 命令 `printf out`，看到结果后回复 "完成"
    When 执行 `runner.run(...)`
    Then 模型每次调用都应只被提供一个工具 "Bash"，其参数是必填的字符串 `command`，工具与参数都有说明
    And 工具集的 `getTool("Bash")` 应给出 Bash 工具，`getTool("Read")` 应为空
    And Bash 工具无沙盒执行 `printf out; printf err >&2; exit 3` 应得到 stdout "out"、stderr "err"、退出码 3

  @AGT-079
  Scenario Outline: 参数不是 JSON：工具返回解析错误，run 继续
    Given 模型首轮以参数 `<参数>` 调用工具 "Bash"，看到结果后回复 "完成"
    When 执行 `runner.run(...)`
    Then run 应返回 "完成"
    And 模型应被调用 2 次
    And 工具集直接处理同一调用应返回 is_error 为 true，failureCategory 为 "invalid_usage"
    And 工具集直接处理同一调用的结果文本应以 "Invalid parameters: tool arguments must be valid JSON. Parse error: " 开头，其后是解析错误

    Examples:
      | 参数                                 |
      | {"command": "ls"                     |
      | command=ls                           |
      | {"command": "ls", "timeout": NaN}    |
      | {"command": "ls", "limit": Infinity} |

  @AGT-080
  Scenario Outline: 工具集返回的结果带有原实现为每类结果给出的 brief 标签
    `brief` is the short label of a result (empty on success); the consecutive-failure stop reads it beside
    the output, so each kind of result keeps the original's label.
    Given 模型首轮以参数 `<参数>` 调用工具 "<工具>"，看到结果后回复 "完成"
    When 执行 `runner.run(...)`
    Then run 应返回 "完成"
    And 工具集直接处理同一调用应返回 is_error 为 <is_error>，<类别>，brief 为 "<brief>"

    Examples:
      | 工具 | 参数                               | is_error | 类别                                   | brief               |
      | Bash | {"command": "printf out"}          | false    | 没有 failureCategory                   |                     |
      | Bash | {"command": "false"}               | true     | failureCategory 为 "execution_error"   | Bash command failed |
      | Bash | {"command": "no-such-command-xyz"} | true     | failureCategory 为 "command_not_found" | Bash command failed |
      | Bash | {}                                 | true     | failureCategory 为 "invalid_usage"     | Invalid parameters  |
      | Bash | ["ls"]                             | true     | failureCategory 为 "invalid_usage"     | Invalid parameters  |
      | Bash | {"command": "ls"                   | true     | failureCategory 为 "invalid_usage"     | Invalid parameters  |
      | Read | {"path": "a.txt"}                  | true     | failureCategory 为 "command_not_found" | Unknown tool        |
      | Bash | {"command": "Bash"}                | true     | failureCategory 为 "invalid_usage"     | Invalid Bash command |

  @AGT-081
  Scenario: 工作目录已不存在时，结果的 brief 为 Command execution failed
    Given 模型首轮调用 Bash 命令 `printf out`，看到结果后回复 "完成"
    And 工作目录在命令运行前被删除
    When 执行 `runner.run(...)`
    Then run 应返回 "完成"
    And 工具集直接处理同一调用应返回 is_error 为 true，failureCategory 为 "execution_error"，brief 为 "Command execution failed"

  @AGT-085
  Scenario Outline: 失败命令的 --help 提示取命令的第一个词，命令前后与词间的空白（空格、制表符、换行）不算在内
    The original trims the command and splits it at any run of whitespace (`split(/\s+/)`), so a command
    typed with a leading space, a tab or a line break is still hinted by its name.
    Given 模型首轮以参数 `<参数>` 调用工具 "Bash"，看到结果后回复 "完成"
    When 执行 `runner.run(...)`
    Then run 应返回 "完成"
    And 模型第 2 次调用看到的 tool 消息文本应为 "out\n\nCommand failed with exit code 1\n\nSelf-description: The command failed. Next step: run `Bash(command="printf --help")` to learn usage, then retry with valid arguments."，其中 {stderr} 是 /bin/bash 运行该命令时的错误输出
    And 工具集直接处理同一调用应返回 is_error 为 true，failureCategory 为 "execution_error"

    Examples:
      | 参数                                |
      | {"command": "  printf out; false"}  |
      | {"command": "\tprintf out; false"}  |
      | {"command": "printf\tout; false"}   |
      | {"command": "\\nprintf out; false"} |

  @AGT-106
  Scenario Outline: 失败命令的 --help 提示按 JavaScript 的空白取第一个词：开头的 U+FEFF 是空白，U+001F 不是 — <情形>
    The original takes `command.trim().split(/\s+/)[0]`: JavaScript's white space holds the byte-order mark
    U+FEFF (a command pasted from a Windows editor may start with one) but not U+001C..U+001F, which
    Python's `str.split()` breaks at while keeping U+FEFF. Both commands below are no command to bash
    (`{U+XXXX}` is that code point), so the failure is `command_not_found` and the hint follows the output
    as well as the message; the model's text ends with both.
    Given 模型首轮以参数 `<参数>` 调用工具 "Bash"，看到结果后回复 "完成"
    When 执行 `runner.run(...)`
    Then run 应返回 "完成"
    And 模型第 2 次调用看到的 tool 消息文本应以 "\n\nSelf-description: The command failed. Next step: run `Bash(command="<词> --help")` to learn usage, then retry with valid arguments.\n\nCommand failed with exit code 127\n\nSelf-description: The command failed. Next step: run `Bash(command="<词> --help")` to learn usage, then retry with valid arguments." 结尾
    And 工具集直接处理同一调用应返回 is_error 为 true，failureCategory 为 "command_not_found"

    Examples:
      | 情形                   | 参数                               | 词                |
      | 命令前的字节序标记是空白 | {"command": "\ufeffprintf out"}    | printf            |
      | 名字中的 U+001F 不是空白 | {"command": "printf\u001fout x"}   | printf{U+001F}out |

  @AGT-086
  Scenario Outline: 失败命令的类别只看错误输出：标准输出中的用法说明或 "command not found" 不算误用
    The original classifies a failure by its stderr alone (classifyToolFailure(result.stderr)): a program
    that prints a usage line or a "command not found" text as its normal output failed for its own reasons,
    so the failure is an execution error, not counted towards the consecutive-failure stop and without the
    `--help` hint after the output.
    Given 模型首轮调用 Bash 命令 `<命令>`，看到结果后回复 "完成"
    When 执行 `runner.run(...)`
    Then run 应返回 "完成"
    And 模型第 2 次调用看到的 tool 消息文本应为 "<文本>"，其中 {stderr} 是 /bin/bash 运行该命令时的错误输出
    And 工具集直接处理同一调用应返回 is_error 为 true，failureCategory 为 "execution_error"

    Examples:
      | 命令                                     | 文本 |
      | printf 'Usage: tool [path]'; false       | Usage: tool [path]\\n\\nCommand failed with exit code 1\\n\\nSelf-description: The command failed. Next step: run `Bash(command="printf --help")` to learn usage, then retry with valid arguments. |
      | printf 'x: command not found'; false     | x: command not found\\n\\nCommand failed with exit code 1\\n\\nSelf-description: The command failed. Next step: run `Bash(command="printf --help")` to learn usage, then retry with valid arguments. |

  @AGT-110
  Scenario Outline: 失败命令的结果在 extras 中以整数 exitCode 带上退出码，failureCategory 照旧
    The original's result for a failed command carries the exit status as `extras.exitCode` beside
    `failureCategory`, so whoever reads the result (a UI, a log) gets the status without parsing
    the message. The original gives a successful command's result no extras at all; whether one carries
    `exitCode` 0 is left open here.
    Given 模型首轮调用 Bash 命令 `<命令>`，看到结果后回复 "完成"
    When 执行 `runner.run(...)`
    Then run 应返回 "完成"
    And 工具集直接处理同一调用应返回 is_error 为 true，failureCategory 为 "<类别>"，exitCode 为 <退出码>

    Examples:
      | 命令                                    | 类别              | 退出码 |
      | exit 13                                 | execution_error   | 13     |
      | no-such-command-xyz                     | command_not_found | 127    |
      | printf 'Usage: tool [path]' >&2; exit 2 | invalid_usage     | 2      |
      | sh -c 'kill -TERM $$'                   | execution_error   | 143    |
