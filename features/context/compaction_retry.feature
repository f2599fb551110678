@context @seed-000
Feature: 压缩重试与回退
  The summary of the older history is asked from the model up to `retryCount` times in total, waiting
  `0.1 × attempt` seconds (through the injected sleep) after each failed attempt and logging a warning for
  it. When every attempt fails the history is kept as it was.

  Background:
    Given 一个会话 offload 目录与一个使用脚本化模型 "main-model" 的 ContextCompactor（`preserveCount=5`）
    And 历史消息为 8 条普通对话消息

  @CTX-015
  Scenario: 总结首次失败后应按重试策略再次尝试
    Given ContextCompactor 的 `retryCount=3`
    And 总结生成第一次调用失败且 `retryCount>=2`
    And 模型的总结回复为 "## Current Status\n重试后生成的摘要"
    When 执行 compact
    Then 应按重试策略进行下一次调用
    And 后续成功时整体压缩结果应为 `success=true`

  @CTX-016
  Scenario Outline: 重试耗尽时 compact 应回退原历史
    Given offload 文件:
      | file                  | content |
      | {offloaded}/keep.txt  | 工具输出    |
    And ContextCompactor 的 `retryCount=<次数>`
    And 总结生成连续失败直至重试耗尽
    When 执行 compact
    Then 返回应为 `success=false`
    And `messages` 应等于原始历史且 `freedTokens=0`
    And 模型应被调用 `<次数>` 次且每次失败都记录 warning
    And 应记录一条以 "Context compaction failed, keeping original history" 开头的 error
    And offload 目录中的文件不应被删除

    Examples:
      | 次数 |
      | 3  |
      | 1  |
      | 4  |

  @CTX-017
  Scenario Outline: 消息数不超过保留阈值时应直接跳过压缩
    Given offload 文件:
      | file                  | content |
      | {offloaded}/keep.txt  | 工具输出    |
    And 历史消息为 <数量> 条普通对话消息
    And 历史消息数量 `<= preserveCount`
    When 执行 compact
    Then 不应触发 LLM 总结调用
    And 结果应保持原历史并返回 `freedTokens=0`
    And offload 目录中的文件不应被删除

    Examples:
      | 数量 |
      | 3  |
      | 5  |

  @CTX-018
  Scenario: 未配置压缩模型时应继续使用当前模型
    Given compact options 未设置 `model`
    And 模型的总结回复为 "## Current Status\n使用当前模型生成的摘要"
    When 执行 compact
    Then 不应调用 `withModel` 切换模型
    And 仍应正常完成摘要生成
