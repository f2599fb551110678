@session @beyond-seed
Feature: 历史与索引的快速路径与常规路径结果一致（超出种子的修正）
  Long histories are read in blocks, a batch of messages is encoded in one call, an index entry's count is
  carried over from the offset it was last counted at, and an append updates `sessions.json` only now and
  then. Each shortcut must give what reading the whole file line by line gives: the same messages, the
  same count, whatever the messages hold, however long their lines are and whoever else wrote or replaced
  the file meanwhile.

  @SES-081
  Scenario Outline: 追加的值中不是消息对象的不计入 messageCount
    Given 一个空的会话目录
    When 创建一个新会话
    And 一次追加以下消息 <batch>
    And 紧接着再一次追加同样的消息
    Then `session.loadHistory()` 应返回 <count> 条消息，并为其余的行记录 warning
    And 会话对象、`Session.find()` 与 `Session.list()` 给出的 messageCount 都应为 <count>

    Examples:
      | case               | batch                                                                                                          | count |
      | 没有 role          | [{"role": "user", "content": "第一问"}, {"content": "没有 role"}]                                              | 2     |
      | role 不是字符串    | [{"role": 1, "content": "x"}, {"role": "assistant", "content": "答"}, {"role": "user", "content": "再问"}]     | 4     |
      | toolCalls 不是数组 | [{"role": "assistant", "content": [], "toolCalls": {"id": "c1"}}]                                              | 0     |

  @SES-082
  Scenario: 其他工具写入的条目，`Session.find()` 按历史文件重新计数
    Given 会话已有 2 条消息
    And 另有 3 条消息已写入历史文件而索引未随之更新，如同写入者在两者之间被杀死
    And 索引中该会话的条目只剩原版 schema 中的字段，如同由原版写入
    Then `Session.find()` 恢复的会话的 messageCount 应为 5
    When 恢复的会话追加 1 条助手消息
    Then 恢复的会话与 `Session.list()` 给出的 messageCount 都应为 6

  @SES-083
  Scenario Outline: 远长于一次读取的消息行无论位于何处都应完整加载
    Given 一个空的会话目录
    When 创建一个新会话
    And 依次逐条追加以下长度的消息: <lengths>
    Then `session.loadHistory()` 应原样依次返回这些消息，不记录 warning
    And 会话对象、`Session.find()` 与 `Session.list()` 给出的 messageCount 都应为追加的条数

    Examples:
      | case         | lengths                     |
      | 短-长-短     | 短, 1 MiB, 短               |
      | 长在最前     | 1 MiB, 短, 短               |
      | 长在最后     | 短, 短, 1 MiB               |
      | 两条长的相邻 | 短, 200 KiB, 300 KiB, 短    |
      | 许多短的之后 | 2000 条短, 1 MiB, 短        |

  @SES-084
  Scenario Outline: 一次追加的多条消息中含有分隔符一样的字符串时，每条消息仍独占一行并原样加载
    Given 一个空的会话目录
    When 创建一个新会话
    And 一次追加 <count> 条消息，其中第 <which> 条的 content 为 <content>
    Then 历史文件应恰有 <count> 行，每行是一条消息
    And `session.loadHistory()` 应原样依次返回这些消息，不记录 warning

    Examples:
      | case                   | count | which | content                                                  |
      | 数组中间的一个元素     | 2     | 1     | ["前", "\u0000\u001e", "后"]                             |
      | 数组中间的两个元素     | 3     | 2     | ["前", "\u0000\u001e", "\u0000\u001e", "后"]             |
      | 最后一条消息中         | 3     | 3     | ["前", "\u0000\u001e", "后"]                             |
      | 作为对象的值           | 2     | 2     | [{"type": "text", "text": "\u0000\u001e"}]               |
      | 文本中的 NUL 与 RS     | 2     | 1     | [{"type": "text", "text": "a\u0000\u001eb"}]             |
      | 一条中不相邻的两个元素 | 2     | 1     | ["前", "\u0000\u001e", "中", "\u0000\u001e", "后"]        |
      | 十五条中的一条含两个   | 15    | 1     | ["前", "\u0000\u001e", "中", "\u0000\u001e", "后"]        |

  @SES-085
  Scenario Outline: 索引写入时只清除会话临时文件，会话目录中其他程序的文件都保留
    Given 会话目录中有一个<age>的文件 <name>
    When 创建一个新会话
    Then 该文件是否还在且内容不变: <kept>
    And 该文件若被清除，应记录一条指明其路径的 warning

    Examples:
      | case                           | name                                    | age         | kept |
      | 其他程序的文件，名字像临时文件 | notes.md.tmp-123-0123abcd               | 刚写入      | 是   |
      | 其他程序的旧文件               | notes.md.tmp-123-0123abcd               | 两小时前    | 是   |
      | 其他程序的旧文件，非十六进制   | draft.txt.tmp-old                       | 两小时前    | 是   |
      | 其他工具的索引临时文件         | sessions.json.tmp-old                   | 两小时前    | 否   |
      | 刚满一小时                     | sessions.json.tmp-old                   | 3600.2 秒前 | 否   |
      | 差十秒满一小时                 | sessions.json.tmp-old                   | 3590 秒前   | 是   |
      | 其他工具刚写的索引临时文件     | sessions.json.tmp-old                   | 刚写入      | 是   |
      | 其他工具的历史临时文件         | session-m6x3k2a1-older1.jsonl.tmp-old   | 两小时前    | 否   |
      | 其他工具刚写的历史临时文件     | session-m6x3k2a1-older1.jsonl.tmp-old   | 刚写入      | 是   |

  @SES-087
  Scenario: 一个对象刚追加的消息所在的历史文件被另一个对象重写替换后，计数以新文件为准
    Given 会话已有 2 条消息
    When 通过 `Session.find()` 得到同一会话的两个对象 a 与 b
    And a 追加 1 条消息，紧接着再追加 1 条约 2 KiB 的消息
    And b 用 1 条消息重写会话历史
    And 又有 40 条消息直接写入新的历史文件而索引未随之更新，如同另一个写入者在两者之间被杀死
    And a 记录一轮 inputOther 为 5 的 usage
    Then 恢复的会话与 `Session.list()` 给出的 messageCount 都应为 41
    And a 与索引中该会话的 messageCount 都应为 41

  @SES-088
  Scenario: 第一条用户消息紧跟在其他消息之后追加时，标题立即写入索引
    Given 一个空的会话目录
    When 创建一个新会话
    And 一次追加以下消息 [{"role": "assistant", "content": "你好，有什么可以帮你？"}]
    And 紧接着追加第一条用户消息 "把登录按钮改成蓝色"
    Then `sessions.json` 与 `Session.list()` 中该会话的标题都应已是 "把登录按钮改成蓝色"

  @SES-089
  Scenario Outline: 空历史的会话在写入历史后、更新索引前被中断时，`Session.list()` 也以历史文件为准
    Given 一个<state>的会话
    And 有 3 条消息已写入它的历史文件而索引未随之更新，如同写入者在两者之间被杀死
    Then 恢复的会话与 `Session.list()` 给出的 messageCount 都应为 3

    Examples:
      | state            |
      | 刚创建、还没有消息 |
      | 有过 2 条消息后被 `clear()` 清空 |
      | 刚创建、还没有消息，之后原版又创建了一个会话 |

  @SES-090
  Scenario: 名字像旧临时文件的新符号链接按它自己的时间判断，不被清除
    Given 会话目录中有一个刚建立的符号链接 sessions.json.tmp-link，指向会话目录外两小时前写入的文件
    When 创建一个新会话
    Then 该符号链接与它指向的文件都应还在

  @SES-094
  Scenario Outline: 历史文件的最后一行没有换行时，加载与计数都只算它是一条完整消息的情形
    Given 会话已有 2 条消息
    And 历史文件末尾又写入一行没有换行的 <tail>，索引未随之更新
    Then `session.loadHistory()` 应返回 <count> 条消息，并为其余的行记录 warning
    And 恢复的会话与 `Session.list()` 给出的 messageCount 都应为 <count>

    Examples:
      | case                 | tail                                                    | count |
      | 完整的消息           | {"role": "assistant", "content": "第 3 条：没有换行"}   | 3     |
      | 写到一半的消息       | {"role": "assistant", "content": "第 3 条：写到一半     | 2     |
      | 完整的 JSON 但非消息 | {"content": "第 3 条：没有 role"}                       | 2     |

  @SES-095
  Scenario Outline: 逐条追加的消息在历史文件中一条一行，其间没有空行
    Given 一个空的会话目录
    When 创建一个新会话
    And 依次逐条追加以下长度的消息: <lengths>
    Then 历史文件应恰有 <count> 行，每行是一条消息

    Examples:
      | case         | lengths          | count |
      | 三条短的     | 短, 短, 短       | 3     |
      | 长的在中间   | 短, 100 KiB, 短  | 3     |

  @SES-096
  Scenario Outline: 历史文件被替换、清空后重写，或条目的 historySize 与 historyInode 不描述它时，计数以历史文件为准
    Given 会话已有 2 条消息
    And <change>
    Then 恢复的会话与 `Session.list()` 给出的 messageCount 都应为 <count>

    Examples:
      | case                     | change                                                                                                    | count |
      | 被其他程序换成更长的文件 | 另一个程序把历史文件换成一个有 6 条消息的新文件，第一条约 2 KiB，先写临时文件再改名，索引未随之更新      | 6     |
      | 清空后重写               | 会话被 `clear()` 清空后用 3 条消息重写历史                                                                | 3     |
      | 大小是布尔值             | 索引中该会话条目的 historySize 被其他工具改为 true，historyInode 改为历史文件的 inode                     | 2     |
      | 大小是字符串             | 索引中该会话条目的 historySize 被其他工具改为 "12"，historyInode 改为历史文件的 inode                     | 2     |
      | inode 为 0               | 索引中该会话条目的 historySize 被其他工具改为 1，historyInode 改为 0                                      | 2     |
      | inode 是另一个文件的     | 索引中该会话条目的 historySize 被其他工具改为 1，historyInode 改为历史文件的 inode 加 1                   | 2     |

  @SES-097
  Scenario: 同一会话的两个对象先后写入时，标题与 `clear()` 重置的 usage 都以索引中另一个对象写下的为准
    Given 一个刚创建、还没有消息的会话
    When 通过 `Session.find()` 得到同一会话的两个对象 a 与 b
    And a 追加第一条用户消息 "先问的问题"
    And b 追加第一条用户消息 "后问的问题"
    Then `sessions.json` 与 `Session.list()` 中该会话的标题都应已是 "先问的问题"
    When b 以模型 `claude-opus-4-20250514` 记录一轮 usage
    And a 执行 `clear()`
    Then 索引中该会话的 usage 应为模型 `claude-opus-4-20250514` 的空 usage

  @SES-123
  Scenario: 以 UTF-8 BOM 开头的历史文件，第一条消息照常加载与计数
    The original reads the history as text and trims it before splitting it into lines (`content.trim()`),
    and JavaScript's `trim()` removes a byte-order mark: a history that an editor saved with one (as
    Windows editors do) loses no message.
    Given 一个刚创建、还没有消息的会话
    And 另一个程序把 3 条消息写成以 UTF-8 BOM 开头的历史文件，索引未随之更新
    Then `session.loadHistory()` 应返回 3 条消息，并为其余的行记录 warning
    And 恢复的会话与 `Session.list()` 给出的 messageCount 都应为 3

  @SES-124
  Scenario: 另一个读者只计到一个对象一次追加的消息中的第一条时，该对象更新索引后计数仍与历史文件一致
    A reader may count the lines of an append while they are being written, and store the offset just past
    the first of them. The object that appended them then counts only the rest: none twice, none missed.
    Given 会话已有 2 条消息
    When 通过 `Session.find()` 得到同一会话的两个对象 a 与 b
    And a 追加 1 条消息，紧接着再一次追加 3 条消息
    And 另一个读者只读到了其中第一条：索引中该会话条目的 messageCount 为 4，historySize 为第 4 行之后的位置
    And a 记录一轮 inputOther 为 5 的 usage
    Then a 与索引中该会话的 messageCount 都应为 6
    And 恢复的会话与 `Session.list()` 给出的 messageCount 都应为 6

  @SES-125
  Scenario: 历史文件末尾没有换行的完整消息被计入索引之后，再恢复、列出与追加时不重复计数
    Given 会话已有 2 条消息
    And 历史文件末尾又写入一行没有换行的 {"role": "assistant", "content": "第 3 条"}，索引未随之更新
    When 会话随后记录一轮 usage
    Then 恢复的会话与 `Session.list()` 给出的 messageCount 都应为 3
    When 会话随后再追加 1 条消息
    Then 历史文件应恰有 4 行，每行是一条消息
    And 恢复的会话与 `Session.list()` 给出的 messageCount 都应为 4

  @SES-126
  Scenario: 列出与恢复会话时按历史文件计数，不为其中损坏的行记录 warning，只有加载历史时才记录
    The original warns about a corrupted line when it loads the history ("Skipped corrupted JSONL line"),
    and its listing reads no history at all: counting the lines of a history to list or resume a session
    is no load, and logs nothing about them.
    Given 会话已有 2 条消息
    And 另一个程序在历史文件末尾写入一行不是 JSON 的内容与一条消息，索引未随之更新
    Then `Session.list()` 与 `Session.find()` 给出的 messageCount 都应为 3，且都不记录 warning
    And `session.loadHistory()` 应返回 3 条消息，并为其余的行记录 warning

  @SES-129
  Scenario: 无法清除的旧临时文件不妨碍清除其余的旧临时文件
    A stale name that cannot be removed (here a directory of another program, named like an index's
    temporary file) is skipped: every other stale temporary file is still removed, whatever the order the
    directory lists them in.
    Given 会话目录中有 20 个两小时前的目录 sessions.json.tmp-dir-<n> 与一个两小时前的文件 sessions.json.tmp-old
    When 创建一个新会话
    Then 这 20 个目录都应还在，文件 sessions.json.tmp-old 应已被清除

  @SES-130
  Scenario: 另一个程序就地截短历史文件（同一个文件）后，恢复与列出会话时按截短后的文件计数
    An editor that saves over the file in place keeps its inode: a history that became shorter than the
    offset its entry was counted up to is counted again from the start.
    Given 会话已有 3 条长消息
    And 另一个程序就地把历史文件截短为只有前 2 条消息，文件还是原来那个，索引未随之更新
    Then 恢复的会话与 `Session.list()` 给出的 messageCount 都应为 2

  @SES-131
  Scenario: 追加消息时磁盘写满，追加报错且历史文件保持原样，之后的追加照常成行
    A write that fails part way (here the file may grow by only 100 more bytes, the plain I/O error a full
    disk gives) must not leave the start of a line behind: the history stays as it was, and the next append
    after space is freed writes whole lines.
    Given 会话已有 2 条消息
    When 在实现进程可写的文件大小上限只比历史文件多 100 字节时追加一条约 2 KiB 的消息
    Then 追加应报错，历史文件应与追加前完全相同
    When 会话随后再追加 1 条消息
    Then 历史文件应恰有 3 行，每行是一条消息
    And 恢复的会话与 `Session.list()` 给出的 messageCount 都应为 3
