@context @beyond-seed
Feature: 合规的历史之后第一处需要修复的条目，无论是哪种问题都被按规则移除
  A resumed history is usually valid up to some point; the first entry that breaks the tool protocol after
  a valid start must be removed exactly as anywhere else, whatever breaks it: tool calls that are no list,
  a call that is no mapping or whose name is no string, a result that answers another id, answers a call
  twice, is no mapping or has no string id, a round cut off at the end of the history, or a stray result
  as the very last entry. Entries 1-4 are a user request, a valid one-call round with its result and the
  assistant's answer; the table gives what follows them and which entries the sanitized history keeps.
  An id only has to be unique among the rounds kept: the id of a removed round is free for a later
  round. The same holds when the first round of the history is the one to remove, for an id that is no
  string or is empty (even when its result answers that very id), for a name that is no string
  and for arguments that are JSON text of something other than an object, or no text at all.

  合规历史（第 1-4 条：用户请求、一轮合规的单个工具调用及其结果、助手回答）之后接上的第一处问题条目，
  不论是哪种问题，都应按与其它位置相同的规则移除；表中给出接上的条目与清洗后保留的条目序号。

  @CTX-067
  Scenario Outline: 合规历史之后的第一处问题条目按规则移除 — <情形>
    Given 待清洗的历史为合规的一轮工具调用之后依次接上 `<条目>`
    When 直接执行 `sanitizeToolProtocolHistory(messages)`
    Then 清洗结果应恰好为原历史的第 `<保留>` 条，且报告历史已改变
    And 清洗结果应符合严格的工具协议

    Examples:
      | 情形                       | 条目                                                                                                                                                                                                                                 | 保留          |
      | toolCalls 为 0             | [{"role": "assistant", "content": [{"type": "text", "text": "运行"}], "toolCalls": 0}, {"role": "user", "content": []}]                                                                                                           | 1,2,3,4,6     |
      | toolCalls 为空对象          | [{"role": "assistant", "content": [{"type": "text", "text": "运行"}], "toolCalls": {}}, {"role": "user", "content": []}]                                                                                                          | 1,2,3,4,6     |
      | toolCalls 为空数组且其后有 tool 消息 | [{"role": "assistant", "content": [], "toolCalls": []}, {"role": "tool", "content": [], "toolCallId": "good-1"}, {"role": "user", "content": []}]                                                                                 | 1,2,3,4,5,7   |
      | 单个调用不是对象             | [{"role": "assistant", "content": [], "toolCalls": ["c-2"]}, {"role": "tool", "content": [], "toolCallId": "c-2"}, {"role": "user", "content": []}]                                                                              | 1,2,3,4,7     |
      | 单个调用的 name 不是字符串     | [{"role": "assistant", "content": [], "toolCalls": [{"id": "c-2", "name": 5, "arguments": "{}"}]}, {"role": "tool", "content": [], "toolCallId": "c-2"}, {"role": "user", "content": []}]                                        | 1,2,3,4,7     |
      | 单个调用的结果回答另一个 id    | [{"role": "assistant", "content": [], "toolCalls": [{"id": "c-2", "name": "Bash", "arguments": "{}"}]}, {"role": "tool", "content": [], "toolCallId": "c-3"}, {"role": "user", "content": []}]                                  | 1,2,3,4,7     |
      | 单个调用的结果不是对象         | [{"role": "assistant", "content": [], "toolCalls": [{"id": "c-2", "name": "Bash", "arguments": "{}"}]}, "c-2", {"role": "user", "content": []}]                                                                                  | 1,2,3,4,7     |
      | 单个调用在历史末尾没有结果      | [{"role": "assistant", "content": [], "toolCalls": [{"id": "c-2", "name": "Bash", "arguments": "{}"}]}]                                                                                                                           | 1,2,3,4       |
      | 多个调用之一不是对象           | [{"role": "assistant", "content": [], "toolCalls": [{"id": "c-2", "name": "Bash", "arguments": "{}"}, null]}, {"role": "tool", "content": [], "toolCallId": "c-2"}, {"role": "tool", "content": [], "toolCallId": "c-3"}, {"role": "user", "content": []}] | 1,2,3,4,8     |
      | 多个调用之一的 name 不是字符串   | [{"role": "assistant", "content": [], "toolCalls": [{"id": "c-2", "name": "Bash", "arguments": "{}"}, {"id": "c-3", "name": null, "arguments": "{}"}]}, {"role": "tool", "content": [], "toolCallId": "c-2"}, {"role": "tool", "content": [], "toolCallId": "c-3"}, {"role": "user", "content": []}] | 1,2,3,4,8     |
      | 多个调用之一的 id 为空         | [{"role": "assistant", "content": [], "toolCalls": [{"id": "c-2", "name": "Bash", "arguments": "{}"}, {"id": "", "name": "Read", "arguments": "{}"}]}, {"role": "tool", "content": [], "toolCallId": "c-2"}, {"role": "tool", "content": [], "toolCallId": ""}, {"role": "user", "content": []}] | 1,2,3,4,8     |
      | 多个调用之一的 arguments 不是对象 | [{"role": "assistant", "content": [], "toolCalls": [{"id": "c-2", "name": "Bash", "arguments": "{}"}, {"id": "c-3", "name": "Read", "arguments": "[]"}]}, {"role": "tool", "content": [], "toolCallId": "c-2"}, {"role": "tool", "content": [], "toolCallId": "c-3"}, {"role": "user", "content": []}] | 1,2,3,4,8     |
      | 多个调用的结果重复回答同一个 id   | [{"role": "assistant", "content": [], "toolCalls": [{"id": "c-2", "name": "Bash", "arguments": "{}"}, {"id": "c-3", "name": "Read", "arguments": "{}"}]}, {"role": "tool", "content": [], "toolCallId": "c-2"}, {"role": "tool", "content": [], "toolCallId": "c-2"}, {"role": "user", "content": []}] | 1,2,3,4,8     |
      | 多个调用的结果都回答别的 id     | [{"role": "assistant", "content": [], "toolCalls": [{"id": "c-2", "name": "Bash", "arguments": "{}"}, {"id": "c-3", "name": "Read", "arguments": "{}"}]}, {"role": "tool", "content": [], "toolCallId": "c-8"}, {"role": "tool", "content": [], "toolCallId": "c-9"}, {"role": "user", "content": []}] | 1,2,3,4,8     |
      | 多个调用之后是带 toolCallId 的 user 消息 | [{"role": "assistant", "content": [], "toolCalls": [{"id": "c-2", "name": "Bash", "arguments": "{}"}, {"id": "c-3", "name": "Read", "arguments": "{}"}]}, {"role": "user", "content": [], "toolCallId": "c-2"}, {"role": "user", "content": [], "toolCallId": "c-3"}, {"role": "user", "content": []}] | 1,2,3,4,6,7,8 |
      | 多个调用的结果先重复回答一个 id 再回答另一个 | [{"role": "assistant", "content": [], "toolCalls": [{"id": "c-2", "name": "Bash", "arguments": "{}"}, {"id": "c-3", "name": "Read", "arguments": "{}"}]}, {"role": "tool", "content": [], "toolCallId": "c-2"}, {"role": "tool", "content": [], "toolCallId": "c-2"}, {"role": "tool", "content": [], "toolCallId": "c-3"}, {"role": "user", "content": []}] | 1,2,3,4,9 |
      | 多个调用的结果之一 toolCallId 不是字符串 | [{"role": "assistant", "content": [], "toolCalls": [{"id": "c-2", "name": "Bash", "arguments": "{}"}, {"id": "c-3", "name": "Read", "arguments": "{}"}]}, {"role": "tool", "content": [], "toolCallId": "c-2"}, {"role": "tool", "content": [], "toolCallId": 3}, {"role": "user", "content": []}] | 1,2,3,4,8     |
      | 多个调用的结果之一不是 tool 消息 | [{"role": "assistant", "content": [], "toolCalls": [{"id": "c-2", "name": "Bash", "arguments": "{}"}, {"id": "c-3", "name": "Read", "arguments": "{}"}]}, {"role": "tool", "content": [], "toolCallId": "c-2"}, {"role": "user", "content": []}, {"role": "tool", "content": [], "toolCallId": "c-3"}] | 1,2,3,4,7     |
      | 多个调用在历史末尾缺少结果      | [{"role": "assistant", "content": [], "toolCalls": [{"id": "c-2", "name": "Bash", "arguments": "{}"}, {"id": "c-3", "name": "Read", "arguments": "{}"}]}, {"role": "tool", "content": [], "toolCallId": "c-2"}]                     | 1,2,3,4       |
      | 最后一条是不回答任何调用的 tool 消息 | [{"role": "user", "content": []}, {"role": "tool", "content": [], "toolCallId": "good-1"}]                                                                                                                                       | 1,2,3,4,5     |
      | 多个调用中第一个不是对象         | [{"role": "assistant", "content": [], "toolCalls": [null, {"id": "c-3", "name": "Read", "arguments": "{}"}]}, {"role": "tool", "content": [], "toolCallId": "c-2"}, {"role": "tool", "content": [], "toolCallId": "c-3"}, {"role": "user", "content": []}] | 1,2,3,4,8     |
      | 多个调用的 arguments 都不是对象   | [{"role": "assistant", "content": [], "toolCalls": [{"id": "c-2", "name": "Bash", "arguments": "not json"}, {"id": "c-3", "name": "Read", "arguments": "[]"}]}, {"role": "tool", "content": [], "toolCallId": "c-2"}, {"role": "tool", "content": [], "toolCallId": "c-3"}, {"role": "user", "content": []}] | 1,2,3,4,8     |
      | 多个调用的第一个结果不是对象      | [{"role": "assistant", "content": [], "toolCalls": [{"id": "c-2", "name": "Bash", "arguments": "{}"}, {"id": "c-3", "name": "Read", "arguments": "{}"}]}, "c-2", {"role": "tool", "content": [], "toolCallId": "c-3"}, {"role": "user", "content": []}] | 1,2,3,4,8     |
      | 被移除一轮的 id 在其后合规的一轮中再次使用 | [{"role": "assistant", "content": [], "toolCalls": [{"id": "c-2", "name": "Bash", "arguments": "{}"}]}, {"role": "user", "content": []}, {"role": "assistant", "content": [], "toolCalls": [{"id": "c-2", "name": "Bash", "arguments": "{}"}]}, {"role": "tool", "content": [], "toolCallId": "c-2"}] | 1,2,3,4,6,7,8 |

  @CTX-068
  Scenario Outline: 历史中第一轮工具调用的 name 或 arguments 不合规时整轮被移除 — <情形>
    Given 待清洗的历史以一轮工具调用开始，其 toolCalls 为 `<toolCalls>`，每个调用都有 tool 结果
    When 直接执行 `sanitizeToolProtocolHistory(messages)`
    Then 清洗结果应恰好为原历史的第 `<保留>` 条，且报告历史已改变
    And 清洗结果应符合严格的工具协议

    Examples:
      | 情形                    | toolCalls                                                                                                      | 保留  |
      | arguments 是 JSON 数组     | [{"id": "c-1", "name": "Bash", "arguments": "[\"ls\"]"}]                                                       | 1,4 |
      | arguments 是 JSON 字符串    | [{"id": "c-1", "name": "Bash", "arguments": "\"ls\""}]                                                          | 1,4 |
      | arguments 是对象而不是文本     | [{"id": "c-1", "name": "Bash", "arguments": {"command": "ls"}}]                                                | 1,4 |
      | 缺少 arguments           | [{"id": "c-1", "name": "Bash"}]                                                                                | 1,4 |
      | 调用不是对象              | ["c-1"]                                                                                                        | 1,4 |
      | id 是数字，结果也回答这个数字   | [{"id": 1, "name": "Bash", "arguments": "{}"}]                                                                 | 1,4 |
      | id 为空字符串，结果也回答空字符串 | [{"id": "", "name": "Bash", "arguments": "{}"}]                                                                | 1,4 |
      | name 不是字符串           | [{"id": "c-1", "name": 5, "arguments": "{}"}]                                                                  | 1,4 |
      | 两个调用的 name 都不是字符串   | [{"id": "c-1", "name": 5, "arguments": "{}"}, {"id": "c-2", "name": null, "arguments": "{}"}]                 | 1,5 |
      | 两个调用之一的 arguments 是 JSON 数组 | [{"id": "c-1", "name": "Bash", "arguments": "{}"}, {"id": "c-2", "name": "Read", "arguments": "[1]"}]   | 1,5 |
      | 两个调用之一的 arguments 是对象而不是文本 | [{"id": "c-1", "name": "Bash", "arguments": "{}"}, {"id": "c-2", "name": "Read", "arguments": {"path": "a"}}] | 1,5 |
      | 两个调用的 arguments 都不是对象   | [{"id": "c-1", "name": "Bash", "arguments": "[1]"}, {"id": "c-2", "name": "Read", "arguments": "\"x\""}]      | 1,5 |
      | 两个调用中第一个不是对象         | ["c-1", {"id": "c-2", "name": "Read", "arguments": "{}"}]                                                      | 1,5 |
