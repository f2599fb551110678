@agent @beyond-seed
Feature: 运行超过 SYNAPSE_COMMAND_TIMEOUT 的 Bash 命令被结束，run 继续
  A command that runs longer than `SYNAPSE_COMMAND_TIMEOUT` milliseconds (read when a command runs; the
  original's default is 30000, and a value that is not a positive integer falls back to it) is ended the
  way an abort ends one: its whole process group gets SIGTERM, then SIGKILL after the grace, so neither the
  command nor a child it started runs on. The call is then an error result in the original's words,
  `Command execution failed: Command execution timeout after <ms>ms`, after whatever the command printed
  until then, and the run goes on: the model reads why and can try another way. Without a limit, a command
  that never ends on its own (`tail -f`, a server, a prompt for input) blocks the run until the user
  interrupts it.

  运行时间超过 `SYNAPSE_COMMAND_TIMEOUT` 毫秒（命令运行时读取；原实现的默认值为 30000，不是正整数的值
  回落到默认值）的命令按中止的方式结束：整个进程组先收到 SIGTERM，宽限之后仍在的收到 SIGKILL，命令及其
  启动的子进程都不再运行。这次调用随即得到原实现措辞的错误结果 `Command execution failed: Command
  execution timeout after <ms>ms`，前面是命令此前已打印的输出；run 继续，模型看到原因，可以换个办法。
  没有时限时，一条自己不会结束的命令（`tail -f`、服务进程、等待输入的提示）会让 run 一直阻塞到用户中断。
  场景通过命令写下的 pid 文件与 /proc 观察进程是否还在。

  @AGT-109
  Scenario: 超过时限的命令连同它启动的子进程一起被结束，模型看到超时错误与命令此前的输出，run 继续
    Given 环境变量 `SYNAPSE_COMMAND_TIMEOUT` 为 "300"
    And runner 使用实现自己的 Bash 工具集，命令在空的工作目录中运行
    And 模型首轮调用下面的 Bash 命令，看到结果后回复 "完成":
      """
      printf 超时前的输出
      printf 超时前的警告 >&2
      sleep 300 > /dev/null 2>&1 &
      echo $! > child.pid
      echo $$ > pid
      sleep 30
      echo done > marker
      """
    When 执行 `runner.run(...)` 并记下它用了多久
    Then run 应返回 "完成"
    And 返回时命令的 shell 与它在后台启动的子进程都已不在运行
    And 命令在中断之后的部分不应执行：不应写下 marker
    And run 应在 10 秒之内返回，远早于命令的 `sleep 30` 结束
    And 模型第 2 次调用看到的 tool 消息文本应先是命令超时前的输出 "超时前的输出\n\n[stderr]\n超时前的警告"，空一行后是以 "Command execution failed:" 开头并提到 "timeout" 与 "300ms" 的说明
    And 工具集直接处理同一调用应返回 is_error 为 true，failureCategory 为 "execution_error"，brief 为 "Command execution failed"
