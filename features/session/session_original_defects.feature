@session @beyond-seed
Feature: 部分 token 种类的一轮 usage 不应毁掉会话索引
  The original agent adds up token kinds without a default, so a round that leaves a kind out turns the
  totals into NaN; JSON has no NaN, `sessions.json` gets `null` there, the next read of the index fails its
  schema and the whole index is replaced by an empty one: every session in the directory is lost. Whatever
  an implementation does with such a round, the session must still be found and its index entry must hold
  finite numbers.

  @SES-059
  Scenario: 记录只含部分 token 种类的一轮 usage 后，会话仍能被找到且索引中的累计值都是有限数字
    Given 会话模型为 `claude-sonnet-4-20250514`
    When 会话记录一轮只含 {"output": 2000} 的 usage
    Then `Session.find()` 仍应找到该会话，其 usage 的各项累计值都是有限数字
    And `sessions.json` 中该会话 usage 的各项累计值都是有限数字
