@context @beyond-seed
Feature: Context 阈值的默认值与 SYNAPSE_* 环境变量
  The seeds name the thresholds but not their values. These scenarios pin the original's defaults
  (`compactTriggerThreshold` 15000, `compactCooldownSteps` 5, a compaction target of 8000 tokens and 5
  kept messages) and its environment variables, read when
  the orchestrator is created (an invalid or non-positive value falls back to the default), and run the
  orchestrator once with its real ContextManager and ContextCompactor. They also pin the original's file
  naming of offloaded results (`.json` when the whole output parses as JSON, as `JSON.parse` decides,
  else `.txt`, so a text that only starts with a JSON value is `.txt`). The summary request
  asks for at most `ceil(targetTokens * 1.2)` tokens, so a target that is not a multiple of 5 tells ceil
  from round.

  @CTX-023
  Scenario Outline: compact 触发阈值与冷却步数取原实现的默认值，可由环境变量覆盖 — <来源>
    Values are read as parseInt reads them: ASCII digits only (a full-width ２ is no digit, though
    Python's `int()` reads it), after JavaScript's white space (U+FEFF is, U+001F is not; {U+XXXX} is that
    code point).
    Given 与 context 相关的 SYNAPSE_* 环境变量为 `<环境>`
    When 用替身 ContextManager 与 ContextCompactor 创建 `ContextOrchestrator` 且不传入阈值
    Then offload 仍超阈值且释放 `<未达>` tokens 时应触发 compact
    And offload 仍超阈值且释放 `<达到>` tokens 时不应触发 compact
    And 一次 compact 尝试后应在第 `<冷却>` 步后才再次触发 compact

    Examples:
      | 来源      | 环境                                                                   | 未达    | 达到    | 冷却 |
      | 默认值     | (未设置)                                                                | 14999 | 15000 | 5  |
      | 环境变量    | SYNAPSE_COMPACT_TRIGGER_THRESHOLD=20000 SYNAPSE_COMPACT_COOLDOWN_STEPS=2 | 19999 | 20000 | 2  |
      | 非法值回退默认 | SYNAPSE_COMPACT_TRIGGER_THRESHOLD=abc SYNAPSE_COMPACT_COOLDOWN_STEPS=0   | 14999 | 15000 | 5  |
      | 负数回退默认  | SYNAPSE_COMPACT_TRIGGER_THRESHOLD=-5 SYNAPSE_COMPACT_COOLDOWN_STEPS=-2   | 14999 | 15000 | 5  |
      | 小数取整数前缀 | SYNAPSE_COMPACT_TRIGGER_THRESHOLD=20000.9 SYNAPSE_COMPACT_COOLDOWN_STEPS=2.5 | 19999 | 20000 | 2  |
      | 全角数字不是数字 | SYNAPSE_COMPACT_TRIGGER_THRESHOLD=２００００ SYNAPSE_COMPACT_COOLDOWN_STEPS=２ | 14999 | 15000 | 5  |
      | U+001F 不是空白，U+FEFF 是 | SYNAPSE_COMPACT_TRIGGER_THRESHOLD={U+001F}20000 SYNAPSE_COMPACT_COOLDOWN_STEPS={U+FEFF}2 | 14999 | 15000 | 2  |

  @CTX-090
  Scenario: 创建 `ContextOrchestrator` 时传入的触发阈值与冷却步数优先于环境变量
    The environment only supplies what the caller leaves out: thresholds passed when the orchestrator is
    created are used even when `SYNAPSE_COMPACT_TRIGGER_THRESHOLD` and `SYNAPSE_COMPACT_COOLDOWN_STEPS`
    are set.
    Given 与 context 相关的 SYNAPSE_* 环境变量为 `SYNAPSE_COMPACT_TRIGGER_THRESHOLD=5000 SYNAPSE_COMPACT_COOLDOWN_STEPS=7`
    When 用替身 ContextManager 与 ContextCompactor 创建 `ContextOrchestrator` 并传入 `compactTriggerThreshold=20000` 与 `compactCooldownSteps=2`
    Then offload 仍超阈值且释放 `19999` tokens 时应触发 compact
    And offload 仍超阈值且释放 `20000` tokens 时不应触发 compact
    And 一次 compact 尝试后应在第 `2` 步后才再次触发 compact

  @CTX-024
  Scenario Outline: 编排器用真实组件按环境变量卸载并压缩 — SYNAPSE_COMPACT_MODEL=<压缩模型>
    Given 与 context 相关的 SYNAPSE_* 环境变量为 `SYNAPSE_OFFLOAD_THRESHOLD=3000 SYNAPSE_OFFLOAD_MIN_CHARS=100 SYNAPSE_COMPACT_PRESERVE_COUNT=<保留> SYNAPSE_COMPACT_TARGET_TOKENS=<目标> SYNAPSE_COMPACT_RETRY_COUNT=2 SYNAPSE_COMPACT_MODEL=<压缩模型>`
    And 一个会话 offload 目录与脚本化模型 "main-model"，其总结第一次失败、第二次回复 "## Current Status\n日志已分析"
    And 一个每字符计 1 token 的计数器与一个空的会话 offload 目录
    And 历史消息为:
      | role      | text  | repeat | call     |
      | user      | 请分析日志 | 1      |          |
      | assistant | 读取三个日志 | 1      | c1,c2,c3 |
      | tool      | a     | 400    | c1       |
      | tool      | b     | 80     | c2       |
      | tool      | c     | 400    | c3       |
      | assistant | 分析中   | 1      |          |
      | user      | x     | 2600   |          |
      | assistant | 好的    | 1      |          |
      | user      | 继续    | 1      |          |
      | assistant | 收到    | 1      |          |
    When 用真实组件创建 `ContextOrchestrator` 并执行 `offloadIfNeeded(history, offloadDir)`
    Then 前半区超过 `100` 个字符的 tool 输出应被卸载
    And 应以模型 `<期望模型>` 生成总结，`maxTokens=<最大>`，共尝试 `2` 次，且总结看到的是恢复后的工具输出
    And 编排结果应为总结消息加最后 `<保留数>` 条原消息
    And 卸载的文件应在压缩后被删除并列入 `deletedFiles`

    Examples:
      | 压缩模型          | 期望模型          | 保留 | 保留数 | 目标   | 最大   |
      | compact-model | compact-model | 3  | 3   | 1000 | 1200 |
      | main-model    | main-model    | 3  | 3   | 1000 | 1200 |
      | compact-model | compact-model | 3  | 3   | 1001 | 1202 |
      | compact-model | compact-model | 0  | 5   | 0    | 9600 |
      | Main-Model    | Main-Model    | 3  | 3   | 1000 | 1200 |
      | compact-model | compact-model | -1 | 5   | -5   | 9600 |

  @CTX-025
  Scenario: JSON 格式的工具输出卸载为 .json 文件，其余为 .txt 文件
    Given 一个每字符计 1 token 的计数器与一个空的会话 offload 目录
    And ContextManager 参数为 `scanRatio=1` 与 `minChars=50`
    And 历史消息为:
      | role | text                                                                 | repeat |
      | tool | {"files": ["a.py", "b.py", "c.py"], "count": 3, "truncated": false}  | 1      |
      | tool | plain text output                                                    | 5      |
      | user | 继续                                                                   | 1      |
    And 当前 token 超过 offload 阈值
    When 调用 `offloadIfNeeded(messages)`
    Then 第 `1` 条消息应卸载为 `.json` 文件，第 `2` 条应卸载为 `.txt` 文件
    And 每个卸载文件都应只有所有者可读写（权限 `0600`）

  @CTX-065
  Scenario Outline: 卸载文件的扩展名取决于整段输出能否按 JSON 解析 — <输出类型>
    Given 一个每字符计 1 token 的计数器与一个空的会话 offload 目录
    And ContextManager 参数为 `scanRatio=1` 与 `minChars=50`
    And 历史消息为:
      | role | text   | repeat |
      | tool | <输出>   | 1      |
      | user | 继续     | 1      |
    And 当前 token 超过 offload 阈值
    When 调用 `offloadIfNeeded(messages)`
    Then 第 `1` 条消息应卸载为 `<扩展名>` 文件

    Examples:
      | 输出类型              | 输出                                                                          | 扩展名   |
      | 含单独代理项转义的 JSON 对象 | {"path": "\ud800", "note": "a lone surrogate escape, which JSON.parse accepts"} | .json |
      | JSON 对象后跟换行        | {"path": "\ud800", "note": "the same object followed by a newline"}\n        | .json |
      | 以数字开头的多行文本        | 1 passed\n2 failed\n3 skipped in tests/test_offload_storage.py              | .txt  |
      | 以 JSON 数组开头的文本     | [1, 2, 3] are the ids of the tests that failed in this run                  | .txt  |
      | 以 [ 开头但不是 JSON 的文本 | [stderr] build failed: missing semicolon in src/app.ts at line 42          | .txt  |
      | 以字节序标记开头的 JSON 对象 | {U+FEFF}{"path": "a.py", "note": "a byte-order mark is not JSON whitespace"}  | .txt  |
      | JSON 对象后跟不换行空格      | {"path": "a.py", "note": "a no-break space is not JSON whitespace"}{U+00A0}   | .txt  |
      | 含 NaN 的类 JSON 对象      | {"ratio": NaN, "note": "JSON.parse refuses NaN, so this is plain text"}      | .txt  |
      | 含 Infinity 的类 JSON 数组 | [1, -Infinity, Infinity, "JSON.parse refuses the Infinity constants"]       | .txt  |
      | 超出浮点范围的数字             | {"big": 1e999, "note": "JSON.parse reads a huge number as Infinity"}        | .json |
      | 整段是一个 JSON 字符串        | "a JSON string is a JSON text too, so JSON.parse accepts this whole output" | .json |
      | 整段是一个很长的数字           | 123456789012345678901234567890123456789012345678901234567890               | .json |
      | 以换行与缩进开头的 JSON 对象   | \n  {"path": "a.py", "note": "JSON.parse skips JSON white space at the start"} | .json |
      | 以制表符开头的 JSON 数组       | {U+0009}[1, 2, 3, "JSON.parse skips a leading tab as it skips a space"]    | .json |
