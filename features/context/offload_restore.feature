@context @seed-000
Feature: Offload 引用恢复安全边界
  Before the older part of the history is summarised, offload references in `tool` messages are replaced
  by the content of the referenced file, so the summary sees the real tool output. Only files inside the
  session's `offloaded/` directory may be read; the kept tail is never restored.
  `{offloaded}` stands for `<session dir>/offloaded` and `{outside}` for a directory next to the session
  directory. File reads are observed through the kernel (inotify), for whichever process opens the file,
  so "不读取文件" means the file is never opened.

  Background:
    Given 一个会话 offload 目录与一个使用脚本化模型 "main-model" 的 ContextCompactor（`preserveCount=5`）

  @CTX-011
  Scenario: 仅 `tool` 消息中的卸载引用可被恢复
    Given offload 文件:
      | file        | content                 |
      | {offloaded}/result-1.txt | 原始工具输出：共 3 个测试失败 |
      | {offloaded}/result-2.txt | 另一段工具输出                |
    And 历史中同时存在 `tool` 与 `user` 消息且都包含 `Tool result is at:` 文本
      | role      | text                                        | call |
      | user      | Tool result is at: {offloaded}/result-2.txt |      |
      | assistant | Tool result is at: {offloaded}/result-2.txt | c1   |
      | tool      | Tool result is at: {offloaded}/result-1.txt | c1   |
    When 执行压缩前的引用恢复
    Then 只应替换 `tool` 消息内容
    And 非 `tool` 消息应保持原文不变
    And 输入的历史不应被修改

  @CTX-012
  Scenario Outline: 引用卸载目录外路径时应跳过恢复
    Given offload 文件:
      | file                     | content  |
      | {outside}/secret.txt     | 目录外的机密内容 |
      | {offloaded}/inside.txt   | 目录内的工具输出 |
    And 卸载目录内有一个指向 `{outside}/secret.txt` 的符号链接 `{offloaded}/link.txt`
    And `tool` 消息引用了 offload 目录之外的绝对路径
      | role      | text                       | call |
      | assistant | 调用工具                       | c1,c2 |
      | tool      | Tool result is at: <引用路径>   | c1   |
      | tool      | Tool result is at: {offloaded}/inside.txt | c2   |
    When 执行内容恢复
    Then 应跳过该引用不读取文件
    And 应记录一条以 "Skipping offload restore for out-of-scope path" 开头并指明该引用路径的 warning
    And 原消息内容保持不变
    And 目录内的引用仍应被恢复

    Examples:
      | 情形          | 引用路径                                    |
      | 目录外绝对路径     | {outside}/secret.txt                    |
      | 以 .. 跳出卸载目录 | {offloaded}/../../outside/secret.txt     |
      | 指向目录外的符号链接  | {offloaded}/link.txt                    |

  @CTX-013
  Scenario: 卸载文件缺失时应降级为占位文本
    Given `tool` 消息引用的 offload 文件已不存在
      | role      | text                                       | call |
      | user      | 运行测试                                       |      |
      | assistant | 调用 bash                                    | c1   |
      | tool      | Tool result is at: {offloaded}/missing.txt | c1   |
      | assistant | 测试失败了                                      |      |
      | user      | 修复它                                        |      |
      | assistant | 已修复                                        |      |
      | user      | 再跑一次                                       |      |
      | assistant | 全部通过                                       |      |
    And 模型的总结回复为 "## Current Status\n测试已修复"
    When 执行恢复流程
    Then 该消息应替换为 `[Content unavailable: <path>]`
    And 压缩流程不应因此中断

  @CTX-014
  Scenario: 保留区间中的卸载引用应继续保留文件
    Given offload 文件:
      | file                    | content     |
      | {offloaded}/early.txt   | 早期的工具输出     |
      | {offloaded}/kept.txt    | 保留区仍引用的工具输出 |
      | {offloaded}/orphan.txt  | 无人引用的工具输出   |
    And 末尾保留消息中仍包含 `Tool result is at: <file>` 引用
      | role      | text                                     | call |
      | user      | 读取早期输出                                   |      |
      | assistant | 调用 read                                  | c1   |
      | tool      | Tool result is at: {offloaded}/early.txt | c1   |
      | assistant | 读完了                                      |      |
      | user      | 再读取一次                                    |      |
      | user      | 请读取保留的输出                                 |      |
      | assistant | 调用 read                                  | c2   |
      | tool      | Tool result is at: {offloaded}/kept.txt  | c2   |
      | assistant | 读完了                                      |      |
      | user      | 继续                                       |      |
    And 模型的总结回复为 "## Current Status\n读取完成"
    When 执行 compact 清理阶段
    Then 该文件不应被删除
    And 保留区消息应继续保持路径引用形式
    And 未被保留区引用的卸载文件应被删除并列入 `deletedFiles`

  @CTX-104 @beyond-seed
  Scenario: 会话目录经由符号链接到达时，保留区仍引用的卸载文件也不被删除
    The kept tail's references and the listed offload files name the same files by the same path; the
    original resolves both the same way (`path.resolve`, which never follows links), so a sessions
    directory reached through a symbolic link keeps the files the tail references and deletes only the
    others.
    Given 会话目录经由一个符号链接到达（如放在另一块磁盘上的会话目录）
    And offload 文件:
      | file                    | content     |
      | {offloaded}/early.txt   | 早期的工具输出     |
      | {offloaded}/kept.txt    | 保留区仍引用的工具输出 |
      | {offloaded}/orphan.txt  | 无人引用的工具输出   |
    And 末尾保留消息中仍包含 `Tool result is at: <file>` 引用
      | role      | text                                     | call |
      | user      | 读取早期输出                                   |      |
      | assistant | 调用 read                                  | c1   |
      | tool      | Tool result is at: {offloaded}/early.txt | c1   |
      | assistant | 读完了                                      |      |
      | user      | 再读取一次                                    |      |
      | user      | 请读取保留的输出                                 |      |
      | assistant | 调用 read                                  | c2   |
      | tool      | Tool result is at: {offloaded}/kept.txt  | c2   |
      | assistant | 读完了                                      |      |
      | user      | 继续                                       |      |
    And 模型的总结回复为 "## Current Status\n读取完成"
    When 执行 compact 清理阶段
    Then 该文件不应被删除
    And 保留区消息应继续保持路径引用形式
    And 未被保留区引用的卸载文件应被删除并列入 `deletedFiles`
