@agent @beyond-seed
Feature: Stop Hook 注册表（超出种子的约定）
  What the registry promises beyond the seed: one failing hook never costs the user the other hooks'
  results, and registering a name again replaces that hook instead of running both.

  @HOOK-005
  Scenario: 某个 hook 抛出异常时记录日志并继续执行其余 hooks
    Given 注册表中依次注册了以下 stop hooks
      | name   | behaviour                 |
      | first  | 返回 "first done"         |
      | broken | 抛出 RuntimeError("boom") |
      | third  | 返回 "third done"         |
    When 调用 `executeAndAppend(finalResponse, context)`
      """
      Final answer.
      """
    Then 最终文本应为原响应、空行、marker 与后注册先执行的 hook 消息:
      """
      Final answer.

      [StopHook]
      third done

      first done
      """
    And 应记录一条指出 hook `broken` 执行失败的日志

  @HOOK-006
  Scenario: 以相同名称再次注册时替换原 hook
    Given 注册表中依次注册了以下 stop hooks
      | name     | behaviour       |
      | reminder | 返回 "old text" |
      | reminder | 返回 "new text" |
    When 调用 `executeAndAppend(finalResponse, context)`
      """
      Final answer.
      """
    Then 最终文本应为原响应、空行、marker 与后注册先执行的 hook 消息:
      """
      Final answer.

      [StopHook]
      new text
      """
