@agent @beyond-seed
Feature: 压缩后的历史保存失败时不丢失任何数据
  原实现先删除不再被引用的卸载文件，再保存压缩后的历史；保存一旦失败，磁盘上的旧历史仍引用已被删除的文件。
  正确的顺序是先原子地保存压缩后的历史，成功后才清理卸载文件；保存失败时压缩视为失败，一切保持原样。

  The original deleted offload files that were no longer referenced before saving the compacted history, so
  a failed save left the old history on disk pointing at deleted files. The compacted history is saved
  atomically first and offload files are cleaned up only after that succeeded; when the save fails the
  compaction fails and everything stays as it was.

  @AGT-020
  Scenario: 强制压缩时会话文件写入失败，卸载文件与原历史都保留
    Given runner 恢复的会话中有 8 条较长的历史消息，最早的工具结果已卸载到文件
    And 压缩模型将回复摘要
    When 会话文件无法写入时 AgentRunner 执行强制压缩
    Then 压缩应报告失败且 runner 的历史保持原样
    And 会话文件与卸载文件都应保持原样
