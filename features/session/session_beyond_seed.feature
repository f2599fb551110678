@session @beyond-seed
Feature: Session 索引一致性（超出种子的修正）
  Fixes of the original's defects: a cleared session kept its old title in the index, concurrent
  writers of `sessions.json` could drop each other's entries, and a corrupt index was silently replaced
  by an empty one.

  @SES-011
  Scenario: `clear` 后索引中的标题也应被重置
    Given 会话已有由第一条用户消息生成的标题
      | role | text                         |
      | user | 把登录页面的按钮改成蓝色的   |
    When 执行 `clear()`
    Then 会话标题应为空
    And 索引中该会话不应再有标题
    And 通过 `Session.find()` 恢复的会话也没有标题

  @SES-012
  Scenario: 并发创建会话时 `sessions.json` 不应丢失条目
    Given 一个空的会话目录
    When 8 个线程同时各创建 5 个会话
    Then `Session.list()` 应列出全部 40 个会话
    And `sessions.json` 应是合法的索引，恰好含这 40 个条目

  @SES-013
  Scenario Outline: 损坏的 `sessions.json` 在下次写入前应另存为备份
    Given `sessions.json` 非法或 schema 不匹配
      | index   |
      | <index> |
    When 创建一个新会话
    Then `Session.list()` 应只列出新会话
    And 损坏的索引应以原内容另存在 `sessions.json` 旁
    And 备份文件名应以 `sessions.json.corrupt-` 开头
    And `sessions.json` 应为 `{"version": "1.0.0", "sessions": [...], "updatedAt": ISO-8601}`
    And 应记录 warning 指出备份文件的位置

    Examples:
      | case           | index                   |
      | 非法 JSON      | corrupt.json            |
      | 缺少 updatedAt | missing_updated_at.json |

  @SES-014
  Scenario Outline: 费用按 `SYNAPSE_HOME` 下的 `pricing.json` 计算
    Given `SYNAPSE_HOME` 指向一个目录，其中 `pricing.json` 为 <pricing>
    And 会话模型为 `claude-sonnet-4-20250514`
    When 会话记录一轮 usage
      | inputOther | output | inputCacheRead | inputCacheCreation |
      | 1000       | 500    | 2000           | 100                |
    Then `totalCost` 应为 <cost>
    And 是否记录了 pricing warning: <warning>

    Examples:
      | case     | pricing          | cost     | warning |
      | 有效定价 | valid.json       | 0.011475 | 否      |
      | 文件缺失 | (missing)        | null     | 是      |
      | 非法 JSON | invalid_json.json | null     | 是      |
      | 结构不符 | wrong_shape.json | null     | 是      |

  @SES-015
  Scenario: 多个进程并发创建会话时 `sessions.json` 不应丢失条目
    Given 一个空的会话目录
    When 4 个进程同时各创建 5 个会话
    Then `Session.list()` 应列出全部 20 个会话
    And `sessions.json` 应是合法的索引，恰好含这 20 个条目
