@session @beyond-seed
Feature: 会话写入的崩溃安全、并发安全与异常数值（超出种子的修正）
  A writer killed in the middle of a line or between the history and the index, two writers of one
  session, and hostile values on disk must never lose an acknowledged message, leave a message count
  that drifts from the history file, drop usage, leave temporary files behind or make the session (or
  the whole sessions directory) unusable. Bad values get a warning and the documented fallback.

  @SES-039
  Scenario: 历史文件末行未写完时，之后追加的消息不应丢失
    Given 会话已有 1 条消息，且历史文件以一行未写完的消息结尾
      """
      {"role": "assistant", "content": [{"type": "te
      """
    When 向会话追加一条新消息
    Then 历史文件的最后一行应恰好是新消息
    And `session.loadHistory()` 应依次返回原有消息与新消息，并为未写完的行记录 warning

  @SES-040
  Scenario: 写入历史后、更新索引前被中断时，消息数应以历史文件为准
    Given 会话已有 2 条消息
    And 另有 3 条消息已写入历史文件而索引未随之更新，如同写入者在两者之间被杀死
    When 通过 `Session.find()` 恢复该会话
    Then 恢复的会话与 `Session.list()` 给出的 messageCount 都应为 5
    When 向会话追加 1 条消息
    Then 恢复的会话与 `Session.list()` 给出的 messageCount 都应为 6

  @SES-041
  Scenario: 同一会话的两个对象交替写入时，计数与 usage 都不应丢失
    Given 会话已有 2 条消息
    When 通过 `Session.find()` 得到同一会话的两个对象 a 与 b
    And a 记录一轮 inputOther 为 100 的 usage，随后 b 记录一轮 inputOther 为 7 的 usage
    And a 追加 2 条消息，随后 b 追加 3 条消息
    Then 索引中该会话的 usage.totalInputOther 应为 107
    And 重新恢复的会话 usage.totalInputOther 应为 107，messageCount 与历史文件中的消息数都应为 7

  @SES-042
  Scenario: 被杀死的重写留下的临时文件应在会话下次写入时清除
    Given 会话已有 2 条消息
    When 另一个进程在重写该会话历史的中途被杀死
    And 会话随后记录一轮 usage
    Then 会话目录中的文件应与重写前相同，没有残留的临时文件
    And 历史文件应仍为重写前的内容

  @SES-043
  Scenario Outline: 不是消息对象的历史行应像损坏行一样跳过并记录 warning
    Given 会话历史文件的第 2 行为 <line>
    When 调用 `session.loadHistory()`
    Then 应只返回第 1、3 行的消息，并记录一条指出第 2 行<why>的 warning

    Examples:
      | case               | line                                                        | why              |
      | JSON 数字          | 1                                                           | 不是消息对象     |
      | JSON 字符串        | "hello"                                                     | 不是消息对象     |
      | JSON null          | null                                                        | 不是消息对象     |
      | JSON 数组          | [{"role": "user", "content": "x"}]                          | 不是消息对象     |
      | 没有 role          | {"content": [{"type": "text", "text": "x"}]}                | 没有字符串 role  |
      | toolCalls 不是数组 | {"role": "assistant", "content": [], "toolCalls": true}     | 的 toolCalls 不是数组 |

  @SES-044
  Scenario Outline: 含非有限数值或超长数字的 `sessions.json` 读作损坏的索引
    Given `sessions.json` 中会话条目的 <field> 原文为 <text>
    When 调用 `Session.list()`
    Then `Session.list()` 应列出 0 个会话，且列出的条目与索引文件中的一致
    And 是否记录了以 "Failed to load sessions index" 开头的 warning: 是
    And `Session.find()` 与 `Session.continue()` 都应返回 `null`
    When 创建一个新会话
    Then `Session.list()` 应只列出新会话
    And 损坏的索引应以原内容另存在 `sessions.json` 旁

    Examples:
      | field                 | text            |
      | messageCount          | NaN             |
      | messageCount          | Infinity        |
      | messageCount          | 5000 位的整数   |
      | usage.totalInputOther | -Infinity       |
      | usage.totalCost       | NaN             |

  @SES-045
  Scenario Outline: 异常的 `pricing.json` 不应让记录 usage 或 `/cost` 出错
    Given `SYNAPSE_HOME` 指向一个目录，其中 `pricing.json` 为 <pricing>
    And 会话模型为 `claude-sonnet-4-20250514`
    When 会话记录一轮 usage
      | inputOther | output | inputCacheRead | inputCacheCreation |
      | 1000       | 500    | 2000           | 100                |
    Then `totalCost` 应为 <cost>
    And 是否记录了 pricing warning: <warning>
    And 该会话 usage 的 `/cost` 输出中 Cost 应为 <shown>

    Examples:
      | case              | pricing            | cost   | warning | shown     |
      | 嵌套 5000 层      | deeply_nested.json | null   | 是      | N/A       |
      | 每百万 token 1e30 | huge_prices.json   | 3.6e27 | 否      | $3.6e+27  |

  @SES-046
  Scenario: usage 中的非有限数值在 `/cost` 中显示为 N/A 并记录 warning
    Given usage 记录为
      """
      {"totalInputOther": NaN, "totalOutput": Infinity, "totalCacheRead": 2000, "totalCacheCreation": 100,
       "model": "claude-sonnet-4-20250514",
       "rounds": [{"inputOther": 1, "output": 1, "inputCacheRead": 0, "inputCacheCreation": 0}],
       "totalCost": NaN}
      """
    When 调用 `formatCostOutput(usage)`
    Then 完整输出应为:
      """
      Token: N/A in / N/A out | Cache: 2,000 read / 100 write (N/A hit) | Cost: N/A
      """
    And 应为每个无法显示的数值记录 warning

  @SES-047
  Scenario: 超出定点表示范围的费用与原版一样以指数形式显示
    Given usage 记录为
      """
      {"totalInputOther": 1000, "totalOutput": 500, "totalCacheRead": 2000, "totalCacheCreation": 100,
       "model": "claude-sonnet-4-20250514",
       "rounds": [{"inputOther": 1000, "output": 500, "inputCacheRead": 2000, "inputCacheCreation": 100}],
       "totalCost": 1e30}
      """
    When 调用 `formatCostOutput(usage)`
    Then 完整输出应为:
      """
      Token: 3,100 in / 500 out | Cache: 2,000 read / 100 write (65% hit) | Cost: $1e+30
      """

  @SES-048
  Scenario: 多个进程同时向同一会话追加消息并记录 usage 时，计数与累计值都应准确
    Given 会话已有 2 条消息
    When 3 个进程各自恢复该会话，同时各追加 40 条消息并记录 10 轮 inputOther 为 1 的 usage
    Then 恢复的会话与 `Session.list()` 给出的 messageCount 都应为 122
    And 历史文件应恰有 122 行消息
    And 重新恢复的会话 usage.totalInputOther 应为 30

  @SES-133
  Scenario: 多个进程同时向同一会话大量追加长短不一的消息时，每个会话的计数都与历史文件一致
    SES-048 under the load at which the appends of two processes meet: three processes append lines of
    different lengths to one session at once, thousands each, on several sessions in turn. Whatever the
    timing, every message lands on a line of its own and the counts `Session.find()` and `Session.list()`
    give are those of the history file.
    When 在 8 个新会话上依次让 3 个进程同时各追加 2000 条长短不一的消息，各进程最后记录一轮 usage
    Then 依次写入的每个会话，其历史文件都应恰有 6001 行消息
    And 依次写入的每个会话，恢复后与 `Session.list()` 给出的 messageCount 都应为 6001

  @SES-092
  Scenario: 写入会话索引与历史不泄漏文件描述符
    Given 一个空的会话目录
    When 在实现进程只能再打开 `16` 个文件时创建 `40` 个会话，各追加 1 条消息
    Then `Session.list()` 应列出全部 40 个会话
    And 每个会话的历史文件都应恰有 1 行消息

  @SES-100
  Scenario: usage 中不是数字的 token 总数在 `/cost` 中显示为 N/A 并记录 warning
    A token total that is a boolean or a numeric string is no count: it is shown as N/A like a non-finite
    number, never as 1 or as the string's digits.
    Given usage 记录为
      """
      {"totalInputOther": true, "totalOutput": "12", "totalCacheRead": 2000, "totalCacheCreation": 100,
       "model": "claude-sonnet-4-20250514",
       "rounds": [{"inputOther": 1, "output": 1, "inputCacheRead": 0, "inputCacheCreation": 0}],
       "totalCost": 0.5}
      """
    When 调用 `formatCostOutput(usage)`
    Then 完整输出应为:
      """
      Token: N/A in / N/A out | Cache: 2,000 read / 100 write (N/A hit) | Cost: $0.50
      """
    And 应为 `totalInputOther` 与 `totalOutput` 各记录一条指明该字段的 warning
    And 每条 warning 都应给出该字段的值

  @SES-128
  Scenario: 大到原版只能读作 Infinity 的 token 总数在 `/cost` 中显示为 N/A，warning 指明该字段而不照抄它的数字
    A total of 10,000 bits (over 3,000 digits) is far beyond what a double holds: the original reads it as
    Infinity, which is no finite count, so it is shown as N/A like one. The warning names the field and
    says what is wrong with the value (how large it is, or that it reads as Infinity) instead of quoting its
    digits.
    Given usage 记录为下面的 JSON，但 `totalOutput` 为 2 的 9999 次方
      """
      {"totalInputOther": 1000, "totalOutput": 0, "totalCacheRead": 2000, "totalCacheCreation": 100,
       "model": "claude-sonnet-4-20250514",
       "rounds": [{"inputOther": 1, "output": 1, "inputCacheRead": 0, "inputCacheCreation": 0}],
       "totalCost": 0.5}
      """
    When 调用 `formatCostOutput(usage)`
    Then 完整输出应为:
      """
      Token: 3,100 in / N/A out | Cache: 2,000 read / 100 write (65% hit) | Cost: $0.50
      """
    And 应记录一条指明 `totalOutput` 的 warning，warning 中没有该数字的前 20 位

  @SES-101
  Scenario Outline: 费用在定点表示的边界两侧与原版的 toFixed(2) 一样显示 — <case>
    Given usage 记录为
      """
      {"totalInputOther": 1000, "totalOutput": 500, "totalCacheRead": 2000, "totalCacheCreation": 100,
       "model": "claude-sonnet-4-20250514",
       "rounds": [{"inputOther": 1000, "output": 500, "inputCacheRead": 2000, "inputCacheCreation": 100}],
       "totalCost": <cost>}
      """
    When 调用 `formatCostOutput(usage)`
    Then 完整输出应为:
      """
      Token: 3,100 in / 500 out | Cache: 2,000 read / 100 write (65% hit) | Cost: <shown>
      """

    Examples:
      | case           | cost                  | shown                     |
      | 恰为 1e21       | 1e21                  | $1e+21                    |
      | 负 1e21         | -1e21                 | $-1e+21                   |
      | 1e21 之下最大的数 | 999999999999999868928 | $999999999999999868928.00 |

  @SES-103
  Scenario: 历史文件的位置是一个目录时 `Session.find()` 照常恢复会话，消息数取自索引并记录 warning
    A history that cannot be read (here a directory in its place) cannot be counted: the index's count is
    all there is, and the path is named in a warning instead of the lookup failing.
    Given 会话已有 2 条消息
    And 该会话的历史文件被换成一个同名的目录
    When 通过 `Session.find()` 恢复该会话
    Then 恢复的会话的 messageCount 应为索引中的 2，并记录一条指明该历史文件路径的 warning

  @SES-104
  Scenario: 价格大到费用溢出时 `totalCost` 记为 null（未知）并记录指明模型的 warning
    A price so large that the cost is no finite number would be stored as a number JSON cannot hold
    (JavaScript's JSON.stringify writes Infinity as null): the cost is unknown, and said so in a warning.
    Given usage 记录为
      """
      {"totalInputOther": 0, "totalOutput": 0, "totalCacheRead": 0, "totalCacheCreation": 0,
       "model": "claude-sonnet-4-20250514", "rounds": [], "totalCost": 0.5}
      """
    When 按如下定价表累积一轮只含 {"output": 1000000} 的 usage
      """
      {"claude-sonnet-4-20250514": {"inputPerMillion": 3, "outputPerMillion": 1e308,
                                    "cacheReadPerMillion": 0.3, "cacheWritePerMillion": 3.75}}
      """
    Then 累积结果的 `totalCost` 应为 null，并记录一条指明模型 "claude-sonnet-4-20250514" 的 warning

  @SES-105
  Scenario: 历史文件不存在时 `session.loadHistory()` 返回空列表
    A session with no history file yet (nothing written, or the file removed by hand) has no messages: loading
    its history gives an empty list, not an error and not "nothing".
    When 创建一个新会话
    And 该会话的历史文件不存在
    And 调用 `session.loadHistory()`
    Then `session.loadHistory()` 应返回空列表
