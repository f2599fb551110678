@session @seed-000 @beyond-seed
Feature: 会话列表顺序、部分清空与命中率取整
  Rules that agree with a wrong one on the easy examples. The sessions index lists sessions newest
  *created* first (writing to an older session does not move it), so `continue()` resumes the newest
  session, not the most recently written one. Clearing a session while keeping its usage still deletes
  its offloaded files: they belong to the history, not to the bill. The cache hit rate of `/cost` is
  rounded half up to a whole percent (2/3 is 67%, 1/8 is 13%), and its denominator counts cache writes.
  A title longer than 50 characters is cut to 47 characters and `...`, characters as everywhere else in
  the spec (CJK and emoji count one each, so a character is never split).

  @SES-055
  Scenario: 向较早创建的会话写入后 `Session.list()` 与 `Session.continue()` 仍以创建顺序为准
    Given 已依次创建 2 个会话，每个都有历史文件和会话目录
    When 向最早创建的会话追加一条消息
    Then `Session.list()` 应按创建时间从新到旧列出这 2 个会话
    When 调用 `Session.continue()`
    Then 应恢复最后创建的那个会话，标题为 "会话 1"

  @SES-056
  Scenario: `clear(resetUsage=false)` 保留 usage，但仍删除 offload 目录并清空历史
    Given 会话已有 usage 统计和 offload 文件
      | inputOther | output | inputCacheRead | inputCacheCreation |
      | 100        | 50     | 200            | 30                 |
    When 执行 `clear(resetUsage=false)`
    Then usage 应与清空前一致
    And offload 目录应被删除
    And 历史文件应保留且为空

  @SES-057
  Scenario Outline: `/cost` 的缓存命中率四舍五入到整数百分比，分母含缓存写入 — <case>
    Given 一份 usage 记录
      | totalInputOther | totalOutput | totalCacheRead | totalCacheCreation | totalCost |
      | <other>         | 0           | <read>         | <write>            | 0         |
    When 调用 `formatCostOutput(usage)`
    Then 输出应为 `Token: <in> in / 0 out | Cache: <read> read / <write> write (<hit>% hit) | Cost: $0.00`

    Examples:
      | case          | other | read | write | in  | hit |
      | 三分之二      | 100   | 200  | 0     | 300 | 67  |
      | 恰好半个百分点 | 700   | 100  | 0     | 800 | 13  |
      | 写入计入分母   | 0     | 100  | 700   | 800 | 13  |
      | 不足半个百分点 | 999   | 1    | 0     | 1,000 | 0   |
      | 仅 1 个输入 token 且命中 | 0     | 1    | 0     | 1   | 100 |
      | 没有输入 token | 0     | 0    | 0     | 0   | 0   |
      | 除法的二进制结果略低于一半 | 171   | 29   | 0     | 200 | 14  |

  @SES-058
  Scenario Outline: 标题取自第一条用户消息，超过 50 字符截为 47 字符加 `...` — 按字符计数的中文与 emoji
    When 创建一个新会话
    And 追加第一条用户消息，文本部分为 "<parts>"（以 ` + ` 分隔）
    Then 标题应为 "<title>"，索引中亦然

    Examples:
      | case | parts | title |
      | 51 个中文字符 | 修复登录页面的会话过期问题并补充测试用例修复登录页面的会话过期问题并补充测试用例修复登录页面的会话过期 | 修复登录页面的会话过期问题并补充测试用例修复登录页面的会话过期问题并补充测试用例修复登录页面的... |
      | 恰好 50 个 emoji | 🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦 | 🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦 |
      | 51 个 emoji | 🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪 | 🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦🧪🚀📦... |
      | 中文与 emoji 混合 51 字符 | 日志🐛日志🐛日志🐛日志🐛日志🐛日志🐛日志🐛日志🐛日志🐛日志🐛日志🐛日志🐛日志🐛日志🐛日志🐛日志🐛日志🐛 | 日志🐛日志🐛日志🐛日志🐛日志🐛日志🐛日志🐛日志🐛日志🐛日志🐛日志🐛日志🐛日志🐛日志🐛日志🐛日志... |
      | 分解形式的重音符号各算一个字符（45 个 x 与 4 个 e + U+0301，共 53 个） | {x * 45}e{U+0301}e{U+0301}e{U+0301}e{U+0301} | {x * 45}e{U+0301}... |
