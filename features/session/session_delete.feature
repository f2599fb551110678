@session @beyond-seed
Feature: 删除会话
  Deleting a session removes exactly its history `<id>.jsonl`, its directory `<id>/` with the offloaded
  files, and its entry in `sessions.json`: nothing of other sessions and nothing outside the sessions
  directory, even for an id that is not a plain file name. An unknown id is answered False and changes
  nothing, so deleting twice is harmless. The index update goes through the lock every index writer
  takes, so concurrent writers of other sessions lose nothing. A file that cannot be removed is an error
  naming it and leaves the entry (and the conversation) in place, and a process killed part way never
  leaves an entry for a half-deleted session; deleting the id again removes whatever it left.

  @SES-060
  Scenario: 按 id 删除会话时移除其历史文件、会话目录与索引条目，其他会话不受影响
    Given 会话 a 与会话 b 各有 2 条消息和一个卸载文件
    When 按 id 删除会话 a
    Then 删除结果应为 True
    And 会话 a 的历史文件、会话目录与索引条目都应不复存在，`Session.find()` 找不到它
    And 会话 b 的文件与索引条目应与删除前完全相同

  @SES-061
  Scenario: 通过会话对象 `session.delete()` 删除会话
    Given 会话 a 与会话 b 各有 2 条消息和一个卸载文件
    When 通过会话 a 的对象调用 `session.delete()`
    Then 会话 a 的历史文件、会话目录与索引条目都应不复存在，`Session.find()` 找不到它
    And 会话 b 的文件与索引条目应与删除前完全相同

  @SES-062
  Scenario: 删除不存在的会话返回 False，不改动任何文件
    Given 会话 a 与会话 b 各有 2 条消息和一个卸载文件
    When 按 id 删除会话 "session-m6x3k2a1-absent"
    Then 删除结果应为 False
    And 会话目录中原有的每个文件都应还在且内容不变

  @SES-063
  Scenario: 重复删除同一会话是无害的
    Given 会话 a 与会话 b 各有 2 条消息和一个卸载文件
    When 按 id 删除会话 a
    And 再按 id 删除会话 a
    Then 删除结果应为 False
    When 再通过删除前得到的会话 a 的对象调用 `session.delete()`
    Then 会话 a 的历史文件、会话目录与索引条目都应不复存在，`Session.find()` 找不到它
    And 会话 b 的文件与索引条目应与删除前完全相同

  @SES-064
  Scenario Outline: 删除 id 不是普通文件名的条目时不删除任何文件
    Given 会话目录旁有目录 `victim` 与文件 `victim.jsonl`，会话目录中有文件 `keep.txt`
    And `sessions.json` 只有一个 id 为 <id> 的条目
    When 按 id 删除会话 <id>
    Then 删除结果应为 True
    And `Session.list()` 应为空
    And 目录 `victim`、文件 `victim.jsonl` 与会话目录中的 `keep.txt` 都应还在

    Examples:
      | id          |
      | "../victim" |
      | ".."        |
      | "."         |
      | ""          |
      | "a\u0000b"  |

  @SES-065
  Scenario Outline: 文件无法删除时报错并指明该文件，索引条目与对话都保留
    Given 会话 a 与会话 b 各有 2 条消息和一个卸载文件
    And 会话 a 的<file>无法被任何进程删除
    When 按 id 删除会话 a
    Then 应抛出消息含 "Failed to delete session" 与该文件路径的错误
    And 错误消息应说明该文件无法删除的原因
    And 会话 a 的索引条目应与删除前相同，`Session.find()` 恢复的会话仍有 2 条消息
    And 会话 b 的文件与索引条目应与删除前完全相同
    When 该文件恢复可删除后再按 id 删除会话 a
    Then 删除结果应为 True
    And 会话 a 的历史文件、会话目录与索引条目都应不复存在，`Session.find()` 找不到它

    Examples:
      | file     |
      | 历史文件 |
      | 卸载文件 |

  @SES-066
  Scenario: 多个进程同时创建、写入与删除各自的会话时，索引不丢失任何条目
    When 4 个进程同时各创建 20 个会话并各追加一条消息，随后各删除自己创建的其中 10 个
    Then `sessions.json` 应恰好列出未被删除的 40 个会话，被删除的会话没有留下任何文件

  @SES-067
  Scenario: 删除会话的进程在改写索引时被杀死，不留下指向残缺会话的条目
    Given 会话 a 与会话 b 各有 2 条消息和一个卸载文件
    And 索引中另有 20000 个没有文件的会话条目
    When 另一个进程在删除会话 a 的中途被杀死
    Then 若索引仍列出会话 a，`Session.find()` 恢复的会话应完整：2 条消息，卸载文件还在
    When 再按 id 删除会话 a
    Then 会话 a 的历史文件、会话目录与索引条目都应不复存在，`Session.find()` 找不到它
    And 会话目录中不应留下临时文件，其余 20001 个条目都还在

  @SES-068
  Scenario Outline: 索引中已没有条目但留有文件的会话，按 id 删除时清除这些文件
    Given 会话 a 与会话 b 各有 2 条消息和一个卸载文件
    And 会话 a 的条目已不在索引中，只留下它的<leftover>，如同删除它的进程在改写索引后被杀死
    When 按 id 删除会话 a
    Then 删除结果应为 True
    And 会话 a 的历史文件、会话目录与索引条目都应不复存在，`Session.find()` 找不到它
    And 会话 b 的文件与索引条目应与删除前完全相同

    Examples:
      | leftover           |
      | 历史文件与会话目录 |
      | 会话目录           |
      | 历史文件           |

  @SES-069
  Scenario: 删除最新的会话后 `Session.continue()` 恢复次新的会话
    Given 已依次创建 2 个会话，每个都有历史文件和会话目录
    When 按 id 删除最后创建的那个会话
    Then 删除结果应为 True
    And `Session.continue()` 应恢复最早创建的那个会话，标题为 "会话 0"

  @SES-099
  Scenario Outline: id 不是普通文件名时，列出不读会话目录外的文件，删除索引中没有的会话返回 False 且不删除任何文件
    Given 会话目录旁有目录 `victim` 与文件 `victim.jsonl`，会话目录中有文件 `keep.txt`
    And `sessions.json` 只有一个 id 为 "../outside" 的条目，messageCount、historySize 与 historyInode 都为 0，会话目录旁的 `outside.jsonl` 有 2 条消息
    Then `Session.list()` 中该条目的 messageCount 应为 0，与索引中的一致
    When 按 id 删除会话 <id>
    Then 删除结果应为 False
    And 目录 `victim`、文件 `victim.jsonl` 与会话目录中的 `keep.txt` 都应还在

    Examples:
      | id          |
      | "../victim" |
      | ".."        |
      | "."         |
      | ""          |
      | "a\u0000b"  |

  @SES-102
  Scenario: 会话目录不存在时按 id 删除会话返回 False，且不建出任何目录
    Given 会话目录及其上级目录都还不存在
    When 按 id 删除会话 "session-m6x3k2a1-absent"
    Then 删除结果应为 False
    And 会话目录及其上级目录都应仍不存在

  @SES-106
  Scenario: 按 id 删除时 id 区分大小写，只差大小写的 id 是不存在的会话
    Given 会话 a 与会话 b 各有 2 条消息和一个卸载文件
    When 按 id 删除会话 a，id 写成全大写
    Then 删除结果应为 False
    And 会话目录中原有的每个文件都应还在且内容不变

  @SES-121
  Scenario: 索引中同一 id 出现两次时，按 id 删除去掉它的每一个条目
    The original's removeFromIndex keeps only the entries of other ids (`filter(s => s.id !== id)`): an
    index that lists a session twice (written again by another tool) lists it no more once it is deleted.
    Given 会话 a 与会话 b 各有 2 条消息和一个卸载文件
    And 索引中会话 a 的条目又出现在最后，如同另一个工具把它又写了一遍
    When 按 id 删除会话 a
    Then 删除结果应为 True
    And 会话 a 的历史文件、会话目录与索引条目都应不复存在，`Session.find()` 找不到它
    And 会话 b 的文件与索引条目应与删除前完全相同

  @SES-127
  Scenario: 文件无法删除而索引条目也放不回去时，错误说明两者，之后仍可再次删除
    If the entry cannot be put back either (here the index, with the entry again, no longer fits what the
    process may write), the session is no longer listed: the error must say so and why, for nothing is left
    unlisted silently; deleting the id again removes what is left.
    Given 会话 a 与会话 b 各有 2 条消息和一个卸载文件
    And 会话 a 的卸载文件无法被任何进程删除
    When 在实现进程可写的文件大小上限比当前索引小 1 字节时按 id 删除会话 a
    Then 应抛出消息含 "Failed to delete session" 与该文件路径的错误
    And 会话 a 若已不在索引中，错误消息应说明其索引条目无法放回的原因
    When 该文件恢复可删除后再按 id 删除会话 a
    Then 删除结果应为 True
    And 会话 a 的历史文件、会话目录与索引条目都应不复存在，`Session.find()` 找不到它
    And 会话 b 的文件与索引条目应与删除前完全相同

  @SES-132
  Scenario: `sessions.json` 无法改写时删除会话报错并指明它，会话的文件与条目都不动
    The entry goes first; when the index cannot be rewritten (here the sessions directory takes no new
    file, so no new index can replace the old one) nothing else is touched, and the session stays whole.
    Given 会话 a 与会话 b 各有 2 条消息和一个卸载文件
    And 会话目录不再接受新的文件，`sessions.json` 因而无法被替换
    When 按 id 删除会话 a
    Then 应抛出消息含 "Failed to delete session" 与该文件路径的错误
    And 会话目录中原有的每个文件都应还在且内容不变
    When 该文件恢复可删除后再按 id 删除会话 a
    Then 删除结果应为 True
    And 会话 a 的历史文件、会话目录与索引条目都应不复存在，`Session.find()` 找不到它
    And 会话 b 的文件与索引条目应与删除前完全相同

  @SES-147
  Scenario: 删除会话时以 INFO 级别记录被删除会话的 id，删除不存在的会话不记录
    The original logs `Deleted session: <id>` at INFO when a session is deleted, so an operator reading
    the log sees what went; the words are free, the id and the level are not. An id that is not there
    deletes nothing and logs no such line.
    Given 会话 a 与会话 b 各有 2 条消息和一个卸载文件
    When 记录 INFO 及以上日志时按 id 删除会话 "session-m6x3k2a1-absent"
    Then 删除结果应为 False
    And `synapse.*` 日志不应有含会话 a 或 "session-m6x3k2a1-absent" 的 INFO 记录
    When 记录 INFO 及以上日志时按 id 删除会话 a
    Then 删除结果应为 True
    And `synapse.*` 日志应恰有一条含会话 a 的 id 的 INFO 记录，且不含会话 b 的 id
