@session @seed-004
Feature: Session 容错与数据健壮性
  Damaged files on disk never crash the session layer: bad history lines are skipped, and a damaged or
  unexpected index reads as "no sessions".

  @SES-007
  Scenario: JSONL 含损坏行时跳过坏行继续加载
    Given history 文件中部分行为非法 JSON
      """
      {"role":"user","content":[{"type":"text","text":"第一条"}]}
      {"role":"assistant","content":[{"type":"text","text":"写到一半"
      not json at all
      {"role":"assistant","content":[{"type":"text","text":"第二条"}]}
      """
    When 调用 `session.loadHistory()`
    Then 非法行应被跳过
    And 其余合法消息仍可成功加载
      | role      | text   |
      | user      | 第一条 |
      | assistant | 第二条 |

  @SES-008
  Scenario Outline: `Session.list` 在索引损坏时返回空数组
    Given `sessions.json` 非法或 schema 不匹配
      | index   |
      | <index> |
    When 调用 `Session.list()`
    Then 应返回 `[]`
    And 不应抛出未捕获异常
    And 损坏的 `sessions.json` 应原样保留

    Examples:
      | case               | index                   |
      | 非法 JSON          | corrupt.json            |
      | 缺少 updatedAt     | missing_updated_at.json |
      | sessions 不是数组  | sessions_not_array.json |
      | 条目缺少 id        | entry_missing_id.json   |

  @SES-009
  Scenario Outline: `Session.find` 在索引损坏时返回 null
    Given `sessions.json` 非法或不可读
      | index   |
      | <index> |
    When 调用 `Session.find(sessionId)`
      | sessionId               |
      | session-m6x3k2a1-older1 |
    Then 应返回 `null`
    And 不应抛出未捕获异常

    Examples:
      | case                 | index                   |
      | 非法 JSON            | corrupt.json            |
      | 缺少 updatedAt       | missing_updated_at.json |
      | 不可读（是一个目录） | (directory)             |

  @SES-010
  Scenario Outline: `Session.continue` 在无会话时返回 null
    Given 会话索引为空
      | index   |
      | <index> |
    When 调用 `Session.continue()`
    Then 应返回 `null`
    And 不应抛出未捕获异常

    Examples:
      | case             | index        |
      | 没有索引文件     | (missing)    |
      | sessions 为空数组 | empty.json   |
