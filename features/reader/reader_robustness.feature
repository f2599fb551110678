@reader @seed-003 @beyond-seed
Feature: ConversationReader 的读取成本与配置容错
  Fixes of the original's flaws: reading the tail of a large session must not read the whole file, the
  numeric settings are read when used (the original read them once at import) and a broken one must not
  turn every estimate into Infinity or a negative number, and a compact text cut to `maxChars` must not
  start with the blank line that separated two blocks.

  @RDR-022
  Scenario: 读取大文件尾部时不应读取整个文件
    Given 一个 64 MiB 的会话文件，只有末尾 3 行是会话内容
      """
      {"id":"tail-1","role":"user","content":"Summarize the release notes"}
      {"id":"tail-2","role":"assistant","content":"Here is the summary of the release notes."}
      {"id":"tail-3","role":"user","content":"Thanks"}
      """
    When 以 `maxChars=1000` 调用 `readTruncated`
    Then 返回的 turn id 依次为 `tail-1, tail-2, tail-3`
    And 本次调用读取的字节数不应超过 64 KiB

  @RDR-023 @live-settings
  Scenario Outline: `SYNAPSE_CHARS_PER_TOKEN` 非法或非正数时应回退默认值
    Given 会话文件取自样例 `anthropic_sample.jsonl`
    And 设置 `SYNAPSE_CHARS_PER_TOKEN` 为 "<value>"
    When 对同一会话执行 `summarize`
    Then `estimatedTokens` 应为正整数且等于未设置该配置时的估算值

    Examples:
      | value |
      | 0     |
      | -3    |
      | abc   |
      |       |

  @RDR-024
  Scenario Outline: `SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT` 非法或非正数时应回退默认值
    Digits of other scripts (full-width ５０, Arabic-Indic ٥٠) are no number to the original's parseInt.
    Given 设置 `SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT` 为 "<value>"
    And 工具结果是 250 个字符的单行文本
    When 执行 `compact()`
    Then `[Result]` 内容应按默认上限 200 截断并追加 `...`

    Examples:
      | value |
      | 0     |
      | -1    |
      | many  |
      | ５０   |
      | ٥٠    |

  @RDR-025 @live-settings
  Scenario: `SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT` 应在使用时读取
    Given 设置 `SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT` 为 "50"
    And 工具结果是 250 个字符的单行文本
    When 执行 `compact()`
    Then `[Result]` 内容应按上限 50 截断并追加 `...`

  @RDR-026
  Scenario: compact 按 `maxChars` 截断后应从一个完整的块开始
    Given turns 中包含用户文本、助手文本、工具调用与工具结果
      """
      {"id":"m1","role":"user","content":"First message that is quite long"}
      {"id":"m2","role":"assistant","content":"Second message"}
      """
    When 以 `maxChars=30` 调用 `compact(turns, maxChars)`
    Then 输出应为 "[Assistant] Second message"

  @RDR-068 @live-settings
  Scenario Outline: `SYNAPSE_CHARS_PER_TOKEN` 与原版的 parseInt 一样只取开头的整数 — "<value>"
    A value past the largest double is Infinity to the original's parser, which refuses it as it refuses NaN:
    the default (4) applies. A cell's {0 * 308} stands for 0 written 308 times. Only ASCII digits are
    digits to parseInt (a full-width ３ is not, though Python's `int()` reads it), and it skips
    JavaScript's white space before them: U+FEFF is white space, U+001F is not ({U+XXXX} is that code point).
    Given 会话文件内容如下
      """
      {"id":"zh-1","role":"user","content":"你好，世界"}
      """
    And 设置 `SYNAPSE_CHARS_PER_TOKEN` 为 "<value>"
    When 对同一会话执行 `summarize`
    Then `estimatedTokens` 应为 <count>

    Examples:
      | value    | count |
      | 2.9      | 4     |
      | 3.5      | 3     |
      | 2 chars  | 4     |
      | 1{0 * 308} | 1   |
      | 2{0 * 308} | 2   |
      | ３       | 2     |
      | {U+001F}3 | 2    |
      | {U+FEFF}3 | 3    |

  @RDR-069
  Scenario Outline: `SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT` 与原版的 parseInt 一样只取开头的整数 — "<value>"
    Given 设置 `SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT` 为 "<value>"
    And 工具结果是 250 个字符的单行文本
    When 执行 `compact()`
    Then `[Result]` 内容应按上限 50 截断并追加 `...`

    Examples:
      | value    |
      | 50.9     |
      | 50 chars |
