@session @beyond-seed
Feature: 会话的 id、标题、文件与索引格式
  What another implementation must honour so that its sessions directory stays interchangeable:
  the id format, the title rule, the history file name, the on-disk shape of `sessions.json`, the
  message count kept in the index, the model switch of the usage and the eviction of old sessions.

  @SES-016
  Scenario: 新会话的 id、历史文件与索引格式
    Given 一个空的会话目录
    When 记下时间后创建一个新会话
    And 向会话追加 2 条消息
    Then 会话 id 应形如 `session-<创建时刻毫秒的 base36>-<6 位 [a-z0-9]>`，时间部分落在创建前后
    And 历史文件应为 `<sessions_dir>/<id>.jsonl`，每行一个 JSON 对象，非 ASCII 文本原样写入
    And `sessions.json` 应为 `{"version": "1.0.0", "sessions": [...], "updatedAt": ISO-8601}`
    And 索引中该会话的条目应含 id、createdAt、updatedAt，messageCount 为 2
    And `sessions.json` 应以 2 个空格逐层缩进，标题中的非 ASCII 字符原样写入
    When 用 1 条消息重写会话历史
    Then 索引中该会话的 messageCount 应为 1
    When 执行 `clear()`
    Then 索引中该会话的 messageCount 应为 0

  @SES-017
  Scenario Outline: 标题取自第一条用户消息，超过 50 字符截为 47 字符加 `...`
    When 创建一个新会话
    And 追加第一条用户消息，文本部分为 "<parts>"（以 ` + ` 分隔）
    Then 标题应为 "<title>"，索引中亦然

    Examples:
      | case         | parts                                                          | title                                              |
      | 多个文本部分 | 修复 + 登录页面                                                 | 修复 登录页面                                      |
      | 恰好 50 字符 | 01234567890123456789012345678901234567890123456789             | 01234567890123456789012345678901234567890123456789 |
      | 51 字符      | 012345678901234567890123456789012345678901234567890            | 01234567890123456789012345678901234567890123456... |
      | 截断处是空格 | 0123456789012345678901234567890123456789012345 789abcdef       | 0123456789012345678901234567890123456789012345 ... |
      | 空的文本部分 | 修复 +  + 登录页面                                              | 修复  登录页面                                     |

  @SES-018
  Scenario: `update_usage` 传入模型时切换 usage 的模型
    When 创建一个新会话
    And 会话以模型 `claude-opus-4-20250514` 记录一轮 usage
    Then `getUsage()` 与索引中的 usage.model 都应为 `claude-opus-4-20250514`

  @SES-120 @beyond-seed
  Scenario: `update_usage` 传入模型时这一轮按新模型计价，定价表中没有新模型时费用仍为未知
    The original's Session.updateUsage switches the usage's model before it accumulates the round, so a
    round is priced at the model that produced it: the session's pricing table knows only the model it
    was created with, and a round of another model leaves the cost unknown rather than billing the old
    price.
    When 创建一个新会话
    And 会话以模型 `claude-opus-4-20250514` 记录一轮 usage
    Then `getUsage()` 与索引中的 usage.model 都应为 `claude-opus-4-20250514`
    And `totalCost` 应为 null

  @SES-144 @beyond-seed
  Scenario: 会话换到定价表中没有的模型后，之前各轮的费用仍然保留
    As SES-120, the round of a model without a price adds nothing to the cost; the rounds priced before
    the switch keep theirs, so the cost stays known instead of turning unknown.
    When 创建一个新会话
    And 该会话记录一轮 usage
      | inputOther | output | inputCacheRead | inputCacheCreation |
      | 1000       | 500    | 2000           | 100                |
    And 会话以模型 `claude-opus-4-20250514` 记录一轮 usage
    Then `getUsage()` 与索引中的 usage.model 都应为 `claude-opus-4-20250514`
    And `totalCost` 应为 0.011475

  @SES-019
  Scenario Outline: 超过 `SYNAPSE_MAX_SESSIONS` 时淘汰最旧的会话及其文件
    The setting is read as the original's parseInt reads it: ASCII digits after JavaScript's white space,
    which includes a byte-order mark; full-width digits are no digits, so the default applies.
    Given `SYNAPSE_MAX_SESSIONS` 为 <setting>，即最多保留 <limit> 个会话
    And 已依次创建 <limit> 个会话，每个都有历史文件和会话目录
    When 创建一个新会话
    Then `sessions.json` 应按从新到旧只列出最近的 <limit> 个会话
    And 最早的会话的历史文件和会话目录应被删除，其余会话的文件保留

    Examples:
      | case   | setting  | limit |
      | 设为 1 | 1        | 1     |
      | 设为 3 | 3        | 3     |
      | 默认   | (未设置) | 100   |
      | 小数   | 2.5      | 2     |
      | 带加号 | +2       | 2     |
      | 全角数字 | ３     | 100   |
      | 字节顺序标记开头 | {U+FEFF}2 | 2 |

  @SES-020
  Scenario Outline: `/cost` 按分显示已知费用，恰好半分时进位
    Given 一份 usage 记录
      | totalInputOther | totalOutput | totalCacheRead | totalCacheCreation | totalCost   |
      | 1000            | 2000        | 3000           | 0                  | <totalCost> |
    When 调用 `formatCostOutput(usage)`
    Then 输出应为 `Token: 4,000 in / 2,000 out | Cache: 3,000 read / 0 write (75% hit) | Cost: <shown>`

    Examples:
      | case     | totalCost | shown  |
      | 整分     | 0.42      | $0.42  |
      | 恰好半分 | 0.125     | $0.13  |
      | 两位小数 | 12.5      | $12.50 |

  @SES-021
  Scenario: 缺少 totals 与 `totalCost` 键的 usage 记录按 0 与未知处理
    Given 一份只有 model 的 usage 记录 `{"model": "unknown-model"}`
    When 调用 `formatCostOutput(usage)`
    Then 输出应为 `Token: 0 in / 0 out | Cache: 0 read / 0 write (0% hit) | Cost: $0.00`
    When 无定价表时向这份记录累积一轮 usage
      | inputOther | output | inputCacheRead | inputCacheCreation |
      | 100        | 50     | 300            | 100                |
    Then 累积结果的 totals 应等于这一轮，`totalCost` 键存在且为 null
    When 调用 `formatCostOutput(usage)`
    Then 输出应为 `Token: 500 in / 50 out | Cache: 300 read / 100 write (60% hit) | Cost: N/A`

  @SES-022
  Scenario: 历史文件中的空行与损坏行之后的合法行都应加载
    Given history 文件中部分行为非法 JSON
      """
      {"role":"user","content":[{"type":"text","text":"第一条"}]}

      {"role":"assistant","content":[{"type":"text","text":"空行之后"}]}
      not json at all
      {"role":"user","content":[{"type":"text","text":"坏行之后"}]}
      """
    When 调用 `session.loadHistory()`
    Then 非法行应被跳过
    And 其余合法消息仍可成功加载
      | role      | text     |
      | user      | 第一条   |
      | assistant | 空行之后 |
      | user      | 坏行之后 |
    And 只有以下行各记录一条以 "Skipped corrupted JSONL line" 开头、含行号与历史文件路径的 warning
      | line |
      | 4    |

  @SES-028
  Scenario: 历史文件中的非法 UTF-8 字节读作替换字符，整行照常加载
    Given history 文件第 2 行的文本中含有非法 UTF-8 字节 0xFF
    When 调用 `session.loadHistory()`
    Then 其余合法消息仍可成功加载
      | role      | text       |
      | user      | 第一条     |
      | assistant | 坏字节�之后 |

  @SES-031
  Scenario Outline: 标题只取第一条 user 消息的文本部分
    When 创建一个新会话
    And 一次追加以下消息 <messages>
    Then 会话标题应为 <title>，索引中亦然

    Examples:
      | case               | messages                                                                                                                                                  | title         |
      | 跳过非文本部分     | [{"role": "user", "content": [{"type": "text", "text": "修复"}, {"type": "image", "text": "截图"}, {"type": "text", "text": "登录"}]}]                          | "修复 登录"   |
      | 字符串 content     | [{"role": "user", "content": "直接是字符串"}]                                                                                                               | "直接是字符串" |
      | 去掉两端空白       | [{"role": "user", "content": [{"type": "text", "text": "  两端空白  "}]}]                                                                                   | "两端空白"    |
      | 先有 assistant     | [{"role": "assistant", "content": [{"type": "text", "text": "先回复"}]}, {"role": "user", "content": [{"type": "text", "text": "后提问"}]}]                  | "后提问"      |
      | 没有 user 消息     | [{"role": "assistant", "content": [{"type": "text", "text": "只有回复"}]}]                                                                                  | null          |
      | 去掉两端全角空白   | [{"role": "user", "content": "\u3000全角空白\u3000"}]                                                                                                   | "全角空白"    |
      | 去掉空白后恰好 50 字符 | [{"role": "user", "content": "  01234567890123456789012345678901234567890123456789  "}]                                                               | "01234567890123456789012345678901234567890123456789" |

  @SES-119 @beyond-seed
  Scenario: 第一条 user 消息没有文本时会话暂无标题，之后第一条有文本的 user 消息给出标题
    The original looks for a title while the session has none (`if (!this._title)`): a first user message
    with only an image gives no title, and the user message of a later append names the session.
    When 创建一个新会话
    And 一次追加以下消息 [{"role": "user", "content": [{"type": "image", "text": "截图"}]}, {"role": "assistant", "content": [{"type": "text", "text": "请描述问题"}]}]
    And 一次追加以下消息 [{"role": "user", "content": [{"type": "text", "text": "登录按钮没有反应"}]}]
    Then 会话标题应为 "登录按钮没有反应"，索引中亦然
    When 一次追加以下消息 [{"role": "user", "content": [{"type": "text", "text": "再看看注册页"}]}]
    Then 会话标题应为 "登录按钮没有反应"，索引中亦然

  @SES-138 @beyond-seed
  Scenario: 一次追加的第一条 user 消息没有文本时，同一次追加中之后的 user 消息也不给出标题
    The original takes the title of an append from the append's first user message (it finds the first
    message whose role is user), and that message may give none: an append opening with an image-only
    user message leaves the session untitled even when a later user message of the same append has text,
    and the user message of the next append names the session.
    When 创建一个新会话
    And 一次追加以下消息 [{"role": "user", "content": [{"type": "image", "text": "截图"}]}, {"role": "user", "content": [{"type": "text", "text": "登录按钮没有反应"}]}]
    Then 会话标题应为 null，索引中亦然
    When 一次追加以下消息 [{"role": "user", "content": [{"type": "text", "text": "再看看注册页"}]}]
    Then 会话标题应为 "再看看注册页"，索引中亦然

  @SES-145 @beyond-seed
  Scenario: 第一条用户消息中 text 为 null 的文本部分在标题中是空的，不写成 null 或 None
    The original joins the texts of the text parts with `parts.map(p => p.text).join(' ')`, and
    JavaScript's join writes null as nothing: a text part a stream left as null adds only its separating
    space, which the title's trimming removes.
    When 创建一个新会话
    And 一次追加以下消息 [{"role": "user", "content": [{"type": "text", "text": null}, {"type": "text", "text": "修复登录页面"}]}]
    Then 会话标题应为 "修复登录页面"，索引中亦然

  @SES-032
  Scenario Outline: 重写历史时按新的第一条 user 消息重算标题，压缩摘要不会取代原标题
    Given 会话已有由第一条用户消息生成的标题
      | role | text             |
      | user | 把按钮改成蓝色的 |
    When 用以下消息重写会话历史 <messages>
    Then 会话标题应为 <title>，索引中亦然

    Examples:
      | case             | messages                                                                                                                                                          | title              |
      | 新的第一条 user  | [{"role": "user", "content": [{"type": "text", "text": "换个问题"}]}, {"role": "assistant", "content": [{"type": "text", "text": "好"}]}]                         | "换个问题"         |
      | 没有 user 消息   | [{"role": "assistant", "content": [{"type": "text", "text": "只有回复"}]}]                                                                                        | null               |
      | 压缩后的历史     | [{"role": "user", "content": [{"type": "text", "text": "[Compressed History]\\n\\n早先讨论了按钮颜色"}]}, {"role": "assistant", "content": [{"type": "text", "text": "好"}]}] | "把按钮改成蓝色的" |

  @SES-141 @beyond-seed
  Scenario: 还没有标题的会话被压缩后以摘要的第一条 user 消息为标题
    A compaction summary keeps a title the session already has (SES-032), but it does not stop a session
    from getting one: the original sets the title from the rewritten history's first user message, so a
    session compacted while it is still untitled (its first message had no text) is titled by the summary.
    When 创建一个新会话
    And 一次追加以下消息 [{"role": "user", "content": [{"type": "image", "text": "截图"}]}, {"role": "assistant", "content": [{"type": "text", "text": "看到了"}]}]
    Then 会话标题应为 null，索引中亦然
    When 用以下消息重写会话历史 [{"role": "user", "content": [{"type": "text", "text": "[Compressed History]\n\n早先讨论了按钮颜色"}]}, {"role": "assistant", "content": [{"type": "text", "text": "好"}]}]
    Then 会话标题应为 "[Compressed History]\n\n早先讨论了按钮颜色"，索引中亦然

  @SES-091
  Scenario: 长历史中靠后的损坏行，warning 指出的仍是它在文件中的行号
    Given history 文件有 3000 行合法消息，其中第 1500 行与第 2999 行为非法 JSON
    When 调用 `session.loadHistory()`
    Then 应按顺序返回其余 2998 条消息
    And 只有以下行各记录一条以 "Skipped corrupted JSONL line" 开头、含行号与历史文件路径的 warning
      | line |
      | 1500 |
      | 2999 |

  @SES-093
  Scenario: 含孤立代理项的消息照常追加，历史文件仍是合法 UTF-8，读回的文本不变
    When 创建一个新会话
    And 向会话追加一条文本为 "被截断的表情 \ud83d 之后" 的用户消息
    Then 历史文件应是合法的 UTF-8，其中该代理项写作 JSON 转义 `\ud83d`，其余文字原样写入
    And `session.loadHistory()` 读回的文本应与追加的相同

  @SES-098
  Scenario: 历史文件与 `sessions.json` 按 umask 创建，标题含孤立代理项时索引仍以 2 个空格逐层缩进，条目的 updatedAt 随写入更新
    Given 一个空的会话目录
    When 创建一个新会话
    And 向会话追加一条文本为 "被截断的表情 \ud83d 之后" 的用户消息
    Then `sessions.json` 应以 2 个空格逐层缩进，标题中的代理项写作 JSON 转义 `\ud83d`，其余文字原样写入
    And 历史文件与 `sessions.json` 都应可由写入者读写，不可执行，也不比 umask 允许的更开放
    When 过几毫秒后记下时间，再用 3 条消息重写会话历史
    Then 历史文件与 `sessions.json` 都应可由写入者读写，不可执行，也不比 umask 允许的更开放
    And 索引中该会话条目的 updatedAt 应不早于重写前记下的时间

  @SES-114 @beyond-seed
  Scenario: `/cost` 的 token 数每三位一组加逗号，费用不分组
    The original formats the counts with `Intl.NumberFormat('en-US')`, which separates every group of three
    digits, and the cost with toFixed(2), which separates none: a count of millions has two separators.
    Given 一份 usage 记录
      | totalInputOther | totalOutput | totalCacheRead | totalCacheCreation | totalCost |
      | 1234567         | 2345678     | 12345678       | 1000000            | 1234.5    |
    When 调用 `formatCostOutput(usage)`
    Then 输出应为 `Token: 14,580,245 in / 2,345,678 out | Cache: 12,345,678 read / 1,000,000 write (85% hit) | Cost: $1234.50`

  @SES-139
  Scenario: `update_usage` 传入空的模型名时保留会话原来的模型，这一轮仍按原模型计价
    The original switches the usage's model only for a model name that is given and not empty
    (`if (model && model !== usage.model)`): a provider that reports no model for one response leaves
    the session's model, and so its price, as they were.
    When 创建一个新会话
    And 会话以空的模型名记录一轮 usage
    Then `getUsage()` 与索引中的 usage.model 都应仍为 `claude-sonnet-4-20250514`
    And `totalCost` 应为 0.0002205

  @SES-146 @beyond-seed
  Scenario: 文本含 U+2028、U+2029 或 U+0085 的消息读回时仍是一条完整的消息
    The original splits the history at "\n" only (`content.trim().split('\n')`). JSON keeps U+2028, U+2029
    and U+0085 raw inside a string (text pasted from a web page or a PDF), so they end no line of the
    history: the message reads back whole, where a reader splitting at every Unicode line break would cut
    it into halves that are no JSON and lose it.
    When 创建一个新会话
    And 向会话追加一条文本为 "第一行\u2028第二行\u2029第二段\u0085第三行" 的用户消息
    Then `session.loadHistory()` 读回的文本应与追加的相同

  @SES-148 @beyond-seed
  Scenario: 用空列表重写历史后历史文件为空，会话、`Session.find()` 与 `Session.list()` 的消息数都为 0
    Rewriting a history with an empty list is a rewrite like any other, as the original's own test
    ("should handle rewrite with empty messages array") expects: the history file stays and holds no
    message, and every count of the session says 0. A rewrite that skipped an empty list would keep the
    old messages; one that kept the old count would list them still.
    When 创建一个新会话
    And 向会话追加 3 条消息
    And 用 0 条消息重写会话历史
    Then 历史文件应仍在，但不含任何消息行
    And 会话对象、`Session.find()` 与 `Session.list()` 给出的 messageCount 都应为 0
