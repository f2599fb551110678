@agent @seed-001
Feature: Context compaction 触发规则
  强制压缩（`/compact` 背后的 `forceCompact()`）成功时，AgentRunner 用压缩后的消息替换历史，
  原子地重写会话文件，并发出 `compact` 事件。会话、摘要模型与按字符计数的 token 计数器都是真实或确定的。

  @AGT-012
  Scenario: compact 成功后应更新历史并发出 compact 事件
    Given `forceCompact()` 返回 `success=true`
    And runner 恢复的会话中已有 8 条较长的历史消息
    When AgentRunner 执行强制压缩
    Then `history` 应替换为压缩后消息
    And 会话文件应被 rewrite
    And 应触发 `compact` 事件
