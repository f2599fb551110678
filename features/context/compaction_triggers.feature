@context @seed-001
Feature: Context compaction 触发规则
  Every agent step calls `ContextOrchestrator.offloadIfNeeded(history, offloadDir)` once. It compacts only
  when the offload left the history over the threshold, freed less than `compactTriggerThreshold`, and no
  compaction was attempted (successfully or not) in the last `compactCooldownSteps` steps.
  The ContextManager and the ContextCompactor are replaced by recording doubles, so each scenario states
  exactly what the offload reports. The "still exceeds the threshold" warning is decided on the compacted
  history when a compaction succeeded, else on the offload's count.

  Background:
    Given 一个注入了 ContextManager 与 ContextCompactor 替身的 `ContextOrchestrator`，配置为:
      | offloadThreshold | compactTriggerThreshold | compactCooldownSteps |
      | 80000            | 15000                   | 5                    |
    And 会话历史有 8 条消息且会话 offload 目录存在

  @CTX-007
  Scenario Outline: offload 后仍超阈值且释放不足时触发 compact
    Given offload 替身报告:
      | offloadedCount | previousTokens | currentTokens | freedTokens |
      | 0              | 100000         | 90000         | 10000       |
    And `stillExceedsThreshold=true` 且 `freedTokens < compactTriggerThreshold`
    And 此前的 compact 尝试: <此前>
    And compact 冷却期已满足
    When `ContextOrchestrator.offloadIfNeeded(...)` 执行
    Then 应调用 `ContextCompactor.compact(...)`
    And 编排结果应采用 compact 替身返回的消息
    And 没有消息被卸载时编排结果的 `offloadResult` 应为空

    Examples:
      | 此前                               |
      | 从未尝试                             |
      | 恰好在 `compactCooldownSteps` 步之前尝试过 |

  @CTX-008
  Scenario Outline: offload 释放已足够时不触发 compact
    Given offload 替身报告:
      | offloadedCount | previousTokens | currentTokens | freedTokens |
      | 3              | <previous>     | <current>     | <freed>     |
    And `stillExceedsThreshold=true` 但 `freedTokens >= compactTriggerThreshold`
    When 执行 `offloadIfNeeded(...)`
    Then 不应调用 compact
    And 编排结果应采用 offload 替身返回的消息
    And 日志应记录 context 卸载后仍超阈值的 warning

    Examples:
      | previous | current | freed |
      | 95000    | 80000   | 15000 |
      | 110000   | 90000   | 20000 |

  @CTX-009
  Scenario: 已不超阈值时不触发 compact
    Given offload 替身报告:
      | offloadedCount | previousTokens | currentTokens | freedTokens |
      | 1              | 75000          | 70000         | 5000        |
    And `stillExceedsThreshold=false`
    When 执行 `offloadIfNeeded(...)`
    Then 不应调用 compact
    And 编排结果应采用 offload 替身返回的消息
    And 日志不应记录 context 仍超阈值的 warning

  @CTX-010
  Scenario Outline: 冷却期内禁止重复 compact
    Given offload 替身每一步都报告:
      | offloadedCount | previousTokens | currentTokens | freedTokens |
      | 0              | 100000         | 90000         | 10000       |
    And `stillExceedsThreshold=true` 且 `freedTokens < compactTriggerThreshold`
    And compact 替身返回 `success=<success>`
    And 上一次 compact 尝试发生在最近 `compactCooldownSteps` 内
    When 再次执行 `offloadIfNeeded(...)`
    Then 不应再次触发 compact
    And 冷却期满后的下一步应再次触发 compact

    Examples:
      | success |
      | true    |
      | false   |

  @CTX-107 @beyond-seed
  Scenario: offload 后恰好等于阈值且释放不足时也触发 compact
    A history that sits exactly on the threshold after the offload still exceeds it, by the offload's own
    rule (`currentTokens >= offloadThreshold`, the rule that starts an offload): the orchestrator compacts
    on the offload's `stillExceedsThreshold`, never on a stricter comparison of its own.
    Given offload 替身报告:
      | offloadedCount | previousTokens | currentTokens | freedTokens |
      | 1              | 90000          | 80000         | 10000       |
    And `stillExceedsThreshold=true` 且 `freedTokens < compactTriggerThreshold`
    When 执行 `offloadIfNeeded(...)`
    Then 应调用 `ContextCompactor.compact(...)`
    And 编排结果应采用 compact 替身返回的消息

  @CTX-079 @beyond-seed
  Scenario: `forceCompact` 不开始冷却期：紧接着需要 compact 的一步照常触发
    `forceCompact` (behind `/compact`) compacts now, without an offload first; it neither waits for the
    cooldown of the automatic compaction nor starts one, as in the original, where only `offloadIfNeeded`
    records the step of its attempt.
    Given offload 替身每一步都报告:
      | offloadedCount | previousTokens | currentTokens | freedTokens |
      | 0              | 100000         | 90000         | 10000       |
    And `stillExceedsThreshold=true` 且 `freedTokens < compactTriggerThreshold`
    And compact 替身返回 `success=true`
    When 执行 `ContextOrchestrator.forceCompact(...)`
    Then `forceCompact` 应把历史直接交给 compact 替身（不先 offload）并返回它的结果
    When `ContextOrchestrator.offloadIfNeeded(...)` 执行
    Then 应调用 `ContextCompactor.compact(...)`
    And 编排结果应采用 compact 替身返回的消息

  @CTX-080 @beyond-seed
  Scenario: 冷却期内的 `forceCompact` 照常压缩，也不延长冷却期
    Given offload 替身每一步都报告:
      | offloadedCount | previousTokens | currentTokens | freedTokens |
      | 0              | 100000         | 90000         | 10000       |
    And `stillExceedsThreshold=true` 且 `freedTokens < compactTriggerThreshold`
    And compact 替身返回 `success=true`
    And 上一次 compact 尝试发生在最近 `compactCooldownSteps` 内
    And 接下来的 2 次 `offloadIfNeeded(...)` 都不应触发 compact
    When 执行 `ContextOrchestrator.forceCompact(...)`
    Then `forceCompact` 应把历史直接交给 compact 替身（不先 offload）并返回它的结果
    And 接下来的 2 次 `offloadIfNeeded(...)` 都不应触发 compact
    And 再下一次 `offloadIfNeeded(...)` 应触发 compact

  @CTX-086 @beyond-seed
  Scenario: 触发的 compact 成功且压缩后低于阈值时不再记录仍超阈值的 warning
    Given offload 替身报告:
      | offloadedCount | previousTokens | currentTokens | freedTokens |
      | 0              | 100000         | 90000         | 10000       |
    And `stillExceedsThreshold=true` 且 `freedTokens < compactTriggerThreshold`
    And compact 替身返回 `success=true`
    When 执行 `offloadIfNeeded(...)`
    Then 应调用 `ContextCompactor.compact(...)`
    And 编排结果应采用 compact 替身返回的消息
    And 日志不应记录 context 仍超阈值的 warning

  @CTX-087 @beyond-seed
  Scenario: 触发的 compact 失败时以 offload 后的 token 判断，仍记录超阈值的 warning
    Given offload 替身报告:
      | offloadedCount | previousTokens | currentTokens | freedTokens |
      | 0              | 100000         | 90000         | 10000       |
    And `stillExceedsThreshold=true` 且 `freedTokens < compactTriggerThreshold`
    And compact 替身返回 `success=false`
    When 执行 `offloadIfNeeded(...)`
    Then 应调用 `ContextCompactor.compact(...)`
    And 日志应记录 context 卸载后仍超阈值的 warning


  @CTX-089 @beyond-seed
  Scenario: 卸载后已不超阈值的步也计入冷却期：冷却期按步数而不是按需要 compact 的步数计算
    Every `offloadIfNeeded` call is one step of the cooldown, also a step whose offload left the history
    under the threshold: after an attempt at step 1 and four steps under the threshold, step 6 needs a
    compaction and gets one, as in the original, whose step counter advances on every call.
    Given offload 替身每一步都报告:
      | offloadedCount | previousTokens | currentTokens | freedTokens |
      | 0              | 100000         | 90000         | 10000       |
    And `stillExceedsThreshold=true` 且 `freedTokens < compactTriggerThreshold`
    And compact 替身返回 `success=true`
    And 上一次 compact 尝试发生在最近 `compactCooldownSteps` 内
    And offload 替身每一步都报告:
      | offloadedCount | previousTokens | currentTokens | freedTokens |
      | 2              | 100000         | 70000         | 30000       |
    And `stillExceedsThreshold=false`
    And 接下来的 4 次 `offloadIfNeeded(...)` 都不应触发 compact
    And offload 替身每一步都报告:
      | offloadedCount | previousTokens | currentTokens | freedTokens |
      | 0              | 100000         | 90000         | 10000       |
    And `stillExceedsThreshold=true` 且 `freedTokens < compactTriggerThreshold`
    Then 再下一次 `offloadIfNeeded(...)` 应触发 compact

  @CTX-103 @beyond-seed
  Scenario: 同一步里先 offload 再触发的 compact 压缩的是 offload 之后的历史
    The original compacts the messages the offload left, not the history the step was given: compacting
    the history from before the offload would put the long results back inline in the kept tail and
    delete their new offload files as unreferenced.
    Given offload 替身报告:
      | offloadedCount | previousTokens | currentTokens | freedTokens |
      | 2              | 100000         | 90000         | 10000       |
    And `stillExceedsThreshold=true` 且 `freedTokens < compactTriggerThreshold`
    And compact 替身返回 `success=true`
    When 执行 `offloadIfNeeded(...)`
    Then 应调用 `ContextCompactor.compact(...)`
    And 编排结果应采用 compact 替身返回的消息
