@context @beyond-seed
Feature: 压缩分割不拆散工具调用与其结果
  The original splits the history purely by count (`len - preserveCount`). When that point falls inside a
  tool round, the kept tail starts with orphan `tool` results (which the history sanitizer later drops,
  wiping the session's offload files) and the summarised part ends with tool calls whose results are
  missing (a malformed protocol replayed to the summary model). The split point is moved earlier, to the
  assistant message that made the calls, so a tool round stays whole on one side.

  Background:
    Given 一个会话 offload 目录与一个使用脚本化模型 "main-model" 的 ContextCompactor（`preserveCount=5`）
    And 模型的总结回复为 "## Current Status\n摘要"

  @CTX-021
  Scenario: 按数量分割落在工具结果上时应前移到发起调用的 assistant 消息
    Given 历史消息为:
      | role      | text    | call |
      | user      | 开始      |      |
      | assistant | 好的      |      |
      | user      | 读取配置文件  |      |
      | user      | 请快一点    |      |
      | assistant | 调用 read | c1   |
      | tool      | 配置文件的内容 | c1   |
      | assistant | 读完了     |      |
      | user      | 继续      |      |
      | assistant | 好的      |      |
      | user      | 谢谢      |      |
    When 执行 compact
    Then 压缩结果中的每条 tool 消息都应紧随发起它的 assistant toolCall 所在的工具轮次
    And 发送给总结模型的历史不应以未得到结果的 toolCalls 结尾
    And `preservedCount` 应为 `6`

  @CTX-022
  Scenario: 按数量分割落在两条工具结果之间时应整轮保留
    Given 历史消息为:
      | role      | text    | call     |
      | user      | 开始      |          |
      | assistant | 好的      |          |
      | user      | 读取三个文件  |          |
      | assistant | 调用 read | c1,c2,c3 |
      | tool      | 文件一的内容  | c1       |
      | tool      | 文件二的内容  | c2       |
      | tool      | 文件三的内容  | c3       |
      | assistant | 都读完了    |          |
      | user      | 继续      |          |
      | assistant | 好的      |          |
    When 执行 compact
    Then 压缩结果中的每条 tool 消息都应紧随发起它的 assistant toolCall 所在的工具轮次
    And 发送给总结模型的历史不应以未得到结果的 toolCalls 结尾
    And `preservedCount` 应为 `7`
