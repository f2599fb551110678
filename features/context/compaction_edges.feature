@context @beyond-seed
Feature: 压缩的保留数、分割点与空总结的边界
  Pins edges the seeds leave open: `preserveCount=0` summarises the whole history, a tool round that
  starts at the very first message keeps the history uncompacted, an assistant tool call without results
  right before the split point moves into the kept tail, and an empty summary reply counts as a failed
  attempt that is retried.

  Background:
    Given 一个会话 offload 目录与一个使用脚本化模型 "main-model" 的 ContextCompactor（`preserveCount=5`）

  @CTX-030
  Scenario: preserveCount=0 时整个历史都被总结
    Given ContextCompactor 的 `preserveCount=0`
    And 模型的总结回复为 "## Current Status\n全部已总结"
    And 历史消息为:
      | role      | text | call |
      | user      | 开始   |      |
      | assistant | 好的   |      |
      | user      | 继续   |      |
      | assistant | 收到   |      |
    When 执行 compact
    Then `preservedCount` 应为 `0`

  @CTX-031
  Scenario: 工具轮次从第一条消息开始且分割点落在其结果上时不压缩
    Given 模型的总结回复为 "## Current Status\n不应使用"
    And 历史消息为:
      | role      | text    | call |
      | assistant | 调用 read | c1   |
      | tool      | 文件内容    | c1   |
      | assistant | 读完了     |      |
      | user      | 继续      |      |
      | assistant | 好的      |      |
      | user      | 谢谢      |      |
    When 执行 compact
    Then 压缩应被跳过：历史原样返回、`success=true` 且未调用总结模型

  @CTX-032
  Scenario: 分割点前紧邻一条没有结果的 assistant toolCall 时，该消息移入保留部分
    Given ContextCompactor 的 `preserveCount=4`
    And 模型的总结回复为 "## Current Status\n摘要"
    And 历史消息为:
      | role      | text    | call |
      | user      | 开始      |      |
      | user      | 补充      |      |
      | assistant | 好的      |      |
      | assistant | 调用 read | c9   |
      | user      | 算了，不用读  |      |
      | assistant | 好的      |      |
      | user      | 继续      |      |
      | assistant | 收到      |      |
    When 执行 compact
    Then 发送给总结模型的历史不应以未得到结果的 toolCalls 结尾
    And `preservedCount` 应为 `5`

  @CTX-033
  Scenario: 空的总结回复算作一次失败的尝试并会重试
    Given ContextCompactor 的 `retryCount=3`
    And 模型第一次的总结回复为空
    And 模型的总结回复为 "## Current Status\n第二次的摘要"
    And 历史消息为 8 条普通对话消息
    When 执行 compact
    Then 模型应被调用 `2` 次，两次之间等待 `0.1` 秒
    And `preservedCount` 应为 `5`

  @CTX-041
  Scenario: 历史不超过保留数且以没有结果的 assistant toolCall 结尾时不压缩
    Given 模型的总结回复为 "## Current Status\n不应使用"
    And 历史消息为:
      | role      | text      | call |
      | user      | 开始      |      |
      | assistant | 好的      |      |
      | user      | 读一下文件 |      |
      | assistant | 调用 read | c1   |
    When 执行 compact
    Then 压缩应被跳过：历史原样返回、`success=true` 且未调用总结模型

  @CTX-057
  Scenario Outline: 总结请求的 maxTokens 为 ceil(targetTokens × 1.2)，至少为 1 — targetTokens=<目标>
    Given ContextCompactor 的 `targetTokens=<目标>`
    And 模型的总结回复为 "## Current Status\n摘要"
    And 历史消息为 8 条普通对话消息
    When 执行 compact
    Then 总结请求的 `maxTokens` 应为 `<最大>`，系统提示写明目标 `<目标>`
    And `preservedCount` 应为 `5`

    Examples:
      | 目标 | 最大 |
      | 0    | 1    |
      | -5   | 1    |
      | 1    | 2    |
      | 4    | 5    |
      | 5    | 6    |

  @CTX-063
  Scenario: 不传 token 计数器时按原实现的 cl100k_base 计数，中文与 emoji 不按每 4 个字符 1 token 估算
    Given ContextCompactor 不传 token 计数器（使用实现的默认计数器）
    And 模型的总结回复为 "## Current Status\n不应使用"
    And 历史消息为:
      | role      | text                         |
      | user      | 修复登录页面的会话过期问题 🚀 |
      | assistant | 好的，我先看看 auth.ts        |
    When 执行 compact
    Then 压缩应被跳过：历史原样返回、`success=true` 且未调用总结模型
    And `previousTokens` 与 `currentTokens` 都应为 `52`

  @CTX-123
  Scenario: token 计数器抛错时按原实现降级为每 4 个字符 1 token 的估算并记下 warning，压缩照常进行
    As in the original, a failing counter does not stop the agent: each text it fails on counts
    `ceil(length / 4)`, the length in JavaScript's UTF-16 code units (🚀 counts 2), of the message's JSON
    text: 69 code units (68 characters), so 18 tokens; the counter is asked again next time.
    Given ContextCompactor 使用每次计数都抛错的 token 计数器
    And 模型的总结回复为 "## Current Status\n不应使用"
    And 历史消息为:
      | role | text                         |
      | user | 修复登录页面的会话过期问题 🚀 |
    When 执行 compact
    Then 压缩应被跳过：历史原样返回、`success=true` 且未调用总结模型
    And `previousTokens` 与 `currentTokens` 都应为 `18`
    And 实现应试过该计数器，并记下 token 计数失败的 warning

  @CTX-064
  Scenario: 默认计数器数的是原实现 JSON.stringify 写出的文本：孤立代理字元按转义序列 \ud800 计数
    Given ContextCompactor 不传 token 计数器（使用实现的默认计数器）
    And 模型的总结回复为 "## Current Status\n不应使用"
    And 历史消息为:
      | role      | text                         |
      | user      | 修复登录页面的会话过期问题 🚀 |
      | assistant | 好的，我先看看 auth.ts        |
    And 第 1 条消息的文本末尾多了一个孤立代理字元 U+D800
    When 执行 compact
    Then 压缩应被跳过：历史原样返回、`success=true` 且未调用总结模型
    And `previousTokens` 与 `currentTokens` 都应为 `55`

  # 1e20 lies beyond 64 bits but is a whole double, so JSON.stringify writes the same 21 digits: a port that
  # reads message numbers as 64-bit integers fails or counts another text here.
  @CTX-078 @beyond-seed
  Scenario: 默认计数器数的是原实现 JSON.stringify 写出的文本：超出 64 位的整数按其数字计数
    Given ContextCompactor 不传 token 计数器（使用实现的默认计数器）
    And 模型的总结回复为 "## Current Status\n不应使用"
    And 历史消息为:
      | role      | text                         |
      | user      | 修复登录页面的会话过期问题 🚀 |
      | assistant | 好的，我先看看 auth.ts        |
    And 第 1 条消息多了一个字段 "seq"，值为整数 100000000000000000000
    When 执行 compact
    Then 压缩应被跳过：历史原样返回、`success=true` 且未调用总结模型
    And `previousTokens` 与 `currentTokens` 都应为 `62`

  @CTX-106
  Scenario Outline: 压缩模型名首尾的空白不算在内 — <情形>
    The compactor trims the model it is given, whoever gives it (the original's `options.model?.trim()`),
    not only the environment variable: a name copied with a trailing space or line break names the same
    model, so the current model is not switched to itself and another model is asked by its name.
    Given compact options 的 `model` 为 "<模型>"
    And 模型的总结回复为 "## Current Status\n摘要"
    And 历史消息为 8 条普通对话消息
    When 执行 compact
    Then 总结应由模型 `<期望模型>` 生成，只在它不是当前模型时调用 `withModel`
    And 仍应正常完成摘要生成

    Examples:
      | 情形                         | 模型                                | 期望模型      |
      | 当前模型名后跟一个空格       | main-model{U+0020}                  | main-model    |
      | 另一个模型名前有空格、后有换行 | {U+0020}{U+0020}compact-model\n     | compact-model |

  @CTX-113 @beyond-seed
  Scenario: 默认计数器数的是原实现 JSON.stringify 写出的文本：键按写入的顺序，不按字母排序
    `JSON.stringify` writes a message's keys in the order they were written (`role`, then `content`; in a
    text part `type`, then `text`), and cl100k_base tokens depend on the neighbours of each character: the
    full stop that ends each text here merges with the `"}]}` after it. A port that counts the JSON of a
    generic map, whose keys come out sorted (`content` first), writes the same characters in another order
    and counts one token less per message.
    Given ContextCompactor 不传 token 计数器（使用实现的默认计数器）
    And 模型的总结回复为 "## Current Status\n不应使用"
    And 历史消息为:
      | role      | text                     |
      | user      | Read auth.ts and fix it. |
      | assistant | Fixed the login bug.     |
    When 执行 compact
    Then 压缩应被跳过：历史原样返回、`success=true` 且未调用总结模型
    And `previousTokens` 与 `currentTokens` 都应为 `42`
