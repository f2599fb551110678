@reader @beyond-seed
Feature: ConversationReader 的 warning 日志写明被跳过的行在文件中的行号
  A transcript with a damaged line is still read, and the warning for each skipped line (not a JSON
  object, or a tool line without a `toolCallId`) names that line by its number in the file, counting
  from 1 and counting blank lines, so a user can find it; the wording is free. The file is read whole
  (`read`), whether every line is a JSON object or a blank or damaged line makes some lines be read one
  by one.

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
