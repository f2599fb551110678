@agent @beyond-seed
Feature: 以相同名称再次注册的 stop hook 保持原位置
  Registering a name again replaces the hook where it stands, like a JavaScript `Map.set`: with another
  hook registered in between, the replaced hook still runs in its first registration's place (last
  registered first), so moving it to the end would change the order of the messages.

  @HOOK-015
  Scenario: 以相同名称再次注册时替换原 hook — 中间注册了其它 hook 时执行顺序不变
    Given 注册表中依次注册了以下 stop hooks
      | name     | behaviour        |
      | reminder | 返回 "old text"  |
      | audit    | 返回 "audit ok"  |
      | reminder | 返回 "new text"  |
    When 调用 `executeAndAppend(finalResponse, context)`
      """
      Final answer.
      """
    Then 最终文本应为原响应、空行、marker 与后注册先执行的 hook 消息:
      """
      Final answer.

      [StopHook]
      audit ok

      new text
      """
