@reader @seed-003
Feature: 内容块解析与映射
  Each JSONL line becomes one turn: text goes to the turn's content, tool_use and tool_result blocks to its
  tool calls and tool results; lines of other roles are not turns.

  @RDR-008
  Scenario Outline: `content` 为字符串时应直接映射为 turn.content
    Given 某消息 `content` 字段是纯文本字符串
      """
      {"id":"msg-1","timestamp":"2026-02-10T09:00:00.000Z","role":"<role>","content":"<text>"}
      """
    When 解析该行
    Then turn.content 应等于原文本
    And 不应生成 toolCalls/toolResults

    Examples:
      | role      | text                                                   |
      | user      | Help me analyze error.log                              |
      | assistant | 我会先读取日志文件，再按 ERROR 分组统计。                   |
      | user      | 第一行\\n第二行 with a \"quoted\" word and a tab\tafter it |

  @RDR-009
  Scenario: `content` 为数组时应同时提取 text/tool_use/tool_result
    Given 单行消息 content 数组中同时包含 `text`、`tool_use`、`tool_result` 块
      """
      {"id":"msg-4","role":"assistant","content":[{"type":"text","text":"Let me search for errors."},{"type":"tool_use","id":"tool-1","name":"search","input":{"pattern":"ERROR","path":"error.log"}},{"type":"tool_result","tool_use_id":"tool-0","content":"ERROR: Connection failed\nERROR: Timeout"},{"type":"text","text":"Then I will group them."}]}
      """
    When 执行解析
    Then text 应汇总到 turn.content
    And tool_use/tool_result 应分别映射到 `toolCalls` 与 `toolResults`

  @RDR-010
  Scenario: 非 user/assistant 角色消息应在解析阶段过滤
    Given JSONL 行 role 既不是 `user` 也不是 `assistant`
      """
      {"id":"u-1","role":"user","content":"Help me analyze error.log"}
      {"id":"x-1","role":"system","content":"You are a helpful assistant."}
      {"id":"a-1","role":"assistant","content":"I will help you analyze the log file."}
      {"id":"x-2","role":"developer","content":"Prefer short answers."}
      {"id":"x-3","content":"a line without any role"}
      {"id":"x-4","role":null,"content":"a line whose role is null"}
      {"id":"x-5","role":42,"content":"a line whose role is a number"}
      {"id":"u-2","role":"user","content":"Find all ERROR entries"}
      """
    When 解析会话文件
    Then 该行应被丢弃
    And 最终结果中不应出现未知角色 turn

  @RDR-087 @beyond-seed
  Scenario: 一行中重复的键以最后一次出现的值为准
    Each line is read with `JSON.parse`, which keeps the last value of a key written twice, at every level
    of the line: a line whose role, id, content or toolCalls were rewritten by appending the corrected
    field is read with the corrected values. A reader that takes the first occurrence of a key (a path
    query that stops at the first match) would read the stale ones.
    Given 会话文件内容如下
      """
      {"id":"u1","role":"assistant","role":"user","content":"草稿","content":"请检查构建日志"}
      {"id":"a-old","id":"a1","role":"assistant","content":[{"type":"text","text":"旧的说明","text":"先读取日志。"}],"toolCalls":[{"id":"c-1","name":"bash","arguments":"{}"}],"toolCalls":[{"id":"c-2","name":"read","arguments":"{\"path\":\"build.log\",\"path\":\"logs/build.log\"}"}]}
      """
    When 调用 `ConversationReader.read(filePath)`
    Then 各 turn 的角色与文本应为
      | role      | content        |
      | user      | 请检查构建日志 |
      | assistant | 先读取日志。   |
    And 各 turn 的 id 应为
      | role      | id |
      | user      | u1 |
      | assistant | a1 |
    And 助手 turn 的 `toolCalls` 应包含解析后的参数
      | id  | name | input                      |
      | c-2 | read | {"path": "logs/build.log"} |
