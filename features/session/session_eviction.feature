@session @beyond-seed
Feature: 会话注册与淘汰的边界
  Registering a session never duplicates an entry, a limit of zero or less evicts nothing, and evicting
  an entry of a hand-edited index never deletes anything outside the sessions directory.

  @SES-033
  Scenario: 以已存在的 id 创建会话时替换原条目并置顶
    Given 已依次创建 2 个会话，每个都有历史文件和会话目录
    When 以最早那个会话的 id 再创建一个会话
    Then `sessions.json` 应恰好有 2 个条目，该 id 只出现一次且排在最前
    And 该条目应是新会话的：messageCount 为 0，cwd 为当前工作目录

  @SES-034
  Scenario Outline: `SYNAPSE_MAX_SESSIONS` 为 0 或负数时不淘汰任何会话
    Given `SYNAPSE_MAX_SESSIONS` 为 <setting>
    And 已依次创建 3 个会话，每个都有历史文件和会话目录
    When 创建一个新会话
    Then `sessions.json` 应从新到旧列出全部 4 个会话，它们的文件都还在

    Examples:
      | setting |
      | 0       |
      | -1      |

  @SES-035
  Scenario Outline: 淘汰手工编辑的索引条目时不删除会话目录以外的任何东西
    Given `SYNAPSE_MAX_SESSIONS` 为 1
    And 会话目录旁有目录 `victim` 与文件 `victim.jsonl`，会话目录中有文件 `keep.txt`
    And `sessions.json` 只有一个 id 为 <id> 的条目
    When 创建一个新会话
    Then `Session.list()` 应只列出新会话
    And 目录 `victim`、文件 `victim.jsonl` 与会话目录中的 `keep.txt` 都应还在

    Examples:
      | id            |
      | "../victim"   |
      | ".."          |
      | "."           |
      | ""            |

  @SES-036
  Scenario: 被淘汰的会话没有任何文件时照常创建新会话
    Given `SYNAPSE_MAX_SESSIONS` 为 1
    And `sessions.json` 只有一个 id 为 "session-m6x3k2a1-gone00" 的条目
    When 创建一个新会话
    Then `Session.list()` 应只列出新会话

  @SES-038
  Scenario: `Session.continue()` 恢复最新创建的会话
    Given 已依次创建 2 个会话，每个都有历史文件和会话目录
    When 调用 `Session.continue()`
    Then 应恢复最后创建的那个会话，标题为 "会话 1"

  @SES-080
  Scenario: 被淘汰会话的历史文件无法删除时照常创建新会话，并记录指明该文件的 warning
    Given `SYNAPSE_MAX_SESSIONS` 为 1
    And 已依次创建 1 个会话，每个都有历史文件和会话目录
    And 最早那个会话的历史文件无法被任何进程删除
    When 创建一个新会话
    Then `Session.find()` 应找到新会话
    And 应记录一条指明该历史文件路径的 warning

  @SES-070
  Scenario: 条目从 `sessions.json` 中消失的会话再写入时，以自己的 cwd、标题、消息数与 usage 重新登记在最前
    Given 已依次创建 2 个会话，每个都有历史文件和会话目录
    And 最早那个会话在索引中的 cwd 被改为 "/work/project"
    And 用 `Session.find` 恢复最早那个会话
    And 恢复的会话已记录一轮 inputOther 为 100、output 为 20 的 usage
    And 该会话的条目被手工从 `sessions.json` 中删除
    When 恢复的会话追加 1 条助手消息
    Then `sessions.json` 应恰好有 2 个条目，恢复的会话排在最前
    And 该条目的 cwd 应为 "/work/project"，标题为 "会话 0"，messageCount 为 2
    And 该条目的 usage 应仍含那一轮：totalInputOther 为 100，totalOutput 为 20，rounds 只有这一轮

  @SES-107
  Scenario: 最新创建的会话还没有消息时，`Session.continue()` 仍恢复它
    Given 已依次创建 2 个会话，每个都有历史文件和会话目录
    When 创建一个新会话
    And 调用 `Session.continue()`
    Then 应恢复刚创建的那个会话：没有标题，消息数为 0

  @SES-112 @beyond-seed
  Scenario: 调低 `SYNAPSE_MAX_SESSIONS` 后创建会话时一次淘汰所有超出上限的会话及其文件
    The original drops every entry past the limit at once (sessions.splice(MAX_SESSIONS)), so a limit
    lowered below the number of sessions already kept applies at the next creation, files included.
    Given 已依次创建 3 个会话，每个都有历史文件和会话目录
    And `SYNAPSE_MAX_SESSIONS` 为 1
    When 创建一个新会话
    Then `sessions.json` 应按从新到旧只列出最近的 1 个会话
    And 所有较早会话的历史文件和会话目录都应被删除

  @SES-113 @beyond-seed
  Scenario: 条目重新登记在最前的会话是 `Session.continue()` 恢复的会话，即使另一个会话创建得更晚
    The original resumes the first entry of the index (Session.list()[0]); every write puts the session
    it registers at the front, so the most recently used session is resumed, not the one created last.
    Given 已依次创建 2 个会话，每个都有历史文件和会话目录
    And 用 `Session.find` 恢复最早那个会话
    And 该会话的条目被手工从 `sessions.json` 中删除
    When 恢复的会话追加 1 条助手消息
    And 调用 `Session.continue()`
    Then 应恢复重新登记的那个会话，标题为 "会话 0"
