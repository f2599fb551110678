@reader @beyond-seed
Feature: ConversationReader 的 warning 日志写明被跳过的行在文件中的行号
  A transcript with a damaged line is still read, and the warning for each skipped line (not a JSON
  object, or a tool line without a `toolCallId`) names that line by its number in the file, counting
  from 1 and counting blank lines, so a user can find it; the wording is free. The file is read whole
  (`read`), whether every line is a JSON object or a blank or damaged line makes some lines be read one
  by one, and in a file of more than 16 MiB, where a long line of CJK text crosses the 16 MiB byte, that
  line is read whole and the lines after it keep their numbers; so is a single line of more than 32 MiB.

  `read(filePath)` 读取整个文件时，每个被跳过的行（不是 JSON 对象，或缺少 `toolCallId` 的 tool 行）
  各记录一条 warning，日志写明该行在文件中的行号（从 1 起算，空行也计数），措辞不限。

  @RDR-054
  Scenario: 每行都是 JSON 对象时，缺少 toolCallId 的 tool 行的 warning 写明其行号
    Given 会话文件内容如下
      """
      {"role":"user","content":"Run the tests"}
      {"role":"assistant","content":"Running.","toolCalls":[{"id":"c-1","name":"bash","arguments":"{}"}]}
      {"role":"tool","content":"3 passing"}
      {"role":"assistant","content":"Done."}
      """
    When 调用 `ConversationReader.read(filePath)`
    Then 应依次为第 `3` 行各记录一条 warning 日志，日志写明该行的行号

  @RDR-055
  Scenario: 含空行与损坏行的文件中，每个被跳过的行的 warning 写明其行号
    Given 会话文件内容如下
      """
      {"role":"user","content":"Run the tests"}

      {"role":"assistant","content":"Running.","toolCalls":[{"id":"c-1","name":"bash","arguments":"{}"}]}
      {"role":"tool","content":"3 passing"
      {"role":"tool","content":"3 passing"}
      {"role":"assistant","content":"Done."}
      """
    When 调用 `ConversationReader.read(filePath)`
    Then 应依次为第 `4,5` 行各记录一条 warning 日志，日志写明该行的行号

  @RDR-057
  Scenario: 大于 16 MiB 的文件中，跨过第 16 MiB 字节的中文长行完整成为 turn，其后被跳过的行的 warning 写明文件中的行号
    # About 40 000 lines; the byte at 16 MiB is the second byte of a three-byte character.
    Given 一个大于 16 MiB 的会话文件：中文对话行中有一行中文长行跨过第 16 MiB 字节，文件以下列各行结束且末尾没有换行
      """
      {"role":"user","content":"跨块之后的第一行"}
      {"role":"assistant","content":"损坏的行
      {"role":"tool","content":"缺少 toolCallId"}
      {"role":"assistant","content":"最后一行没有换行"}
      """
    When 调用 `ConversationReader.read(filePath)`
    Then 每个合法的 user 与 assistant 行都应依次成为一个内容完整的 turn
    And 应依次为末尾第 `2,3` 行各记录一条 warning 日志，日志写明该行在文件中的行号

  @RDR-059
  Scenario: 一行超过 32 MiB 的中文长行完整成为 turn，其后被跳过的行的 warning 写明文件中的行号
    Given 一个会话文件：第 2 行是一行超过 32 MiB 的中文长行，文件以下列各行结束且末尾没有换行
      """
      {"role":"user","content":"长行之后的第一行"}
      {"role":"tool","content":"缺少 toolCallId"}
      {"role":"assistant","content":"最后一行没有换行"}
      """
    When 调用 `ConversationReader.read(filePath)`
    Then 每个合法的 user 与 assistant 行都应依次成为一个内容完整的 turn
    And 应依次为末尾第 `2` 行各记录一条 warning 日志，日志写明该行在文件中的行号

  @RDR-071
  Scenario: 行内的 U+2028、U+2029 与 U+0085 不是换行：这样的行照常成为 turn，其后被跳过的行的 warning 写明其行号
    A line ends at `\n` only, as the original splits the file (`content.split('\n')`): `JSON.stringify`
    writes U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR and U+0085 NEXT LINE unescaped, so a pasted
    paragraph brings them into a transcript line, which stays one line and one turn. A reader that splits
    where Python's `str.splitlines()` does cuts it into two halves that are no JSON.
    Given 会话文件内容如下，其中 `{U+XXXX}` 表示该码位的字符
      """
      {"role":"user","content":"第一段{U+2028}第二段"}
      {"role":"assistant","content":"Para one.{U+2029}Para two.{U+0085}Next line."}
      {"role":"tool","content":"缺少 toolCallId"}
      {"role":"assistant","content":"Done."}
      """
    When 调用 `ConversationReader.read(filePath)`
    Then 每个合法的 user 与 assistant 行都应依次成为一个内容完整的 turn
    And 应依次为第 `3` 行各记录一条 warning 日志，日志写明该行的行号

  @RDR-083
  Scenario: 含 NaN 或 Infinity 的行不是 JSON：该行被跳过，warning 写明其行号，前后的行照常读取
    A line is read with `JSON.parse`, which refuses `NaN`, `Infinity` and `-Infinity` (what Python's
    `json.dumps` writes for such numbers unless told otherwise): such a line is skipped like any damaged
    line, with a warning naming it, and is never a turn. A reader that parses lines with a lenient JSON
    reader (Python's `json.loads`) would read all five lines.
    Given 会话文件内容如下
      """
      {"id":"u1","role":"user","content":"统计一下测试耗时"}
      {"id":"x1","role":"assistant","content":"平均耗时未知","latency":NaN}
      {"id":"x2","role":"user","content":"再试一次","score":Infinity}
      {"id":"x3","role":"assistant","content":[{"type":"text","text":"好的"}],"delta":[1,-Infinity]}
      {"id":"a2","role":"assistant","content":"平均耗时 1.5 秒"}
      """
    When 调用 `ConversationReader.read(filePath)`
    Then 返回的 turn 应依次为 id 为 `u1,a2` 的行
    And 应依次为第 `2,3,4` 行各记录一条 warning 日志，日志写明该行的行号
