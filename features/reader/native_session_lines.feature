@reader @seed-003 @beyond-seed
Feature: ConversationReader 读取 Synapse 自身的会话行
  The skill-enhance hook feeds the agent's own session files to the reader.  Those files keep tool calls in
  `toolCalls` (with `arguments` as JSON text), tool results as `role: "tool"` lines with `toolCallId`, and
  content as a list of `{"type":"text"}` parts.  The original reader dropped all tool activity of such
  files; these scenarios hold an implementation to reading it.

  @RDR-019
  Scenario: Synapse 会话行中的 `toolCalls` 与 tool 结果应被读取
    Given 会话文件取自样例 `synapse_native.jsonl`
    When 调用 `ConversationReader.read(filePath)`
    Then 各 turn 的角色与文本应为
      | role      | content                    |
      | user      | 帮我看看 build 为什么失败  |
      | assistant | 先读取构建日志。           |
      | user      |                            |
      | assistant | 缺少 foo 的声明，我来修复。 |
      | user      |                            |
      | assistant | 已修复，测试通过。         |
    And 助手 turn 的 `toolCalls` 应包含解析后的参数
      | id     | name | input                    |
      | call-1 | read | {"path": "build.log"}    |
      | call-2 | bash | {"command": "npm test"}  |
      | call-3 | edit | {"path": "src/a.ts"}     |
    And `role: "tool"` 行应作为工具结果挂到紧随其后的 user turn 上
      | turn | toolUseId | content                              |
      | 3    | call-1    | error TS2304: Cannot find name 'foo' |
      | 3    | call-2    | 1 failing                            |
      | 5    | call-3    | edited src/a.ts                      |
    And 最终结果中不应出现未知角色 turn

  @RDR-020
  Scenario: Synapse 会话行经 `compact` 后应展示 `[Tool]` 与 `[Result]`
    Given 会话文件取自样例 `synapse_native.jsonl`
    When 调用 `ConversationReader.read(filePath)`
    And 调用 `compact(turns)`
    Then 输出应保留上述标签顺序
      | label       | text                                 |
      | [User]      | 帮我看看 build 为什么失败            |
      | [Assistant] | 先读取构建日志。                     |
      | [Tool]      | read                                 |
      | [Tool]      | bash                                 |
      | [Result]    | error TS2304: Cannot find name 'foo' |
      | [Result]    | 1 failing                            |
      | [Assistant] | 缺少 foo 的声明，我来修复。          |
      | [Tool]      | edit                                 |
      | [Result]    | edited src/a.ts                      |
      | [Assistant] | 已修复，测试通过。                   |
    And 各块之间应使用空行分隔

  @RDR-021
  Scenario: Synapse 会话行的工具调用应计入工具序列与摘要
    Given 会话文件取自样例 `synapse_native.jsonl`
    When 调用 `ConversationReader.read(filePath)`
    And 调用 `extractToolSequence(turns)`
    Then 返回数组顺序应与出现顺序一致
      | tool |
      | read |
      | bash |
      | edit |

  @RDR-070
  Scenario: tool 行的内容由多个文本片段组成时，结果是各片段以换行连接
    A `role: "tool"` line's content is read like a `tool_result` block's (RDR-034): text parts joined by
    a newline, so two chunks of one output never run together.
    Given 会话文件内容如下
      """
      {"role":"user","content":[{"type":"text","text":"跑一下测试"}]}
      {"role":"assistant","content":[{"type":"text","text":"好的。"}],"toolCalls":[{"id":"call-1","name":"bash","arguments":"{\"command\":\"npm test\"}"},{"id":"call-2","name":"read","arguments":"{\"path\":\"a.log\"}"}]}
      {"role":"tool","toolCallId":"call-1","content":[{"type":"text","text":"3 passed"},{"type":"text","text":"1 failed"}]}
      {"role":"tool","toolCallId":"call-2","content":[{"type":"text","text":"日志第一行"}]}
      """
    When 调用 `ConversationReader.read(filePath)`
    Then 第 3 个 turn 的 toolResults 内容应为
      | toolUseId | content            |
      | call-1    | 3 passed\n1 failed |
      | call-2    | 日志第一行             |

  @RDR-082
  Scenario: 两条 tool 行之间夹着其它角色的行时，两条结果仍属同一个 user turn
    A line of another role (`system`, an event another tool wrote) is dropped: it is no turn, so it does
    not end the run of tool lines either. The results of one round stay one user turn, as they are when
    the tool lines follow each other directly.
    Given 会话文件内容如下
      """
      {"role":"user","content":[{"type":"text","text":"跑一下测试"}]}
      {"role":"assistant","content":[{"type":"text","text":"好的。"}],"toolCalls":[{"id":"call-1","name":"bash","arguments":"{\"command\":\"npm test\"}"},{"id":"call-2","name":"read","arguments":"{\"path\":\"a.log\"}"}]}
      {"role":"tool","toolCallId":"call-1","content":[{"type":"text","text":"3 passed"}]}
      {"role":"system","content":"Context usage: 42%"}
      {"role":"tool","toolCallId":"call-2","content":[{"type":"text","text":"日志第一行"}]}
      {"role":"assistant","content":[{"type":"text","text":"都通过了。"}]}
      """
    When 调用 `ConversationReader.read(filePath)`
    Then 各 turn 的角色与文本应为
      | role      | content    |
      | user      | 跑一下测试 |
      | assistant | 好的。     |
      | user      |            |
      | assistant | 都通过了。 |
    And 第 3 个 turn 的 toolResults 内容应为
      | toolUseId | content    |
      | call-1    | 3 passed   |
      | call-2    | 日志第一行 |

  @RDR-084 @beyond-seed
  Scenario: toolCalls 的 arguments 含 NaN 或 Infinity 时不是 JSON，该工具调用的参数为空对象
    A Synapse session line's `arguments` are read with `JSON.parse`, as the line itself is: arguments
    holding `NaN` or `Infinity` are no JSON, so the call keeps its id and name and its input is `{}`, as
    for any arguments that are not a JSON object (RDR-033); the other calls of the line keep theirs.
    Given 会话文件内容如下
      """
      {"id":"a1","role":"assistant","content":"Running the checks.","toolCalls":[{"id":"c-1","name":"bash","arguments":"{\"command\":\"npm test\",\"timeout\":NaN}"},{"id":"c-2","name":"read","arguments":"{\"path\":\"a.ts\",\"limit\":-Infinity}"},{"id":"c-3","name":"grep","arguments":"{\"pattern\":\"TODO\"}"}]}
      """
    When 调用 `ConversationReader.read(filePath)`
    Then 助手 turn 的 `toolCalls` 应包含解析后的参数
      | id  | name | input               |
      | c-1 | bash | {}                  |
      | c-2 | read | {}                  |
      | c-3 | grep | {"pattern": "TODO"} |

  @RDR-088 @beyond-seed
  Scenario: tool 结果的文本片段没有文本或文本为 null 时算作空文本，布尔值写作 true 与 false
    The text parts of a tool result are joined as the original joins a message's text parts
    (`parts.map((part) => part.text).join('\n')`): `Array.join` writes a missing or null text as nothing
    and a boolean as `true` or `false`, so each part keeps its line. A reader that joins `str()` of each
    text writes `None` and `True`.
    Given 会话文件内容如下
      """
      {"role":"assistant","content":[],"toolCalls":[{"id":"call-1","name":"bash","arguments":"{\"command\":\"npm test\"}"}]}
      {"role":"tool","toolCallId":"call-1","content":[{"type":"text","text":null},{"type":"text"},{"type":"text","text":"3 passed"},{"type":"text","text":true},{"type":"text","text":false}]}
      """
    When 调用 `ConversationReader.read(filePath)`
    Then 第 2 个 turn 的 toolResults 内容应为
      | toolUseId | content                   |
      | call-1    | \n\n3 passed\ntrue\nfalse |
