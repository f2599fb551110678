@agent @beyond-seed
Feature: 工具运行期间 runner 每 50 到 100 毫秒查看一次中止信号
  While a tool runs, the runner reads the abort signal every 50 to 100 ms, as the protocol requires: often
  enough that an abort (Ctrl-C) cancels a running command promptly, and no more often, so that a
  long-running tool costs at most twenty reads a second when each read is a call back to the caller.

  信号没有回调，runner 只能在工具运行期间反复读取它：每 50 到 100 毫秒读一次，中止才能及时取消正在运行的
  命令，而每次读取在协议上都是一次回调，读得更勤就会拖累长时间运行的工具。场景中的信号从不中止，只记下命令
  创建 `started` 之后、创建 `ended` 之前被读取的次数；命令运行约 2 秒，按规则应读取 20 到 40 次，下限放宽
  以容忍繁忙的机器。

  @AGT-090
  Scenario: 运行约 2 秒、未被中止的 Bash 命令期间，中止信号按 50 到 100 毫秒的间隔被读取
    Given runner 使用实现自己的 Bash 工具集，在空的工作目录中运行命令
    And 请求带着一个从未中止、记下命令运行期间被读取次数的中止信号
    And 模型首轮调用 Bash 命令 `touch started; sleep 2; touch ended` 后回复 "命令完成"
    When 以 `run` 执行这次请求
    Then 请求应返回 "命令完成"
    And 命令运行期间中止信号应被读取至少 5 次、至多 41 次
