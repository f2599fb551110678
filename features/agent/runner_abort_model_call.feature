@agent @beyond-seed
Feature: 模型作答期间被中止的请求以中断错误结束
  An abort (Ctrl-C) while the model is answering ends the request with the abort error, whatever error the
  model client raises when its request is cut short: the user asked to stop, so the caller sees an abort,
  not a provider failure it might report or retry. Nothing of the interrupted round is recorded. A model
  error while the signal is not set still reaches the caller unchanged (AGT-052).

  用户在模型作答期间按下 Ctrl-C，模型客户端的请求随之中断，客户端抛出的往往是它自己的错误（请求被取消、
  连接被重置），并不提到中断。原实现在模型调用失败而中止信号已置位时，一律以中断错误结束请求；信号未置位时，
  模型的错误原样抛出。场景中的中止信号在模型被调用之后才置位：runner 调用模型之前读到的信号未中止，模型失败
  之后读到的信号已中止。

  @AGT-107
  Scenario: 模型作答期间用户中断：请求以中断错误结束，无论模型客户端抛出什么错误
    The model client fails with an error of its own that says nothing about aborting; the signal, set while
    the model answered, decides: the request ends with the abort error, the model is not asked again, and
    the history and the session gain only the user's message.
    Given runner 恢复的会话中已有 2 条历史消息
    And 模型作答期间用户中断了请求，模型客户端随后抛出不提中断的错误 "provider connection reset"
    When 以 `run` 执行这次请求
    Then 请求应以中断相关错误结束，模型只被调用了 1 次
    And 历史与会话文件只应多出本次的用户消息
