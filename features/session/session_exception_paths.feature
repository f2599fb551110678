@session @seed-000
Feature: 会话异常路径一致性
  A failed write never costs the user their history, clearing a session leaves nothing stale behind, and
  a resumed session carries on with the usage it had.

  @SES-004
  Scenario: `rewriteHistory` 写入失败后应保持旧历史内容
    Given 会话已有历史文件且重写阶段写入失败
      | role      | text                   |
      | user      | 请帮我重构 session 模块 |
      | assistant | 好的，先看一下现有代码。 |
    And 重写时磁盘空间不足：进程可写的文件大小上限为 64 KiB，而新历史约有 160 KiB
    When 调用 `rewriteHistory`
    Then 应抛出带原因错误
    And 原历史内容应保持一致不被破坏
    And 会话目录中不应残留临时文件

  @SES-005
  Scenario: `clear` 后 usage 与 offload 目录应同步归零
    Given 会话已有 usage 统计和 offload 文件
      | inputOther | output | inputCacheRead | inputCacheCreation |
      | 100        | 50     | 200            | 30                 |
    When 执行 `clear()`
    Then usage 聚合字段应重置到初始状态
    And offload 目录应被删除
    And 历史文件应保留且为空
    And 索引中的 usage 与消息数也应重置

  @SES-006
  Scenario: `find` 恢复会话时应还原已持久化 usage 字段
    Given 索引中已持久化 usage 的 totals 与 rounds
      | index      | sessionId               | 调用方传入的 model |
      | valid.json | session-m6x3k2a1-older1 | another-model      |
    When 通过 `Session.find()` 恢复该会话
    Then `getUsage()` 应返回与索引一致的累计值
    And model 字段应与索引保持一致
    And 标题与消息数应取自索引
    And 修改 `getUsage()` 的返回值不应改变会话的 usage

  @SES-111 @beyond-seed
  Scenario Outline: 成功的 `clear` 与 `rewriteHistory` 之后会话目录中也不留临时文件 — <操作>
    Given 会话已有 usage 统计和 offload 文件
      | inputOther | output | inputCacheRead | inputCacheCreation |
      | 100        | 50     | 200            | 30                 |
    And 记下会话目录中的文件
    When <操作>
    Then 会话目录中不应出现新的文件

    Examples:
      | 操作                          |
      | 执行 `clear()`                |
      | 执行 `clear(resetUsage=false)` |
      | 用 2 条消息重写会话历史       |
