@context @beyond-seed
Feature: 清理只针对卸载目录中的普通文件
  The offload directory may hold things the agent did not write there: a subdirectory, or a symbolic
  link. Only plain files count as offload files, so cleanup never follows or removes anything else.

  Background:
    Given 一个会话 offload 目录与一个使用脚本化模型 "main-model" 的 ContextCompactor（`preserveCount=5`）

  @CTX-038
  Scenario: 清理不删除卸载目录中的子目录与符号链接
    Given offload 文件:
      | file                 | content          |
      | {offloaded}/a.txt    | 输出 a           |
      | {outside}/secret.txt | 目录外的机密内容 |
    And 卸载目录内有一个指向 `{outside}/secret.txt` 的符号链接 `{offloaded}/link.txt`
    And 卸载目录内有一个含文件的子目录 `{offloaded}/nested`
    When 执行 cleanupOffloadedFiles
    Then 返回的 deleted 列表应恰好为 `{offloaded}/a.txt`
    And 符号链接 `{offloaded}/link.txt`、子目录 `{offloaded}/nested` 与 `{outside}/secret.txt` 都应还在
