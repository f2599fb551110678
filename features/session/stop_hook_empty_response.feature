@agent @beyond-seed
Feature: 最终响应为空时 stop hook 消息前不加空行
  The blank line separates the hooks' report from the model's answer; when the answer is empty there is
  nothing to separate, so the text starts with the marker (the original adds the separator only after a
  non-empty response).

  @HOOK-016
  Scenario: finalResponse 为空时结果以 marker 开头
    Given `stopHookRegistry.executeAll` 返回非空 message 列表
      | name   | message                  |
      | first  | Skill enhanced: git-flow |
      | second | Saved 2 new patterns     |
    When 以空的 finalResponse 调用 `executeAndAppend(finalResponse, context)`
    Then 最终文本应恰好为 marker 与后注册先执行的 hook 消息，前面没有空行:
      """
      [StopHook]
      Saved 2 new patterns

      Skill enhanced: git-flow
      """
    And 每个 hook 都应只被调用一次，并收到 sessionId、cwd、messages 与 finalResponse

  @HOOK-020
  Scenario: finalResponse 只有空白时不算空，hook 消息前照常加空行，响应原样保留
    The original tests the response itself (`finalResponse ? '\n\n' : ''`): a response of white space
    only is not empty, so the report is set off from it by a blank line as from any other answer, and the
    response stays as the model wrote it.
    Given `stopHookRegistry.executeAll` 返回非空 message 列表
      | name   | message                  |
      | first  | Skill enhanced: git-flow |
    When 以 finalResponse "\n" 调用 `executeAndAppend(finalResponse, context)`
    Then 最终文本应恰好为 "\n\n\n[StopHook]\nSkill enhanced: git-flow"
    And 每个 hook 都应只被调用一次，并收到 sessionId、cwd、messages 与 finalResponse
