@reader @seed-003
Feature: compact 文本格式化规则
  `compact` renders turns as labelled blocks separated by a blank line, shortens long tool results and,
  when asked, keeps only the most recent part of the text.

  @RDR-011
  Scenario: 混合会话应按 `[User]/[Assistant]/[Tool]/[Result]` 顺序展开
    Given turns 中包含用户文本、助手文本、工具调用与工具结果
      """
      {"id":"m1","role":"user","content":"Help me refactor"}
      {"id":"m2","role":"assistant","content":[{"type":"text","text":"Let me read the file"},{"type":"tool_use","id":"t1","name":"read","input":{"path":"src/app.ts"}}]}
      {"id":"m3","role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"file content here"}]}
      {"id":"m4","role":"assistant","content":"Done!"}
      """
    When 调用 `compact(turns)`
    Then 输出应保留上述标签顺序
      | label       | text                 |
      | [User]      | Help me refactor     |
      | [Assistant] | Let me read the file |
      | [Tool]      | read                 |
      | [Result]    | file content here    |
      | [Assistant] | Done!                |
    And 各块之间应使用空行分隔

  @RDR-012
  Scenario Outline: Tool result 超过默认摘要上限时应截断加省略号
    Given 工具结果内容长度超过 `SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT` 默认值
    And 工具结果是 <length> 个字符的单行文本
    When 执行 `compact()`
    Then `[Result]` 内容应截断
    And 末尾应追加 `...`

    Examples:
      | length |
      | 201    |
      | 250    |
      | 5000   |

  @RDR-013
  Scenario: Tool result 超过默认摘要上限时应截断加省略号 — 恰好等于默认上限时原样保留
    Given 工具结果内容长度恰好等于 `SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT` 默认值
    And 工具结果是 200 个字符的单行文本
    When 执行 `compact()`
    Then `[Result]` 内容应原样保留且不追加 `...`

  @RDR-014
  Scenario: 含换行的 Tool result 截断应优先保留完整行
    Given 工具结果为多行文本且超出限制
    And 工具结果共 30 行，每行形如 `line-00-zzzzzzzzzz`
    When 执行结果截断
    Then 应优先按行边界截断并追加省略号
    And 避免中间切断一行导致可读性下降

  @RDR-015
  Scenario Outline: compact 指定 `maxChars` 时应从尾部保留最近上下文
    Given compact 全量文本超过 `maxChars`
      """
      {"id":"m1","role":"user","content":"OLDEST question: how do I configure the build for production?"}
      {"id":"m2","role":"assistant","content":[{"type":"text","text":"Let me look at the config first."},{"type":"tool_use","id":"t1","name":"read","input":{"path":"build.config.ts"}}]}
      {"id":"m3","role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"export default { mode: 'development' }"}]}
      {"id":"m4","role":"user","content":"And please keep the source maps."}
      {"id":"m5","role":"assistant","content":"Set mode to production and sourcemap to true. NEWEST"}
      """
    And `maxChars` 为 <max_chars>
    When 调用 `compact(turns, maxChars)`
    Then 输出长度应不超过 `maxChars`
    And 语义上应偏向保留末尾最近交互

    Examples:
      | max_chars |
      | 30        |
      | 80        |
      | 150       |

  @RDR-080 @beyond-seed
  Scenario: 文本只有空白的助手 turn 仍有自己的 `[Assistant]` 块
    The original's compact shows an assistant turn's text block whenever the text is not empty, without
    trimming it first: a turn whose text is a space or a lone newline still shows its `[Assistant]` block.
    Given turns 中包含用户文本、助手文本、工具调用与工具结果
      """
      {"id":"m1","role":"user","content":"Run the tests"}
      {"id":"m2","role":"assistant","content":[{"type":"text","text":" "},{"type":"tool_use","id":"t1","name":"bash","input":{}}]}
      {"id":"m3","role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}
      {"id":"m4","role":"assistant","content":"\n"}
      """
    When 调用 `compact(turns)`
    Then 输出应保留上述标签顺序
      | label       | text          |
      | [User]      | Run the tests |
      | [Assistant] |               |
      | [Tool]      | bash          |
      | [Result]    | ok            |
      | [Assistant] |               |
