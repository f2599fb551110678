@repl @seed-000
Feature: `/compact` 交互反馈稳定性
  `/compact` 等待 runner 的 `forceCompact()` 完成，再把结果翻译成用户看得懂的一段话。runner 是替身。

  `/compact` waits for the runner's `forceCompact()` to finish, then turns its result into a sentence a user
  understands. The runner is a double.

  @REPL-009
  Scenario: 压缩成功时应展示 token 变化与删除统计
    Given `forceCompact()` 返回 `success=true` 且释放了 token
      | previousTokens | currentTokens | freedTokens | deletedFiles |
      | 100000         | 20000         | 80000       | 3            |
    When 用户执行 `/compact`
    Then 输出应包含 `before -> after` token 数值
    And 输出应包含释放量与删除文件数量

  @REPL-010
  Scenario: 压缩失败时应明确提示保持原历史
    Given `forceCompact()` 返回 `success=false`
    When 用户执行 `/compact`
    Then 输出应包含“压缩失败，保持原历史不变”语义
    And 不应误报成功

  @REPL-011
  Scenario: 无需压缩时应输出 no-op 提示
    Given `forceCompact()` 返回 `freedTokens=0` 且前后 token 相同
    When 用户执行 `/compact`
    Then 输出应包含“无需压缩”提示
    And 命令处理结果仍应为已处理

  @REPL-012
  Scenario: `/compact` 命令应等待异步压缩完成后再返回
    Given `forceCompact()` 返回一个延迟 resolve 的 Promise
    When 用户执行 `/compact`
    Then 命令处理 Promise 在压缩完成前不应提前 resolve
    And resolve 后应输出最终压缩结果信息
