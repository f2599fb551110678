@agent @beyond-seed
Feature: 工具集处理调用时抛出异常：该调用得到错误结果，请求继续
  A toolset whose handling of one tool call raises an exception fails that call, not the request: the
  call gets an error result whose text is `Tool execution failed: <the exception's message>`, the other
  calls of the same round still run in order, and the model is asked again with every result of the
  round. An abort is no tool failure and still ends the request as an abort (AGT-037, AGT-068).

  工具集处理某个调用时抛出异常（不是中止），原实现把它当作这个调用的错误结果：文本为
  `Tool execution failed: <异常的 message>`，同一轮后面的调用照常依次执行，模型带着这一轮的全部结果再次被调用。
  用户中止请求仍以中断错误结束。

  @AGT-108
  Scenario: 工具执行时抛出异常：该调用得到 `Tool execution failed: <message>` 的错误结果，同一轮后面的调用照常执行，模型再次被调用
    The first call's handling raises RuntimeError("boom"), the second call succeeds. The run goes on: the
    model's second call sees the round's two tool messages in call order, the first one
    `Tool execution failed: boom`. That result is an error (the tool message carries only its text; the
    runner's warning for a round with failures shows it saw one error), and, as in the original, it does
    not count toward the consecutive-tool-failure stop: it has no failureCategory and its brief
    (`Tool execution failed`) and empty output hold no usage hint, so the round counts 0 of 1 and, like
    any uncounted error (AGT-032), leaves the streak at 0.
    Given 模型首轮同时调用两个 Bash 命令 `call-1` 与 `call-2`，工具集处理 `call-1` 时抛出 RuntimeError("boom")，`call-2` 输出 "build ok"
    And 模型随后回复 "两个命令都处理完了"
    And `SYNAPSE_MAX_CONSECUTIVE_TOOL_FAILURES` 为 ""，阈值应为 3
    When 执行 `runner.run(...)`
    Then run 应返回 "两个命令都处理完了"
    And 模型应被调用 2 次
    And 工具集应依次处理了 `call-1` 与 `call-2`
    And 模型第 2 次被调用时看到的历史应以这一轮的工具调用及其结果依次结束:
      | 调用   | tool 消息的文本             |
      | call-1 | Tool execution failed: boom |
      | call-2 | build ok                    |
    And `synapse.*` 日志应依次记录这些工具失败警告:
      | message                                                |
      | Tool execution failed (counted: 0/1, consecutive: 0/3) |
