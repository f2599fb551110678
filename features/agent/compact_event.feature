@agent @seed-001
Feature: Context compaction 触发规则
  强制压缩（`/compact` 背后的 `forceCompact()`）成功时，AgentRunner 用压缩后的消息替换历史，
  原子地重写会话文件，并发出 `compact` 事件。会话、摘要模型与按字符计数的 token 计数器都是真实或确定的。

  When a forced compaction (`forceCompact()`, behind `/compact`) succeeds, the AgentRunner replaces the
  history with the compacted messages, rewrites the session file atomically and emits a `compact` event. The
  session, the summary model and the character-counting token counter are real or deterministic.

  @AGT-012
  Scenario: compact 成功后应更新历史并发出 compact 事件
    Given `forceCompact()` 返回 `success=true`
    And runner 恢复的会话中已有 8 条较长的历史消息
    When AgentRunner 执行强制压缩
    Then `history` 应替换为压缩后消息
    And 会话文件应被 rewrite
    And 应触发 `compact` 事件

  @AGT-019 @live-settings
  Scenario: compact 成功后应更新历史并发出 compact 事件 — 运行中先卸载再自动压缩
    Given runner 恢复的会话中有一轮超长的工具结果和 6 条较长的历史消息
    And 上下文设置为:
      | SYNAPSE_OFFLOAD_THRESHOLD | SYNAPSE_COMPACT_TRIGGER_THRESHOLD | SYNAPSE_COMPACT_PRESERVE_COUNT |
      | 2000                      | 100000                            | 2                              |
    And 压缩模型将回复摘要，随后模型回复 "已继续"
    When 执行 `runner.run(...)`
    Then 应先后触发 `offload` 与 `compact` 事件
    And 模型本轮应基于压缩后的历史作答
    And 会话文件应与 runner 的历史一致
