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
