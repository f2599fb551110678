@context @seed-001 @beyond-seed
Feature: Context offload 的边界按字符与向下取整计算
  The scanned part of the history is the first `floor(len * scanRatio)` messages: with a length that is
  not a whole multiple, the message in the middle is not scanned (rounding would scan it). `minChars`
  counts characters, so a CJK or emoji tool result no longer than `minChars` characters stays inline
  although its UTF-8 bytes or UTF-16 units exceed it. Tokens count the text `JSON.stringify` writes, which
  leaves `<`, `>`, `&` and U+2028 unescaped.

  Background:
    Given 一个每字符计 1 token 的计数器与一个空的会话 offload 目录

  @CTX-055
  Scenario: 仅扫描前 `scanRatio` 区间消息 — 消息数乘以比例不是整数时向下取整
    Given `scanRatio=0.5` 且前后半区都存在 tool 消息
      | role      | text | repeat |
      | user      | 开始   | 1      |
      | tool      | a    | 120    |
      | assistant | 读取 b | 1      |
      | user      | 继续   | 1      |
      | tool      | b    | 120    |
      | assistant | 读取 c | 1      |
      | tool      | c    | 120    |
      | user      | 继续   | 1      |
      | assistant | 好的   | 1      |
    And 当前 token 超过 offload 阈值
    When 调用 `offloadIfNeeded(messages)`
    Then 仅前半区满足条件的 tool 消息会被 offload
    And 结果的 token 统计应与消息一致

  @CTX-056
  Scenario Outline: 短 tool 输出不应卸载 — 按字符计数的中文与 emoji
    Given ContextManager 参数为 `scanRatio=1` 与 `minChars=50`
    And 历史消息为:
      | role | text   | repeat |
      | tool | L      | 120    |
      | tool | <文本> | <重复> |
      | user | 继续     | 1      |
    And tool 文本长度小于等于 `minChars`
    And 当前 token 超过 offload 阈值
    When 调用 `offloadIfNeeded(messages)`
    Then 该消息应保持原样
    And `offloadedCount` 不增加

    Examples:
      | 文本 | 重复 |
      | 短   | 50 |
      | 🚀   | 50 |
      | 日志🧪 | 16 |

  @CTX-105
  Scenario: token 按原实现 JSON.stringify 写出的文本计数：`<`、`>`、`&` 与 U+2028 不转义
    A message counts as the text `JSON.stringify` writes, which keeps `<`, `>`, `&` and the line separator
    U+2028 as they are; an encoder that makes JSON safe inside HTML writes `\u003c` for `<` and counts six
    characters for one. Shell commands and their output are full of `&&`, `2>&1` and `< input`: a history
    of them just under the threshold stays inline, and its token figures are those of its JSON text.
    Given ContextManager 参数为 `scanRatio=1` 与 `minChars=50`
    And 历史消息为:
      | role      | text                                                                     | repeat |
      | user      | 运行 make test && make lint 2>&1 < /dev/null                              | 1      |
      | assistant | 好的，我先运行测试                                                         | 1      |
      | tool      | <testsuite name="synapse" failures="0">&lt;ok&gt; & done{U+2028}</testsuite> | 3      |
      | user      | 继续                                                                     | 1      |
    And `ContextManager.offloadThreshold` 高于当前历史 token
    When 调用 `offloadIfNeeded(messages)`
    Then `offloadedCount` 应为 `0`
    And 返回消息应与输入一致
    And offload 目录中不应写入任何文件
    And 结果的 token 统计应与消息一致且 `stillExceedsThreshold` 为 `false`
