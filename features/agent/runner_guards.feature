@agent @seed-004
Feature: AgentRunner 保护机制
  AgentRunner 在工具反复失败、工具调用不止或调用方中断时主动停下，并且只在正常完成时运行 Stop Hook。
  模型是脚本化替身（多排一轮回复，用来证明 runner 没有继续调用）；工具集是记录调用的替身。

  The AgentRunner stops on its own when tools keep failing, when tool calls do not end, or when the caller
  aborts, and runs the stop hooks only after a normal completion. The model is a scripted double (with one
  reply more than needed, to show the runner did not call it again); the toolset is a recording double.

  @AGT-007
  Scenario Outline: 连续工具失败达到阈值后主动停止
    Given 工具连续失败次数达到 `maxConsecutiveToolFailures`
    And `SYNAPSE_MAX_CONSECUTIVE_TOOL_FAILURES` 为 "<环境变量>"，阈值应为 <阈值>
    When 执行 `runner.run(...)`
    Then 应返回 `Consecutive tool execution failures; stopping.`
    And 不应继续进入下一轮工具调用
    And 停止提示应作为最后一条 assistant 消息留在历史中

    Examples:
      | 阈值来源         | 环境变量 | 阈值 |
      | 默认值           |          | 3    |
      | 环境变量         | 2        | 2    |
      | 环境变量         | 1        | 1    |
      | 非正数时用默认值 | 0        | 3    |
      | 非数字时用默认值 | many     | 3    |
      | 带小数时取整数部分 | 2.5      | 2    |
      | 负数时用默认值   | -1       | 3    |
      | 全角数字不是数字 | ２       | 3    |
      | 开头的 U+FEFF 与空格一样跳过 | {U+FEFF}2 | 2 |
      | U+001F 不是空白，其后的数字不读 | {U+001F}2 | 3 |

  @AGT-017
  Scenario: 连续工具失败达到阈值后主动停止 — 中间有一轮成功时重新计数
    Given 工具调用依次返回:
      | 轮次 | 结果 |
      | 1    | 失败 |
      | 2    | 失败 |
      | 3    | 成功 |
      | 4    | 失败 |
      | 5    | 失败 |
    And 第 6 轮模型直接回复 "修复完成"
    And `SYNAPSE_MAX_CONSECUTIVE_TOOL_FAILURES` 为 ""，阈值应为 3
    When 执行 `runner.run(...)`
    Then run 应返回 "修复完成"
    And 模型应被调用 6 次
    And 每一轮模型调用都应看到上一轮的工具调用与结果

  @AGT-008
  Scenario Outline: 工具迭代达到上限后停止并返回指引
    Given 运行过程中持续存在工具调用且超过 `maxIterations`
    And `SYNAPSE_MAX_TOOL_ITERATIONS` 为 "<环境变量>"，上限应为 <上限>
    When 执行 `runner.run(...)`
    Then 应返回 `Reached tool iteration limit` 提示
    And 提示中包含 `Use --help to see command usage.`
    And 提示全文应为 "Reached tool iteration limit (<上限>); stopping.\nUse --help to see command usage."
    And 模型调用次数应等于上限，之后不再调用
    And 停止提示应作为最后一条 assistant 消息留在历史中

    Examples:
      | 上限来源 | 环境变量 | 上限 |
      | 默认值   |          | 50   |
      | 环境变量 | 2        | 2    |
      | 环境变量 | 0        | 0    |
      | 带小数时取整数部分 | 2.9 | 2    |
      | 指数写法只取开头的数字 | 1e1 | 1    |
      | 全角数字不是数字 | ２ | 50 |

  @AGT-009
  Scenario: 用户消息在执行前可被 signal 中断
    Given 调用 `runner.run(userMessage, { signal })` 且 signal 已 abort
    And runner 恢复的会话中已有 2 条历史消息
    When 进入执行流程
    Then 应立即抛出中断相关错误
    And 不应追加新一轮消息到历史

  @AGT-010
  Scenario: Stop Hook 仅在正常完成时执行
    Given `stopHookExecutor.shouldExecute()` 为 true
    And 模型直接回复 "任务完成"
    When `runWithPotentialPermission` 正常完成且无权限中断
    Then 应执行 `executeAndAppend`
    And 返回包含 Hook 追加后的结果

  @AGT-011 @live-settings
  Scenario Outline: Stop Hook 仅在正常完成时执行 — 未正常完成时不执行
    Given `stopHookExecutor.shouldExecute()` 为 true
    And 本次运行将以<结束方式>结束
    When 执行 `runner.run(...)`
    Then 不应执行 `executeAndAppend`
    And 返回不应包含 Hook 追加内容

    Examples:
      | 结束方式         |
      | 沙箱权限请求     |
      | 连续工具失败     |
      | 达到工具迭代上限 |
