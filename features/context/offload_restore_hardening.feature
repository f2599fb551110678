@context @seed-000 @beyond-seed
Feature: 恢复卸载内容时只读取卸载目录中属于自己的小的普通文件
  Restoring offloaded content reads only a small regular file of the offload directory: reached without
  following a link (even one swapped in after the check, for the file or a directory on its way), with one
  link, on the directory's device, at most SYNAPSE_OFFLOAD_RESTORE_MAX_BYTES bytes (read as parseInt
  reads it, so `1e2` is 1 and `100kb` is 100; default 1 MiB; never more is read, even from a file that
  grows after its size was checked), opened without blocking; any other reference keeps its text and a
  warning names it, and a NUL or a lone surrogate in a path never fails compaction. A file in a
  subdirectory of `offloaded/` restores like any other, a skipped reference never stops the restore of the
  messages after it, and restoring leaves no file descriptor open.

  卸载目录里可能出现 agent 没写过的东西，也可能有另一个进程在恢复的同时改动它。恢复只读取这样的文件：
  位于卸载目录内、打开时不经过任何符号链接（检查之后才被换成链接的也不行，无论换的是文件本身还是路径上的
  目录）、是普通文件、与卸载目录在同一设备上、只有一个链接（硬链接可以指向任何地方的文件）、不超过
  `SYNAPSE_OFFLOAD_RESTORE_MAX_BYTES` 字节（使用时读取，像 parseInt 那样只取开头的整数：`1e2` 是 1，
  `100kb` 是 100；未设置或不是正整数时为 1048576，即 1 MiB；检查大小之后文件被另一个进程写长，也不会读入
  超过上限的内容）。打开文件不得阻塞：命名管道不能让压缩永远挂起。
  不满足这些条件的引用保持 `Tool result is at: <path>` 原文，并记录一条指明该引用路径的 warning；只有文件
  不存在时才按种子替换为 `[Content unavailable: <path>]`。路径中的 NUL 字符（写作 `\0`）不能让压缩失败。
  `{offloaded}` 表示 `<会话目录>/offloaded`，`{outside}` 表示会话目录旁的一个目录；每次压缩最多等待 10 秒，
  超时即判定失败。

  Background:
    Given 一个会话 offload 目录与一个使用脚本化模型 "main-model" 的 ContextCompactor（`preserveCount=5`）
    And offload 文件:
      | file                 | content          |
      | {outside}/secret.txt | 目录外的机密内容 |
    And 模型的总结回复为 "## Current Status\n摘要"

  @CTX-042
  Scenario Outline: 不能安全读取的卸载文件保持引用原文并记录 warning，压缩照常完成 — <情形>
    Given 一段 10 条消息的历史，第 `3` 条 tool 消息引用 `{offloaded}/<文件名>`
    And 被引用的卸载文件是<情形>
    When 执行 compact，最多等待 10 秒
    Then 压缩应在时限内成功完成
    And 总结模型看到的第 `3` 条消息应保持引用原文
    And 总结模型应看到待总结的全部 `5` 条消息，其余各条与历史相同
    And 应记录一条指明该引用路径的 warning
    And 发给模型的请求中不应出现目录外的内容

    Examples:
      | 情形                                  | 文件名         |
      | 一个命名管道（FIFO）                  | pipe           |
      | 指向 `{outside}/secret.txt` 的硬链接  | hard.txt       |
      | 路径中含 NUL 字符、无法打开的名字     | bad\0name.txt  |
      | 路径中含孤立代理字元、无法编码的名字 | bad\ud800name.txt |
      | 一个命名管道（FIFO）下的路径          | pipe/inner.txt |
      | 一个 Unix 域套接字，打开时无此设备    | socket         |

  @CTX-076
  Scenario: 卸载目录本身是命名管道（FIFO）时压缩不会挂起，像原实现一样因列不出卸载文件而失败并保留原历史
    Given 一段 10 条消息的历史，第 `3` 条 tool 消息引用 `{offloaded}/inner.txt`
    And 被引用的卸载文件是卸载目录本身为命名管道（FIFO）时其中的名字
    When 执行 compact，最多等待 10 秒
    Then 返回应为 `success=false`
    And `messages` 应等于原始历史且 `freedTokens=0`
    And 发给模型的请求中不应出现目录外的内容

  @CTX-043
  Scenario: 保留区中路径含 NUL 字符的引用不让压缩失败，也不妨碍清理
    Given 一段 10 条消息的历史，第 `8` 条 tool 消息引用 `{offloaded}/bad\0name.txt`
    And offload 文件:
      | file                  | content        |
      | {offloaded}/early.txt | 早期的工具输出 |
    When 执行 compact，最多等待 10 秒
    Then 压缩应在时限内成功完成
    And 保留区的第 `8` 条消息应保持引用原文
    And 卸载文件 `{offloaded}/early.txt` 应被删除并列入 `deletedFiles`

  @CTX-044
  Scenario Outline: 恢复的文件大小上限由 `SYNAPSE_OFFLOAD_RESTORE_MAX_BYTES` 决定 — 设置 "<设置>"、<字节数> 字节
    Full-width digits (１００) are no number to parseInt, so the default of 1 MiB applies.
    Given 环境变量 `SYNAPSE_OFFLOAD_RESTORE_MAX_BYTES` 为 "<设置>"
    And 一段 10 条消息的历史，第 `3` 条 tool 消息引用 `{offloaded}/sized.txt`
    And 被引用的卸载文件是一个 <字节数> 字节的 ASCII 文本文件
    When 执行 compact，最多等待 10 秒
    Then 压缩应在时限内成功完成
    And 总结模型看到的第 `3` 条消息应<结果>

    Examples:
      | 设置 | 字节数  | 结果                                  |
      | 100  | 100     | 为该文件的内容                        |
      | 100  | 101     | 保持引用原文，并有指明该引用路径的 warning |
      |      | 1048576 | 为该文件的内容                        |
      |      | 1048577 | 保持引用原文，并有指明该引用路径的 warning |
      | abc  | 1048577 | 保持引用原文，并有指明该引用路径的 warning |
      | 0    | 1048577 | 保持引用原文，并有指明该引用路径的 warning |
      | -1   | 1048576 | 为该文件的内容                        |
      | 1e2  | 100     | 保持引用原文，并有指明该引用路径的 warning |
      | 100kb | 101    | 保持引用原文，并有指明该引用路径的 warning |
      | １００ | 101    | 为该文件的内容                        |

  @CTX-088
  Scenario Outline: 恢复的文件大小上限按字节计，不按字符计 — <字符数> 个中文字符、<字节数> 字节
    Given 环境变量 `SYNAPSE_OFFLOAD_RESTORE_MAX_BYTES` 为 "100"
    And 一段 10 条消息的历史，第 `3` 条 tool 消息引用 `{offloaded}/sized.txt`
    And 被引用的卸载文件是一个由 <字符数> 个中文字符组成、共 <字节数> 字节的 UTF-8 文本文件
    When 执行 compact，最多等待 10 秒
    Then 压缩应在时限内成功完成
    And 总结模型看到的第 `3` 条消息应<结果>

    Examples:
      | 字符数 | 字节数 | 结果                                  |
      | 33  | 99  | 为该文件的内容                        |
      | 34  | 102 | 保持引用原文，并有指明该引用路径的 warning |

  @CTX-045
  Scenario: 另一个进程反复把卸载文件换成指向目录外的符号链接时，恢复永远读不到目录外的内容
    Given 一段 10 条消息的历史，第 `3` 条 tool 消息引用 `{offloaded}/swap.txt`
    And 另一个进程不停地把 `{offloaded}/swap.txt` 换成内容为 "目录内的工具输出" 的普通文件或指向 `{outside}/secret.txt` 的符号链接
    When 执行压缩前的引用恢复 5000 次
    Then 任何一次恢复的结果中都不应出现目录外的内容
    And 每一次第 `3` 条消息都应为 "目录内的工具输出" 或保持引用原文

  @CTX-094
  Scenario: 卸载文件在检查大小之后被另一个进程写长时，恢复读到的内容也不超过上限
    Given 环境变量 `SYNAPSE_OFFLOAD_RESTORE_MAX_BYTES` 为 "100"
    And 一段 10 条消息的历史，第 `3` 条 tool 消息引用 `{offloaded}/grow.txt`
    And 另一个进程不停地把 `{offloaded}/grow.txt` 截短为 94 字节、再写长到 200 字节
    When 执行压缩前的引用恢复 20000 次
    Then 任何一次恢复的第 `3` 条消息都应为不超过 100 字节的文件内容或保持引用原文

  @CTX-095
  Scenario: 另一个进程反复把卸载文件所在的子目录换成指向目录外的符号链接时，恢复永远读不到目录外的内容
    Given 一段 10 条消息的历史，第 `3` 条 tool 消息引用 `{offloaded}/nested/result.txt`
    And 另一个进程不停地把含该文件的目录 `{offloaded}/nested` 换成指向 `{outside}` 的符号链接，后者中同一相对路径上有内容为目录外机密的文件
    When 执行压缩前的引用恢复 20000 次
    Then 任何一次恢复的结果中都不应出现目录外的内容

  @CTX-058
  Scenario: 卸载目录的子目录中的卸载文件照常恢复
    Given 一段 10 条消息的历史，第 `3` 条 tool 消息引用 `{offloaded}/nested/deeper/result.txt`
    And 被引用的卸载文件是一个 64 字节的 ASCII 文本文件
    When 执行 compact，最多等待 10 秒
    Then 压缩应在时限内成功完成
    And 总结模型看到的第 `3` 条消息应为该文件的内容
    And 总结模型应看到待总结的全部 `5` 条消息，其余各条与历史相同

  @CTX-059
  Scenario Outline: 反复恢复卸载文件不泄漏文件描述符 — <位置>
    Given 一段 10 条消息的历史，第 `3` 条 tool 消息引用 `<文件>`
    And 被引用的卸载文件是一个 64 字节的 ASCII 文本文件
    When 在实现进程只能再打开 `16` 个文件时执行压缩前的引用恢复 `100` 次
    Then 每一次第 `3` 条消息都应为该文件的内容

    Examples:
      | 位置           | 文件                                  |
      | 卸载目录中     | {offloaded}/plain.txt                 |
      | 两层子目录中   | {offloaded}/nested/deeper/result.txt  |

  @CTX-060
  Scenario: 含无效 UTF-8 字节的卸载文件按原实现把每个无效字节换成 U+FFFD 后恢复
    Given 一段 10 条消息的历史，第 `3` 条 tool 消息引用 `{offloaded}/binary.txt`
    And 被引用的卸载文件是一个含无效 UTF-8 字节的文本文件
    When 执行 compact，最多等待 10 秒
    Then 压缩应在时限内成功完成
    And 总结模型看到的第 `3` 条消息应为该文件的内容

  @CTX-108
  Scenario: 以 CRLF 或单独的 CR 断行的卸载文件按原样恢复，换行不被改写
    The original reads the file with readFileSync(path, "utf-8"), which keeps `\r\n` and a lone `\r` as
    they were saved: the summary sees HTTP headers, Windows files and progress bars as the tool printed
    them, not with their line ends turned into `\n` as a text-mode read with universal newlines does.
    Given 一段 10 条消息的历史，第 `3` 条 tool 消息引用 `{offloaded}/crlf.txt`
    And 被引用的卸载文件是一个以 CRLF 与单独的 CR 断行的文本文件（HTTP 响应头与进度条）
    When 执行 compact，最多等待 10 秒
    Then 压缩应在时限内成功完成
    And 总结模型看到的第 `3` 条消息应为该文件的内容

  @CTX-116
  Scenario: 以字节序标记开头的卸载文件按原样恢复，开头的 U+FEFF 不被去掉
    The original reads the file with readFileSync(path, "utf-8"), which keeps a byte-order mark at the
    start as the character U+FEFF: the summary sees the output as the tool printed it (PowerShell and
    many Windows tools start their output with one). A read with Python's `utf-8-sig` codec drops it.
    Given 一段 10 条消息的历史，第 `3` 条 tool 消息引用 `{offloaded}/bom.txt`
    And 被引用的卸载文件是一个以字节序标记开头的 UTF-8 文本文件（PowerShell 写出的表格）
    When 执行 compact，最多等待 10 秒
    Then 压缩应在时限内成功完成
    And 总结模型看到的第 `3` 条消息应为该文件的内容
