@agent @seed-001 @beyond-seed
Feature: 工具协议历史清洗不得删除会话数据
  原实现在清洗后先 `clear()` 会话再整体追加，`clear()` 会删除整个会话目录（包括仍被历史引用的卸载文件）。
  清洗只能原子地重写历史文件：卸载文件、会话目录与用量统计都必须保留。

  The original cleared the session with `clear()` after sanitizing and appended everything again; `clear()`
  deletes the whole session directory, offload files still referenced by the history included. Sanitizing
  may only rewrite the history file atomically: offload files, the session directory and the usage totals
  are all kept.

  @AGT-016
  Scenario: 清洗历史时保留卸载文件与会话用量
    Given 一个会话的历史引用了该会话目录下的卸载文件，并含有悬空 assistant toolCalls
    And 该会话已记录过一轮用量
    When AgentRunner 运行新请求前执行 sanitize
    Then 悬空 toolCalls 应被移除
    And 被引用的卸载文件应仍然存在且内容不变
    And 会话用量应在原有累计值上加上本次请求的用量
    And 会话文件应与 runner 的历史一致
