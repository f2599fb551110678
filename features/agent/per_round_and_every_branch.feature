@agent @beyond-seed
Feature: 按轮计数、逐个调用核对、每种回答后都不留状态
  Rules that a scenario with one event per round, or with one branch checked, cannot tell from plausible
  wrong ones. A round with several countable tool failures adds one to the consecutive failures, not one
  per failure. The sanitizer matches results to calls by id, for every call of a round: a round of
  parallel calls with one call unanswered, a result answering an unknown call, or one call answered twice
  while another is not, is dropped as a whole. After every kind of answer no permission request is pending.

  @AGT-060
  Scenario: 一轮中有多个计数的工具失败时连续失败只加一
    Given 工具调用依次返回:
      | 轮次 | 结果     |
      | 1    | 两个失败 |
      | 2    | 两个失败 |
    And 第 3 轮模型直接回复 "修复完成"
    And `SYNAPSE_MAX_CONSECUTIVE_TOOL_FAILURES` 为 ""，阈值应为 3
    When 执行 `runner.run(...)`
    Then run 应返回 "修复完成"
    And `synapse.*` 日志应依次记录这些工具失败警告:
      | message                                                |
      | Tool execution failed (counted: 2/2, consecutive: 1/3) |
      | Tool execution failed (counted: 2/2, consecutive: 2/3) |

  @AGT-089
  Scenario: 一轮中有计数的工具失败时，同一轮中另一个调用成功也不让连续失败重新计数
    A round counts when any of its failures counts, whatever its other calls did (the original's
    `countable.length > 0 ? previous + 1 : 0`): a model that keeps misusing one tool while a second call
    of the same round works is still stopped.
    Given 工具调用依次返回:
      | 轮次 | 结果       |
      | 1    | 失败与成功 |
      | 2    | 失败与成功 |
      | 3    | 失败与成功 |
    And 第 4 轮模型直接回复 "不应到达这里"
    And `SYNAPSE_MAX_CONSECUTIVE_TOOL_FAILURES` 为 ""，阈值应为 3
    When 执行 `runner.run(...)`
    Then run 应返回 "Consecutive tool execution failures; stopping."
    And 模型应被调用 3 次
    And `synapse.*` 日志应依次记录这些工具失败警告:
      | message                                                |
      | Tool execution failed (counted: 1/1, consecutive: 1/3) |
      | Tool execution failed (counted: 1/1, consecutive: 2/3) |
      | Tool execution failed (counted: 1/1, consecutive: 3/3) |

  @AGT-061
  Scenario: 并行工具调用中只回答了第一个调用的轮次被整体移除
    Given 历史如下，调用 id 以 "bad-" 开头的 assistant 消息及紧随其后的 tool 消息是不完整的一轮
      """json
      [
        {"role": "user", "content": [{"type": "text", "text": "Read both files"}]},
        {"role": "assistant", "content": [], "toolCalls": [
          {"id": "good-1", "name": "Read", "arguments": "{\"path\":\"a.txt\"}"},
          {"id": "good-2", "name": "Read", "arguments": "{\"path\":\"b.txt\"}"}]},
        {"role": "tool", "content": [{"type": "text", "text": "b"}], "toolCallId": "good-2"},
        {"role": "tool", "content": [{"type": "text", "text": "a"}], "toolCallId": "good-1"},
        {"role": "user", "content": [{"type": "text", "text": "Now list and count"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "Running both"}], "toolCalls": [
          {"id": "bad-1", "name": "Bash", "arguments": "{\"command\":\"ls\"}"},
          {"id": "bad-2", "name": "Bash", "arguments": "{\"command\":\"wc -l a.txt\"}"}]},
        {"role": "tool", "content": [{"type": "text", "text": "a.txt b.txt"}], "toolCallId": "bad-1"},
        {"role": "user", "content": [{"type": "text", "text": "Next"}]}
      ]
      """
    When 执行 sanitizer
    Then 对应 assistant/tool 序列应被移除

  @AGT-062
  Scenario: 结果数量与调用数量相同但回答了未知调用的轮次被整体移除
    Given 历史如下，调用 id 以 "bad-" 开头的 assistant 消息及紧随其后的 tool 消息是不完整的一轮
      """json
      [
        {"role": "user", "content": [{"type": "text", "text": "List files"}]},
        {"role": "assistant", "content": [], "toolCalls": [
          {"id": "bad-1", "name": "Bash", "arguments": "{\"command\":\"ls\"}"}]},
        {"role": "tool", "content": [{"type": "text", "text": "a.txt"}], "toolCallId": "other-call"},
        {"role": "user", "content": [{"type": "text", "text": "Next"}]}
      ]
      """
    When 执行 sanitizer
    Then 对应 assistant/tool 序列应被移除

  @AGT-063
  Scenario: 一个调用被回答两次而另一个没有回答的轮次被整体移除
    Given 历史如下，调用 id 以 "bad-" 开头的 assistant 消息及紧随其后的 tool 消息是不完整的一轮
      """json
      [
        {"role": "user", "content": [{"type": "text", "text": "Check both"}]},
        {"role": "assistant", "content": [], "toolCalls": [
          {"id": "bad-1", "name": "Bash", "arguments": "{\"command\":\"pwd\"}"},
          {"id": "bad-2", "name": "Bash", "arguments": "{\"command\":\"whoami\"}"}]},
        {"role": "tool", "content": [{"type": "text", "text": "/work"}], "toolCallId": "bad-1"},
        {"role": "tool", "content": [{"type": "text", "text": "/work"}], "toolCallId": "bad-1"},
        {"role": "user", "content": [{"type": "text", "text": "Next"}]}
      ]
      """
    When 执行 sanitizer
    Then 对应 assistant/tool 序列应被移除

  @AGT-064
  Scenario Outline: 任何一种回答之后都不再有 pending 权限请求 — <option>
    Given 已存在 pending sandbox permission
      | resource      | command           |
      | ~/.ssh/id_rsa | cat ~/.ssh/id_rsa |
    And 无沙盒执行将输出 "unsandboxed-output"
    And 重试命令将输出 "retry-ok"
    When 调用 `resolveSandboxPermission('<option>')`
    Then 之后不应再有 pending 权限请求

    Examples:
      | option          |
      | allow_once      |
      | allow_session   |
      | allow_permanent |
      | deny            |
