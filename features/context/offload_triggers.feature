@context @seed-001
Feature: Context offload 触发规则
  Once the history reaches the token threshold, long `tool` results in the older part of the history are
  written to files under `<session dir>/offloaded/` and replaced by `Tool result is at: <path>`.
  Tokens are counted with an exact counter of one token per character of each message's compact JSON
  text, so every threshold below is exact.

  Background:
    Given 一个每字符计 1 token 的计数器与一个空的会话 offload 目录

  @CTX-001
  Scenario: token 低于阈值时不执行卸载
    Given ContextManager 参数为 `scanRatio=1` 与 `minChars=50`
    And 历史消息为:
      | role      | text    | repeat |
      | user      | 请检查构建日志 | 1      |
      | assistant | 正在读取日志  | 1      |
      | tool      | x       | 200    |
    And `ContextManager.offloadThreshold` 高于当前历史 token
    When 调用 `offloadIfNeeded(messages)`
    Then `offloadedCount` 应为 `0`
    And 返回消息应与输入一致
    And offload 目录中不应写入任何文件
    And 结果的 token 统计应与消息一致且 `stillExceedsThreshold` 为 `false`

  @CTX-002
  Scenario Outline: token 达到阈值时替换 tool 内容为路径引用
    Given ContextManager 参数为 `scanRatio=1` 与 `minChars=50`
    And 历史中包含超长 `tool` 消息文本
      | role      | text    | repeat |
      | user      | trigger | 1      |
      | assistant | 调用工具    | 1      |
      | tool      | x       | 200    |
      | assistant | 完成      | 1      |
    And <阈值设定>
    When 调用 `offloadIfNeeded(messages)`
    Then 目标 tool 消息应被替换为 `Tool result is at: <path>`
    And `offloadedCount` 应为 `1`
    And 其余消息应保持原样
    And 结果的 token 统计应与消息一致

    Examples:
      | 情形     | 阈值设定                  |
      | 超过阈值   | 当前 token 超过 offload 阈值   |
      | 恰好等于阈值 | offload 阈值恰好等于当前历史 token |

  @CTX-003
  Scenario: 仅扫描前 `scanRatio` 区间消息
    Given `scanRatio=0.5` 且前后半区都存在 tool 消息
      | role      | text  | repeat |
      | user      | 开始    | 1      |
      | assistant | 读取 a  | 1      |
      | tool      | a     | 120    |
      | assistant | 读取 ok | 1      |
      | tool      | ok    | 1      |
      | tool      | c     | 120    |
      | assistant | 读取 b  | 1      |
      | tool      | b     | 120    |
      | user      | 继续    | 1      |
      | assistant | 好的    | 1      |
    And 当前 token 超过 offload 阈值
    When 调用 `offloadIfNeeded(messages)`
    Then 仅前半区满足条件的 tool 消息会被 offload
    And 结果的 token 统计应与消息一致

  @CTX-004
  Scenario Outline: 短 tool 输出不应卸载
    Given ContextManager 参数为 `scanRatio=1` 与 `minChars=50`
    And 历史消息为:
      | role | text | repeat |
      | tool | L    | 120    |
      | tool | s    | <长度>   |
      | user | 继续   | 1      |
    And tool 文本长度小于等于 `minChars`
    And 当前 token 超过 offload 阈值
    When 调用 `offloadIfNeeded(messages)`
    Then 该消息应保持原样
    And `offloadedCount` 不增加

    Examples:
      | 长度 |
      | 5  |
      | 50 |

  @CTX-005
  Scenario: 已经是路径引用的 tool 消息不重复卸载
    Given ContextManager 参数为 `scanRatio=1` 与 `minChars=50`
    And 历史消息为:
      | role      | text                                                                   | repeat |
      | user      | 继续分析                                                                   | 1      |
      | tool      | Tool result is at: {offloaded}/3f2a9c1e-0d4b-4c55-9e61-7a8b9c0d1e2f.txt | 1      |
      | assistant | 已读取                                                                    | 1      |
    And tool 消息内容以 `Tool result is at:` 开头
    And 当前 token 超过 offload 阈值
    When 调用 `offloadIfNeeded(messages)`
    Then 该消息应保持不变
    And `offloadedCount` 应为 `0`
    And offload 目录中不应写入任何文件

  @CTX-006
  Scenario: 卸载后仍超阈值时设置标记
    Given ContextManager 参数为 `scanRatio=1` 与 `minChars=50`
    And 历史消息为:
      | role | text | repeat |
      | tool | y    | 200    |
      | user | x    | 500    |
      | user | 继续   | 1      |
    And offload 阈值为 `300`
    And offload 完成后 token 仍高于阈值
    When `offloadIfNeeded(messages)` 返回结果
    Then `stillExceedsThreshold` 应为 `true`
    And `offloadedCount` 应为 `1`
    And 结果的 token 统计应与消息一致

  @CTX-081 @beyond-seed
  Scenario: 以空白开头的路径引用也不重复卸载
    A reference is recognised after the whitespace at its start (the original tests
    content.trimStart().startsWith("Tool result is at:")), as the compaction that restores it does; `\n` in
    the table is a line break.
    Given ContextManager 参数为 `scanRatio=1` 与 `minChars=50`
    And 历史消息为:
      | role      | text                                                                         | repeat |
      | user      | 继续分析                                                                         | 1      |
      | tool      | \n  Tool result is at: {offloaded}/3f2a9c1e-0d4b-4c55-9e61-7a8b9c0d1e2f.txt | 1      |
      | assistant | 已读取                                                                          | 1      |
    And tool 消息内容以空白开头，其后以 `Tool result is at:` 开头
    And 当前 token 超过 offload 阈值
    When 调用 `offloadIfNeeded(messages)`
    Then 该消息应保持不变
    And `offloadedCount` 应为 `0`
    And offload 目录中不应写入任何文件

  @CTX-109 @beyond-seed
  Scenario Outline: 路径引用前的空白按 JavaScript 的 trimStart() 判断 — <情形>
    The original tests content.trimStart().startsWith("Tool result is at:"), and trimStart() removes
    JavaScript's white space: a byte-order mark (U+FEFF) in front of a reference is white space, so the
    reference stays as it is; U+001C is not, so a long output that starts with it is no reference and is
    offloaded like any other. The compaction that restores references reads them the same way.
    Given ContextManager 参数为 `scanRatio=1` 与 `minChars=50`
    And 历史消息为:
      | role      | text                                                                           | repeat |
      | user      | 继续分析                                                                           | 1      |
      | tool      | <前缀>Tool result is at: {offloaded}/3f2a9c1e-0d4b-4c55-9e61-7a8b9c0d1e2f.txt | 1      |
      | assistant | 已读取                                                                            | 1      |
    And 当前 token 超过 offload 阈值
    When 调用 `offloadIfNeeded(messages)`
    Then `offloadedCount` 应为 `<数量>`
    And 结果的 token 统计应与消息一致

    Examples:
      | 情形                                   | 前缀     | 数量 |
      | 字节序标记是空白，其后仍是路径引用       | {U+FEFF} | 0    |
      | U+001C 不是空白，以它开头的输出不是路径引用 | {U+001C} | 1    |
