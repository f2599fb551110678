@reader @seed-003 @beyond-seed
Feature: ConversationReader 的窗口、标识与格式边界
  What the seed leaves implicit about windows, turn ids, damaged input and the token estimate.  A tail
  window of any size holds exactly the complete lines inside it, whatever the width of the characters; a
  compact text cut to any `maxChars` starts at the first whole line of its window; every turn has an id of
  its own; malformed blocks and tool entries are ignored rather than fatal; tool results that are not text
  read as the original's `JSON.stringify`; a tool result is shortened to whole lines while they fit; and the
  estimate counts characters of the serialised content, tool results included.

  @RDR-028
  Scenario: `readTruncated` 对任意 `maxChars` 都只返回窗口内完整行的 turn
    # Line 3 is blank, line 6 is damaged and the last line is damaged text of four-byte characters.
    Given 会话文件内容如下
      """
      {"id":"w-1","role":"user","content":"Résumé the build log, s'il vous plaît"}
      {"id":"w-2","role":"assistant","content":"好的，我先读取构建日志 😀"}

      {"id":"w-3","role":"system","content":"系统提示"}
      {"id":"w-4","role":"user","content":[{"type":"text","text":"Find the 🐛 in ünïcödé"}]}
      this line is damaged
      {"id":"w-5","role":"assistant","content":"修复完成 ✅ — ready"}
      😀😀😀
      """
    And 文件末尾没有换行符
    When 对从 1 到文件长度加 1 的每个 `maxChars` 调用 `readTruncated`
    Then 每次结果都应恰好是窗口内完整行的 turn
    And 每次都应只为窗口内完整的损坏行各记录一条 warning 日志

  @RDR-029
  Scenario Outline: `readTruncated` 读取不存在的文件时返回空数组并记录 warning
    Given 输入的会话 JSONL 路径不存在
    When 以 `maxChars=<max_chars>` 调用 `readTruncated`
    Then 返回应为 `[]`
    And 应记录一条 warning 日志指出该路径不存在

    Examples:
      | max_chars |
      | 1         |
      | 4096      |

  @RDR-030
  Scenario: `compact` 对任意 `maxChars` 都应从窗口内第一个完整行开始
    Given turns 中包含用户文本、助手文本、工具调用与工具结果
      """
      {"id":"m1","role":"user","content":"Export the report"}
      {"id":"m2","role":"assistant","content":[{"type":"text","text":"Running the exporter."},{"type":"tool_use","id":"t1","name":"export","input":{}}]}
      {"id":"m3","role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"wrote report.xml\nwrote report.csv"}]}
      {"id":"m4","role":"assistant","content":"Done: the XML and CSV exports are in out/"}
      """
    When 对从 1 到全文长度加 1 的每个 `maxChars` 调用 `compact(turns, maxChars)`
    Then 每次输出都应是全文末尾 `maxChars` 个字符中从第一个完整行开始的部分且不以空行开头

  @RDR-040
  Scenario: `compact` 对任意 `maxChars` 都应从窗口内第一个完整行开始 — 最后一行只有一个字符
    Given turns 中包含用户文本、助手文本、工具调用与工具结果
      """
      {"id":"m1","role":"user","content":"Is the service healthy?"}
      {"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"health","input":{}}]}
      {"id":"m3","role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"{\n  \"ok\": true\n}"}]}
      """
    When 对从 1 到全文长度加 1 的每个 `maxChars` 调用 `compact(turns, maxChars)`
    Then 每次输出都应是全文末尾 `maxChars` 个字符中从第一个完整行开始的部分且不以空行开头

  @RDR-041
  Scenario: `compact` 对任意 `maxChars` 都应从窗口内第一个完整行开始 — 全文以换行结尾
    Given turns 中包含用户文本、助手文本、工具调用与工具结果
      """
      {"id":"m1","role":"user","content":"Run the tests"}
      {"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"bash","input":{"command":"npm test"}}]}
      {"id":"m3","role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"3 passing\n0 failing\n"}]}
      """
    When 对从 1 到全文长度加 1 的每个 `maxChars` 调用 `compact(turns, maxChars)`
    Then 每次输出都应是全文末尾 `maxChars` 个字符中从第一个完整行开始的部分且不以空行开头

  @RDR-031
  Scenario: 每个 turn 都应有自己的非空 id
    Given 会话文件内容如下
      """
      {"id":"u-1","role":"user","content":"Check the build"}
      {"role":"assistant","content":[{"type":"text","text":"Reading the log."}],"toolCalls":[{"id":"call-1","name":"read","arguments":"{\"path\":\"build.log\"}"}]}
      {"role":"tool","content":[{"type":"text","text":"error TS2304"}],"toolCallId":"call-1"}
      {"id":"","role":"assistant","content":"Found it.","toolCalls":[{"id":"call-2","name":"edit","arguments":"{}"},{"id":"call-3","name":"bash","arguments":"{}"}]}
      {"role":"tool","content":"edited","toolCallId":"call-2"}
      {"role":"tool","content":"passed","toolCallId":"call-3"}
      {"id":42,"role":"user","content":"Thanks"}
      """
    When 调用 `ConversationReader.read(filePath)`
    Then 各 turn 的 id 应为
      | role      | id     |
      | user      | u-1    |
      | assistant | (生成) |
      | user      | (生成) |
      | assistant | (生成) |
      | user      | (生成) |
      | user      | (生成) |
    And 生成的 id 应为非空字符串且与其它 turn 的 id 互不相同

  @RDR-032
  Scenario: 会话以 tool 行结尾时这些工具结果也应成为一个 turn
    Given 会话文件内容如下
      """
      {"role":"user","content":[{"type":"text","text":"Run the tests"}]}
      {"role":"assistant","content":[],"toolCalls":[{"id":"call-1","name":"bash","arguments":"{\"command\":\"npm test\"}"}]}
      {"role":"tool","content":[{"type":"text","text":"3 passing"}],"toolCallId":"call-1"}
      """
    When 调用 `ConversationReader.read(filePath)`
    Then 各 turn 的角色与文本应为
      | role      | content       |
      | user      | Run the tests |
      | assistant |               |
      | user      |               |
    And `role: "tool"` 行应作为工具结果挂到紧随其后的 user turn 上
      | turn | toolUseId | content   |
      | 3    | call-1    | 3 passing |

  @RDR-033
  Scenario: 不完整的内容块、工具调用与 tool 行应被忽略
    Given 会话文件内容如下
      """
      {"id":"b-1","role":"assistant","content":[{"type":"text","text":""},{"type":"text","text":42},"a bare string",7,{"type":"text","text":"Checking the files."},{"type":"tool_use","name":"read","input":{}},{"type":"tool_use","id":"t-0","input":{}},{"type":"tool_use","id":"t-1","name":"grep","input":"not an object"},{"type":"tool_result","content":"no id"},{"type":"thinking","thinking":"hmm","id":"th-1"}]}
      {"id":"b-2","role":"assistant","content":[{"type":"text","text":"Running tools."}],"toolCalls":["oops",{"id":"c-0","arguments":"{}"},{"id":"c-1","name":"read","arguments":"{\"path\":\"a.ts\"}"},{"id":"c-2","name":"bash","arguments":"not json"},{"id":"c-3","name":"grep","arguments":""},{"id":"c-4","name":"ls"},{"id":"c-5","name":"glob","arguments":"[\"*.ts\"]"},{"name":"edit","arguments":"{\"path\":\"b.ts\"}"}]}
      {"role":"tool","content":"lost","toolCallId":""}
      {"role":"tool","content":"lost too"}
      {"role":"tool","content":[{"type":"text","text":"export const a = 1"}],"toolCallId":"c-1"}
      """
    When 调用 `ConversationReader.read(filePath)`
    Then 各 turn 的角色与文本应为
      | role      | content             |
      | assistant | Checking the files. |
      | assistant | Running tools.      |
      | user      |                     |
    And 助手 turn 的 `toolCalls` 应包含解析后的参数
      | id  | name | input              |
      | t-1 | grep | {}                 |
      | c-1 | read | {"path": "a.ts"}   |
      | c-2 | bash | {}                 |
      | c-3 | grep | {}                 |
      | c-4 | ls   | {}                 |
      | c-5 | glob | {}                 |
      |     | edit | {"path": "b.ts"}   |
    And `role: "tool"` 行应作为工具结果挂到紧随其后的 user turn 上
      | turn | toolUseId | content            |
      | 3    | c-1       | export const a = 1 |
    And 应为 2 个缺少 toolCallId 的 tool 行各记录一条 warning 日志

  @RDR-034
  Scenario: 非文本的工具结果应按 `JSON.stringify` 转为文本
    Given 会话文件内容如下
      """
      {"id":"r-1","role":"user","content":[{"type":"tool_result","tool_use_id":"t-1","content":[{"type":"text","text":"line one"},{"type":"text","text":"line two"}]},{"type":"tool_result","tool_use_id":"t-2","content":[{"type":"text","text":"see image"},{"type":"image","source":{"data":"图"}}]},{"type":"tool_result","tool_use_id":"t-3","content":{"exitCode":0,"stdout":"完成"}},{"type":"tool_result","tool_use_id":"t-4"},{"type":"tool_result","tool_use_id":"t-5","content":42},{"type":"tool_result","tool_use_id":"t-6","content":["plain","strings"]}]}
      """
    When 调用 `ConversationReader.read(filePath)`
    Then 第 1 个 turn 的 toolResults 内容应为
      | toolUseId | content                                                                      |
      | t-1       | line one\nline two                                                           |
      | t-2       | [{"type":"text","text":"see image"},{"type":"image","source":{"data":"图"}}] |
      | t-3       | {"exitCode":0,"stdout":"完成"}                                               |
      | t-4       |                                                                              |
      | t-5       | 42                                                                           |
      | t-6       | ["plain","strings"]                                                          |

  @RDR-035
  Scenario Outline: 多行工具结果应保留能与省略号一起放下的全部完整行
    Given 设置 `SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT` 为 "<limit>"
    And 工具结果共 30 行，每行形如 `line-00-zzzzzzzzzz`
    When 执行 `compact()`
    Then `[Result]` 应为前 <kept> 行加上单独一行的 `...`

    Examples:
      | limit | kept |
      | 200   | 10   |
      | 60    | 3    |
      | 59    | 2    |
      | 22    | 1    |

  @RDR-074 @beyond-seed
  Scenario Outline: CRLF 结尾的多行工具结果按 `\n` 分行，每行保留其 `\r`，截断后仍是结果的开头 — 上限 <limit>
    A line of a tool result ends at `\n`, as the original splits it (`content.split('\n')`): a command that
    prints CRLF lines keeps each `\r` in the kept lines, which count towards the limit, so the `[Result]`
    is the start of the output followed by `\n...`.
    Given 设置 `SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT` 为 "<limit>"
    And 工具结果共 30 行，每行形如 `line-00-zzzzzzzzzz` 且以 CRLF 结尾
    When 执行 `compact()`
    Then `[Result]` 应为前 <kept> 行加上单独一行的 `...`

    Examples:
      | limit | kept |
      | 200   | 9    |
      | 60    | 2    |

  @RDR-036
  Scenario Outline: 首行都放不下时工具结果应按字符截断
    Given 设置 `SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT` 为 "<limit>"
    And 工具结果共 30 行，每行形如 `line-00-zzzzzzzzzz`
    When 执行 `compact()`
    Then `[Result]` 应为结果的前 <chars> 个字符加 `...`

    Examples:
      | limit | chars |
      | 21    | 18    |
      | 3     | 0     |

  @RDR-037
  Scenario: 多行工具结果遇到放不下的行就应停止，不跳过它去保留后面的行
    Given 设置 `SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT` 为 "30"
    And 工具结果为以下多行文本
      """
      short
      LLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLL
      tiny
      end
      """
    When 执行 `compact()`
    Then `[Result]` 应为前 1 行加上单独一行的 `...`

  @RDR-038 @live-settings
  Scenario: 非 ASCII 文本应按字符计入 `estimatedTokens`
    Given 会话文件内容如下
      """
      {"id":"zh-1","role":"user","content":"你好，世界"}
      """
    And 设置 `SYNAPSE_CHARS_PER_TOKEN` 为 "1"
    When 对同一会话执行 `summarize`
    Then `estimatedTokens` 应为 7

  @RDR-039 @live-settings
  Scenario: tool 行的结果应计入 `estimatedTokens`
    Given 会话文件内容如下
      """
      {"role":"user","content":[{"type":"text","text":"Run the tests"}]}
      {"role":"assistant","content":[],"toolCalls":[{"id":"call-1","name":"bash","arguments":"{\"command\":\"npm test\"}"}]}
      {"role":"tool","content":[{"type":"text","text":"3 passing"}],"toolCallId":"call-1"}
      {"role":"assistant","content":[{"type":"text","text":"All tests pass."}]}
      """
    And 设置 `SYNAPSE_CHARS_PER_TOKEN` 为 "1"
    When 对同一会话执行 `summarize`
    And 把 tool 行的文本加长 40 个字符后再次执行 `summarize`
    Then 两次的 `estimatedTokens` 应相差 40

  @RDR-056
  Scenario: 行自带的 id 与生成的 id 同形时，生成的 id 仍与其它 turn 的 id 互不相同
    # A line's own id is kept as it is; an id made up for a line without a usable one (empty, a number)
    # must still differ from it, whether the line with that id comes before or after, and also for the
    # turn of consecutive tool lines.
    Given 会话文件内容如下
      """
      {"id":"turn-3","role":"user","content":"第一个问题"}
      {"id":"","role":"assistant","content":"第一个回答"}
      {"id":42,"role":"user","content":"第二个问题"}
      {"id":"turn-2","role":"assistant","content":"第二个回答","toolCalls":[{"id":"c-1","name":"bash","arguments":"{}"}]}
      {"role":"tool","content":"3 passing","toolCallId":"c-1"}
      {"id":"turn-5","role":"assistant","content":"完成"}
      {"id":"turn-5-2","role":"user","content":"谢谢"}
      """
    When 调用 `ConversationReader.read(filePath)`
    Then 各 turn 的 id 应为
      | role      | id       |
      | user      | turn-3   |
      | assistant | (生成)   |
      | user      | (生成)   |
      | assistant | turn-2   |
      | user      | (生成)   |
      | assistant | turn-5   |
      | user      | turn-5-2 |
    And 生成的 id 应为非空字符串且与其它 turn 的 id 互不相同

  @RDR-060
  Scenario: 内容块中数字形式的工具调用 id、名称与 tool_use_id 按文本返回
    # The contract's ids and names are strings; a transcript written by another tool may hold numbers there.
    Given 会话文件内容如下
      """
      {"id":"a1","role":"assistant","content":[{"type":"text","text":"Listing."},{"type":"tool_use","id":7,"name":"bash","input":{"command":"ls"}},{"type":"tool_use","id":"t-2","name":5,"input":{}}]}
      {"id":"u1","role":"user","content":[{"type":"tool_result","tool_use_id":7,"content":"a.txt"},{"type":"tool_result","tool_use_id":"t-2","content":"done"}]}
      """
    When 调用 `ConversationReader.read(filePath)`
    Then 助手 turn 的 `toolCalls` 应包含解析后的参数
      | id  | name | input             |
      | 7   | bash | {"command": "ls"} |
      | t-2 | 5    | {}                |
    And `role: "tool"` 行应作为工具结果挂到紧随其后的 user turn 上
      | turn | toolUseId | content |
      | 2    | 7         | a.txt   |
      | 2    | t-2       | done    |

  @RDR-061
  Scenario: 多行工具结果以空行开头且第二行放不下时，只保留这一空行加单独一行的 `...`
    # As the original's line-by-line loop does: the empty first line fits, the long line after it does not.
    Given 设置 `SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT` 为 "30"
    And 工具结果为以下多行文本
      """

      LLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLL
      end
      """
    When 执行 `compact()`
    Then `[Result]` 应为前 1 行加上单独一行的 `...`

  @RDR-062
  Scenario: 上限只够放下省略号时，以空行开头的多行工具结果也只剩 `...`
    # The original's loop needs room for the ellipsis and its newline even for an empty first line.
    Given 设置 `SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT` 为 "3"
    And 工具结果为以下多行文本
      """

      LLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLL
      end
      """
    When 执行 `compact()`
    Then `[Result]` 应为结果的前 0 个字符加 `...`

  @RDR-063
  Scenario: content 为纯文本的助手行，其 toolCalls 也应成为工具调用
    Given 会话文件内容如下
      """
      {"id":"u1","role":"user","content":"Check the build"}
      {"id":"a1","role":"assistant","content":"Reading the log.","toolCalls":[{"id":"call-1","name":"read","arguments":"{\"path\":\"build.log\"}"}]}
      """
    When 调用 `ConversationReader.read(filePath)`
    Then 助手 turn 的 `toolCalls` 应包含解析后的参数
      | id     | name | input                 |
      | call-1 | read | {"path": "build.log"} |

  @RDR-064 @beyond-seed
  Scenario: 同一助手行的 tool_use 内容块与 toolCalls 都应成为工具调用，内容块在前
    Given 会话文件内容如下
      """
      {"id":"u1","role":"user","content":"Fix the build"}
      {"id":"a1","role":"assistant","content":[{"type":"text","text":"Looking."},{"type":"tool_use","id":"t-1","name":"read","input":{"path":"a.ts"}},{"type":"tool_use","id":"t-2","name":"grep","input":{"pattern":"TODO"}}],"toolCalls":[{"id":"c-1","name":"bash","arguments":"{\"command\":\"npm test\"}"},{"id":"c-2","name":"edit","arguments":"{\"path\":\"b.ts\"}"}]}
      """
    When 调用 `ConversationReader.read(filePath)`
    Then 助手 turn 的 `toolCalls` 应包含解析后的参数
      | id  | name | input                   |
      | t-1 | read | {"path": "a.ts"}        |
      | t-2 | grep | {"pattern": "TODO"}     |
      | c-1 | bash | {"command": "npm test"} |
      | c-2 | edit | {"path": "b.ts"}        |

  @RDR-065 @beyond-seed
  Scenario: 含孤立代理转义（\ud800）的行照常读取：角色、id、内容、toolCalls 与 toolCallId 都保留
    JSON.parse accepts an escaped lone surrogate (`"\ud800"`) in a string, so a line holding one is an
    ordinary line: every field of it is read as in any other line.
    Given 会话文件内容如下
      """
      {"id":"u1","role":"user","content":[{"type":"text","text":"Run the tests"}],"note":"\ud800"}
      {"id":"a1","role":"assistant","content":[],"toolCalls":[{"id":"call-1","name":"bash","arguments":"{\"command\":\"npm test\"}"}],"note":"\ud800"}
      {"id":"t1","role":"tool","content":[{"type":"text","text":"3 passing"}],"toolCallId":"call-1","note":"\udfff"}
      """
    When 调用 `ConversationReader.read(filePath)`
    Then 各 turn 的角色与文本应为
      | role      | content       |
      | user      | Run the tests |
      | assistant |               |
      | user      |               |
    And 各 turn 的 id 应为
      | role      | id     |
      | user      | u1     |
      | assistant | a1     |
      | user      | (生成) |
    And 助手 turn 的 `toolCalls` 应包含解析后的参数
      | id     | name | input                   |
      | call-1 | bash | {"command": "npm test"} |
    And `role: "tool"` 行应作为工具结果挂到紧随其后的 user turn 上
      | turn | toolUseId | content   |
      | 3    | call-1    | 3 passing |

  @RDR-072 @beyond-seed
  Scenario Outline: `compact` 的 `maxChars` 不是正数时不限长度 — maxChars=<max_chars>
    Only `maxChars > 0` limits the compact text (the original tests `maxChars > 0`); 0, the default, and a
    negative number both mean no limit, unlike `readTruncated`, where `maxChars <= 0` reads nothing.
    Given turns 中包含用户文本、助手文本、工具调用与工具结果
      """
      {"id":"m1","role":"user","content":"Fix the failing test"}
      {"id":"m2","role":"assistant","content":[{"type":"text","text":"Reading it."},{"type":"tool_use","id":"t1","name":"read","input":{}}]}
      {"id":"m3","role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"assert 1 == 2"}]}
      {"id":"m4","role":"assistant","content":"Fixed."}
      """
    When 以 `maxChars=<max_chars>` 调用 `compact(turns, maxChars)`
    Then 输出应与不传 `maxChars` 的 `compact(turns)` 全文相同

    Examples:
      | max_chars |
      | 0         |
      | -1        |
      | -30       |

  @RDR-073 @beyond-seed
  Scenario: 文本内容按 `JSON.stringify` 的写法计入 `estimatedTokens`：引号、反斜杠、换行与制表符各算两个字符
    A turn is measured as the JSON text of its content, as the original's `JSON.stringify` writes it: a
    string content is its characters in quotes with `"`, `\`, a newline and a tab each written as a
    two-character escape, so the line below measures 39 characters (10 tokens at the default 4 characters
    per token), not its 32 characters and two quotes (9 tokens).
    Given 未设置 `SYNAPSE_CHARS_PER_TOKEN`
    And 会话的 turns 读自以下各行
      """
      {"id":"q-1","role":"user","content":"Run \"make\" in C:\\build\nthen\ttest"}
      """
    When 调用 `summarize(turns)`
    Then 摘要的 `estimatedTokens` 应为 10（默认每 4 个字符计 1 token）

  @RDR-091 @beyond-seed
  Scenario: 不是文本的工具结果按 `JSON.stringify` 写出：2.0 写作 2，像数组下标的键按数值排在其它键之前
    A `tool_result` whose content is neither text nor text parts is written as the original writes it,
    `JSON.stringify` of the parsed line: `2.0` is `2`, `1.5e-7` keeps its exponent, and the object's keys
    that are array indices come first in numeric order (`"2"` before `"10"`), then the others in the order
    written (`"-1"` and `"01"` are no indices).
    Given 会话文件内容如下
      """
      {"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"wc","input":{"path":"a.txt"}}]}
      {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":{"elapsed":2.0,"lines":{"b":"bee","10":"ten","-1":"minus","2":"two","01":"zero-one"},"ratio":1.5e-7}}]}
      """
    When 调用 `ConversationReader.read(filePath)`
    Then 第 2 个 turn 的 toolResults 内容应为
      | tool_use_id | content                                                                                            |
      | t1          | {"elapsed":2,"lines":{"2":"two","10":"ten","b":"bee","-1":"minus","01":"zero-one"},"ratio":1.5e-7} |

  @RDR-092 @beyond-seed
  Scenario Outline: 不是文本的工具结果中的数与键按 JavaScript 的写法写出：<情形>
    `JSON.stringify` writes each number as JavaScript's Number::toString does (the shortest digits that read
    back as the same double; plain digits up to 21 integer digits, an exponent from 1e21 on and below
    1e-6, `-0` as `0`, an integer past 2**53 as the double JavaScript reads it, one past the largest
    double as `null`), and an object's array-index keys (up to 4294967294) first by number. A port that
    writes Python's `repr`, or stops at the wrong digit count, is caught at the edges below.
    Given 会话文件内容如下
      """
      {"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"calc","input":{}}]}
      {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":<结果>}]}
      """
    When 调用 `ConversationReader.read(filePath)`
    Then 第 2 个 turn 的 toolResults 内容应为
      | tool_use_id | content |
      | t1          | <写出>  |

    Examples:
      | 情形                       | 结果                                                          | 写出                                                         |
      | 整数部分为 1 或 0 的小数   | {"one":1.0,"zero":0.0,"minus_zero":-0.0,"half":0.5}           | {"one":1,"zero":0,"minus_zero":0,"half":0.5}                 |
      | 带符号与小数               | {"a":-1.5,"b":1.5,"c":-0.000001}                              | {"a":-1.5,"b":1.5,"c":-0.000001}                             |
      | 21 位与 22 位整数          | {"e20":1e20,"e21":1e21,"int":1000000000000000000000}          | {"e20":100000000000000000000,"e21":1e+21,"int":1e+21}        |
      | 有效数字多于一位的指数写法 | {"big":1.5e300,"long":123456789012345678901234}               | {"big":1.5e+300,"long":1.2345678901234569e+23}               |
      | 小于 1e-6 的数             | {"a":1e-7,"b":0.0000015,"c":1e-6}                             | {"a":1e-7,"b":0.0000015,"c":0.000001}                        |
      | 超过 2**53 与最大双精度数  | {"safe":9007199254740992,"past":9007199254740993,"inf":1e400} | {"safe":9007199254740992,"past":9007199254740992,"inf":null} |
      | 数组下标键的上限           | {"b":1,"4294967295":2,"4294967294":3,"0":4}                   | {"0":4,"4294967294":3,"b":1,"4294967295":2}                  |
      | 超过最大双精度数的整数、嵌套的 null 与布尔值 | {"huge":1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000,"minus":-1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000,"none":[null,{"x":null}],"flags":[true,{"on":false}]} | {"huge":null,"minus":null,"none":[null,{"x":null}],"flags":[true,{"on":false}]} |

  @RDR-093 @beyond-seed
  Scenario Outline: 空的 turn 列表 compact 后是空字符串 — maxChars=<max_chars>
    No turn, no block: `compact` of an empty list of turns is the empty string, without a limit (0) and
    with a positive `maxChars` alike; no label, no separator, no error.
    Given turns 为空列表
    When 以 `maxChars=<max_chars>` 调用 `compact(turns, maxChars)`
    Then 输出应为空字符串

    Examples:
      | max_chars |
      | 0         |
      | 200       |
