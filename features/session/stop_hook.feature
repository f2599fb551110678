@agent @seed-001
Feature: Stop Hook 执行器
  Stop hooks run after a request completed normally; what they report is appended to the final response
  after the `[StopHook]` marker, and nothing they do can break the response itself.

  @HOOK-001
  Scenario: enabled=false 时不加载也不执行 hooks
    Given `StopHookExecutor.enabled=false`
    And 注册表中已有返回消息的 stop hook
      | name     | message        |
      | reminder | should-not-run |
    When 执行 `init()` 与后续 run 收尾
      """
      Final answer.
      """
    Then 不应加载 stop hooks
    And 最终响应不应追加 hook 内容

  @HOOK-002
  Scenario: enabled=true 且 hooks 返回消息时追加 marker
    Given `stopHookRegistry.executeAll` 返回非空 message 列表
      | name   | message                  |
      | first  | Skill enhanced: git-flow |
      | second | Saved 2 new patterns     |
    When 调用 `executeAndAppend(finalResponse, context)`
      """
      Final answer.
      """
    Then 最终文本应包含 `STOP_HOOK_MARKER`
    And marker 后应包含 hook 消息正文
    And 最终文本应为原响应、空行、marker 与后注册先执行的 hook 消息:
      """
      Final answer.

      [StopHook]
      Saved 2 new patterns

      Skill enhanced: git-flow
      """
    And 每个 hook 都应只被调用一次，并收到 sessionId、cwd、messages 与 finalResponse

  @HOOK-003
  Scenario Outline: hooks 返回空消息时保持原响应
    Given hook 返回空或全空白 message
      | name   | result |
      | first  | <kind> |
      | second | <kind> |
    When 调用 `executeAndAppend(...)`
      """
      Final answer.
      """
    Then 应返回原始 `finalResponse` 不变
    And 每个 hook 都应只被调用一次

    Examples:
      | kind            |
      | 空字串          |
      | 全空白          |
      | 无 message 字段 |
      | 无返回值        |

  @HOOK-004
  Scenario Outline: onProgress 回调异常不应中断主流程
    Given onMessagePart 回调抛出异常
      | 抛出方式 | <how> |
    And 注册表中有一个先报告进度再返回消息的 stop hook
      | name          | progress                       | message          |
      | skill-enhance | Analyzing skill enhancement... | Enhanced 1 skill |
    When hook 执行中调用 `emitProgress`
      """
      Final answer.
      """
    Then 异常应被捕获并记录 warning
    And 主流程继续执行

    Examples:
      | how      |
      | 同步抛出 |
      | 异步抛出 |
