@agent @seed-001
Feature: 工具协议历史清洗
  每次运行前与每轮模型调用前，AgentRunner 都清洗历史中的工具协议：悬空的 assistant toolCalls、
  arguments 不是 JSON 对象的工具调用序列、没有上游调用的 tool 消息都被移除，清洗结果写回会话。
  「执行 sanitizer」同时检查独立的 `sanitizeToolProtocolHistory(messages)` 与恢复该历史的 AgentRunner。

  Before every run and before every model call the AgentRunner cleans the tool protocol of the history:
  dangling assistant toolCalls, tool-call sequences whose arguments are not a JSON object, and tool messages
  without a preceding call are removed, and the cleaned history is written back to the session. The step "执行
  sanitizer" checks both the standalone `sanitizeToolProtocolHistory(messages)` and an AgentRunner that
  restores that history.

  @AGT-013
  Scenario: 恢复会话时清除悬空 assistant toolCalls
    Given 历史中存在 assistant toolCalls 但缺失对应 tool 消息
      """json
      [
        {"role": "user", "content": [{"type": "text", "text": "Old request"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "Running tool"}],
         "toolCalls": [{"id": "dangling-call", "name": "Bash", "arguments": "{\"command\":\"ls\"}"}]},
        {"role": "user", "content": [{"type": "text", "text": "Retry request"}]}
      ]
      """
    When AgentRunner 运行新请求前执行 sanitize
    Then 悬空 toolCalls 应被移除
    And 后续请求可正常完成

  @AGT-014
  Scenario Outline: tool arguments 非法 JSON 时整段工具序列被清理
    Given assistant toolCall.arguments 不是合法对象 JSON 字符串
    And 该 toolCall.arguments 为 `<arguments>`
    When 执行 sanitizer
    Then 对应 assistant/tool 序列应被移除
    And 不应向上游模型回放畸形协议

    Examples:
      | 情形         | arguments                     |
      | 非法 JSON    | {"command":"echo "oops""}     |
      | 空字符串     |                               |
      | JSON 数组    | ["ls"]                        |
      | JSON 字符串  | "ls"                          |
      | JSON null    | null                          |

  @AGT-015
  Scenario: 孤立 tool 消息应被删除
    Given 历史中出现没有上游 assistant toolCall 对应的 tool 消息
    When 执行 sanitizer
    Then 该孤立 tool 消息应被删除

  @AGT-018
  Scenario: tool arguments 非法 JSON 时整段工具序列被清理 — 模型在运行中输出畸形参数
    Given 模型首轮输出的 toolCall.arguments 为 `{"command":"echo "oops""}`
    And 模型随后回复 "Recovered response"
    When 执行 `runner.run(...)`
    Then 不应向上游模型回放畸形协议
    And runner 的历史中不应再有该 assistant/tool 序列
