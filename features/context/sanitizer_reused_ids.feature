@context @beyond-seed
Feature: 前面有条目被删除时，清洗仍按整个历史判断工具调用 id 是否重复
  A tool-call id must be unique in the whole history, not only within its round. A resumed history that
  needs a repair early on (a stray tool result as its first entry) is checked round by round from there:
  a round kept after that repair still claims its ids, so a later round reusing one of them, whether it
  has one call or several, is removed with its results, and the rounds that reuse nothing stay. A round
  that opens the history is answered only by the results right after it, not by one at the very end, and
  a tool result after a round whose calls all have their result is removed while the round stays.

  恢复的历史开头就需要修复（第一条是不回答任何调用的 tool 消息）时，其后的每一轮仍要与之前保留的所有轮
  比较 id：之后重复使用已保留一轮的 id 的一轮（单个调用或多个调用）连同其 tool 结果被移除，没有重复的轮保留。

  @CTX-066
  Scenario: 第一条就被删除的历史中，重复使用已保留一轮 id 的后续各轮被整轮移除
    Given 待清洗的历史为:
      """json
      [
        {"role": "tool", "content": [{"type": "text", "text": "上次中断留下的结果"}], "toolCallId": "ghost"},
        {"role": "user", "content": [{"type": "text", "text": "开始"}]},
        {"role": "assistant", "content": [], "toolCalls": [{"id": "call-a", "name": "Bash", "arguments": "{\"command\":\"ls\"}"}]},
        {"role": "tool", "content": [{"type": "text", "text": "a.txt"}], "toolCallId": "call-a"},
        {"role": "assistant", "content": [], "toolCalls": [{"id": "call-a", "name": "Bash", "arguments": "{}"}]},
        {"role": "tool", "content": [{"type": "text", "text": "重复 id 的结果"}], "toolCallId": "call-a"},
        {"role": "assistant", "content": [], "toolCalls": [{"id": "call-b", "name": "Bash", "arguments": "{}"}, {"id": "call-a", "name": "Read", "arguments": "{}"}]},
        {"role": "tool", "content": [], "toolCallId": "call-b"},
        {"role": "tool", "content": [], "toolCallId": "call-a"},
        {"role": "assistant", "content": [], "toolCalls": [{"id": "call-c", "name": "Bash", "arguments": "{}"}, {"id": "call-d", "name": "Read", "arguments": "{}"}]},
        {"role": "tool", "content": [{"type": "text", "text": "d"}], "toolCallId": "call-d"},
        {"role": "tool", "content": [{"type": "text", "text": "c"}], "toolCallId": "call-c"},
        {"role": "assistant", "content": [], "toolCalls": [{"id": "call-c", "name": "Bash", "arguments": "{}"}]},
        {"role": "tool", "content": [], "toolCallId": "call-c"},
        {"role": "assistant", "content": [{"type": "text", "text": "完成"}]},
        {"role": "user", "content": [{"type": "text", "text": "继续"}]}
      ]
      """
    When 直接执行 `sanitizeToolProtocolHistory(messages)`
    Then 清洗结果应恰好为原历史的第 `2,3,4,10,11,12,15,16` 条，且报告历史已改变
    And 清洗结果应符合严格的工具协议

  @CTX-070
  Scenario: 第一条是工具调用而其结果不在紧随其后而在历史末尾时，该轮与末尾的结果都被移除
    Given 待清洗的历史为:
      """json
      [
        {"role": "assistant", "content": [{"type": "text", "text": "先看看目录"}], "toolCalls": [{"id": "call-a", "name": "Bash", "arguments": "{\"command\":\"ls\"}"}]},
        {"role": "user", "content": [{"type": "text", "text": "继续"}]},
        {"role": "tool", "content": [{"type": "text", "text": "a.txt"}], "toolCallId": "call-a"}
      ]
      """
    When 直接执行 `sanitizeToolProtocolHistory(messages)`
    Then 清洗结果应恰好为原历史的第 `2` 条，且报告历史已改变
    And 清洗结果应符合严格的工具协议

  @CTX-071
  Scenario: 第一条是多个工具调用而紧随其后的不是它们的结果时，该轮与其后的结果都被移除
    Given 待清洗的历史为:
      """json
      [
        {"role": "assistant", "content": [], "toolCalls": [{"id": "call-a", "name": "Bash", "arguments": "{}"}, {"id": "call-b", "name": "Read", "arguments": "{}"}]},
        {"role": "user", "content": [{"type": "text", "text": "继续"}]},
        {"role": "tool", "content": [], "toolCallId": "call-a"},
        {"role": "tool", "content": [], "toolCallId": "call-b"}
      ]
      """
    When 直接执行 `sanitizeToolProtocolHistory(messages)`
    Then 清洗结果应恰好为原历史的第 `2` 条，且报告历史已改变
    And 清洗结果应符合严格的工具协议

  @CTX-072
  Scenario: 第一轮工具调用之后紧随的条目不是消息时，该轮与之后的结果都被移除
    Given 待清洗的历史为:
      """json
      [
        {"role": "user", "content": [{"type": "text", "text": "开始"}]},
        {"role": "assistant", "content": [], "toolCalls": [{"id": "call-a", "name": "Bash", "arguments": "{}"}]},
        "a.txt",
        {"role": "tool", "content": [], "toolCallId": "call-a"},
        {"role": "assistant", "content": [{"type": "text", "text": "完成"}]}
      ]
      """
    When 直接执行 `sanitizeToolProtocolHistory(messages)`
    Then 清洗结果应恰好为原历史的第 `1,5` 条，且报告历史已改变
    And 清洗结果应符合严格的工具协议

  @CTX-073
  Scenario: 删除第一条之后保留的多个调用一轮，其前面的消息只出现一次
    Given 待清洗的历史为:
      """json
      [
        {"role": "tool", "content": [], "toolCallId": "ghost"},
        {"role": "user", "content": [{"type": "text", "text": "开始"}]},
        {"role": "assistant", "content": [], "toolCalls": [{"id": "call-a", "name": "Bash", "arguments": "{}"}, {"id": "call-b", "name": "Read", "arguments": "{}"}]},
        {"role": "tool", "content": [], "toolCallId": "call-a"},
        {"role": "tool", "content": [], "toolCallId": "call-b"},
        {"role": "assistant", "content": [{"type": "text", "text": "完成"}]}
      ]
      """
    When 直接执行 `sanitizeToolProtocolHistory(messages)`
    Then 清洗结果应恰好为原历史的第 `2,3,4,5,6` 条，且报告历史已改变
    And 清洗结果应符合严格的工具协议

  @CTX-074
  Scenario: 第一轮单个工具调用之后是带 toolCallId 的 user 消息时，该轮被移除而 user 消息保留
    Given 待清洗的历史为:
      """json
      [
        {"role": "user", "content": [{"type": "text", "text": "开始"}]},
        {"role": "assistant", "content": [], "toolCalls": [{"id": "call-a", "name": "Bash", "arguments": "{}"}]},
        {"role": "user", "content": [{"type": "text", "text": "a.txt"}], "toolCallId": "call-a"},
        {"role": "assistant", "content": [{"type": "text", "text": "完成"}]}
      ]
      """
    When 直接执行 `sanitizeToolProtocolHistory(messages)`
    Then 清洗结果应恰好为原历史的第 `1,3,4` 条，且报告历史已改变
    And 清洗结果应符合严格的工具协议

  @CTX-075
  Scenario Outline: 删除第一条之后，一轮的结果已齐时其后多出的 tool 结果被移除而该轮保留 — <情形>
    A round is complete once each of its calls has its one result; a further tool message after it answers
    nothing (an unknown id) or answers a call a second time, and is removed on its own like any stray result.
    Given 待清洗的历史为:
      """json
      [
        {"role": "tool", "content": [], "toolCallId": "ghost"},
        {"role": "user", "content": [{"type": "text", "text": "开始"}]},
        {"role": "assistant", "content": [], "toolCalls": [{"id": "call-a", "name": "Bash", "arguments": "{}"}, {"id": "call-b", "name": "Read", "arguments": "{}"}]},
        {"role": "tool", "content": [], "toolCallId": "call-b"},
        {"role": "tool", "content": [], "toolCallId": "call-a"},
        {"role": "tool", "content": [], "toolCallId": "<多出的 id>"},
        {"role": "assistant", "content": [{"type": "text", "text": "完成"}]}
      ]
      """
    When 直接执行 `sanitizeToolProtocolHistory(messages)`
    Then 清洗结果应恰好为原历史的第 `2,3,4,5,7` 条，且报告历史已改变
    And 清洗结果应符合严格的工具协议

    Examples:
      | 情形             | 多出的 id |
      | 不回答任何调用   | call-z    |
      | 再次回答一个调用 | call-a    |

  @CTX-077
  Scenario: 无需修复的开头里，多个调用的一轮之后重复使用其 id 的单个调用一轮被整轮移除
    A history that starts without anything to repair is checked in one pass; a round of one call reusing
    an id of an earlier round of several calls ends that pass and is removed with its result, as it would
    be anywhere else in the history.
    Given 待清洗的历史为:
      """json
      [
        {"role": "user", "content": [{"type": "text", "text": "开始"}]},
        {"role": "assistant", "content": [], "toolCalls": [{"id": "call-a", "name": "Bash", "arguments": "{}"}, {"id": "call-b", "name": "Read", "arguments": "{}"}]},
        {"role": "tool", "content": [], "toolCallId": "call-a"},
        {"role": "tool", "content": [], "toolCallId": "call-b"},
        {"role": "assistant", "content": [], "toolCalls": [{"id": "call-b", "name": "Bash", "arguments": "{\"command\":\"ls\"}"}]},
        {"role": "tool", "content": [{"type": "text", "text": "重复 id 的结果"}], "toolCallId": "call-b"},
        {"role": "assistant", "content": [], "toolCalls": [{"id": "call-c", "name": "Bash", "arguments": "{}"}]},
        {"role": "tool", "content": [], "toolCallId": "call-c"},
        {"role": "assistant", "content": [{"type": "text", "text": "完成"}]}
      ]
      """
    When 直接执行 `sanitizeToolProtocolHistory(messages)`
    Then 清洗结果应恰好为原历史的第 `1,2,3,4,7,8,9` 条，且报告历史已改变
    And 清洗结果应符合严格的工具协议

  @CTX-082
  Scenario: 工具调用 id 区分大小写：只差大小写的结果不回答该调用，只差大小写的两个 id 是两个不同的 id
    Providers match a result to its call by the exact id, so `CALL_1` does not answer `call_1` (that round is
    removed with the stray result), and `call-x` and `CALL-X` in one round are two ids, each answered by its
    own result (that round stays).
    Given 待清洗的历史为:
      """json
      [
        {"role": "user", "content": [{"type": "text", "text": "开始"}]},
        {"role": "assistant", "content": [], "toolCalls": [{"id": "call_1", "name": "Bash", "arguments": "{\"command\":\"ls\"}"}]},
        {"role": "tool", "content": [{"type": "text", "text": "a.txt"}], "toolCallId": "CALL_1"},
        {"role": "assistant", "content": [], "toolCalls": [{"id": "call-x", "name": "Bash", "arguments": "{}"}, {"id": "CALL-X", "name": "Bash", "arguments": "{}"}]},
        {"role": "tool", "content": [{"type": "text", "text": "x"}], "toolCallId": "call-x"},
        {"role": "tool", "content": [{"type": "text", "text": "X"}], "toolCallId": "CALL-X"},
        {"role": "assistant", "content": [{"type": "text", "text": "完成"}]}
      ]
      """
    When 直接执行 `sanitizeToolProtocolHistory(messages)`
    Then 清洗结果应恰好为原历史的第 `1,4,5,6,7` 条，且报告历史已改变
    And 清洗结果应符合严格的工具协议
