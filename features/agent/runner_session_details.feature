@agent @beyond-seed
Feature: AgentRunner 与会话、上下文的衔接细节
  Stop Hook 看到的会话信息、只卸载不压缩的一轮、没有会话时的强制压缩、清洗历史时的日志，以及每次模型调用的用量
  （工具轮次也算）都计入会话。
  会话是真实的，token 计数器按字符计数；模型是脚本化替身。

  How the AgentRunner works with the session and the context layer: what session information a stop hook
  sees, a round that offloads without compacting, a forced compaction without a session, the log lines of
  the history sanitizer, and the usage of every model call of a request (tool rounds too) recorded in the
  session. The session is real, the token counter counts characters, and the model is a scripted double.

  @AGT-039
  Scenario: Stop Hook 看到会话 id、完整历史与 runner 的工作目录
    Given `stopHookExecutor.shouldExecute()` 为 true
    And runner 恢复的会话中已有 2 条历史消息
    And 模型直接回复 "任务完成"
    When `runWithPotentialPermission` 正常完成且无权限中断
    Then 应执行 `executeAndAppend`
    And Stop Hook 应看到会话 id、runner 的完整历史与 runner 的工作目录

  @AGT-040 @live-settings
  Scenario: 运行中只卸载不压缩时，会话文件与模型看到的历史都带卸载引用
    Given runner 恢复的会话中有一轮超长的工具结果和 6 条较长的历史消息
    And 上下文设置为:
      | SYNAPSE_OFFLOAD_THRESHOLD | SYNAPSE_COMPACT_TRIGGER_THRESHOLD |
      | 5000                      | 100000                            |
    And 模型直接回复 "已继续"
    When 执行 `runner.run(...)`
    Then 应只触发 1 次卸载 1 条工具结果的 `offload` 事件
    And 模型本轮应看到卸载引用而不是原工具结果
    And 会话文件应与 runner 的历史一致

  @AGT-041
  Scenario: 没有会话的 runner 强制压缩时历史不变且不释放 token
    Given runner 没有会话，并已完成一次请求
    When AgentRunner 执行强制压缩
    Then 压缩结果应是原历史，前后 token 数相同且不删除文件
    And 应触发一次不释放 token 的 `compact` 事件

  @AGT-042
  Scenario: 运行前清洗历史时在 `synapse.*` 日志中记录阶段与前后消息数
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
    Then `synapse.*` 日志应记录 1 条清洗警告，阶段为 "before run"，消息数从 3 变为 2

  @AGT-043
  Scenario: 每轮模型调用前清洗历史时在 `synapse.*` 日志中记录阶段与前后消息数
    Given 模型首轮输出的 toolCall.arguments 为 `{"command":"echo "oops""}`
    And 模型随后回复 "Recovered response"
    When 执行 `runner.run(...)`
    Then `synapse.*` 日志应记录 1 条清洗警告，阶段为 "before step"，消息数从 3 变为 1

  @AGT-044
  Scenario: runner 清空会话后历史、会话文件与用量都归零，待处理的权限请求也被取消
    Given runner 恢复的会话中已有 2 条历史消息
    And 已存在 pending sandbox permission
      | resource      | command           |
      | ~/.ssh/id_rsa | cat ~/.ssh/id_rsa |
    When runner 清空会话
    Then runner 的历史与会话文件都应为空，会话用量应归零
    And 之后不应再有 pending 权限请求

  @AGT-045
  Scenario: 没有会话的 runner 没有会话用量
    Given runner 没有会话，并已完成一次请求
    Then runner 的会话用量应为空

  @AGT-046
  Scenario: 事件监听器抛出异常时其余监听器照常收到事件，并记录警告
    Given runner 没有会话，并已完成一次请求
    And 一个 `compact` 事件监听器会抛出异常
    When AgentRunner 执行强制压缩
    Then 应触发一次不释放 token 的 `compact` 事件
    And `synapse.*` 日志应记录 1 条带有监听器异常的警告

  @AGT-047
  Scenario: 模型直接作答时 step 以 completed 返回答案且不执行 Stop Hook
    Given `stopHookExecutor.shouldExecute()` 为 true
    And 模型直接回复 "任务完成"
    When 调用 `runner.step("完成任务")`
    Then 返回状态应为 `completed`
    And step 的回答应为 "任务完成" 且没有权限请求
    And Stop Hook 不应运行

  @AGT-048
  Scenario Outline: 工具结果消息的文本由 output 与 message 组成，空的部分省略
    Given 模型首轮调用 1 个 Bash 命令，工具返回 output "<output>"、message "<message>"
    And 模型随后回复 "Recovered response"
    When 执行 `runner.run(...)`
    Then 模型第 2 次调用看到的 tool 消息文本应为 "<text>"

    Examples:
      | output | message     | text                    |
      | a.txt  |             | a.txt                   |
      | a.txt  | exit code 0 | a.txt\\n\\nexit code 0  |
      |        | exit code 1 | exit code 1             |
      | \\n    | exit code 1 | \\n\\n\\nexit code 1 |

  @AGT-088
  Scenario: 一次请求中每一次模型调用的用量都计入会话，工具轮次也不例外
    Given 一个新会话，模型先调用一轮工具、再直接回复，两次回复的用量依次为:
      | inputOther | output | inputCacheRead | inputCacheCreation |
      | 100        | 20     | 10             | 5                  |
      | 150        | 30     | 40             | 0                  |
    When 执行 `runner.run(...)`
    Then 会话用量的各轮应依次是这两次回复的用量，累计值为它们之和

  @AGT-100 @live-settings
  Scenario: 同一步先卸载再自动压缩时，`compact` 事件报告的是压缩自身的 token 数
    The `compact` event carries the compaction's own result (the original's
    buildCompactPayload(compactResult)): `previousTokens` counts the history the offload left, not the
    history before the offload, so the two events of one step add up to what the step freed and nothing
    is counted twice.
    Given runner 恢复的会话中有一轮超长的工具结果和 6 条较长的历史消息
    And 上下文设置为:
      | SYNAPSE_OFFLOAD_THRESHOLD | SYNAPSE_COMPACT_TRIGGER_THRESHOLD | SYNAPSE_COMPACT_PRESERVE_COUNT |
      | 2000                      | 100000                            | 2                              |
    And 压缩模型将回复摘要，随后模型回复 "已继续"
    When 执行 `runner.run(...)`
    Then 应先后触发 `offload` 与 `compact` 事件
    And `compact` 事件的 token 数应是卸载后与压缩后历史的 token 数
