@context @beyond-seed
Feature: Context 压缩器默认参数、卸载环境变量与阈值边界
  Pins what the seeds leave open: the ContextCompactor's own defaults (keep 5 messages, `maxTokens`
  9600 for the 8000-token target, 3 attempts in total), the `SYNAPSE_OFFLOAD_SCAN_RATIO` and
  `SYNAPSE_COMPACT_RETRY_COUNT` variables with the orchestrator's defaults (threshold 150000, scan ratio
  0.5, minChars 50; the ratio is read like parseFloat, from the number at its start), and `stillExceedsThreshold` when the history sits exactly on the offload threshold.

  @CTX-026
  Scenario: 不传参数的 ContextCompactor 保留 5 条消息、maxTokens 为 9600 并共尝试 3 次
    Given 一个会话 offload 目录与脚本化模型 "main-model"，其总结前 `3` 次失败、之后回复 "## Current Status\n完成"
    And 历史消息为:
      | role      | text | repeat |
      | user      | 问题一  | 1      |
      | assistant | 回答一  | 1      |
      | user      | 问题二  | 1      |
      | assistant | 回答二  | 1      |
      | user      | 问题三  | 1      |
      | assistant | 回答三  | 1      |
      | user      | 问题四  | 1      |
      | assistant | 回答四  | 1      |
    When 用不传 `preserveCount`、`targetTokens`、`retryCount` 的 ContextCompactor 压缩两次
    Then 第一次压缩应在 `3` 次尝试后失败并保留原历史，每次请求的 `maxTokens` 为 `9600`
    And 第二次压缩应成功，结果为总结消息加最后 `5` 条原消息

  @CTX-027
  Scenario Outline: 编排器默认按 scanRatio 0.5、minChars 50 卸载并按 compactRetryCount 重试 — <来源>
    The ratio is read as parseFloat reads it and the count as parseInt does: ASCII digits only (a
    full-width ０.７ is no number, though Python's `float()` reads it), after JavaScript's white space
    (U+FEFF is, U+001C is not; {U+XXXX} is that code point).
    Given 与 context 相关的 SYNAPSE_* 环境变量为 `<环境>`
    And 一个每字符计 1 token 的计数器与一个空的会话 offload 目录
    And 一个总结请求总是失败的脚本化模型 "main-model"
    And 历史消息为:
      | role      | text | repeat | call |
      | user      | 开始   | 1      |      |
      | assistant | 读取   | 1      | c1   |
      | tool      | a    | 51     | c1   |
      | assistant | 再读   | 1      | c2   |
      | tool      | b    | 50     | c2   |
      | assistant | 继续读  | 1      | c3   |
      | tool      | c    | 51     | c3   |
      | user      | x    | 160000 |      |
      | assistant | 好的   | 1      |      |
      | user      | 继续   | 1      |      |
    When 用真实组件创建 `ContextOrchestrator` 并执行 `offloadIfNeeded(history, offloadDir)`
    Then 只有第 `<卸载>` 条消息应被卸载
    And 总结应共尝试 `<尝试>` 次且压缩失败后保留卸载后的消息

    Examples:
      | 来源      | 环境                                                             | 卸载  | 尝试 |
      | 默认值     | (未设置)                                                          | 3   | 3  |
      | 环境变量    | SYNAPSE_OFFLOAD_SCAN_RATIO=1 SYNAPSE_COMPACT_RETRY_COUNT=1      | 3,7 | 1  |
      | 非法值回退默认 | SYNAPSE_OFFLOAD_SCAN_RATIO=1.5 SYNAPSE_COMPACT_RETRY_COUNT=0    | 3   | 3  |
      | 零与非数字回退默认 | SYNAPSE_OFFLOAD_SCAN_RATIO=0 SYNAPSE_COMPACT_RETRY_COUNT=abc    | 3   | 3  |
      | 小数取整数前缀 | SYNAPSE_OFFLOAD_SCAN_RATIO=0.7 SYNAPSE_COMPACT_RETRY_COUNT=2.9  | 3,7 | 2  |
      | 文字比例与负数回退默认 | SYNAPSE_OFFLOAD_SCAN_RATIO=abc SYNAPSE_COMPACT_RETRY_COUNT=-1 | 3   | 3  |
      | 比例取开头的数字     | SYNAPSE_OFFLOAD_SCAN_RATIO=0.7abc SYNAPSE_COMPACT_RETRY_COUNT=2 | 3,7 | 2  |
      | 比例省略整数位的 0  | SYNAPSE_OFFLOAD_SCAN_RATIO=.7 SYNAPSE_COMPACT_RETRY_COUNT=2     | 3,7 | 2  |
      | 比例以指数写出      | SYNAPSE_OFFLOAD_SCAN_RATIO=7e-1 SYNAPSE_COMPACT_RETRY_COUNT=2   | 3,7 | 2  |
      | 全角数字不是数字     | SYNAPSE_OFFLOAD_SCAN_RATIO=０.７ SYNAPSE_COMPACT_RETRY_COUNT=２   | 3   | 3  |
      | U+001C 不是空白，U+FEFF 是 | SYNAPSE_OFFLOAD_SCAN_RATIO={U+001C}0.7 SYNAPSE_COMPACT_RETRY_COUNT={U+FEFF}2 | 3 | 2  |

  @CTX-028
  Scenario: 没有可卸载的消息且 token 恰好等于阈值时 stillExceedsThreshold 为 true
    Given 一个每字符计 1 token 的计数器与一个空的会话 offload 目录
    And ContextManager 参数为 `scanRatio=1` 与 `minChars=50`
    And 历史消息为:
      | role | text | repeat |
      | user | 请总结  | 1      |
      | tool | 短输出  | 1      |
      | user | 继续   | 1      |
    And offload 阈值恰好等于当前历史 token
    When 调用 `offloadIfNeeded(messages)`
    Then `offloadedCount` 应为 `0`
    And `stillExceedsThreshold` 应为 `true`

  @CTX-029
  Scenario Outline: 编排器默认的 offload 阈值为 150000 tokens — 历史 <tokens> tokens
    Given 与 context 相关的 SYNAPSE_* 环境变量为 `(未设置)`
    And 一个每字符计 1 token 的计数器与一个空的会话 offload 目录
    And 一个总结请求总是失败的脚本化模型 "main-model"
    And 历史消息为:
      | role      | text | repeat | call |
      | user      | 开始   | 1      |      |
      | assistant | 读取   | 1      | c1   |
      | tool      | a    | 60     | c1   |
      | user      | x    | 140000 |      |
      | assistant | 好的   | 1      |      |
      | user      | 继续   | 1      |      |
    And 调整第 `4` 条消息的长度使历史恰好为 `<tokens>` tokens
    When 用真实组件创建 `ContextOrchestrator` 并执行 `offloadIfNeeded(history, offloadDir)`
    Then <结果>

    Examples:
      | tokens | 结果              |
      | 149999 | 不应卸载任何消息        |
      | 150000 | 只有第 `3` 条消息应被卸载 |

  @CTX-100
  Scenario: 同一个编排器先后服务两个会话目录时，各自的卸载文件写进各自的目录
    The orchestrator builds its offload storage and compactor for the session directory it is given, and
    builds them again when another directory comes (a REPL that switches sessions keeps its orchestrator):
    one session's offloaded results never land in another session's directory.
    Given 与 context 相关的 SYNAPSE_* 环境变量为 `(未设置)`
    And 一个每字符计 1 token 的计数器与一个空的会话 offload 目录
    And 一个总结请求总是失败的脚本化模型 "main-model"
    And 历史消息为:
      | role      | text | repeat | call |
      | user      | 开始   | 1      |      |
      | assistant | 读取   | 1      | c1   |
      | tool      | a    | 51     | c1   |
      | user      | x    | 160000 |      |
      | assistant | 好的   | 1      |      |
      | user      | 继续   | 1      |      |
    When 用同一个真实组件创建的 `ContextOrchestrator` 先后为会话目录 `first` 与 `second` 执行 `offloadIfNeeded(history, offloadDir)`
    Then 会话目录 `first` 与 `second` 的 offloaded 目录中应各只有该目录那次结果所引用的文件
