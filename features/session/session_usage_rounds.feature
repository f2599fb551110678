@session @beyond-seed
Feature: 只报告部分 token 种类的一轮 usage
  A provider may leave out kinds of tokens it did not use (no cache, for instance). Such a round is
  recorded with the missing kinds as 0, so totals, the round history and the price stay consistent.

  @SES-037
  Scenario: 缺少的 token 种类按 0 计入 totals、rounds 与费用
    Given 一份空的 usage 记录，模型 `claude-sonnet-4-20250514` 按每百万 token 3 / 15 / 0.3 / 3.75 美元计价
    When 累积一轮只含 {"output": 2000} 的 usage
    Then 累积结果应为
      """
      {"totalInputOther": 0, "totalOutput": 2000, "totalCacheRead": 0, "totalCacheCreation": 0,
       "model": "claude-sonnet-4-20250514",
       "rounds": [{"inputOther": 0, "output": 2000, "inputCacheRead": 0, "inputCacheCreation": 0}],
       "totalCost": 0.03}
      """

  @SES-137
  Scenario: 费用未知的会话在有定价的一轮之后显示这一轮的费用，而不是一直未知
    The original's accumulateUsage adds a priced round to `totalCost ?? 0`: a session whose first rounds
    ran on a model without a price and whose later rounds are priced shows what the priced rounds cost.
    Given usage 记录为
      """
      {"totalInputOther": 1000, "totalOutput": 0, "totalCacheRead": 0, "totalCacheCreation": 0,
       "model": "claude-sonnet-4-20250514",
       "rounds": [{"inputOther": 1000, "output": 0, "inputCacheRead": 0, "inputCacheCreation": 0}],
       "totalCost": null}
      """
    When 按如下定价表累积一轮只含 {"inputOther": 0, "output": 2000, "inputCacheRead": 0, "inputCacheCreation": 0} 的 usage
      """
      {"claude-sonnet-4-20250514": {"inputPerMillion": 3, "outputPerMillion": 15,
                                    "cacheReadPerMillion": 0.3, "cacheWritePerMillion": 3.75}}
      """
    Then 累积结果应为
      """
      {"totalInputOther": 1000, "totalOutput": 2000, "totalCacheRead": 0, "totalCacheCreation": 0,
       "model": "claude-sonnet-4-20250514",
       "rounds": [{"inputOther": 1000, "output": 0, "inputCacheRead": 0, "inputCacheCreation": 0},
                  {"inputOther": 0, "output": 2000, "inputCacheRead": 0, "inputCacheCreation": 0}],
       "totalCost": 0.03}
      """

  @SES-143
  Scenario: 已有费用的 usage 再累积一轮没有定价的模型时，费用保留已计入的部分，不变为未知
    The original's accumulateUsage leaves `totalCost` as it was for a round whose model has no price
    (`pricing === null ? totalCost : ...`): what the priced rounds cost stays known, it only stops
    growing.
    Given usage 记录为
      """
      {"totalInputOther": 0, "totalOutput": 2000, "totalCacheRead": 0, "totalCacheCreation": 0,
       "model": "claude-opus-4-20250514",
       "rounds": [{"inputOther": 0, "output": 2000, "inputCacheRead": 0, "inputCacheCreation": 0}],
       "totalCost": 0.03}
      """
    When 按如下定价表累积一轮只含 {"inputOther": 1000, "output": 0, "inputCacheRead": 0, "inputCacheCreation": 0} 的 usage
      """
      {"claude-sonnet-4-20250514": {"inputPerMillion": 3, "outputPerMillion": 15,
                                    "cacheReadPerMillion": 0.3, "cacheWritePerMillion": 3.75}}
      """
    Then 累积结果应为
      """
      {"totalInputOther": 1000, "totalOutput": 2000, "totalCacheRead": 0, "totalCacheCreation": 0,
       "model": "claude-opus-4-20250514",
       "rounds": [{"inputOther": 0, "output": 2000, "inputCacheRead": 0, "inputCacheCreation": 0},
                  {"inputOther": 1000, "output": 0, "inputCacheRead": 0, "inputCacheCreation": 0}],
       "totalCost": 0.03}
      """

