@context @seed-000
Feature: 卸载文件清理容错
  After a compaction, offload files that the kept tail no longer references are deleted. A deletion
  failure is injected in the file system: that one file is made undeletable for every process, root
  included (its immutable flag, or a bind mount of the file onto itself), whatever language or file API
  the implementation uses; where the machine allows neither, the scenario is not applicable.

  Background:
    Given 一个会话 offload 目录与一个使用脚本化模型 "main-model" 的 ContextCompactor（`preserveCount=5`）

  @CTX-019
  Scenario: 批量清理中单文件删除失败不应阻断其它文件删除
    Given offload 目录中多个文件且其中一个删除会抛错
      | file                | content | 删除时抛错 |
      | {offloaded}/a.txt   | 输出 a    | 否     |
      | {offloaded}/b.txt   | 输出 b    | 是     |
      | {offloaded}/c.txt   | 输出 c    | 否     |
    When 执行清理
    Then 其余可删文件应继续删除成功
    And 流程仅记录告警而不抛出整体异常

  @CTX-020
  Scenario: 清理时应跳过保留引用集合中的文件
    Given offload 文件:
      | file                | content |
      | {offloaded}/a.txt   | 输出 a    |
      | {offloaded}/b.txt   | 输出 b    |
      | {offloaded}/c.txt   | 输出 c    |
      | {offloaded}/d.json  | {"k": 1} |
    And `retainedFiles` 集合包含当前会话仍被引用的文件
      | file               |
      | {offloaded}/b.txt  |
      | {offloaded}/d.json |
    When 执行 cleanupOffloadedFiles
    Then 被引用文件不应删除
    And 返回的 deleted 列表不应包含这些路径
