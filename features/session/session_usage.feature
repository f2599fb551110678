@session @seed-001
Feature: Session Usage 统计稳定性
  A session's token usage keeps exact running totals and a bounded history of recent rounds, and the
  `/cost` line never shows an unknown price as a number.

  @SES-001
  Scenario: 空会话 cost 输出应显示 0 值
    Given 新建空 `SessionUsage`
    When 调用 `formatCostOutput(usage)`
    Then 输出应为 `Token: 0 in / 0 out ... Cost: $0.00`
    And 完整输出应为:
      """
      Token: 0 in / 0 out | Cache: 0 read / 0 write (0% hit) | Cost: $0.00
      """

  @SES-002
  Scenario Outline: 未配置定价时 cost 输出为 N/A
    Given 模型无 pricing 配置且已有 usage round
      | model         | inputOther | output | inputCacheRead | inputCacheCreation |
      | unknown-model | 100        | 50     | 300            | 100                |
    And 累积时使用的定价表为 <pricing>
    When 调用 `formatCostOutput(usage)`
    Then 输出中的 `Cost` 应为 `N/A`
    And 完整输出应为:
      """
      Token: 500 in / 50 out | Cache: 300 read / 100 write (60% hit) | Cost: N/A
      """

    Examples:
      | pricing                  |
      | 无定价表                 |
      | 只含其他模型价格的定价表 |

  @SES-003
  Scenario Outline: usage rounds 超过上限时仅保留最近 N 轮
    The setting is read as the original's parseInt reads it: ASCII digits after JavaScript's white space,
    which includes a byte-order mark; full-width digits are no digits, so the default applies.
    Given `SYNAPSE_MAX_ROUNDS_KEPT` 为 <setting>
    And 连续累积超过 `MAX_ROUNDS_KEPT` 的 usage 轮次
      | 轮次     | output | inputCacheRead | inputCacheCreation |
      | <rounds> | 5      | 20             | 3                  |
    And 第 i 轮的 `inputOther` 为 i，模型 `claude-sonnet-4-20250514` 按每百万 token 3 / 15 / 0.3 / 3.75 美元计价
    When 调用 `accumulateUsage` 完成累积
    Then `rounds.length` 应被截断到上限
    And 保留的应是最近 <limit> 轮，按时间顺序
    And total 字段仍保留完整累计值

    Examples:
      | setting | rounds | limit |
      | 未设置  | 55     | 50    |
      | 5       | 7      | 5     |
      | 1       | 3      | 1     |
      | 0       | 55     | 50    |
      | 5.9     | 7      | 5     |
      | 2 轮    | 4      | 2     |
      | -3      | 55     | 50    |
      | ５      | 55     | 50    |
      | {U+FEFF}5 | 7    | 5     |

  @SES-108 @beyond-seed
  Scenario: 定价为 0 的模型记录一轮后，费用已知为 0，`/cost` 显示 `$0.00` 而不是 N/A
    Given `SYNAPSE_HOME` 指向一个目录，其中 `pricing.json` 为 free.json
    And 会话模型为 `claude-sonnet-4-20250514`
    When 会话记录一轮 usage
      | inputOther | output | inputCacheRead | inputCacheCreation |
      | 1000       | 500    | 2000           | 100                |
    Then `totalCost` 应为 0
    When 对该会话的 usage 调用 `formatCostOutput(usage)`
    Then 完整输出应为:
      """
      Token: 3,100 in / 500 out | Cache: 2,000 read / 100 write (65% hit) | Cost: $0.00
      """

  @SES-117 @beyond-seed
  Scenario: 未配置定价时，记录过一轮 0 token 的 usage 之后 cost 仍为 N/A
    The original shows `$0.00` for an unknown cost only while no round is recorded (`rounds.length === 0`):
    a round that reports no tokens (a provider that gives no usage) still leaves the cost of an unpriced
    model unknown.
    Given 模型无 pricing 配置且已有 usage round
      | model         | inputOther | output | inputCacheRead | inputCacheCreation |
      | unknown-model | 0          | 0      | 0              | 0                  |
    And 累积时使用的定价表为 无定价表
    When 调用 `formatCostOutput(usage)`
    Then 输出中的 `Cost` 应为 `N/A`
    And 完整输出应为:
      """
      Token: 0 in / 0 out | Cache: 0 read / 0 write (0% hit) | Cost: N/A
      """
