@agent @beyond-seed
Feature: 中止请求会终止正在运行的工具，而不是等它结束
  An abort (Ctrl-C) while a tool runs cancels the tool instead of waiting for it: the runner watches the
  signal while the tool runs, and a Bash command's whole process group is ended (SIGTERM, then SIGKILL),
  so neither the command nor a child it started runs on after the request has raised its abort error.
  Nothing of the interrupted round is recorded, and the next request runs normally. The grace lets a
  command that traps SIGTERM clean up before it is killed.

  原实现只在步骤之间检查中止信号：用户在一条长时间运行的 Bash 命令执行期间中止请求，runner 仍要等命令
  跑完（它在后台启动的子进程甚至活得更久）。工具运行期间 runner 持续查看信号，一旦中止就取消工具：Bash
  命令的整个进程组先收到 SIGTERM，宽限之后仍在的收到 SIGKILL（为 SIGTERM 设了 trap 的命令可在宽限之内
  完成清理）；请求随即以中断错误结束，被中断的这一轮不留在历史里，下一个请求照常运行。工具集是实现
  自己的 Bash 工具集，命令在场景的工作目录中运行；命令写下自己的 pid 之后中止信号才被置位，场景通过
  pid 文件与 /proc 观察进程是否还在。

  Background:
    Given runner 使用实现自己的 Bash 工具集，在空的工作目录中运行命令
    And 命令写下 pid 文件之后用户中断了请求

  @AGT-065
  Scenario Outline: 中止请求时正在运行的 Bash 命令连同它启动的子进程一起被终止
    Given 模型首轮调用 Bash 命令:
      """
      sleep 300 > /dev/null 2>&1 &
      echo $! > child.pid
      echo $$ > pid
      sleep 30
      echo done > marker
      """
    When 以 `<方法>` 执行这次请求
    Then 请求应以中断相关错误结束，模型只被调用了 1 次
    And 返回时命令的 shell 与它在后台启动的子进程都已不在运行
    And 命令在中断之后的部分不应执行：不应写下 marker

    Examples:
      | 方法 |
      | step |
      | run  |

  @AGT-066
  Scenario: 忽略 SIGTERM 的命令在宽限之后也被终止
    Given 模型首轮调用 Bash 命令:
      """
      trap '' TERM
      sleep 300 > /dev/null 2>&1 &
      echo $! > child.pid
      echo $$ > pid
      sleep 30
      echo done > marker
      """
    When 以 `run` 执行这次请求
    Then 请求应以中断相关错误结束，模型只被调用了 1 次
    And 返回时命令的 shell 与它在后台启动的子进程都已不在运行
    And 命令在中断之后的部分不应执行：不应写下 marker

  @AGT-067
  Scenario: 被中止的命令的输出不进入历史，会话只多出本次的用户消息
    Given runner 恢复的会话中已有 2 条历史消息
    And 模型首轮调用 Bash 命令:
      """
      echo 中止前的输出
      echo $$ > pid
      sleep 30
      echo 中止后的输出
      echo done > marker
      """
    When 以 `run` 执行这次请求
    Then 请求应以中断相关错误结束，模型只被调用了 1 次
    And 返回时命令的 shell 已不在运行
    And 命令在中断之后的部分不应执行：不应写下 marker
    And 历史与会话文件只应多出本次的用户消息
    And 会话文件中不应出现 "中止前的输出" 或 "中止后的输出"

  @AGT-068
  Scenario: 一轮中的命令被中止时，这一轮之后的命令不再执行，整轮都不保留
    Given runner 恢复的会话中已有 2 条历史消息
    And 模型首轮依次调用 3 个 Bash 命令，第 2 个是:
      """
      echo $$ > pid
      sleep 30
      echo done > marker
      """
    When 以 `step` 执行这次请求
    Then 请求应以中断相关错误结束，模型只被调用了 1 次
    And 返回时命令的 shell 已不在运行
    And 第 1 个命令应已执行，第 3 个命令不应执行
    And 命令在中断之后的部分不应执行：不应写下 marker
    And 历史与会话文件只应多出本次的用户消息

  @AGT-069
  Scenario: 中止之后下一个请求照常运行，模型看不到被中断的那一轮
    Given runner 恢复的会话中已有 2 条历史消息
    And 模型首轮调用 Bash 命令:
      """
      echo $$ > pid
      sleep 30
      echo done > marker
      """
    And 下一个请求中模型调用 Bash 命令 `echo 下一轮的输出` 后回复 "下一轮完成"
    When 以 `run` 执行这次请求
    And 不带中止信号发出下一个请求 "换个办法继续"
    Then 下一个请求应返回 "下一轮完成"
    And 返回时命令的 shell 已不在运行
    And 命令在中断之后的部分不应执行：不应写下 marker
    And 下一个请求首次调用模型时，历史以被中止的用户消息和新的用户消息结尾，没有被中断那一轮的工具调用
    And 模型应看到下一轮命令的工具结果 "下一轮的输出"

  @AGT-070
  Scenario: 工具执行中被中止的 run 不执行 Stop Hook
    Given `stopHookExecutor.shouldExecute()` 为 true
    And 模型首轮调用 Bash 命令:
      """
      echo $$ > pid
      sleep 30
      echo done > marker
      """
    When 以 `run` 执行这次请求
    Then 请求应以中断相关错误结束，模型只被调用了 1 次
    And 返回时命令的 shell 已不在运行
    And 命令在中断之后的部分不应执行：不应写下 marker
    And 被中止的 run 不应执行 Stop Hook

  @AGT-071
  Scenario: 中止时命令先收到 SIGTERM，在宽限之内完成自己的清理
    Given 模型首轮调用 Bash 命令:
      """
      trap 'sleep 0.2; echo cleaned > cleanup; exit 143' TERM
      echo $$ > pid
      sleep 30 &
      wait
      echo done > marker
      """
    When 以 `run` 执行这次请求
    Then 请求应以中断相关错误结束，模型只被调用了 1 次
    And 返回时命令的 shell 已不在运行
    And 命令在中断之后的部分不应执行：不应写下 marker
    And 命令的 TERM trap 应已在宽限之内完成清理：cleanup 文件写有 "cleaned"
    And `synapse.*` 日志不应记录警告：命令的进程组在 SIGKILL 之后如期结束

  @AGT-082
  Scenario: 命令用作业控制把后台作业放进另一个进程组时，中止结束命令自己的进程组，不把那个作业当作组里仍在运行的进程
    A job started under job control (`set -m`) gets a process group of its own in the command's session; it
    is not a member of the command's process group, so ending that group neither waits for it nor warns
    that the group still runs after SIGKILL.
    Given 命令在另一个进程组中启动、pid 写在 job.pid 中的后台进程在场景结束时被结束
    And 模型首轮调用 Bash 命令:
      """
      set -m
      sleep 300 > /dev/null 2>&1 &
      echo $! > job.pid
      echo $$ > pid
      wait
      echo done > marker
      """
    When 以 `run` 执行这次请求
    Then 请求应以中断相关错误结束，模型只被调用了 1 次
    And 返回时命令的 shell 已不在运行
    And 命令在中断之后的部分不应执行：不应写下 marker
    And `synapse.*` 日志不应记录警告：命令的进程组在 SIGKILL 之后如期结束

  @AGT-083
  Scenario: 命令的进程组中只剩一个已结束、未被收尸的进程（僵尸）时，中止不把它当作仍在运行的进程
    A process of the group that has ended but whose parent, in another group, has not reaped it yet (a
    zombie) runs nothing: ending the group neither waits for it nor warns that the group still runs.
    Given 命令在另一个进程组中启动、pid 写在 job.pid 中的后台进程在场景结束时被结束
    And 模型首轮调用 Bash 命令:
      """
      python3 - > /dev/null 2>&1 <<'PY' &
      import os, time
      group = os.getpgid(0)  # the command's process group
      os.setpgid(0, 0)  # this process: a group of its own, outside the command's
      child = os.fork()
      if child == 0:
          os.setpgid(0, group)  # the child joins the command's group and ends at once
          os._exit(0)
      os.waitid(os.P_PID, child, os.WEXITED | os.WNOWAIT)  # ended, left unreaped: a zombie in the group
      with open("job.pid", "w") as handle:
          handle.write(str(os.getpid()))
      time.sleep(300)
      PY
      while [ ! -s job.pid ]; do sleep 0.05; done
      echo $$ > pid
      sleep 30
      echo done > marker
      """
    When 以 `run` 执行这次请求
    Then 请求应以中断相关错误结束，模型只被调用了 1 次
    And 返回时命令的 shell 已不在运行
    And 命令在中断之后的部分不应执行：不应写下 marker
    And `synapse.*` 日志不应记录警告：命令的进程组在 SIGKILL 之后如期结束

  @AGT-096
  Scenario: 被中止的那一轮虽不留在历史里，模型回复的用量仍记入会话
    The model call of the interrupted round was made, and billed, before the abort: its usage is recorded
    as soon as the reply arrives, as the original reports each reply's usage, and is not dropped with
    the round's messages.
    Given runner 恢复的会话中已有 2 条历史消息
    And 模型首轮以用量 `{"inputOther": 120, "output": 45, "inputCacheRead": 30, "inputCacheCreation": 5}` 调用 Bash 命令:
      """
      echo $$ > pid
      sleep 30
      echo done > marker
      """
    When 以 `run` 执行这次请求
    Then 请求应以中断相关错误结束，模型只被调用了 1 次
    And 历史与会话文件只应多出本次的用户消息
    And 会话用量应恰好记下被中止那一轮模型回复的用量
