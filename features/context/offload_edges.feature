@context @beyond-seed
Feature: 多片段 tool 消息的卸载与恢复
  Pins how tool messages whose content has several parts are handled: the offloaded file holds the text
  parts joined with a newline (other parts are ignored), and a reference is found in the first text part
  even after a non-text part, with or without a space after `Tool result is at:`, and with blank space or
  newlines around it. After a compaction, a reference in any text part of a kept tool message (not only
  the first) keeps its file. A tool message whose file cannot be written whole (a full disk) stays as it
  was, no partial file is left behind, and saving leaves no file descriptor open, also when the write
  fails; the warning then logged is worded as the original's: `Failed to offload tool message, skipping
  message`, with the error `Failed to save offloaded content: <cause>`.

  @CTX-034
  Scenario: 多个文本片段的 tool 消息卸载后文件内容为各片段以换行连接
    Given 一个每字符计 1 token 的计数器与一个空的会话 offload 目录
    And ContextManager 参数为 `scanRatio=1` 与 `minChars=50`
    And 历史消息为:
      | role | text | repeat |
      | tool | a    | 60     |
      | user | 继续   | 1      |
    And 第 `1` 条消息的内容改为文本片段 "第一段输出"、一个图片片段与文本片段 "第二段输出"，各重复 `20` 次
    And 当前 token 超过 offload 阈值
    When 调用 `offloadIfNeeded(messages)`
    Then `offloadedCount` 应为 `1`
    And 第 `1` 条消息的卸载文件内容应为其文本片段以换行连接
    And 结果的 token 统计应与消息一致

  @CTX-035
  Scenario: 恢复时引用位于非文本片段之后或冒号后没有空格也应被识别
    Given 一个会话 offload 目录与一个使用脚本化模型 "main-model" 的 ContextCompactor（`preserveCount=5`）
    And offload 文件:
      | file                     | content |
      | {offloaded}/first.txt    | 第一个工具输出 |
      | {offloaded}/second.txt   | 第二个工具输出 |
    And 模型的总结回复为 "## Current Status\n摘要"
    And 历史消息为:
      | role      | text                                    | call  |
      | user      | 读取两个文件                                  |       |
      | assistant | 调用 read                                 | c1,c2 |
      | tool      | Tool result is at: {offloaded}/first.txt | c1    |
      | tool      | Tool result is at:{offloaded}/second.txt | c2    |
      | assistant | 读完了                                     |       |
      | user      | 继续                                      |       |
      | assistant | 好的                                      |       |
      | user      | 谢谢                                      |       |
      | assistant | 不客气                                     |       |
      | user      | 再见                                      |       |
    And 第 `3` 条消息的内容前加入一个图片片段
    When 执行 compact
    Then 总结模型看到的第 `3` 条消息应为 "第一个工具输出"
    And 总结模型看到的第 `4` 条消息应为 "第二个工具输出"

  @CTX-036
  Scenario: 写入卸载文件失败的消息保持原样并记录 warning，其后的消息照常卸载
    Given 一个每字符计 1 token 的计数器与一个空的会话 offload 目录
    And ContextManager 参数为 `scanRatio=1` 与 `minChars=50`
    And 历史消息为:
      | role | text | repeat |
      | tool | a    | 60     |
      | tool | b    | 60     |
      | user | 继续   | 1      |
    And offload 存储写入第 `1` 个文件时失败
    And 当前 token 超过 offload 阈值
    When 调用 `offloadIfNeeded(messages)`
    Then `offloadedCount` 应为 `1`
    And 第 `1` 条消息应保持原样并记录 warning，第 `2` 条消息应被卸载

  @CTX-037
  Scenario: 没有文本片段的 tool 消息以紧凑 JSON（保留非 ASCII 字符）卸载
    Given 一个每字符计 1 token 的计数器与一个空的会话 offload 目录
    And ContextManager 参数为 `scanRatio=1` 与 `minChars=50`
    And 历史消息为:
      | role | text | repeat |
      | tool | a    | 1      |
      | user | 继续   | 1      |
    And 第 `1` 条消息的内容只有一个说明为 "一张很大的截图" 的图片片段
    And 当前 token 超过 offload 阈值
    When 调用 `offloadIfNeeded(messages)`
    Then `offloadedCount` 应为 `1`
    And 第 `1` 条消息的卸载文件应为其内容的紧凑 JSON 且保留非 ASCII 字符

  @CTX-117
  Scenario: 没有文本片段的 tool 消息按原实现 JSON.stringify 的写法卸载：1280.0 写作 1280，像数组下标的键按数值排在前面
    The original saves `JSON.stringify(message.content)`. JavaScript writes a number without a fraction
    as an integer (`1280.0` is `1280`) and `1e-6` as `0.000001`, and an object holds the keys that are
    array indices (`"2"`, `"10"`) first, in numeric order, then the others in the order written. A
    content written by a Python tool holds such floats; a port that saves its own JSON writer's text
    (`json.dumps`) writes `1280.0` and keeps `"10"` before `"2"`.
    Given 一个每字符计 1 token 的计数器与一个空的会话 offload 目录
    And ContextManager 参数为 `scanRatio=1` 与 `minChars=50`
    And 历史消息为:
      | role | text | repeat |
      | tool | a    | 1      |
      | user | 继续   | 1      |
    And 第 `1` 条消息的内容改为以下 JSON 片段
      """
      [{"type": "image", "alt": "截图", "width": 1280.0, "height": 720.0, "scale": 1e-6, "regions": {"10": "footer", "2": "header", "b": "body"}}]
      """
    And 当前 token 超过 offload 阈值
    When 调用 `offloadIfNeeded(messages)`
    Then `offloadedCount` 应为 `1`
    And 第 `1` 条消息的卸载文件内容应为 "[{"type":"image","alt":"截图","width":1280,"height":720,"scale":0.000001,"regions":{"2":"header","10":"footer","b":"body"}}]"

  @CTX-061
  Scenario: 写入卸载文件时超过文件大小上限（如磁盘写满），该消息保持原文且卸载目录中不留下残缺文件
    Given 一个每字符计 1 token 的计数器与一个空的会话 offload 目录
    And ContextManager 参数为 `scanRatio=1` 与 `minChars=50`
    And 历史消息为:
      | role | text | repeat |
      | tool | a    | 251    |
      | tool | b    | 200    |
      | user | 继续 | 1      |
    And 当前 token 超过 offload 阈值
    When 在实现进程只能写入 `250` 字节以内的文件时调用 `offloadIfNeeded(messages)`
    Then `offloadedCount` 应为 `1`
    And 第 `1` 条消息应保持原文，第 `2` 条应被卸载且文件内容完整
    And 卸载目录中应只有第 `2` 条消息的文件

  @CTX-093
  Scenario: 写入卸载文件失败时记录原实现措辞的 warning，并带上原实现的保存错误信息
    Given 一个每字符计 1 token 的计数器与一个空的会话 offload 目录
    And ContextManager 参数为 `scanRatio=1` 与 `minChars=50`
    And 历史消息为:
      | role | text | repeat |
      | tool | a    | 251    |
      | user | 继续 | 1      |
    And 当前 token 超过 offload 阈值
    When 在实现进程只能写入 `250` 字节以内的文件时调用 `offloadIfNeeded(messages)`
    Then `offloadedCount` 应为 `0`
    And 应只记录一条 warning，以 "Failed to offload tool message, skipping message" 开头并包含 "Failed to save offloaded content:"

  @CTX-062
  Scenario: 一次卸载 40 条 tool 消息不泄漏文件描述符
    Given 一个每字符计 1 token 的计数器与一个空的会话 offload 目录
    And ContextManager 参数为 `scanRatio=1` 与 `minChars=50`
    And 历史为 `40` 条各 `100` 个字符的 tool 消息加一条 user 消息
    And 当前 token 超过 offload 阈值
    When 在实现进程只能再打开 `16` 个文件时调用 `offloadIfNeeded(messages)`
    Then `offloadedCount` 应为 `40`
    And 每个卸载文件都应命名为互不相同的随机 UUID（版本 4）加扩展名 `.txt`

  @CTX-069
  Scenario: 写入失败的卸载也不泄漏文件描述符，其后的 tool 消息照常卸载
    Given 一个每字符计 1 token 的计数器与一个空的会话 offload 目录
    And ContextManager 参数为 `scanRatio=1` 与 `minChars=50`
    And 历史为 `20` 条各 `300` 个字符、`20` 条各 `100` 个字符的 tool 消息加一条 user 消息
    And 当前 token 超过 offload 阈值
    When 在实现进程只能写入 `250` 字节以内的文件且只能再打开 `8` 个文件时调用 `offloadIfNeeded(messages)`
    Then `offloadedCount` 应为 `20`
    And 前 `20` 条消息应保持原文，其后的 tool 消息都应被卸载且文件内容完整

  @CTX-084
  Scenario: 保留区 tool 消息的第二个文本片段中的卸载引用也让文件保留
    Given 一个会话 offload 目录与一个使用脚本化模型 "main-model" 的 ContextCompactor（`preserveCount=5`）
    And offload 文件:
      | file                    | content     |
      | {offloaded}/early.txt   | 早期的工具输出     |
      | {offloaded}/kept.txt    | 保留区仍引用的工具输出 |
      | {offloaded}/orphan.txt  | 无人引用的工具输出   |
    And 历史消息为:
      | role      | text                                     | call |
      | user      | 读取早期输出                                   |      |
      | assistant | 调用 read                                  | c1   |
      | tool      | Tool result is at: {offloaded}/early.txt | c1   |
      | assistant | 读完了                                      |      |
      | user      | 再读取一次                                    |      |
      | user      | 请读取保留的输出                                 |      |
      | assistant | 调用 read                                  | c2   |
      | tool      | 占位                                       | c2   |
      | assistant | 读完了                                      |      |
      | user      | 继续                                       |      |
    And 第 `8` 条 tool 消息的内容改为文本片段 "输出较长，已卸载：" 加上引用 `{offloaded}/kept.txt` 的第二个文本片段
    And 模型的总结回复为 "## Current Status\n读取完成"
    When 执行 compact 清理阶段
    Then `{offloaded}/kept.txt` 应保留且内容不变，其余卸载文件都应被删除并恰好列入 `deletedFiles`

  @CTX-119 @beyond-seed
  Scenario: 保留区 tool 消息中非文本片段里的卸载引用不让文件保留
    Only parts of type `text` are read for references, as the original's cleanup skips every other part;
    a part of another type that happens to carry a `text` field (`output_text` of another API) protects
    nothing, so an implementation that reads any part with text is caught.
    Given 一个会话 offload 目录与一个使用脚本化模型 "main-model" 的 ContextCompactor（`preserveCount=5`）
    And offload 文件:
      | file                    | content     |
      | {offloaded}/early.txt   | 早期的工具输出     |
      | {offloaded}/kept.txt    | 保留区的非文本片段引用的工具输出 |
    And 历史消息为:
      | role      | text                                     | call |
      | user      | 读取早期输出                                   |      |
      | assistant | 调用 read                                  | c1   |
      | tool      | Tool result is at: {offloaded}/early.txt | c1   |
      | assistant | 读完了                                      |      |
      | user      | 再读取一次                                    |      |
      | user      | 请读取保留的输出                                 |      |
      | assistant | 调用 read                                  | c2   |
      | tool      | 占位                                       | c2   |
      | assistant | 读完了                                      |      |
      | user      | 继续                                       |      |
    And 第 `8` 条 tool 消息的内容改为文本片段 "输出较长，已卸载：" 加上 type 为 "output_text"、text 为引用 `{offloaded}/kept.txt` 的片段
    And 模型的总结回复为 "## Current Status\n读取完成"
    When 执行 compact 清理阶段
    Then 所有卸载文件都应被删除并恰好列入 `deletedFiles`

  @CTX-085
  Scenario: 恢复时引用前后的空白与换行不影响识别
    Given 一个会话 offload 目录与一个使用脚本化模型 "main-model" 的 ContextCompactor（`preserveCount=5`）
    And offload 文件:
      | file                     | content |
      | {offloaded}/first.txt    | 第一个工具输出 |
      | {offloaded}/second.txt   | 第二个工具输出 |
    And 模型的总结回复为 "## Current Status\n摘要"
    And 历史消息为:
      | role      | text                                          | call  |
      | user      | 读取两个文件                                        |       |
      | assistant | 调用 read                                       | c1,c2 |
      | tool      | \n  Tool result is at: {offloaded}/first.txt   | c1    |
      | tool      | Tool result is at: {offloaded}/second.txt\n    | c2    |
      | assistant | 读完了                                           |       |
      | user      | 继续                                            |       |
      | assistant | 好的                                            |       |
      | user      | 谢谢                                            |       |
      | assistant | 不客气                                           |       |
      | user      | 再见                                            |       |
    When 执行 compact
    Then 总结模型看到的第 `3` 条消息应为 "第一个工具输出"
    And 总结模型看到的第 `4` 条消息应为 "第二个工具输出"


  @CTX-091
  Scenario: 多个文本片段的 tool 消息按以换行连接后的文本长度与 `minChars` 比较
    The length compared with `minChars` is that of the text the offload would save, the text parts joined
    with a newline: two parts of 25 characters are 51 characters, over `minChars=50`, so the message is
    offloaded although its parts add up to 50.
    Given 一个每字符计 1 token 的计数器与一个空的会话 offload 目录
    And ContextManager 参数为 `scanRatio=1` 与 `minChars=50`
    And 历史消息为:
      | role | text | repeat |
      | tool | a    | 60     |
      | user | 继续   | 1      |
    And 第 `1` 条消息的内容改为文本片段 "第一段输出"、一个图片片段与文本片段 "第二段输出"，各重复 `5` 次
    And 当前 token 超过 offload 阈值
    When 调用 `offloadIfNeeded(messages)`
    Then `offloadedCount` 应为 `1`
    And 第 `1` 条消息的卸载文件内容应为其文本片段以换行连接

  @CTX-092
  Scenario: 只在中间提到 `Tool result is at:` 的长 tool 输出照常卸载
    Only a text that starts with the marker (after blank space) is a reference already offloaded, as the
    seed says ("以 `Tool result is at:` 开头"); a long result that merely mentions it, such as a search
    through logs that quote a reference, is offloaded like any other.
    Given 一个每字符计 1 token 的计数器与一个空的会话 offload 目录
    And ContextManager 参数为 `scanRatio=1` 与 `minChars=50`
    And 历史消息为:
      | role | text                                                                        | repeat |
      | tool | logs/agent.log:12: saved; Tool result is at: /tmp/offloaded/a.txt (earlier)  | 1      |
      | user | 继续                                                                          | 1      |
    And 当前 token 超过 offload 阈值
    When 调用 `offloadIfNeeded(messages)`
    Then `offloadedCount` 应为 `1`
    And 第 `1` 条消息应卸载为 `.txt` 文件

  @CTX-102
  Scenario Outline: 首尾的空白也计入与 `minChars` 比较的长度 — <情形>
    The original compares the length of the text it would save, white space at its ends included: command
    output ends with a newline and may be indented, and a result over `minChars` only with them is
    offloaded whole, that white space kept in the file.
    Given 一个每字符计 1 token 的计数器与一个空的会话 offload 目录
    And ContextManager 参数为 `scanRatio=1` 与 `minChars=50`
    And 历史消息为:
      | role | text   | repeat |
      | tool | <文本> | 1      |
      | user | 继续   | 1      |
    And 当前 token 超过 offload 阈值
    When 调用 `offloadIfNeeded(messages)`
    Then `offloadedCount` 应为 `1`
    And 第 `1` 条消息的卸载文件内容应为其文本片段以换行连接

    Examples:
      | 情形                 | 文本                          |
      | 50 个字符加结尾换行  | {x * 50}{U+000A}              |
      | 两个空格缩进的 49 个字符 | {U+0020}{U+0020}{y * 49}      |

  @CTX-112
  Scenario: 没有文本或文本为 null 的文本片段按 `Array.join` 计为空文本，卸载文件仍是各片段以换行连接
    The original saves `part.text` of every part of type `text` joined with a newline
    (`parts.map((part) => part.text).join('\n')`), and `Array.join` writes a missing or null text as
    nothing: a result whose first text part has no text and whose second has `null` is saved as two empty
    lines followed by the third part. A port that joins only the parts holding a text, or writes null as
    `None`, saves another text.
    Given 一个每字符计 1 token 的计数器与一个空的会话 offload 目录
    And ContextManager 参数为 `scanRatio=1` 与 `minChars=50`
    And 历史消息为:
      | role | text | repeat |
      | tool | a    | 60     |
      | user | 继续   | 1      |
    And 第 `1` 条消息的内容改为以下 JSON 片段
      """
      [{"type": "text"}, {"type": "text", "text": null}, {"type": "text", "text": "npm test: 3 passing, 0 failing, 12 skipped; coverage 87.5% of 1204 lines"}]
      """
    And 当前 token 超过 offload 阈值
    When 调用 `offloadIfNeeded(messages)`
    Then `offloadedCount` 应为 `1`
    And 第 `1` 条消息的卸载文件内容应为 "\n\nnpm test: 3 passing, 0 failing, 12 skipped; coverage 87.5% of 1204 lines"

  @CTX-120
  Scenario: content 为字符串的 tool 消息按其文本卸载：与 `minChars` 比较的是这段文本的长度，卸载文件就是这段文本
    A message's `content` may be a plain string instead of a list of parts (the session format keeps such
    a message as it is). The string is the message's text, as one text part would be: its own length is
    compared with `minChars`, and the offload file holds it as it is, not its JSON text (in quotes, with
    `\"`, `\\` and `\n` escapes, five characters longer here, which would push a 50-character text past
    `minChars=50`). The original types a tool message's content as a list of parts, and a string makes its
    offload throw.
    Given 一个每字符计 1 token 的计数器与一个空的会话 offload 目录
    And ContextManager 参数为 `scanRatio=1` 与 `minChars=50`
    And 历史消息为:
      | role | text | repeat |
      | tool | a    | 1      |
      | tool | a    | 1      |
      | user | 继续   | 1      |
    And 第 `1` 条消息的 content 改为以下字符串
      """
      3 个测试失败：
        - test_a 断言 "期望 1，实际 2"
        - test_b 找不到 C:\tmp\data.json
      """
    And 第 `2` 条消息的 content 改为以下字符串
      """
      一行输出，含 "引号" 与 \ 反斜杠，共五十个字符：xxxxxxxxxxxxxxxxxxxxxxx
      """
    And 当前 token 超过 offload 阈值
    When 调用 `offloadIfNeeded(messages)`
    Then `offloadedCount` 应为 `1`
    And 第 `2` 条消息应保持原文，第 `1` 条应被卸载且文件内容完整

  @CTX-121
  Scenario: content 为字符串的 tool 消息中的卸载引用在压缩前也被恢复
    A tool message whose content is a plain string holding an offload reference is restored like one
    whose first text part holds it; a string that is no reference reaches the summary as it is.
    Given 一个会话 offload 目录与一个使用脚本化模型 "main-model" 的 ContextCompactor（`preserveCount=5`）
    And offload 文件:
      | file                   | content |
      | {offloaded}/first.txt  | 第一个工具输出 |
    And 模型的总结回复为 "## Current Status\n摘要"
    And 历史消息为:
      | role      | text   | call  |
      | user      | 读取两个文件 |       |
      | assistant | 调用 read | c1,c2 |
      | tool      | 占位     | c1    |
      | tool      | 占位     | c2    |
      | assistant | 读完了    |       |
      | user      | 继续     |       |
      | assistant | 好的     |       |
      | user      | 谢谢     |       |
      | assistant | 不客气    |       |
      | user      | 再见     |       |
    And 第 `3` 条消息的 content 改为以下字符串
      """
      Tool result is at: {offloaded}/first.txt
      """
    And 第 `4` 条消息的 content 改为以下字符串
      """
      没有卸载的工具输出
      """
    When 执行 compact
    Then 总结模型看到的第 `3` 条消息应为 "第一个工具输出"
    And 总结模型看到的第 `4` 条消息应为 "没有卸载的工具输出"

  @CTX-122
  Scenario: 保留区中 content 为字符串的 tool 消息里的卸载引用也让文件保留，content 为 null 的 tool 消息不妨碍清理
    The cleanup reads the references of the kept tail from the text of every tool message: a plain-string
    content is that text, and a tool message without content (`null`) has none, which neither fails the
    compaction nor protects a file.
    Given 一个会话 offload 目录与一个使用脚本化模型 "main-model" 的 ContextCompactor（`preserveCount=5`）
    And offload 文件:
      | file                    | content     |
      | {offloaded}/early.txt   | 早期的工具输出     |
      | {offloaded}/kept.txt    | 保留区仍引用的工具输出 |
      | {offloaded}/orphan.txt  | 无人引用的工具输出   |
    And 历史消息为:
      | role      | text                                     | call  |
      | user      | 读取早期输出                                   |       |
      | assistant | 调用 read                                  | c1    |
      | tool      | Tool result is at: {offloaded}/early.txt | c1    |
      | assistant | 读完了                                      |       |
      | user      | 再读取一次                                    |       |
      | user      | 请读取保留的输出                                 |       |
      | assistant | 调用 read                                  | c2,c3 |
      | tool      | 占位                                       | c2    |
      | tool      | 占位                                       | c3    |
      | assistant | 读完了                                      |       |
      | user      | 继续                                       |       |
    And 第 `8` 条消息的 content 改为以下字符串
      """
      Tool result is at: {offloaded}/kept.txt
      """
    And 第 `9` 条消息的 content 为 null
    And 模型的总结回复为 "## Current Status\n读取完成"
    When 执行 compact 清理阶段
    Then `{offloaded}/kept.txt` 应保留且内容不变，其余卸载文件都应被删除并恰好列入 `deletedFiles`
