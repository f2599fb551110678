@agent @seed-001 @beyond-seed
Feature: 清洗后的历史对任意输入都符合工具协议
  Whatever a resumed history holds, the sanitized one is accepted by a provider: every kept tool call has a
  non-empty string id unique in the history and strict-JSON object arguments (no NaN, Infinity or numbers
  past the float range), each call is answered exactly once right after its assistant message, no tool
  result is an orphan, and no entry or field of the wrong type makes sanitizing raise.

  恢复的会话文件可能被手工编辑、被旧版本写坏或被中断在任意位置，`sanitizeToolProtocolHistory` 的结果
  仍必须是上游模型接受的历史：每个保留的工具调用都是对象，`id` 是非空字符串且在整个历史中唯一，
  `arguments` 是严格 JSON 对象（不含 `NaN`、`Infinity`，也不含超出浮点范围的数）；每个调用在其 assistant 消息之后紧接着恰好有
  一条 tool 结果，不存在不回答任何调用的 tool 消息。任何条目或字段的类型都不应让清洗抛出异常。
  「执行 sanitizer」同时检查独立的函数与恢复该历史的 AgentRunner；「坏的一轮」指下表中的 assistant
  消息及其后的 tool 消息，它们都应被整段移除；`<[ 重复 100000 次>` 表示把该字符连写那么多次。

  @AGT-049
  Scenario Outline: 工具调用的 id 或 arguments 不合规时整轮被移除
    Given 历史中坏的一轮 assistant 的 toolCalls 为 `<toolCalls>`
    And 坏的一轮之后的 tool 消息依次回答 `<answers>`
    When 执行 sanitizer
    Then 对应 assistant/tool 序列应被移除
    And 发给模型的每一次请求都应符合严格的工具协议

    Examples:
      | 情形                     | toolCalls                                                                                                                  | answers          |
      | 同一轮内 id 重复         | [{"id": "dup", "name": "Bash", "arguments": "{}"}, {"id": "dup", "name": "Bash", "arguments": "{\"command\":\"pwd\"}"}] | ["dup"]          |
      | 缺少 id，结果回答 "None" | [{"name": "Bash", "arguments": "{}"}]                                                                                      | ["None"]         |
      | 整数 id 1，结果回答 "1"  | [{"id": 1, "name": "Bash", "arguments": "{}"}]                                                                             | ["1"]            |
      | 空字符串 id              | [{"id": "", "name": "Bash", "arguments": "{}"}]                                                                            | [""]             |
      | arguments 含 NaN         | [{"id": "nan-call", "name": "Bash", "arguments": "{\"x\": NaN}"}]                                                         | ["nan-call"]     |
      | arguments 含 -Infinity   | [{"id": "inf-call", "name": "Bash", "arguments": "{\"x\": [1, -Infinity]}"}]                                              | ["inf-call"]     |
      | arguments 嵌套极深       | [{"id": "deep-call", "name": "Bash", "arguments": "{\"x\": <[ 重复 100000 次><] 重复 100000 次>}"}]                     | ["deep-call"]    |
      | 与更早一轮的 id 相同     | [{"id": "good-call-1", "name": "Bash", "arguments": "{}"}]                                                                 | ["good-call-1"]  |
      | 多个调用之一与更早一轮的 id 相同 | [{"id": "fresh-call", "name": "Bash", "arguments": "{}"}, {"id": "good-call-1", "name": "Read", "arguments": "{}"}]      | ["fresh-call", "good-call-1"] |
      | arguments 的数超出浮点范围 | [{"id": "huge-call", "name": "Bash", "arguments": "{\"x\": 1e999}"}]                                                    | ["huge-call"]    |

  @AGT-050
  Scenario: 非消息条目与类型错误的字段既不让清洗抛错，也不会留在结果中
    Given 待清洗的历史为:
      """json
      [
        {"role": "user", "content": [{"type": "text", "text": "开始"}]},
        42,
        "一段文本",
        null,
        [{"role": "user"}],
        {"role": "assistant", "content": [], "toolCalls": 5},
        {"role": "assistant", "content": [], "toolCalls": "Bash"},
        {"role": "assistant", "content": [], "toolCalls": {"id": "x"}},
        {"role": "assistant", "content": [], "toolCalls": [7]},
        {"role": "assistant", "content": [], "toolCalls": [{"id": {"v": 1}, "name": "Bash", "arguments": "{}"}]},
        {"role": "assistant", "content": [], "toolCalls": [{"id": "ok-call", "name": "Bash", "arguments": {"command": "ls"}}]},
        {"role": "tool", "content": [], "toolCallId": "ok-call"},
        {"role": "tool", "content": [], "toolCallId": ["ok-call"]},
        {"role": "tool", "content": [], "toolCallId": null},
        {"role": "assistant", "content": [{"type": "text", "text": "完成"}]},
        {"role": "user", "content": [{"type": "text", "text": "继续"}]}
      ]
      """
    When 直接执行 `sanitizeToolProtocolHistory(messages)`
    Then 清洗不应抛出异常
    And 清洗结果应恰好为原历史的第 `1,15,16` 条，且报告历史已改变
    And 清洗结果应符合严格的工具协议

  @AGT-051
  Scenario: 对任意 JSON 组成的历史，清洗结果都符合工具协议且只删除不改写
    Given 随机生成的历史：条目可以是任意 JSON，消息的 id、arguments 与角色取自已知会出错的值
    When 对每个历史执行 `sanitizeToolProtocolHistory(messages)`
    Then 每个结果都应符合严格的工具协议
    And 每个结果都只是原历史删去若干条目，user 消息一条不少
    And 对结果再清洗一次应不再改变，`changed` 恰好在删去条目时为真
