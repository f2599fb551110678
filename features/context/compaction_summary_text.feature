@context @beyond-seed
Feature: 总结文本取自模型回复的文本片段
  The summary is the text parts of the model's reply joined by a newline; other parts (such as the
  model's thinking) are left out, and a reply without any text counts as a failed attempt.

  Background:
    Given 一个会话 offload 目录与一个使用脚本化模型 "main-model" 的 ContextCompactor（`preserveCount=5`）
    And 历史消息为 8 条普通对话消息

  @CTX-039
  Scenario: 只有空白的总结回复算作一次失败的尝试
    Given ContextCompactor 的 `retryCount=3`
    And 模型的总结回复为 "   "
    And 模型的总结回复为 "## Current Status\n第二次的摘要"
    When 执行 compact
    Then 压缩结果应为 `success=true`，第一条消息的文本为 "[Compressed History]\n\n## Current Status\n第二次的摘要"
    And 应只记录一条 warning，以 "Compact summary attempt 1 failed" 开头并包含 "API returned an empty response"

  @CTX-040
  Scenario: 多个文本片段以换行连接，非文本片段不计入总结
    Given 总结模型的回复依次由以下片段组成
      | type     | text              |
      | text     | ## Current Status |
      | thinking | 先整理一下思路    |
      | text     | 测试已全部通过    |
    When 执行 compact
    Then 压缩结果应为 `success=true`，第一条消息的文本为 "[Compressed History]\n\n## Current Status\n测试已全部通过"

  @CTX-101
  Scenario Outline: 总结按模型所写保留首尾的空白 — <情形>
    The original puts the reply's text after the `[Compressed History]` prefix as the model wrote it: only
    the test for an empty summary trims it, so a summary that opens with a blank line and an indented list item, or
    ends with a newline, keeps them.
    Given 模型的总结回复为 "<回复>"
    When 执行 compact
    Then 压缩结果应为 `success=true`，第一条消息的文本为 "[Compressed History]\n\n<回复>"

    Examples:
      | 情形             | 回复                                  |
      | 以空行与缩进开头 | \n  - 测试已全部通过\n  - 还剩文档要写 |
      | 以换行结尾       | ## Current Status\n测试已全部通过\n   |

  @CTX-110
  Scenario Outline: 只含 JavaScript 空白的总结回复算作一次失败的尝试 — <情形>
    A blank summary is a failed attempt (CTX-039; the original retries only on a reply with no part at
    all), and blank means what JavaScript's `trim()` empties, the white space of every other text the spec
    reads: the byte-order mark U+FEFF is white space there, so a reply of nothing else is empty and the
    next attempt gives the summary. A compactor that tests the reply with Python's `str.strip()`, which
    keeps U+FEFF, would take it as the summary.
    Given ContextCompactor 的 `retryCount=3`
    And 模型的总结回复为 "<回复>"
    And 模型的总结回复为 "## Current Status\n第二次的摘要"
    When 执行 compact
    Then 压缩结果应为 `success=true`，第一条消息的文本为 "[Compressed History]\n\n## Current Status\n第二次的摘要"
    And 应只记录一条 warning，以 "Compact summary attempt 1 failed" 开头并包含 "API returned an empty response"

    Examples:
      | 情形              | 回复                         |
      | 只有 U+FEFF       | {U+FEFF}                     |
      | U+FEFF 与其它空白 | \n{U+FEFF}{U+3000}{U+0009}  |

  @CTX-111
  Scenario Outline: 不是 JavaScript 空白的控制字符构成的总结照常使用 — <情形>
    U+001C..U+001F and U+0085 are not white space to JavaScript's `trim()` (Python's `str.strip()` removes
    them), so a reply of such a character is a summary, kept as the model wrote it, on the first attempt.
    Given 模型的总结回复为 "<回复>"
    When 执行 compact
    Then 压缩结果应为 `success=true`，第一条消息的文本为 "[Compressed History]\n\n<回复>"

    Examples:
      | 情形        | 回复     |
      | 只有 U+001C | {U+001C} |
      | 只有 U+0085 | {U+0085} |

  @CTX-114
  Scenario: 总结回复中文本为 null 的文本片段算作空文本
    The summary joins the text parts of the reply as the original joins a message's text parts
    (`parts.map((part) => part.text).join('\n')`), and `Array.join` writes a null text as nothing: the
    part still adds its line break. (Thinking blocks sit between the text parts, so no stream merges them
    into one text.) A compactor that joins `str()` of each text writes `None`.
    Given 总结模型的回复依次由以下片段组成
      | type     | text              |
      | text     | (null)            |
      | thinking | 先整理一下思路    |
      | text     | ## Current Status |
      | thinking | 再看一遍测试      |
      | text     | 测试已全部通过    |
    When 执行 compact
    Then 压缩结果应为 `success=true`，第一条消息的文本为 "[Compressed History]\n\n\n## Current Status\n测试已全部通过"

  @CTX-115 @beyond-seed
  Scenario: 相邻的文本片段是同一段文字，直接相连；被思考块隔开的文本片段以换行连接
    The original's model layer merges the text parts that follow one another in a reply into one text
    (a stream's chunks of one sentence), and only then joins the texts with a newline: a heading streamed
    as `## Current Sta` and `tus` stays one line, while the text after a thinking block starts a new one.
    A compactor that puts a newline between every two text parts breaks the heading in two.
    Given 总结模型的回复依次由以下片段组成
      | type     | text           |
      | text     | ## Current Sta |
      | text     | tus            |
      | thinking | 先整理一下思路 |
      | text     | 测试已全部通过 |
    When 执行 compact
    Then 压缩结果应为 `success=true`，第一条消息的文本为 "[Compressed History]\n\n## Current Status\n测试已全部通过"
