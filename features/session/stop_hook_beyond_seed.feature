@agent @beyond-seed
Feature: Stop Hook 注册表（超出种子的约定）
  What the registry promises beyond the seed: one failing hook never costs the user the other hooks'
  results, and registering a name again replaces that hook instead of running both.

  @HOOK-005
  Scenario: 某个 hook 抛出异常时记录日志并继续执行其余 hooks
    Given 注册表中依次注册了以下 stop hooks
      | name   | behaviour                 |
      | first  | 返回 "first done"         |
      | broken | 抛出 RuntimeError("boom") |
      | third  | 返回 "third done"         |
    When 调用 `executeAndAppend(finalResponse, context)`
      """
      Final answer.
      """
    Then 最终文本应为原响应、空行、marker 与后注册先执行的 hook 消息:
      """
      Final answer.

      [StopHook]
      third done

      first done
      """
    And 应记录一条指出 hook `broken` 执行失败的日志

  @HOOK-006
  Scenario: 以相同名称再次注册时替换原 hook
    Given 注册表中依次注册了以下 stop hooks
      | name     | behaviour       |
      | reminder | 返回 "old text" |
      | reminder | 返回 "new text" |
    When 调用 `executeAndAppend(finalResponse, context)`
      """
      Final answer.
      """
    Then 最终文本应为原响应、空行、marker 与后注册先执行的 hook 消息:
      """
      Final answer.

      [StopHook]
      new text
      """

  @HOOK-007
  Scenario: 每个 hook 的消息与失败都按执行顺序记入日志
    Given 注册表中依次注册了以下 stop hooks
      | name   | behaviour                 |
      | first  | 返回 "first done"         |
      | broken | 抛出 RuntimeError("boom") |
      | third  | 返回 "third done"         |
    When 记录 INFO 及以上日志时调用 `executeAndAppend(finalResponse, context)`
      """
      Final answer.
      """
    Then synapse 日志中应依次出现以下记录
      | level | message                                   |
      | INFO  | [StopHook:third] third done               |
      | ERROR | Stop hook 'broken' execution failed: boom |
      | INFO  | [StopHook:first] first done               |

  @HOOK-008
  Scenario: 多次调用 `init()` 只加载一次 stop hooks
    Given 启用的 executor 的 loader 注册一个返回 "loaded once" 的 hook `reminder`
    When 调用 2 次 `init()` 后调用 `executeAndAppend(finalResponse, context)`
      """
      Final answer.
      """
    Then loader 应只被调用 1 次，且收到的是该 executor 的注册表
    And 最终文本应为原响应、空行、marker 与后注册先执行的 hook 消息:
      """
      Final answer.

      [StopHook]
      loaded once
      """

  @HOOK-009
  Scenario: 没有 loader 时 `init()` 什么也不加载，直接注册的 hook 照常执行
    Given 启用且没有 loader 的 executor，注册表中直接注册了返回 "registered directly" 的 hook `direct`
    When 调用 1 次 `init()` 后调用 `executeAndAppend(finalResponse, context)`
      """
      Final answer.
      """
    Then 最终文本应为原响应、空行、marker 与后注册先执行的 hook 消息:
      """
      Final answer.

      [StopHook]
      registered directly
      """

  @HOOK-010
  Scenario Outline: 进度文本去掉首尾空白后交给 onMessagePart，空白进度不显示
    Given onMessagePart 回调以<how>方式记录收到的消息片段
    And 注册表中有一个依次报告以下进度后返回 "Enhanced 1 skill" 的 stop hook
      | progress (JSON)                        |
      | "  Analyzing skill enhancement...\n  " |
      | "   "                                  |
      | ""                                     |
    When hook 执行中调用 `emitProgress`
      """
      Final answer.
      """
    Then onMessagePart 应只收到一个片段 {"type": "text", "text": "\nAnalyzing skill enhancement...\n"}
    And 不应记录 warning
    And 主流程继续执行

    Examples:
      | how  |
      | 同步 |
      | 异步 |

  @HOOK-011
  Scenario: 没有 onMessagePart 回调时进度被静默忽略
    Given 没有 onMessagePart 回调的启用 executor
    And 注册表中有一个依次报告以下进度后返回 "Enhanced 1 skill" 的 stop hook
      | progress (JSON)                  |
      | "Analyzing skill enhancement..." |
    When hook 执行中调用 `emitProgress`
      """
      Final answer.
      """
    Then 不应记录 warning
    And 主流程继续执行

  @SES-116
  Scenario: hook 消息按原样追加：只略过全空白的消息，其余消息的缩进与换行保留
    The original only tests the trimmed message (`message.trim().length > 0`) and appends the message as
    the hook wrote it: an indented list keeps its indentation.
    Given 注册表中依次注册了以下 stop hooks
      | name   | behaviour                                     |
      | first  | 返回 "  - lint: 2 warnings\\n  - tests: ok\\n" |
      | second | 返回 "   "                                    |
    When 调用 `executeAndAppend(finalResponse, context)`
      """
      Final answer.
      """
    Then 最终文本应为原响应、空行、marker 与后注册先执行的 hook 消息:
      """
      Final answer.

      [StopHook]
        - lint: 2 warnings
        - tests: ok

      """

  @HOOK-018
  Scenario: 只含全角空格或不换行空格的 hook 消息也是空白消息，不追加
    The original tests a message with JavaScript's `trim()`, which removes every Unicode white space:
    a message of ideographic (U+3000), no-break (U+00A0) or em (U+2003) spaces reports nothing.
    Given 注册表中依次注册了以下 stop hooks
      | name   | behaviour                         |
      | first  | 返回 "first done"                 |
      | second | 返回 "\\u3000\\u00a0\\u2003\\n"   |
      | third  | 返回 "\\u00a0"                    |
      | fourth | 返回 "\\ufeff\\n"                |
    When 调用 `executeAndAppend(finalResponse, context)`
      """
      Final answer.
      """
    Then 最终文本应为原响应、空行、marker 与后注册先执行的 hook 消息:
      """
      Final answer.

      [StopHook]
      first done
      """

  @HOOK-019
  Scenario: 进度文本去掉的首尾空白包括全角空格与不换行空格，只含这些空格的进度不显示
    The original trims progress with JavaScript's `trim()`, which removes every Unicode white space.
    Given onMessagePart 回调以同步方式记录收到的消息片段
    And 注册表中有一个依次报告以下进度后返回 "Enhanced 1 skill" 的 stop hook
      | progress (JSON)                                          |
      | "\u3000\u00a0Analyzing skill enhancement...\u2003\n"     |
      | "\u3000\u00a0"                                           |
    When hook 执行中调用 `emitProgress`
      """
      Final answer.
      """
    Then onMessagePart 应只收到一个片段 {"type": "text", "text": "\nAnalyzing skill enhancement...\n"}
    And 不应记录 warning
    And 主流程继续执行

  @HOOK-021
  Scenario: onMessagePart 失败一次后，之后的进度照常交给它
    The original catches a failure of the display callback for each progress message on its own: a
    renderer that failed once is offered the next progress message again, not switched off for the run.
    Given onMessagePart 回调第一次抛出异常，之后照常记录收到的消息片段
    And 注册表中有一个依次报告以下进度后返回 "Enhanced 1 skill" 的 stop hook
      | progress (JSON)                  |
      | "Analyzing skill enhancement..." |
      | "Enhancing skill lint-fix..."    |
    When hook 执行中调用 `emitProgress`
      """
      Final answer.
      """
    Then onMessagePart 应依次收到以下片段，只为第一次的失败记录 1 条 warning
      | part (JSON)                                                      |
      | {"type": "text", "text": "\nAnalyzing skill enhancement...\n"} |
      | {"type": "text", "text": "\nEnhancing skill lint-fix...\n"}    |
    And 主流程继续执行

  @HOOK-022
  Scenario: 进度文本开头的字节序标记（U+FEFF）与空白一样去掉，只含它的进度不显示
    The original trims progress with JavaScript's `trim()`, which removes U+FEFF like any white space
    (Python's `str.strip()` keeps it): progress a hook read from a file that starts with a byte-order mark
    is shown without it.
    Given onMessagePart 回调以同步方式记录收到的消息片段
    And 注册表中有一个依次报告以下进度后返回 "Enhanced 1 skill" 的 stop hook
      | progress (JSON)                                |
      | "\ufeffAnalyzing skill enhancement...\n"       |
      | "\ufeff"                                       |
    When hook 执行中调用 `emitProgress`
      """
      Final answer.
      """
    Then onMessagePart 应只收到一个片段 {"type": "text", "text": "\nAnalyzing skill enhancement...\n"}
    And 不应记录 warning
    And 主流程继续执行

  @HOOK-023
  Scenario: 进度在 hook 报告时就交给 onMessagePart，不等 hook 结束
    Progress is feedback while a hook works: the original awaits onMessagePart inside onProgress, so a
    hook that says what it is doing and then works for a while shows that line before it finishes, not
    together with its final report.
    Given onMessagePart 回调以同步方式记录收到的消息片段
    And 注册表中有一个报告进度 "Analyzing skill enhancement..." 后、返回 "Enhanced 1 skill" 之前记下 onMessagePart 已收到几个片段的 stop hook
    When hook 执行中调用 `emitProgress`
      """
      Final answer.
      """
    Then hook 返回之前 onMessagePart 应已收到 1 个片段
    And onMessagePart 应只收到一个片段 {"type": "text", "text": "\nAnalyzing skill enhancement...\n"}
    And 主流程继续执行

  @HOOK-024
  Scenario: hook 执行时注册的新 hook 不打断这一次执行，下一次才运行
    The hooks of a run are those registered when it starts (the original iterates a copy of its table,
    `Array.from(this.hooks.entries())`): a hook that registers another one while it runs neither stops
    the hooks after it nor makes the new hook run in the same pass; the new hook runs the next time, first,
    as the last registered.
    Given 注册表中依次注册了以下 stop hooks
      | name   | behaviour                                                  |
      | first  | 返回 "first done"                                          |
      | second | 注册返回 "reminder set" 的 hook `reminder`，再返回 "second done" |
    When 调用 `executeAndAppend(finalResponse, context)`
      """
      Final answer.
      """
    Then 最终文本应为原响应、空行、marker 与后注册先执行的 hook 消息:
      """
      Final answer.

      [StopHook]
      second done

      first done
      """
    When 调用 `executeAndAppend(finalResponse, context)`
      """
      Final answer.
      """
    Then 最终文本应为原响应、空行、marker 与后注册先执行的 hook 消息:
      """
      Final answer.

      [StopHook]
      reminder set

      second done

      first done
      """
