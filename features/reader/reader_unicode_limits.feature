@reader @seed-003 @beyond-seed
Feature: ConversationReader 的长度限制按字符计数，混合内容按各自规则渲染
  Every limit of the reader counts characters (Unicode code points): a CJK character is three UTF-8
  bytes and an emoji outside the BMP is two UTF-16 units and four bytes, and each still counts as one.
  A limit checked only on ASCII text cannot tell these apart, so each one is exercised with CJK and emoji.
  A user turn that carries tool results and text renders as its results only, the original's rule.

  @RDR-050
  Scenario: `compact` 对任意 `maxChars` 都应从窗口内第一个完整行开始 — 中文与 emoji 按字符计数
    Given turns 中包含用户文本、助手文本、工具调用与工具结果
      """
      {"id":"m1","role":"user","content":"发布 🚀 之前先跑测试"}
      {"id":"m2","role":"assistant","content":[{"type":"text","text":"好的 👍 先运行测试"},{"type":"tool_use","id":"t1","name":"bash","input":{"command":"npm test"}}]}
      {"id":"m3","role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"✅ 3 通过\n🧪😀 0 失败"}]}
      {"id":"m4","role":"assistant","content":"全部通过 🎉🎉 可以发布"}
      """
    When 对从 1 到全文长度加 1 的每个 `maxChars` 调用 `compact(turns, maxChars)`
    Then 每次输出都应是全文末尾 `maxChars` 个字符中从第一个完整行开始的部分且不以空行开头

  @RDR-051
  Scenario Outline: Tool result 的摘要上限按字符计数 — 恰好等于上限的中文或 emoji 结果原样保留
    Given 设置 `SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT` 为 "<limit>"
    And 工具结果是 <limit> 个字符的单行文本，由 "<chars>" 循环组成
    When 执行 `compact()`
    Then `[Result]` 内容应原样保留且不追加 `...`

    Examples:
      | limit | chars    |
      | 200   | 中文结果 |
      | 200   | 🚀📦     |
      | 60    | 日志🧪ok |

  @RDR-052
  Scenario Outline: Tool result 的摘要上限按字符计数 — 超过上限一个字符的中文或 emoji 结果截断到上限
    Given 设置 `SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT` 为 "<limit>"
    And 工具结果是 <length> 个字符的单行文本，由 "<chars>" 循环组成
    When 执行 `compact()`
    Then `[Result]` 内容应截断
    And 末尾应追加 `...`

    Examples:
      | limit | length | chars    |
      | 200   | 201    | 中文结果 |
      | 200   | 201    | 🚀📦     |
      | 60    | 61     | 日志🧪ok |

  @RDR-053
  Scenario: 同时带文本与工具结果的用户 turn 只展示 `[Result]`
    Given turns 中包含用户文本、助手文本、工具调用与工具结果
      """
      {"id":"m1","role":"user","content":"Check the disk"}
      {"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"df","input":{}}]}
      {"id":"m3","role":"user","content":[{"type":"text","text":"here is the output"},{"type":"tool_result","tool_use_id":"t1","content":"92% used"}]}
      {"id":"m4","role":"assistant","content":"The disk is almost full."}
      """
    When 调用 `compact(turns)`
    Then 输出应保留上述标签顺序
      | label       | text                     |
      | [User]      | Check the disk           |
      | [Tool]      | df                       |
      | [Result]    | 92% used                 |
      | [Assistant] | The disk is almost full. |
    And 各块之间应使用空行分隔

  @RDR-067 @live-settings
  Scenario: `estimatedTokens` 按字符计数，BMP 之外的 emoji 也只算一个字符
    Given 会话文件内容如下
      """
      {"id":"e-1","role":"user","content":"发布🚀🎉"}
      {"id":"e-2","role":"assistant","content":[{"type":"text","text":"✅🧪"}]}
      """
    And 设置 `SYNAPSE_CHARS_PER_TOKEN` 为 "1"
    When 对同一会话执行 `summarize`
    Then `estimatedTokens` 应为 35
