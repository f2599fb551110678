@agent @beyond-seed
Feature: 由多个文本片段组成的最终回复
  A model's reply may come in several text parts (streamed chunks, text around a thinking block). The
  original's loop concatenates the text parts as they are, joined with an empty string, so a sentence
  streamed in two chunks reads as one; the reply's text parts stay in the history as the model sent them.
  Only a reply without tool calls ends the request, and the answer is that reply's text alone.

  模型的回复可以由多个文本片段组成（流式的分块、夹在思考块两侧的文字）。原实现把这些文本片段原样直接相连，
  不加分隔符，所以分两块传来的一句话仍是一句话；回复的文本片段按模型发来的样子留在历史中。只有不带工具调用的
  回复才结束请求，最终回复只是这条回复的文字。

  @AGT-087
  Scenario: 最终回复的文本片段直接相连，非文本片段不计入
    Given 模型直接回复，回复依次由以下片段组成
      | type     | text         |
      | text     | 所有测试       |
      | thinking | 再确认一下覆盖率 |
      | text     | 都已通过。      |
    When 执行 `runner.run(...)`
    Then run 应返回 "所有测试都已通过。"
    And 历史的最后一条消息应是这条 assistant 回复，文本片段与模型发来的相同

  @AGT-102
  Scenario: 带文字的工具调用回复不是最终回复，它的文字也不算进最终回复
    A reply that calls tools is a step of the work even when the model writes a sentence before its calls:
    the original ends the loop only on a reply without tool calls and answers with that reply's text
    alone. The calls run, the model is asked again, and the answer is its last reply; the earlier sentence
    stays in the history with its call.
    Given 模型首轮先说 "我先看看构建日志。" 再调用 1 个 Bash 命令，看到结果后回复 "构建已修复。"
    When 执行 `runner.run(...)`
    Then run 应返回 "构建已修复。"
    And 模型应被调用 2 次
    And 工具应执行 1 次，历史依次多出用户消息、带文字的工具调用回复、它的结果与最终回复

  @AGT-105
  Scenario: 最终回复中文本为 null 的文本片段算作空文本，请求照常完成
    The answer is the reply's text parts joined as the original joins a message's text parts
    (`parts.map((part) => part.text).join('')`), and `Array.join` writes a null text as nothing: a reply
    whose first text part has a null text is answered with its other text parts, and the reply stays in
    the history as the model sent it. (Thinking blocks sit between the text parts, so no stream merges
    them into one text.) A loop that joins the texts as strings fails the request on it or writes `None`.
    Given 模型直接回复，回复依次由以下片段组成
      | type     | text             |
      | text     | (null)           |
      | thinking | 先看一下测试结果 |
      | text     | 所有测试         |
      | thinking | 再确认一下覆盖率 |
      | text     | 都已通过。       |
    When 执行 `runner.run(...)`
    Then run 应返回 "所有测试都已通过。"
    And 历史的最后一条消息应是这条 assistant 回复，文本片段与模型发来的相同
