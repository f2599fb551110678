@agent @beyond-seed
Feature: AgentRunner 保护机制的细节
  哪些工具失败计入连续失败（原实现的 failureCategory 与关键字规则）、每轮失败的日志、显式上限，
  以及请求在各个阶段被中断时历史保持原样。模型是脚本化替身，工具集是记录调用的替身。

  The details of the AgentRunner's guards: which tool failures count as consecutive failures (the original's
  failureCategory and keyword rules), the log line of each failed round, explicit limits, and a history left
  as it was when a request is aborted at any stage. The model is a scripted double and the toolset a
  recording double.

  @AGT-031
  Scenario Outline: 只有表明工具用法错误的失败才计入连续失败
    Given 工具每次都返回错误，failureCategory 为 "<category>"，brief 为 "<brief>"，output 为 "<output>"
    And 3 轮工具调用之后模型直接回复 "换个办法完成了"
    When 执行 `runner.run(...)`
    Then run 应返回 "<result>"

    Examples:
      | category          | brief                                  | output                      | result                                         |
      | invalid_usage     | Bad flag                               |                             | Consecutive tool execution failures; stopping. |
      | command_not_found | Not found                              |                             | Consecutive tool execution failures; stopping. |
      | execution_error   | Usage: ls [path]                       |                             | 换个办法完成了                                 |
      |                   | Unknown tool: Grep                     |                             | Consecutive tool execution failures; stopping. |
      |                   |                                        | bash: rg: command not found | Consecutive tool execution failures; stopping. |
      |                   | Unknown command: /bogus                |                             | Consecutive tool execution failures; stopping. |
      |                   | USAGE: ls [path]                       |                             | Consecutive tool execution failures; stopping. |
      |                   | --limit requires a number argument     |                             | Consecutive tool execution failures; stopping. |
      |                   | --offset must be a non-negative number |                             | Consecutive tool execution failures; stopping. |
      |                   | Unexpected argument: --all             |                             | Consecutive tool execution failures; stopping. |
      |                   | Invalid parameters: path               |                             | Consecutive tool execution failures; stopping. |
      |                   | No such file or directory              |                             | 换个办法完成了                                 |
      | timeout           | Usage: ls [path]                       | bash: rg: command not found | 换个办法完成了                                 |

  @AGT-097
  Scenario Outline: 没有 failureCategory 的失败只按 brief 与 output 中的关键字判断，不看 message
    The original's keyword rule reads the brief and the output of an uncategorised failure
    (`${brief}\n${output}`), not its message: a tool whose error message merely quotes a usage line, while
    its brief and output say what went wrong, is an ordinary failure the model may correct by itself.
    Given 工具每次都返回没有 failureCategory 的错误，brief 为 "<brief>"，output 为 "<output>"，message 为 "<message>"
    And 3 轮工具调用之后模型直接回复 "换个办法完成了"
    When 执行 `runner.run(...)`
    Then run 应返回 "<result>"

    Examples:
      | brief              | output                      | message                                   | result                                         |
      | Read failed        |                             | Invalid parameters: see usage: read PATH  | 换个办法完成了                                 |
      | Read failed        | No such file: notes.md      | Usage: read PATH                          | 换个办法完成了                                 |
      | Read failed        | bash: rg: command not found | Read failed                               | Consecutive tool execution failures; stopping. |
      | Invalid parameters |                             | Read failed                               | Consecutive tool execution failures; stopping. |

  @AGT-032
  Scenario: 不计数的执行错误让连续失败重新计数
    Given 工具调用依次返回:
      | 轮次 | 结果     |
      | 1    | 失败     |
      | 2    | 执行错误 |
      | 3    | 失败     |
      | 4    | 失败     |
    And 第 5 轮模型直接回复 "修复完成"
    And `SYNAPSE_MAX_CONSECUTIVE_TOOL_FAILURES` 为 ""，阈值应为 3
    When 执行 `runner.run(...)`
    Then run 应返回 "修复完成"
    And 模型应被调用 5 次

  @AGT-033
  Scenario: 每轮工具失败记录警告，停止时记录错误
    Given 工具调用依次返回:
      | 轮次 | 结果           |
      | 1    | 失败与执行错误 |
      | 2    | 失败           |
      | 3    | 失败           |
    And `SYNAPSE_MAX_CONSECUTIVE_TOOL_FAILURES` 为 ""，阈值应为 3
    When 执行 `runner.run(...)`
    Then 应返回 `Consecutive tool execution failures; stopping.`
    And `synapse.*` 日志应依次记录这些工具失败警告:
      | message                                                |
      | Tool execution failed (counted: 1/2, consecutive: 1/3) |
      | Tool execution failed (counted: 1/1, consecutive: 2/3) |
      | Tool execution failed (counted: 1/1, consecutive: 3/3) |
    And `synapse.*` 日志应在最后一条警告之后记录 1 条停止的错误

  @AGT-034
  Scenario Outline: 创建 runner 时给出的上限优先于环境变量
    Given `<name>` 为 "50"，上限应为 2
    And runner 创建时指定<limit>为 2
    And 工具连续失败 5 轮之后模型直接回复 "不应到达这里"
    When 执行 `runner.run(...)`
    Then run 应返回 "<result>"
    And 模型应被调用 2 次

    Examples:
      | name                                  | limit        | result                                                                       |
      | SYNAPSE_MAX_TOOL_ITERATIONS           | 工具迭代上限 | Reached tool iteration limit (2); stopping.\\nUse --help to see command usage. |
      | SYNAPSE_MAX_CONSECUTIVE_TOOL_FAILURES | 连续失败阈值 | Consecutive tool execution failures; stopping.                               |

  @AGT-035
  Scenario: 已中断的请求不加载 Stop Hook
    Given `stopHookExecutor.shouldExecute()` 为 true
    And 调用 `runner.run(userMessage, { signal })` 且 signal 已 abort
    And runner 恢复的会话中已有 2 条历史消息
    When 进入执行流程
    Then 应立即抛出中断相关错误
    And 不应加载 Stop Hook

  @AGT-036
  Scenario: 加载 Stop Hook 时被中断的请求不追加用户消息
    Given `stopHookExecutor.shouldExecute()` 为 true
    And 加载 Stop Hook 时用户中断了本次请求
    And runner 恢复的会话中已有 2 条历史消息
    When 进入执行流程
    Then 应立即抛出中断相关错误
    And 不应追加新一轮消息到历史

  @AGT-037
  Scenario Outline: 工具执行期间被中断时不再执行后续工具，也不保留这一轮
    Given runner 恢复的会话中已有 2 条历史消息
    And 模型首轮调用 <count> 个 Bash 命令，第一个命令执行时用户中断了请求
    When 进入执行流程
    Then 应抛出中断相关错误，工具只执行了 1 次
    And 历史与会话文件只应多出本次的用户消息

    Examples:
      | count |
      | 1     |
      | 2     |

  @AGT-038 @live-settings
  Scenario: 压缩摘要期间被中断时不再请求模型作答
    Given runner 恢复的会话中有一轮超长的工具结果和 6 条较长的历史消息
    And 上下文设置为:
      | SYNAPSE_OFFLOAD_THRESHOLD | SYNAPSE_COMPACT_TRIGGER_THRESHOLD | SYNAPSE_COMPACT_PRESERVE_COUNT |
      | 2000                      | 100000                            | 2                              |
    And 压缩模型生成摘要时用户中断了本次请求
    When 进入执行流程
    Then 应抛出中断相关错误，模型只为摘要被调用了 1 次

  @AGT-095
  Scenario: 达到连续失败上限的那一轮里有命令被沙箱拦截时，先请求权限而不是停止
    The original raises the permission request as soon as a round has a blocked command, before it
    counts the round's failures: a round that is the third in a row with a misused tool but also hits the
    sandbox asks the user, and the blocked command is not lost to the consecutive-failure stop.
    Given 工具调用依次返回:
      | 轮次 | 结果           |
      | 1    | 失败           |
      | 2    | 失败           |
      | 3    | 失败与沙箱拦截 |
    And `SYNAPSE_MAX_CONSECUTIVE_TOOL_FAILURES` 为 ""，阈值应为 3
    When 调用 `runner.step("修复构建")`
    Then 返回状态应为 `requires_permission`
    And permission 的资源、原因与命令应为:
      | resource      | reason         | command    |
      | ~/.ssh/id_rsa | deny file-read | ls --bogus |
    And 模型应被调用 3 次

  @AGT-098
  Scenario: 成功的工具调用输出用法说明时，连续失败照样重新计数
    Only failed results are read for the usage hints (the original filters returnValue.isError before it
    looks at a result's brief and output): a call that succeeds and prints a usage text, such as the
    `--help` the Bash tool's hint asks for after a failure, ends the streak like any other success.
    Given 工具调用依次返回:
      | 轮次 | 结果               |
      | 1    | 失败               |
      | 2    | 失败               |
      | 3    | 成功且输出用法说明 |
      | 4    | 失败               |
      | 5    | 失败               |
    And 第 6 轮模型直接回复 "修复完成"
    And `SYNAPSE_MAX_CONSECUTIVE_TOOL_FAILURES` 为 ""，阈值应为 3
    When 执行 `runner.run(...)`
    Then run 应返回 "修复完成"
    And 模型应被调用 6 次

  @AGT-099
  Scenario: 连续失败的计数不跨请求：上一个请求留下的失败不算进下一个请求
    Every request starts its count of consecutive failures at 0 (the original keeps it in the request's
    loop, not on the runner): a request that the model finished after two failed rounds leaves nothing
    behind, and the next request may fail twice in a row as well before the model answers.
    Given 工具调用依次返回:
      | 轮次 | 结果 |
      | 1    | 失败 |
      | 2    | 失败 |
    And 第 3 轮模型直接回复 "先到这里"
    And 工具调用依次返回:
      | 轮次 | 结果 |
      | 1    | 失败 |
      | 2    | 失败 |
    And 第 6 轮模型直接回复 "修复完成"
    And `SYNAPSE_MAX_CONSECUTIVE_TOOL_FAILURES` 为 ""，阈值应为 3
    When 连续执行两次 `runner.run(...)`
    Then 两次 run 应依次返回 "先到这里" 与 "修复完成"
    And 模型应被调用 6 次

  @AGT-103
  Scenario: 创建 runner 时指定的工具迭代上限为 0 时不调用模型，环境变量不替代它
    A limit given when the runner is created is taken as given, 0 included (the original's
    `options.maxIterations ?? default`): a runner made with no iterations stops at once with the limit
    message and never asks the model; the environment only fills in a limit that was not given.
    Given `SYNAPSE_MAX_TOOL_ITERATIONS` 为 "50"，上限应为 0
    And runner 创建时指定工具迭代上限为 0
    And 工具连续失败 5 轮之后模型直接回复 "不应到达这里"
    When 执行 `runner.run(...)`
    Then run 应返回 "Reached tool iteration limit (0); stopping.\nUse --help to see command usage."
    And 模型应被调用 0 次
    And 停止提示应作为最后一条 assistant 消息留在历史中

  @AGT-104
  Scenario Outline: failureCategory 为空字符串时仍是一个类别：失败不计入连续失败，也不再按关键字判断
    The original tells a categorised failure by the type of its category (`typeof category === 'string'`):
    an empty category is a category, and not a countable one, so the keywords of the brief and the output
    are not read (as for `timeout` in AGT-031). A loop that tests the category for truthiness
    (`if (category)`) would judge these failures by their keywords and stop after the third round.
    Given 工具每次都返回错误，failureCategory 为空字符串 ""，brief 为 "<brief>"，output 为 "<output>"
    And 3 轮工具调用之后模型直接回复 "换个办法完成了"
    When 执行 `runner.run(...)`
    Then run 应返回 "换个办法完成了"

    Examples:
      | brief              | output                      |
      | Usage: ls [path]   |                             |
      |                    | bash: rg: command not found |
      | Invalid parameters | unexpected argument: --all  |

  @AGT-111
  Scenario: 工具迭代达到上限而停止时记录一条说明达到上限的错误日志
    As the original does (`logger.error` with the stop text), the stop at the iteration limit is an error
    in the implementation's log, so whoever reads the log sees why the answer stopped short.
    Given 运行过程中持续存在工具调用且超过 `maxIterations`
    And `SYNAPSE_MAX_TOOL_ITERATIONS` 为 "2"，上限应为 2
    When 执行 `runner.run(...)`
    Then 应返回 `Reached tool iteration limit` 提示
    And `synapse.*` 日志应记录 1 条说明达到工具迭代上限的错误
