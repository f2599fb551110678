@context @beyond-seed
Feature: 缺失卸载文件的占位文本照原样引用历史中的路径
  A reference whose file is gone is replaced by `[Content unavailable: <path>]`, where `<path>` is the path
  as the history wrote it (trimmed), not the path it resolves to: the summary model should see a path that
  appears in the conversation. A reference with `..` inside the offload directory stays in scope and
  shows the difference.

  Background:
    Given 一个会话 offload 目录与一个使用脚本化模型 "main-model" 的 ContextCompactor（`preserveCount=5`）

  @CTX-083
  Scenario: 引用路径含 .. 时占位文本保留写入的路径
    Given `tool` 消息引用的 offload 文件已不存在
      | role      | text                                               | call |
      | user      | 运行测试                                               |      |
      | assistant | 调用 bash                                            | c1   |
      | tool      | Tool result is at: {offloaded}/logs/../missing.txt | c1   |
      | assistant | 测试失败了                                              |      |
      | user      | 修复它                                                |      |
      | assistant | 已修复                                                |      |
      | user      | 再跑一次                                               |      |
      | assistant | 全部通过                                               |      |
    And 模型的总结回复为 "## Current Status\n测试已修复"
    When 执行恢复流程
    Then 该消息应替换为 `[Content unavailable: <path>]`
    And 压缩流程不应因此中断
