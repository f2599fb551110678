@session @beyond-seed
Feature: 会话文件与定价表的位置
  Where the session layer looks for its files on a fresh machine: the sessions directory is created
  with every missing parent on the first write, and without `SYNAPSE_HOME` the pricing table is read
  from `~/.synapse/pricing.json`.

  @SES-026
  Scenario: 会话目录及其上级目录都不存在时，创建会话会建出整条路径
    Given 会话目录及其上级目录都还不存在
    When 创建一个新会话
    Then 会话目录应已建出，其中的 `sessions.json` 只列出该会话
    And 会话报告的 `sessionsDir` 是该目录，历史文件为其中的 `<id>.jsonl`，会话目录为其中的 `<id>/`

  @SES-027
  Scenario Outline: 没有 `SYNAPSE_HOME` 时从 `~/.synapse/pricing.json` 读取定价
    Given `SYNAPSE_HOME` <setting>，`HOME` 指向场景目录，其中 `.synapse/pricing.json` 为 valid.json
    And 会话模型为 `claude-sonnet-4-20250514`
    When 会话记录一轮 usage
      | inputOther | output | inputCacheRead | inputCacheCreation |
      | 1000       | 500    | 2000           | 100                |
    Then `totalCost` 应为 0.011475
    And 是否记录了 pricing warning: 否

    Examples:
      | setting    |
      | 未设置     |
      | 为空字符串 |

  @SES-140
  Scenario: 会话进行中才写入的 `pricing.json` 从下一轮起生效
    The original loads the pricing table for every round it records (loadPricing() in updateUsage): a
    price added while a session is open applies from the next round on, and the round recorded without
    it stays unpriced.
    Given `SYNAPSE_HOME` 指向一个目录，其中 `pricing.json` 为 (missing)
    And 会话模型为 `claude-sonnet-4-20250514`
    When 会话记录一轮 usage
      | inputOther | output | inputCacheRead | inputCacheCreation |
      | 1000       | 500    | 2000           | 100                |
    Then `totalCost` 应为 null
    When `SYNAPSE_HOME` 下的 `pricing.json` 随后改为 valid.json
    And 同一会话再记录一轮 usage
      | inputOther | output | inputCacheRead | inputCacheCreation |
      | 1000       | 500    | 2000           | 100                |
    Then `totalCost` 应为 0.011475

  @SES-142
  Scenario: 创建会话时给出的定价表优先于 `SYNAPSE_HOME` 下的 `pricing.json`
    The table a session is created with prices its rounds; `pricing.json` is read only for a session
    created without one, so a file in the home directory with other prices changes nothing.
    Given `SYNAPSE_HOME` 指向一个目录，其中 `pricing.json` 为 free.json
    When 创建一个新会话
    And 该会话记录一轮 usage
      | inputOther | output | inputCacheRead | inputCacheCreation |
      | 1000       | 500    | 2000           | 100                |
    Then `totalCost` 应为 0.011475
