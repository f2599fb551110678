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

  # in-process: the wire's codec cannot carry the turns this file gives back, nested about a thousand levels
  @RDR-075 @in-process
  Scenario: 嵌套 1 到 1000 层的每一种行都不应让读取、摘要与 compact 出错：消息内容、tool_result 块与 tool 行
    How deep a line may be nested before it can no longer be read, or no longer be measured and shown,
    depends on the implementation and on how deep its own stack is at that moment. Every depth from 1 to
    1000 is therefore tried, in the three places a nested value can stand: the content of a message, the
    content of a `tool_result` block and the content of a tool line. Whatever each line becomes, reading,
    summarising and compacting return.
    Given 会话文件在两条合法消息之间，对 1 到 1000 的每个深度依次有 content 嵌套该层数组的 user 消息、tool_result 块与 tool 行
    When 读取该文件，并对读到的 turns 执行 `summarize` 与 `compact`
    Then 三次调用都不应抛出异常，前后两条合法消息是首尾两个 turn
