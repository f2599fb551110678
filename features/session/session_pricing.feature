@session @beyond-seed
Feature: `pricing.json` 的结构校验
  The pricing table follows the original's schema: a record of model -> the four prices per million
  tokens. A file that breaks it anywhere, for any model, prices nothing (cost `N/A` rather than a guess)
  and says so in a warning; integers are as good as decimals, other models may be listed, and fields
  beside the four prices are ignored (the original's zod object drops them instead of refusing the file).
  The file is read as `JSON.parse` reads it: `NaN` or `Infinity` anywhere, even in an ignored field, is no
  JSON, so the whole file prices nothing. Its text is read as the original's readFileSync(path, 'utf-8')
  reads it: a byte that is no UTF-8 (a model name saved in Latin-1, written `\xff` in a cell) becomes
  U+FFFD and spoils that name only, so the table still prices the other models.

  @SES-029
  Scenario Outline: 只有完全符合结构的 `pricing.json` 才用于计价
    Given `SYNAPSE_HOME` 下的 `pricing.json` 内容为 <content>
    And 会话模型为 `claude-sonnet-4-20250514`
    When 会话记录一轮 usage
      | inputOther | output | inputCacheRead | inputCacheCreation |
      | 1000       | 500    | 2000           | 100                |
    Then `totalCost` 应为 <cost>
    And 是否记录了 pricing warning: <warning>

    Examples:
      | case               | content                                                                                                                                                                                                   | cost     | warning |
      | 整数价格与其他模型 | {"claude-sonnet-4-20250514": {"inputPerMillion": 3, "outputPerMillion": 15, "cacheReadPerMillion": 0.3, "cacheWritePerMillion": 3.75}, "other-model": {"inputPerMillion": 1, "outputPerMillion": 2, "cacheReadPerMillion": 0, "cacheWritePerMillion": 0}} | 0.011475 | 否      |
      | 不是对象           | [{"inputPerMillion": 3, "outputPerMillion": 15, "cacheReadPerMillion": 0.3, "cacheWritePerMillion": 3.75}]                                                                                                | null     | 是      |
      | 价格不是对象       | {"claude-sonnet-4-20250514": 3}                                                                                                                                                                           | null     | 是      |
      | 缺少一项价格       | {"claude-sonnet-4-20250514": {"inputPerMillion": 3, "outputPerMillion": 15, "cacheReadPerMillion": 0.3}}                                                                                                  | null     | 是      |
      | 价格是字符串       | {"claude-sonnet-4-20250514": {"inputPerMillion": "3", "outputPerMillion": 15, "cacheReadPerMillion": 0.3, "cacheWritePerMillion": 3.75}}                                                                  | null     | 是      |
      | 价格是布尔值       | {"claude-sonnet-4-20250514": {"inputPerMillion": 3, "outputPerMillion": 15, "cacheReadPerMillion": true, "cacheWritePerMillion": 3.75}}                                                                   | null     | 是      |
      | 价格不是有限数     | {"claude-sonnet-4-20250514": {"inputPerMillion": 3, "outputPerMillion": 15, "cacheReadPerMillion": 0.3, "cacheWritePerMillion": Infinity}}                                                                | null     | 是      |
      | 其他模型的价格无效 | {"claude-sonnet-4-20250514": {"inputPerMillion": 3, "outputPerMillion": 15, "cacheReadPerMillion": 0.3, "cacheWritePerMillion": 3.75}, "other-model": {"inputPerMillion": 1}}                             | null     | 是      |
      | 价格之外的字段     | {"claude-sonnet-4-20250514": {"inputPerMillion": 3, "outputPerMillion": 15, "cacheReadPerMillion": 0.3, "cacheWritePerMillion": 3.75, "currency": "USD", "source": "https://example.com/pricing"}} | 0.011475 | 否      |
      | 价格之外的字段为 NaN | {"claude-sonnet-4-20250514": {"inputPerMillion": 3, "outputPerMillion": 15, "cacheReadPerMillion": 0.3, "cacheWritePerMillion": 3.75, "discount": NaN}} | null     | 是      |
      | 其他模型的多余字段为 -Infinity | {"claude-sonnet-4-20250514": {"inputPerMillion": 3, "outputPerMillion": 15, "cacheReadPerMillion": 0.3, "cacheWritePerMillion": 3.75}, "other-model": {"inputPerMillion": 1, "outputPerMillion": 2, "cacheReadPerMillion": 0, "cacheWritePerMillion": 0, "note": -Infinity}} | null     | 是      |
      | 其他模型名称中有非法 UTF-8 字节 | {"claude-sonnet-4-20250514": {"inputPerMillion": 3, "outputPerMillion": 15, "cacheReadPerMillion": 0.3, "cacheWritePerMillion": 3.75}, "claude-haiku (prix r\xe9duit)": {"inputPerMillion": 1, "outputPerMillion": 2, "cacheReadPerMillion": 0, "cacheWritePerMillion": 0}} | 0.011475 | 否      |

  @SES-115
  Scenario: 定价表按模型的完整名称查找，只列出模型族名称的价格不用于带日期的模型
    The original looks a model up exactly (`pricing?.[model] ?? null`): an entry for `claude-sonnet-4`
    prices no `claude-sonnet-4-20250514`, whose cost stays unknown. The file itself is valid, so no warning.
    Given `SYNAPSE_HOME` 下的 `pricing.json` 内容为 {"claude-sonnet-4": {"inputPerMillion": 3, "outputPerMillion": 15, "cacheReadPerMillion": 0.3, "cacheWritePerMillion": 3.75}}
    And 会话模型为 `claude-sonnet-4-20250514`
    When 会话记录一轮 usage
      | inputOther | output | inputCacheRead | inputCacheCreation |
      | 1000       | 500    | 2000           | 100                |
    Then `totalCost` 应为 null
    And 是否记录了 pricing warning: 否
