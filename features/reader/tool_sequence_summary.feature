@reader @seed-003
Feature: 工具序列与摘要统计
  The tool sequence keeps every call in order; the summary counts turns and tool calls and estimates
  tokens from the configured characters per token.

  @RDR-016
  Scenario: `extractToolSequence` 应返回按时间顺序的工具名列表
    Given 多轮 turn 中包含多个 toolCalls
      """
      {"id":"m1","role":"user","content":"Fix the failing test"}
      {"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"read","input":{"path":"a.ts"}},{"type":"tool_use","id":"t2","name":"grep","input":{"pattern":"foo"}}]}
      {"id":"m3","role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"..."},{"type":"tool_result","tool_use_id":"t2","content":"..."}]}
      {"id":"m4","role":"assistant","content":[{"type":"text","text":"Reading the test too."},{"type":"tool_use","id":"t3","name":"read","input":{"path":"a.test.ts"}}]}
      {"id":"m5","role":"user","content":[{"type":"tool_result","tool_use_id":"t3","content":"..."}]}
      {"id":"m6","role":"assistant","content":[{"type":"tool_use","id":"t4","name":"edit","input":{"path":"a.ts"}},{"type":"tool_use","id":"t5","name":"read","input":{"path":"a.ts"}}]}
      """
    When 调用 `extractToolSequence(turns)`
    Then 返回数组顺序应与出现顺序一致
      | tool |
      | read |
      | grep |
      | read |
      | edit |
      | read |
    And 不应去重导致顺序信息丢失

  @RDR-017
  Scenario: `summarize` 应统计 user/assistant/toolCalls 与 uniqueTools
    Given 输入会话包含多角色与重复工具调用
      """
      {"id":"m1","role":"user","content":"Fix the failing test"}
      {"id":"s1","role":"system","content":"You are a careful engineer."}
      {"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"read","input":{}},{"type":"tool_use","id":"t2","name":"grep","input":{}}]}
      {"id":"m3","role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a"},{"type":"tool_result","tool_use_id":"t2","content":"b"}]}
      {"id":"m4","role":"assistant","content":[{"type":"text","text":"Reading the test too."},{"type":"tool_use","id":"t3","name":"read","input":{}}]}
      {"id":"m5","role":"user","content":[{"type":"tool_result","tool_use_id":"t3","content":"c"}]}
      {"id":"m6","role":"assistant","content":[{"type":"tool_use","id":"t4","name":"edit","input":{}},{"type":"tool_use","id":"t5","name":"read","input":{}}]}
      {"id":"m7","role":"assistant","content":"Fixed: the test passes now."}
      """
    When 调用 `summarize(turns)`
    Then `userTurns/assistantTurns/toolCalls` 应准确
      | userTurns | assistantTurns | toolCalls |
      | 3         | 4              | 5         |
    And `uniqueTools` 应去重后返回
      | tool |
      | read |
      | grep |
      | edit |

  @RDR-018 @live-settings
  Scenario: `summarize` token 估算应受 `SYNAPSE_CHARS_PER_TOKEN` 影响
    Given 设置不同 `SYNAPSE_CHARS_PER_TOKEN` 配置
      | SYNAPSE_CHARS_PER_TOKEN | estimatedTokens |
      | 1                       | 339             |
      | 2                       | 171             |
      | 4                       | 86              |
      | 8                       | 44              |
    And `SYNAPSE_CHARS_PER_TOKEN` 的默认值为 4
    And 会话文件取自样例 `anthropic_sample.jsonl`
    When 对同一会话执行 `summarize`
    Then `estimatedTokens` 应随配置变化
    And 配置缺失时应回退默认值

  @RDR-066 @beyond-seed
  Scenario: `summarize` 的 uniqueTools 按每个工具第一次被调用的顺序列出
    Given 输入会话包含多角色与重复工具调用
      """
      {"id":"m1","role":"user","content":"Rename the config loader"}
      {"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"grep","input":{}},{"type":"tool_use","id":"t2","name":"read","input":{}}]}
      {"id":"m3","role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a"},{"type":"tool_result","tool_use_id":"t2","content":"b"}]}
      {"id":"m4","role":"assistant","content":[{"type":"tool_use","id":"t3","name":"edit","input":{}},{"type":"tool_use","id":"t4","name":"bash","input":{}},{"type":"tool_use","id":"t5","name":"grep","input":{}}]}
      """
    When 调用 `summarize(turns)`
    Then `uniqueTools` 应按第一次调用的顺序依次为
      | tool |
      | grep |
      | read |
      | edit |
      | bash |

  @RDR-081 @beyond-seed
  Scenario: `summarize` 的 uniqueTools 把只有大小写不同的工具名当作不同的工具
    The original collects the names in a Set, which tells `Read` from `read`: a transcript that mixes
    Claude Code's tools with lower-case ones of another source lists every spelling it used.
    Given 输入会话包含多角色与重复工具调用
      """
      {"id":"m1","role":"user","content":"Check the build"}
      {"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{}},{"type":"tool_use","id":"t2","name":"read","input":{}}]}
      {"id":"m3","role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a"},{"type":"tool_result","tool_use_id":"t2","content":"b"}]}
      {"id":"m4","role":"assistant","content":[{"type":"tool_use","id":"t3","name":"bash","input":{}},{"type":"tool_use","id":"t4","name":"Bash","input":{}},{"type":"tool_use","id":"t5","name":"read","input":{}}]}
      """
    When 调用 `summarize(turns)`
    Then `uniqueTools` 应按第一次调用的顺序依次为
      | tool |
      | Read |
      | read |
      | bash |
      | Bash |

  @RDR-086 @beyond-seed @live-settings
  Scenario Outline: 内容是假值时 `estimatedTokens` 按 turn 的空文本估算 — content 为 <content>
    The original estimates a turn from the JSON of the line's content or, when that content is falsy, of
    the turn's text (the two joined by `||`): a falsy content (`false`, `0`, an empty string) gives way to
    the turn's text, which is then empty and counts as `""`, two characters; `null` does too, and `[]`,
    `{}`, `true` and `7` count as written. A reader that falls back only for a missing content (`??`)
    would count `false` as five characters and `0` as one.
    Given 会话文件内容为 `{"id":"u1","role":"user","content":<content>}`（`\s`、`\t`、`\r` 表示空格、制表符与回车）
    And 设置 `SYNAPSE_CHARS_PER_TOKEN` 为 "1"
    When 对同一会话执行 `summarize`
    Then `estimatedTokens` 应为 <tokens>

    Examples:
      | content | tokens |
      | false   | 2      |
      | 0       | 2      |
      | ""      | 2      |
      | null    | 2      |
      | []      | 2      |
      | {}      | 2      |
      | true    | 4      |
      | 7       | 1      |
