@agent @beyond-seed
Feature: 压缩不改变会话标题
  原实现在压缩后用新的第一条 user 消息（即 `[Compressed History]` 摘要）重算标题，会话列表里的标题因此变成摘要开头。
  标题描述的是对话的主题，压缩并不改变它。

  The original recomputed the session title from the new first user message after a compaction (the
  `[Compressed History]` summary), so the session list showed the start of the summary. A title describes
  the topic of the conversation, which a compaction does not change.

  @AGT-021
  Scenario: 强制压缩后会话标题仍是第一条用户消息的标题
    Given `forceCompact()` 返回 `success=true`
    And runner 恢复的会话中已有 8 条较长的历史消息
    When AgentRunner 执行强制压缩
    Then 会话文件应被 rewrite
    And 会话标题与索引中的标题仍应是压缩前第一条用户消息的标题
