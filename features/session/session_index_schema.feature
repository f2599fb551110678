@session @beyond-seed
Feature: `sessions.json` 的结构校验与时间戳格式
  The index is read against the original's schema (`SessionsIndexSchema`): an index that breaks any
  rule of it reads as "no sessions" with a warning, while every optional part may be absent and fields
  the schema does not name (another tool's, a newer version's) are accepted, as zod's objects accept
  them. Timestamps are written the way the original writes them (UTC, milliseconds, `Z`), so both tools
  can share a sessions directory.

  @SES-023
  Scenario Outline: 违反结构的索引读作空列表并记录 warning，可选部分缺失时照常列出
    Given `sessions.json` 以如下合法索引为基础
      """
      {
        "version": "1.0.0",
        "sessions": [
          {
            "id": "session-m6x3k2a1-abc123",
            "createdAt": "2026-01-02T03:04:05.678Z",
            "updatedAt": "2026-01-02T03:05:00.000Z",
            "messageCount": 2,
            "title": "修复登录页面",
            "cwd": "/work/project",
            "usage": {
              "totalInputOther": 100,
              "totalOutput": 50,
              "totalCacheRead": 300,
              "totalCacheCreation": 100,
              "model": "claude-sonnet-4-20250514",
              "rounds": [{"inputOther": 100, "output": 50, "inputCacheRead": 300, "inputCacheCreation": 100}],
              "totalCost": 0.0024
            }
          }
        ],
        "updatedAt": "2026-01-02T03:05:00.000Z"
      }
      """
    And 把其中 <field> 改为 <value>
    When 调用 `Session.list()`
    Then `Session.list()` 应列出 <listed> 个会话，且列出的条目与索引文件中的一致
    And 是否记录了以 "Failed to load sessions index" 开头的 warning: <warning>

    Examples:
      | case                     | field                                             | value     | listed | warning |
      | 合法索引                 | (无)                                              | (无)      | 1      | 否      |
      | 缺少 version             | version                                           | (删除)    | 1      | 否      |
      | 没有可选的条目字段       | sessions[0].title, sessions[0].cwd, sessions[0].usage | (删除) | 1      | 否      |
      | totalCost 为 null        | sessions[0].usage.totalCost                       | null      | 1      | 否      |
      | 没有任何轮次             | sessions[0].usage.rounds                          | []        | 1      | 否      |
      | messageCount 为小数      | sessions[0].messageCount                          | 2.5       | 1      | 否      |
      | 索引不是对象             | (整个索引)                                        | []        | 0      | 是      |
      | version 不是字符串       | version                                           | 1         | 0      | 是      |
      | updatedAt 不是字符串     | updatedAt                                         | null      | 0      | 是      |
      | sessions 不是数组        | sessions                                          | {}        | 0      | 是      |
      | 条目不是对象             | sessions[0]                                       | "session-m6x3k2a1-abc123" | 0 | 是 |
      | 条目缺少 id              | sessions[0].id                                    | (删除)    | 0      | 是      |
      | createdAt 不是字符串     | sessions[0].createdAt                             | 0         | 0      | 是      |
      | 条目 updatedAt 缺失      | sessions[0].updatedAt                             | (删除)    | 0      | 是      |
      | messageCount 是字符串    | sessions[0].messageCount                          | "2"       | 0      | 是      |
      | messageCount 是布尔值    | sessions[0].messageCount                          | true      | 0      | 是      |
      | title 为 null            | sessions[0].title                                 | null      | 0      | 是      |
      | cwd 不是字符串           | sessions[0].cwd                                   | 1         | 0      | 是      |
      | usage 不是对象           | sessions[0].usage                                 | []        | 0      | 是      |
      | usage 的累计值是字符串   | sessions[0].usage.totalOutput                     | "50"      | 0      | 是      |
      | usage 缺少 model         | sessions[0].usage.model                           | (删除)    | 0      | 是      |
      | rounds 不是数组          | sessions[0].usage.rounds                          | {}        | 0      | 是      |
      | 轮次不是对象             | sessions[0].usage.rounds[0]                       | 5         | 0      | 是      |
      | 轮次缺少 output          | sessions[0].usage.rounds[0].output                | (删除)    | 0      | 是      |
      | totalCost 是字符串       | sessions[0].usage.totalCost                       | "0.0024"  | 0      | 是      |

  @SES-118
  Scenario: 条目带有 schema 之外字段的索引照常使用，下次写入时也不被当作损坏另存
    An entry annotated by another tool or a newer version (`pinned`, a `currency` in its usage) lists like
    any other; the fields the schema names read as written, and the next write keeps the index.
    Given `sessions.json` 以如下合法索引为基础
      """
      {
        "version": "1.0.0",
        "sessions": [
          {
            "id": "session-m6x3k2a1-abc123",
            "createdAt": "2026-01-02T03:04:05.678Z",
            "updatedAt": "2026-01-02T03:05:00.000Z",
            "messageCount": 2,
            "title": "修复登录页面",
            "cwd": "/work/project",
            "pinned": true,
            "usage": {
              "totalInputOther": 100,
              "totalOutput": 50,
              "totalCacheRead": 300,
              "totalCacheCreation": 100,
              "model": "claude-sonnet-4-20250514",
              "rounds": [{"inputOther": 100, "output": 50, "inputCacheRead": 300, "inputCacheCreation": 100}],
              "totalCost": 0.0024,
              "currency": "USD"
            }
          }
        ],
        "updatedAt": "2026-01-02T03:05:00.000Z"
      }
      """
    When 调用 `Session.list()`
    Then `Session.list()` 应列出 1 个会话，schema 所列的字段都与索引文件中的一致
    And 是否记录了以 "Failed to load sessions index" 开头的 warning: 否
    When 创建一个新会话
    Then `Session.list()` 应从新到旧列出新会话与 `session-m6x3k2a1-abc123`
    And 不应有备份文件

  @SES-024
  Scenario: 缺少 version 的索引照常使用，下次写入时补上 "1.0.0"
    Given `sessions.json` 以如下合法索引为基础
      """
      {
        "sessions": [
          {
            "id": "session-m6x3k2a1-abc123",
            "createdAt": "2026-01-02T03:04:05.678Z",
            "updatedAt": "2026-01-02T03:05:00.000Z",
            "messageCount": 0
          }
        ],
        "updatedAt": "2026-01-02T03:05:00.000Z"
      }
      """
    When 创建一个新会话
    Then `sessions.json` 应为 `{"version": "1.0.0", "sessions": [...], "updatedAt": ISO-8601}`
    And 索引应从新到旧列出新会话与 `session-m6x3k2a1-abc123`，旧条目原样保留
    And 不应有备份文件

  @SES-025
  Scenario: 索引中的时间戳与原版一样为 UTC 毫秒格式
    Given 一个空的会话目录
    When 记下时间后创建一个新会话
    Then 索引的 updatedAt 与该会话条目的 createdAt、updatedAt 都应形如 `2026-01-02T03:04:05.678Z`，且落在创建前后

  @SES-030
  Scenario Outline: 索引条目没有 usage 时，恢复的会话按调用方给的模型（默认 "unknown-model"）从零计起
    Given `sessions.json` 以如下合法索引为基础
      """
      {
        "version": "1.0.0",
        "sessions": [
          {
            "id": "session-m6x3k2a1-abc123",
            "createdAt": "2026-01-02T03:04:05.678Z",
            "updatedAt": "2026-01-02T03:05:00.000Z",
            "messageCount": 3,
            "title": "修复登录页面"
          }
        ],
        "updatedAt": "2026-01-02T03:05:00.000Z"
      }
      """
    When 以模型 <model> 恢复会话 `session-m6x3k2a1-abc123`
    Then 恢复的会话的标题应为 "修复登录页面"，消息数为 3
    And 恢复的会话的 usage 应为模型 `<expected>` 的空 usage

    Examples:
      | model                    | expected               |
      | (不指定)                 | unknown-model          |
      | `claude-opus-4-20250514` | claude-opus-4-20250514 |

  @SES-109
  Scenario: 实现进程的时区不是 UTC 时，索引中的时间戳仍是 UTC
    Given 实现进程的时区为 `Asia/Shanghai`（环境变量 TZ），与 UTC 相差 8 小时
    And 一个空的会话目录
    When 记下时间后创建一个新会话
    Then 索引的 updatedAt 与该会话条目的 createdAt、updatedAt 都应形如 `2026-01-02T03:04:05.678Z`，且落在创建前后

  @SES-122
  Scenario: 索引中同一 id 出现两次时，恢复的会话取最前面的条目
    The original resumes `sessions.find(s => s.id === id)`: the first entry of the id, the one every write
    moves to the front; a second entry of the same id (written again by another tool) is a stale copy.
    Given `sessions.json` 以如下合法索引为基础
      """
      {
        "version": "1.0.0",
        "sessions": [
          {
            "id": "session-m6x3k2a1-abc123",
            "createdAt": "2026-01-02T03:04:05.678Z",
            "updatedAt": "2026-01-02T04:00:00.000Z",
            "messageCount": 3,
            "title": "修复登录页面"
          },
          {
            "id": "session-m6x3k2a1-def456",
            "createdAt": "2026-01-02T03:00:00.000Z",
            "updatedAt": "2026-01-02T03:00:00.000Z",
            "messageCount": 1,
            "title": "另一个会话"
          },
          {
            "id": "session-m6x3k2a1-abc123",
            "createdAt": "2026-01-02T03:04:05.678Z",
            "updatedAt": "2026-01-02T03:05:00.000Z",
            "messageCount": 1,
            "title": "旧的副本"
          }
        ],
        "updatedAt": "2026-01-02T04:00:00.000Z"
      }
      """
    When 以模型 (不指定) 恢复会话 `session-m6x3k2a1-abc123`
    Then 恢复的会话的标题应为 "修复登录页面"，消息数为 3
