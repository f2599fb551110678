@reader @beyond-seed
Feature: ConversationReader 对嵌套过深的行的容错
  A transcript line nested deeper than the reader's JSON parser recurses made the reader raise
  RecursionError, losing the whole transcript. Such a line is either read or skipped with a warning like
  any line that does not parse; the other lines are read, and summarising or compacting the turns never
  fails on it.

  @RDR-042
  Scenario Outline: 嵌套过深的行不应让读取、摘要与 compact 出错
    Given 会话文件的第 2 行是 content 嵌套 <depth> 层数组的 user 消息，前后各有一条合法消息
    When 读取该文件，并对读到的 turns 执行 `summarize` 与 `compact`
    Then 三次调用都不应抛出异常，前后两条合法消息依次成为 turn
    And 嵌套过深的行要么成为 turn，要么被跳过并记录 warning

    Examples:
      | depth  |
      | 1000   |
      | 100000 |
      | 300    |
