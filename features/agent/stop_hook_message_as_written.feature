@agent @beyond-seed
Feature: stop hook 的消息按原样追加
  A hook's message is tested on its trimmed text (a blank message adds nothing), but what is appended
  after the `[StopHook]` marker is the message as the hook wrote it: the original filters with
  `message.trim().length > 0` and joins the messages themselves, so an indented list or a closing newline
  of a hook's report is kept.

  判断 hook 消息是否为空看的是去掉首尾空白后的文本，但追加在 `[StopHook]` 之后的是 hook 写下的原文：
  原实现按 `message.trim().length > 0` 过滤，拼接的却是消息本身，所以 hook 报告的缩进与结尾换行都保留。

  @HOOK-017
  Scenario: 带缩进与结尾换行的 hook 消息原样出现在 marker 之后
    Given `stopHookRegistry.executeAll` 返回以下 message（JSON 字符串，保留首尾空白与换行）
      | name   | message                                          |
      | first  | "Skill enhanced: git-flow"                       |
      | second | "  Saved 2 new patterns:\n  - retry on timeout\n" |
    When 调用 `executeAndAppend(finalResponse, context)`
      """
      任务已完成。
      """
    Then 最终文本应为原响应、空行、marker 与后注册先执行的 hook 消息:
      """
      任务已完成。

      [StopHook]
        Saved 2 new patterns:
        - retry on timeout


      Skill enhanced: git-flow
      """
    And 每个 hook 都应只被调用一次，并收到 sessionId、cwd、messages 与 finalResponse
