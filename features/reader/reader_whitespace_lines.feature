@reader @beyond-seed
Feature: 一行写了两个 JSON 值时该行被跳过，空行与只有空白的行不改变这一点
  As in the original (`JSON.parse` per line, blank lines filtered out), a line must hold exactly one JSON
  object: a line with two objects is skipped with a warning naming its line, and a blank or
  whitespace-only line anywhere in the file (first line included, with spaces, a tab or a carriage return)
  is skipped silently. A reader that parses the file as a stream of JSON values instead of line by line
  would read the two objects as two turns whenever a blank line elsewhere keeps the count of values equal
  to the count of lines.

  与原实现逐行 `JSON.parse` 一致：一行写了两个 JSON 对象时，该行被跳过并记录写明其行号的 warning；
  空行与只有空白（空格、制表符、回车）的行在任何位置（包括第一行）都被静默跳过。

  @RDR-058
  Scenario Outline: 一行写了两个 JSON 对象时该行被跳过 — <情形>
    Given 会话文件内容为 `<内容>`（`\s`、`\t`、`\r` 表示空格、制表符与回车）
    When 调用 `ConversationReader.read(filePath)`
    Then 返回的 turn 应依次为 id 为 `<turns>` 的行
    And 应依次为第 `<行>` 行各记录一条 warning 日志，日志写明该行的行号

    Examples:
      | 情形         | 内容                                                                                                                                                        | turns | 行 |
      | 没有空行且以换行结尾 | {"id":"u1","role":"user","content":"a"}\n{"id":"x","role":"user","content":"x"} {"id":"y","role":"assistant","content":"y"}\n{"id":"a2","role":"assistant","content":"b"}\n | u1,a2 | 2 |
      | 没有空行且末尾没有换行 | {"id":"u1","role":"user","content":"a"}\n{"id":"x","role":"user","content":"x"} {"id":"y","role":"assistant","content":"y"}\n{"id":"a2","role":"assistant","content":"b"} | u1,a2 | 2 |
      | 末行写了两个对象且没有换行 | {"id":"u1","role":"user","content":"a"}\n{"id":"x","role":"user","content":"x"} {"id":"y","role":"assistant","content":"y"} | u1 | 2 |
      | 其后有空行     | {"id":"u1","role":"user","content":"a"}\n{"id":"x","role":"user","content":"x"} {"id":"y","role":"assistant","content":"y"}\n\n{"id":"a2","role":"assistant","content":"b"}   | u1,a2 | 2 |
      | 首行是空行     | \n{"id":"x","role":"user","content":"x"} {"id":"y","role":"assistant","content":"y"}\n{"id":"a2","role":"assistant","content":"b"}                                         | a2    | 2 |
      | 首行只有空格    | \s\s\n{"id":"x","role":"user","content":"x"} {"id":"y","role":"assistant","content":"y"}\n{"id":"a2","role":"assistant","content":"b"}                                     | a2    | 2 |
      | 首行只有制表符   | \t\n{"id":"x","role":"user","content":"x"} {"id":"y","role":"assistant","content":"y"}\n{"id":"a2","role":"assistant","content":"b"}                                       | a2    | 2 |
      | 首行只有回车    | \r\n{"id":"x","role":"user","content":"x"} {"id":"y","role":"assistant","content":"y"}\n{"id":"a2","role":"assistant","content":"b"}                                       | a2    | 2 |
      | 其后有只含空格的行 | {"id":"u1","role":"user","content":"a"}\n{"id":"x","role":"user","content":"x"} {"id":"y","role":"assistant","content":"y"}\n\s\s\n{"id":"a2","role":"assistant","content":"b"} | u1,a2 | 2 |
      | 其前有只含制表符的行 | {"id":"u1","role":"user","content":"a"}\n\t\n{"id":"x","role":"user","content":"x"} {"id":"y","role":"assistant","content":"y"}\n{"id":"a2","role":"assistant","content":"b"} | u1,a2 | 3 |
      | CRLF 文件中的空行 | {"id":"u1","role":"user","content":"a"}\r\n\r\n{"id":"x","role":"user","content":"x"} {"id":"y","role":"assistant","content":"y"}\r\n{"id":"a2","role":"assistant","content":"b"}\r | u1,a2 | 3 |

  @RDR-085
  Scenario: 只有空白的行按 JavaScript 的 `trim()` 判断：只有 U+FEFF 或 Unicode 空格的行被静默跳过，只有 U+001C 或 U+0085 的行记录 warning
    The original drops the lines whose `line.trim()` is empty. JavaScript's white space holds the
    byte-order mark U+FEFF and the Unicode spaces (U+3000, U+00A0), but not the information separators
    U+001C..U+001F nor U+0085 NEXT LINE, which are then no JSON and are skipped with a warning. A reader
    that tests the lines with Python's `str.strip()` would warn about the first and keep quiet about the
    others.
    Given 会话文件内容如下，其中 `{U+XXXX}` 表示该码位的字符
      """
      {"id":"u1","role":"user","content":"a"}
      {U+FEFF}
      {U+3000}{U+00A0}
      {U+001C}
      {U+0085}
      {"id":"a2","role":"assistant","content":"b"}
      """
    When 调用 `ConversationReader.read(filePath)`
    Then 返回的 turn 应依次为 id 为 `u1,a2` 的行
    And 应依次为第 `4,5` 行各记录一条 warning 日志，日志写明该行的行号

  @RDR-089
  Scenario: `readTruncated` 的窗口也只在 `\n` 处分行，并按 JavaScript 的 `trim()` 跳过空白行
    `readTruncated` reads the lines of its window as `read` reads a file (RDR-071, RDR-085), as the
    original does (`truncated.split('\n').filter(line => line.trim())`): U+2028, U+2029 and U+0085 inside a
    line do not end it, a line of U+FEFF alone is skipped in silence, and a line of U+001C or U+0085 alone
    is no JSON and is skipped with a warning. A port that splits the window with Python's
    `str.splitlines()` loses the turns the window exists for; one that tests blank lines with `str.strip()`
    warns about the first and not the others.
    Given 会话文件内容如下，其中 `{U+XXXX}` 表示该码位的字符
      """
      {"id":"u1","role":"user","content":"第一段{U+2028}第二段"}
      {U+FEFF}
      {U+001C}
      {"id":"a1","role":"assistant","content":"Para one.{U+2029}Para two.{U+0085}Next line."}
      {U+0085}
      {"id":"u2","role":"user","content":"继续"}
      """
    When 以 `maxChars=100000` 调用 `readTruncated`
    Then 每个合法的 user 与 assistant 行都应依次成为一个内容完整的 turn
    And 应只记录 2 条 warning 日志，每个不是 JSON 的行一条
