@agent @beyond-seed
Feature: 工具运行期间 runner 每 50 到 100 ms 查看一次中止信号
  While a tool runs, the loop reads the abort signal every 50 to 100 ms (the contract's `AbortSignal`):
  often enough that an abort lands within a tenth of a second, never more often than every 50 ms, since
  over the wire each read is a callback to the caller.

  中止信号没有回调，只有随时可读的 `aborted` 属性；工具运行期间 runner 每 50 到 100 ms 读一次，用户按下
  Ctrl-C 后十分之一秒左右工具就被取消；远程时每次读取都是一次回调，所以不能比每 50 ms 更频繁。场景的信号
  从不置位，只记录命令运行期间（工作目录里有 running 文件时）被读取的次数；负载高时读取可能推迟，下限因此
  留有余地。

  @AGT-084
  Scenario: 运行 1 秒的命令期间中止信号被读取 4 到 22 次
    Given runner 使用实现自己的 Bash 工具集，在空的工作目录中运行命令
    And 请求带着一个不会被置位的中止信号，它记录工作目录中有 running 文件期间被读取的次数
    And 模型首轮调用 Bash 命令 `touch running; sleep 1; rm running; echo 完成`，看到结果后回复 "命令跑完了"
    When 以 `run` 执行这次请求
    Then run 应返回 "命令跑完了"
    And 命令运行的 1 秒里中止信号应被读取至少 4 次、至多 22 次：每 50 到 100 ms 一次
