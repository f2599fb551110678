@workflow @seed-002 @beyond-seed
Feature: SubagentStop hook 與 compact 建議的細節
  The seed names the hook's branches and the compact decision; these scenarios pin what the main agent
  and the operator see beyond it: the hook's exact messages (the original's texts, without its duplicated
  emoji and label in the retro message), the timeline events it records, how it reads a verdict, how it
  treats events it cannot place, and the decimal size format with the threshold settings.

  Hook results are compared line by line; `<sid>` stands for the scenario's session id. Timeline events
  are listed with the fields beyond `ts`, `type`, `category` and `label`, as JSON.

  @WF-031
  Scenario: formatSize 以十進位單位格式化：整數 KB 四捨五入，MB 保留一位小數
    Then `formatSize` 依下表格式化位元組數：
      | bytes       | text    |
      | 0           | 0B      |
      | 999         | 999B    |
      | 1000        | 1KB     |
      | 1499        | 1KB     |
      | 1500        | 2KB     |
      | 2500        | 3KB     |
      | 800000      | 800KB   |
      | 999499      | 999KB   |
      | 1000000     | 1.0MB   |
      | 1050000     | 1.1MB   |
      | 6550000     | 6.5MB   |
      | 10200000    | 10.2MB  |
      | 123456789   | 123.5MB |

  @WF-032
  Scenario: DEV 通過且建議 compact 時 hook 的完整回覆與 timeline 事件
    Given 一個 standard workflow 的 DEV stage 正在進行
    And transcript 檔案大小為 6.5MB（> 5MB 閾值）
    When SubagentStop hook 收到 `ot:developer` 的結束事件，VERDICT 為 PASS
    Then hook 的 stdout 是以換行結尾的一行 JSON，文字原樣輸出而不跳脫
    And hook 的 `result` 逐行為：
      """
      ✅ 💻 開發完成
      📊 請更新 TaskList：TaskUpdate status completed（開發）
      ⏭️ 下一步：並行委派 🔍 審查 + 🧪 測試

      💾 transcript 已達 6.5MB，建議在繼續下一個 stage 前執行 /compact 壓縮 context。

      💡 可選：委派 grader agent 評估此階段輸出品質（subagent_type: ot:grader，傳入 STAGE=DEV AGENT=developer SESSION_ID=<sid>）
      """
    And timeline 依序新增了下列事件：
      | type                       | data                                                                                                      |
      | agent:complete             | {"agent": "developer", "stage": "DEV", "result": "pass"}                                                  |
      | stage:complete             | {"stage": "DEV", "result": "pass"}                                                                        |
      | session:compact-suggestion | {"transcriptSize": 6500000, "reason": "transcript 大小 6.5MB 超過閾值 5.0MB", "stage": "DEV", "agent": "developer"} |
    And DEV stage 在 workflow state 中為 completed（pass）
    And workflow state 的 `currentStage` 為 REVIEW

  @WF-033
  Scenario: 並行群組的最後一個成員通過時 hook 宣告收斂並委派下一個 stage
    Given 一個 standard workflow 的 TEST:2 stage 正在進行
    When SubagentStop hook 收到 `tester` 的結束事件，VERDICT 為 PASS
    Then hook 的 `result` 逐行為：
      """
      ✅ 🧪 測試完成
      📊 請更新 TaskList：TaskUpdate status completed（測試）
      🔄 並行群組 quality 全部完成
      ⏭️ 下一步：委派 🔁 retrospective（回顧）

      💡 可選：委派 grader agent 評估此階段輸出品質（subagent_type: ot:grader，傳入 STAGE=TEST:2 AGENT=tester SESSION_ID=<sid>）
      """
    And timeline 依序新增了下列事件：
      | type              | data                                                  |
      | agent:complete    | {"agent": "tester", "stage": "TEST:2", "result": "pass"} |
      | stage:complete    | {"stage": "TEST:2", "result": "pass"}                 |
      | parallel:converge | {"group": "quality"}                                  |
    And workflow state 的 `currentStage` 為 RETRO

  @WF-034
  Scenario: 並行群組尚有成員未完成時 hook 不宣告收斂
    Given 一個 standard workflow 的 REVIEW stage 正在進行
    When SubagentStop hook 收到 `code-reviewer` 的結束事件，VERDICT 為 PASS
    Then hook 的 `result` 逐行為：
      """
      ✅ 🔍 審查完成
      📊 請更新 TaskList：TaskUpdate status completed（審查）
      ⏭️ 下一步：委派 🧪 tester（測試）

      💡 可選：委派 grader agent 評估此階段輸出品質（subagent_type: ot:grader，傳入 STAGE=REVIEW AGENT=code-reviewer SESSION_ID=<sid>）
      """
    And timeline 依序新增了下列事件：
      | type           | data                                                          |
      | agent:complete | {"agent": "code-reviewer", "stage": "REVIEW", "result": "pass"} |
      | stage:complete | {"stage": "REVIEW", "result": "pass"}                         |

  @WF-035
  Scenario: 另一個並行 agent 仍在工作時 hook 請主 agent 等待它
    Given 一個 secure workflow 的 TEST:2 stage 正在進行
    And code-reviewer 仍在進行 REVIEW、security-reviewer 仍在進行 SECURITY（記錄於 `activeAgents`）
    When SubagentStop hook 收到 `tester` 的結束事件，VERDICT 為 PASS
    Then hook 的 `result` 逐行為：
      """
      ✅ 🧪 測試完成
      📊 請更新 TaskList：TaskUpdate status completed（測試）
      ⏭️ 下一步：等待並行 agent 完成：code-reviewer, security-reviewer

      💡 可選：委派 grader agent 評估此階段輸出品質（subagent_type: ot:grader，傳入 STAGE=TEST:2 AGENT=tester SESSION_ID=<sid>）
      """
    And `activeAgents` 只剩 code-reviewer、security-reviewer

  @WF-036
  Scenario: 最後一個 stage 通過時 hook 宣告全部完成，不重複宣告早已收斂的群組
    Given 一個 standard workflow 的 DOCS stage 正在進行
    And transcript 檔案大小為 8MB（> 5MB 閾值）
    When SubagentStop hook 收到 `doc-updater` 的結束事件，VERDICT 為 PASS
    Then hook 的 `result` 逐行為：
      """
      ✅ 📝 文件完成
      📊 請更新 TaskList：TaskUpdate status completed（文件）
      🎉 所有階段已完成！
      📋 建議：委派 planner 規劃下一批工作（或執行 /ot:plan）

      💡 可選：委派 grader agent 評估此階段輸出品質（subagent_type: ot:grader，傳入 STAGE=DOCS AGENT=doc-updater SESSION_ID=<sid>）
      """
    And timeline 依序新增了下列事件：
      | type           | data                                                        |
      | agent:complete | {"agent": "doc-updater", "stage": "DOCS", "result": "pass"} |
      | stage:complete | {"stage": "DOCS", "result": "pass"}                         |

  @WF-037
  Scenario Outline: fail 未達上限時 hook 指引除錯與重試 — 第 <n> 次
    Given 一個 standard workflow 的 TEST stage 正在進行
    And TEST 已經以 FAIL 結束 <before> 次，每次都重新開始
    When SubagentStop hook 收到 `tester` 的結束事件，VERDICT 為 FAIL
    Then hook 的 `result` 逐行為：
      """
      ❌ 🧪 測試失敗（<n>/3）
      ⏭️ 下一步：委派 DEBUGGER 分析根因 → DEVELOPER 修復 → TESTER 驗證
      """
    And timeline 依序新增了下列事件：
      | type           | data                                                   |
      | agent:error    | {"agent": "tester", "stage": "TEST", "reason": "fail"} |
      | agent:complete | {"agent": "tester", "stage": "TEST", "result": "fail"} |
      | stage:complete | {"stage": "TEST", "result": "fail"}                    |
      | stage:retry    | {"stage": "TEST", "failCount": <n>}                    |
    And TEST stage 在 workflow state 中為 completed（fail）
    And workflow state 的 failCount 為 <n>

    Examples:
      | n | before |
      | 1 | 0      |
      | 2 | 1      |

  @WF-038
  Scenario: 第 3 次 fail 達到重試上限，hook 請人工介入
    Given 一個 standard workflow 的 TEST stage 正在進行
    And TEST 已經以 FAIL 結束 2 次，每次都重新開始
    When SubagentStop hook 收到 `tester` 的結束事件，VERDICT 為 FAIL
    Then hook 的 `result` 逐行為：
      """
      ⛔ 已達重試上限（3 次）。請人工介入。
      """
    And timeline 依序新增了下列事件：
      | type           | data                                                   |
      | agent:error    | {"agent": "tester", "stage": "TEST", "reason": "fail"} |
      | agent:complete | {"agent": "tester", "stage": "TEST", "result": "fail"} |
      | stage:complete | {"stage": "TEST", "result": "fail"}                    |
      | error:fatal    | {"reason": "重試上限", "failCount": 3}                 |
    And workflow state 的 failCount 為 3

  @WF-039
  Scenario Outline: reject 未達上限時 hook 指引修復後再審 — 第 <n> 次
    Given 一個 standard workflow 的 REVIEW stage 正在進行
    And REVIEW 已經以 REJECT 結束 <before> 次，每次都重新開始
    When SubagentStop hook 收到 `code-reviewer` 的結束事件，VERDICT 為 REJECT
    Then hook 的 `result` 逐行為：
      """
      🔙 審查拒絕（<n>/3）
      ⏭️ 下一步：委派 DEVELOPER 修復（帶 reject 原因）→ REVIEWER 再審

      💡 可選：委派 grader agent 評估此階段輸出品質（subagent_type: ot:grader，傳入 STAGE=REVIEW AGENT=code-reviewer SESSION_ID=<sid>）
      """
    And timeline 依序新增了下列事件：
      | type           | data                                                              |
      | agent:complete | {"agent": "code-reviewer", "stage": "REVIEW", "result": "reject"} |
      | stage:complete | {"stage": "REVIEW", "result": "reject"}                           |
    And REVIEW stage 在 workflow state 中為 completed（reject）
    And workflow state 的 rejectCount 為 <n>

    Examples:
      | n | before |
      | 1 | 0      |
      | 2 | 1      |

  @WF-040
  Scenario: 第 3 次 reject 達到上限，hook 請人工介入
    Given 一個 standard workflow 的 REVIEW stage 正在進行
    And REVIEW 已經以 REJECT 結束 2 次，每次都重新開始
    When SubagentStop hook 收到 `code-reviewer` 的結束事件，VERDICT 為 REJECT
    Then hook 的 `result` 逐行為：
      """
      ⛔ 審查拒絕已達上限（3 次）。請人工介入。

      💡 可選：委派 grader agent 評估此階段輸出品質（subagent_type: ot:grader，傳入 STAGE=REVIEW AGENT=code-reviewer SESSION_ID=<sid>）
      """
    And timeline 依序新增了下列事件：
      | type           | data                                                              |
      | agent:complete | {"agent": "code-reviewer", "stage": "REVIEW", "result": "reject"} |
      | stage:complete | {"stage": "REVIEW", "result": "reject"}                           |
      | error:fatal    | {"reason": "拒絕上限", "rejectCount": 3}                          |
    And workflow state 的 rejectCount 為 3

  @WF-041
  Scenario Outline: issues 時 hook 計算回顧輪數並提示新一輪優化 — 第 <n> 輪
    Given 一個 standard workflow 的 RETRO stage 正在進行
    And RETRO 已經以 ISSUES 結束 <before> 次，每次都重新開始
    When SubagentStop hook 收到 `retrospective` 的結束事件，VERDICT 為 ISSUES
    Then hook 的 `result` 逐行為：
      """
      🔁 回顧完成：發現改善建議（retroCount: <n>/3）
      💡 可選：觸發 /ot:auto 新一輪優化，或繼續完成剩餘 stages

      💡 可選：委派 grader agent 評估此階段輸出品質（subagent_type: ot:grader，傳入 STAGE=RETRO AGENT=retrospective SESSION_ID=<sid>）
      """
    And timeline 依序新增了下列事件：
      | type           | data                                                              |
      | agent:complete | {"agent": "retrospective", "stage": "RETRO", "result": "issues"}  |
      | stage:complete | {"stage": "RETRO", "result": "issues"}                            |
    And RETRO stage 在 workflow state 中為 completed（issues）
    And workflow state 的 retroCount 為 <n>

    Examples:
      | n | before |
      | 1 | 0      |
      | 2 | 1      |

  @WF-104 @beyond-seed
  Scenario: 第 3 輪 issues 時 hook 說明已達迭代上限，建議繼續完成剩餘 stages
    The original stops offering a new round once the retrospective has found issues three times (from a
    retroCount of 3 on): the third round says the iteration limit is reached and points to the remaining
    stages instead of `/ot:auto`.
    Given 一個 standard workflow 的 RETRO stage 正在進行
    And RETRO 已經以 ISSUES 結束 2 次，每次都重新開始
    When SubagentStop hook 收到 `retrospective` 的結束事件，VERDICT 為 ISSUES
    Then hook 的 `result` 逐行為：
      """
      🔁 回顧完成：發現改善建議（retroCount: 3/3）
      ⛔ 已達迭代上限（3 次），建議繼續完成剩餘 stages（如 DOCS）

      💡 可選：委派 grader agent 評估此階段輸出品質（subagent_type: ot:grader，傳入 STAGE=RETRO AGENT=retrospective SESSION_ID=<sid>）
      """
    And RETRO stage 在 workflow state 中為 completed（issues）
    And workflow state 的 retroCount 為 3

  @WF-042
  Scenario Outline: 沒有 VERDICT 標記時 hook 依 stage 的關鍵字規則判定結果 — <stage>「<message>」
    Given 一個 <workflow> workflow 的 <stage> stage 正在進行
    When SubagentStop hook 收到 `<agent>` 的結束事件，最後訊息為「<message>」
    Then hook 記錄 <stage> 的結果為 <verdict>

    Examples:
      | workflow  | stage     | agent                | message                          | verdict |
      | standard  | TEST      | tester               | 3 tests FAILED                   | fail    |
      | standard  | TEST      | tester               | 整合測試失敗                     | fail    |
      | standard  | TEST      | tester               | 0 failed, 12 passed              | pass    |
      | standard  | TEST      | tester               | no failures                      | pass    |
      | standard  | TEST      | tester               | ran without failures             | pass    |
      | standard  | TEST      | tester               | documented each failure mode     | pass    |
      | standard  | TEST      | tester               | TypeError in setup               | fail    |
      | standard  | TEST      | tester               | 0 errors                         | pass    |
      | standard  | TEST      | tester               | no errors                        | pass    |
      | standard  | TEST      | tester               | finished without errors          | pass    |
      | standard  | TEST      | tester               | error handling is covered        | pass    |
      | standard  | TEST      | tester               | error recovery works             | pass    |
      | standard  | TEST      | tester               | the build is error-free          | pass    |
      | standard  | TEST      | tester               | the build is error free          | pass    |
      | standard  | TEST      | tester               | I reject the spec                | pass    |
      | full      | QA        | qa                   | 2 checks failed                  | fail    |
      | full      | E2E       | e2e-runner           | login flow failed                | fail    |
      | build-fix | BUILD-FIX | build-error-resolver | still failing                    | fail    |
      | standard  | REVIEW    | code-reviewer        | I REJECT this change             | reject  |
      | standard  | REVIEW    | code-reviewer        | 拒絕合併                         | reject  |
      | standard  | REVIEW    | code-reviewer        | no rejection needed              | pass    |
      | standard  | REVIEW    | code-reviewer        | I did not reject it              | pass    |
      | standard  | REVIEW    | code-reviewer        | 3 tests failed                   | pass    |
      | secure    | SECURITY  | security-reviewer    | reject: secrets in the code      | reject  |
      | db-review | DB-REVIEW | database-reviewer    | reject the migration             | reject  |
      | standard  | RETRO     | retrospective        | found 3 Issues                   | issues  |
      | standard  | RETRO     | retrospective        | 改善建議：拆分模組               | issues  |
      | standard  | RETRO     | retrospective        | 建議優化測試速度                 | issues  |
      | standard  | RETRO     | retrospective        | no issues                        | pass    |
      | standard  | RETRO     | retrospective        | 0 issues                         | pass    |
      | standard  | RETRO     | retrospective        | no significant issues            | pass    |
      | standard  | RETRO     | retrospective        | finished without issues          | pass    |
      | standard  | DEV       | developer            | fail, error, reject and issues   | pass    |
      | standard  | TEST      | tester               | No failures                      | pass    |
      | standard  | REVIEW    | code-reviewer        | Not rejected                     | pass    |
      | standard  | RETRO     | retrospective        | No issues found                  | pass    |
      | standard  | TEST:2    | tester               | 2 tests failed                   | fail    |
      | tdd       | TEST:2    | tester               | an unexpected error              | fail    |

  @WF-043
  Scenario Outline: VERDICT 標記優先於關鍵字，無效的標記則退回關鍵字規則 — <stage>「<message>」
    The marker is found with the original's pattern, whose `\s` is JavaScript's white space: a byte-order
    mark, an ideographic space or a no-break space around VERDICT is white space, an information separator
    (U+001C) or U+0085 is not, and leaves no marker, so the stage's keyword rules decide. A cell's
    {U+FEFF} stands for that character.
    Given 一個 standard workflow 的 <stage> stage 正在進行
    When SubagentStop hook 收到 `<agent>` 的結束事件，最後訊息為「<message>」
    Then hook 記錄 <stage> 的結果為 <verdict>

    Examples:
      | stage  | agent         | message                                              | verdict |
      | TEST   | tester        | 3 tests failed <!-- VERDICT: {"result": "PASS"} -->  | pass    |
      | REVIEW | code-reviewer | <!--VERDICT:{"result":" Reject "}-->                 | reject  |
      | TEST   | tester        | 2 tests failed <!-- VERDICT: {"result": " "} -->     | fail    |
      | TEST   | tester        | <!-- VERDICT: {"result": 1} --> 2 tests failed       | fail    |
      | REVIEW | code-reviewer | <!-- VERDICT: {result: PASS} --> I reject this       | reject  |
      | DEV    | developer     | <!-- VERDICT: {"result": "WEIRD"} -->                | weird   |
      | TEST   | tester        | 2 tests failed <!-- VERDICT: {"result": "PASS", "score": NaN} --> | fail    |
      | REVIEW | code-reviewer | I reject this <!-- VERDICT: {"result": "PASS", "confidence": Infinity} --> | reject  |
      | TEST   | tester        | 2 tests failed <!--{U+FEFF}VERDICT: {"result": "PASS"} -->  | pass    |
      | TEST   | tester        | 2 tests failed <!--{U+3000}VERDICT:{U+00A0}{"result": "PASS"}{U+3000}--> | pass    |
      | TEST   | tester        | 2 tests failed <!--{U+001C}VERDICT: {"result": "PASS"} -->  | fail    |
      | REVIEW | code-reviewer | I reject this <!-- VERDICT:{U+0085}{"result": "PASS"} -->   | reject  |

  @WF-044 @live-settings
  Scenario: 事件沒有 session_id 時 hook 使用環境變數 CLAUDE_SESSION_ID
    Given 一個 standard workflow 的 DEV stage 正在進行
    And 環境變數 CLAUDE_SESSION_ID 是該 session 的 id，前後帶有空白
    When SubagentStop hook 收到沒有 session_id 的 `developer` 結束事件，VERDICT 為 PASS
    Then hook 記錄 DEV 的結果為 pass
    And hook 的 `result` 第一行為「✅ 💻 開發完成」

  @WF-045
  Scenario Outline: workflow.json 損毀時 hook 回傳空 result 且不改寫任何檔案 — <damage>
    Given 一個 standard workflow 的 DEV stage 正在進行
    And 該 session 的 workflow.json <damage>
    When SubagentStop hook 收到 `developer` 的結束事件，VERDICT 為 PASS
    Then stdout 是 `{"result": ""}` 且結束碼為 0
    And stderr 說明原因且不含 traceback
    And workflow.json 的內容沒有改變，timeline 沒有新事件

    Examples:
      | damage                          |
      | 被截斷成不完整的 JSON           |
      | 中每一筆 stage 紀錄都不是物件   |

  @WF-046
  Scenario: hook 刪除 session 目錄中的 active-agent.json
    Given 一個 standard workflow 的 DEV stage 正在進行
    And session 目錄中有記錄 developer 的 active-agent.json
    When SubagentStop hook 收到 `developer` 的結束事件，VERDICT 為 PASS
    Then session 目錄中不再有 active-agent.json
    And hook 記錄 DEV 的結果為 pass

  @WF-047 @live-settings
  Scenario Outline: 閾值來自 thresholdBytes 選項，否則來自 SYNAPSE_COMPACT_THRESHOLD_MB（十進位 MB），無效時為 5MB — <env> <options> <bytes>
    The setting is read as JavaScript's Number() reads the original's variable: hexadecimal is a number,
    full-width digits and an underscore between digits are not; a value past the largest double (here 256
    hexadecimal digits) is no more valid than Infinity. A cell's {f * 256} stands for f written 256 times.
    JSON has one number type: an option written `3e6` or `500.0` is the integer it equals, as JavaScript
    reads it, and the reason writes it as an integer.
    Given 一個 standard workflow 的 DEV stage 剛完成（verdict: pass）
    And 環境變數 SYNAPSE_COMPACT_THRESHOLD_MB 為 <env>
    And transcript 檔案恰好 <bytes> bytes
    When `shouldSuggestCompact` 以選項 <options> 執行
    Then 回傳的結果是 <result>

    Examples:
      | env      | options                     | bytes   | result                                                                                        |
      | (未設定) | {}                          | 5000001 | {"suggest": true, "reason": "transcript 大小 5.0MB 超過閾值 5.0MB", "transcriptSize": 5000001} |
      | (未設定) | {}                          | 5000000 | {"suggest": false}                                                                            |
      | 1.5      | {}                          | 1500001 | {"suggest": true, "reason": "transcript 大小 1.5MB 超過閾值 1.5MB", "transcriptSize": 1500001} |
      | 1.5      | {}                          | 1500000 | {"suggest": false}                                                                            |
      | 0.5      | {}                          | 800000  | {"suggest": true, "reason": "transcript 大小 800KB 超過閾值 500KB", "transcriptSize": 800000}  |
      | 0.0001   | {}                          | 500     | {"suggest": true, "reason": "transcript 大小 500B 超過閾值 100B", "transcriptSize": 500}       |
      | 0        | {}                          | 5000001 | {"suggest": true, "reason": "transcript 大小 5.0MB 超過閾值 5.0MB", "transcriptSize": 5000001} |
      | -2       | {}                          | 5000001 | {"suggest": true, "reason": "transcript 大小 5.0MB 超過閾值 5.0MB", "transcriptSize": 5000001} |
      | abc      | {}                          | 5000001 | {"suggest": true, "reason": "transcript 大小 5.0MB 超過閾值 5.0MB", "transcriptSize": 5000001} |
      | inf      | {}                          | 5000001 | {"suggest": true, "reason": "transcript 大小 5.0MB 超過閾值 5.0MB", "transcriptSize": 5000001} |
      | nan      | {}                          | 5000001 | {"suggest": true, "reason": "transcript 大小 5.0MB 超過閾值 5.0MB", "transcriptSize": 5000001} |
      | 1        | {"thresholdBytes": 3000000} | 2000000 | {"suggest": false}                                                                            |
      | 1        | {"thresholdBytes": 3000000} | 3000001 | {"suggest": true, "reason": "transcript 大小 3.0MB 超過閾值 3.0MB", "transcriptSize": 3000001} |
      | (未設定) | {"thresholdBytes": 0}       | 1       | {"suggest": true, "reason": "transcript 大小 1B 超過閾值 0B", "transcriptSize": 1}             |
      | 1.0000007 | {}                        | 1000001 | {"suggest": true, "reason": "transcript 大小 1.0MB 超過閾值 1.0MB", "transcriptSize": 1000001} |
      | 0.0000007 | {}                        | 1       | {"suggest": true, "reason": "transcript 大小 1B 超過閾值 0.7B", "transcriptSize": 1}           |
      | 0.00000000005 | {}                    | 1       | {"suggest": true, "reason": "transcript 大小 1B 超過閾值 0.00005B", "transcriptSize": 1}       |
      | 0.000000000001 | {}                   | 1       | {"suggest": true, "reason": "transcript 大小 1B 超過閾值 0.000001B", "transcriptSize": 1}      |
      | 0.00000000000015 | {}                 | 1       | {"suggest": true, "reason": "transcript 大小 1B 超過閾值 1.5e-7B", "transcriptSize": 1}        |
      | 0.0000015 | {}                        | 1       | {"suggest": false}                                                                            |
      | ２       | {}                          | 5000001 | {"suggest": true, "reason": "transcript 大小 5.0MB 超過閾值 5.0MB", "transcriptSize": 5000001} |
      | 1_5      | {}                          | 5000001 | {"suggest": true, "reason": "transcript 大小 5.0MB 超過閾值 5.0MB", "transcriptSize": 5000001} |
      | 0x2      | {}                          | 2000001 | {"suggest": true, "reason": "transcript 大小 2.0MB 超過閾值 2.0MB", "transcriptSize": 2000001} |
      | 0x10     | {}                          | 16000001 | {"suggest": true, "reason": "transcript 大小 16.0MB 超過閾值 16.0MB", "transcriptSize": 16000001} |
      | 0o10     | {}                          | 8000001 | {"suggest": true, "reason": "transcript 大小 8.0MB 超過閾值 8.0MB", "transcriptSize": 8000001} |
      | 0b11     | {}                          | 3000001 | {"suggest": true, "reason": "transcript 大小 3.0MB 超過閾值 3.0MB", "transcriptSize": 3000001} |
      | 0x{f * 256} | {}                       | 5000001 | {"suggest": true, "reason": "transcript 大小 5.0MB 超過閾值 5.0MB", "transcriptSize": 5000001} |
      | (未設定) | {"thresholdBytes": 3e6}     | 3000001 | {"suggest": true, "reason": "transcript 大小 3.0MB 超過閾值 3.0MB", "transcriptSize": 3000001} |
      | (未設定) | {"thresholdBytes": 500.0}   | 501     | {"suggest": true, "reason": "transcript 大小 501B 超過閾值 500B", "transcriptSize": 501}       |

  @WF-048
  Scenario Outline: cooldown 只計算最新一筆 session:compact 之後的 stage:complete 事件 — <events> <options>
    JSON has one number type: `2.0` is the integer 2, as JavaScript reads it.
    Given 一個 standard workflow 的 DEV stage 剛完成（verdict: pass）
    And transcript 檔案恰好 6000000 bytes
    And timeline 依序記錄了 <events>
    When `shouldSuggestCompact` 以選項 <options> 執行
    Then `suggest` 為 <suggest>

    Examples:
      | events                                                                                    | options                      | suggest |
      | session:compact, stage:complete, stage:complete, session:compact, stage:complete          | {}                           | false   |
      | session:compact, stage:complete, session:compact, stage:complete, stage:complete          | {}                           | true    |
      | session:compact, stage:complete, stage:complete                                           | {}                           | true    |
      | session:compact, tool:failure, tool:failure, stage:complete                               | {}                           | false   |
      | session:compact, stage:complete(fail), tool:failure, stage:complete(reject)               | {}                           | true    |
      | stage:complete, stage:complete, session:compact                                           | {}                           | false   |
      | session:compact                                                                           | {"minStagesSinceCompact": 0} | true    |
      | session:compact, stage:complete, stage:complete                                           | {"minStagesSinceCompact": 3} | false   |
      | session:compact, stage:complete, stage:complete                                           | {"minStagesSinceCompact": 2.0} | true  |
      | session:compact, stage:complete, stage:complete                                           | {"minStagesSinceCompact": 3e0} | false |

  @WF-049
  Scenario Outline: 無效的 options 是呼叫端錯誤：拋出指名該選項的錯誤 — <options>
    Given 一個 standard workflow 的 DEV stage 剛完成（verdict: pass）
    And transcript 檔案恰好 6000000 bytes
    When `shouldSuggestCompact` 以選項 <options> 執行
    Then 拋出錯誤，訊息提到「<name>」

    Examples:
      | options                          | name                  |
      | {"thresholdByte": 3000000}       | thresholdByte         |
      | {"thresholdBytes": -1}           | thresholdBytes        |
      | {"thresholdBytes": 1.5}          | thresholdBytes        |
      | {"thresholdBytes": null}         | thresholdBytes        |
      | {"minStagesSinceCompact": "2"}   | minStagesSinceCompact |
      | {"minStagesSinceCompact": true}  | minStagesSinceCompact |

  @WF-050
  Scenario Outline: 無法判斷時不建議：<case>
    Given 一個 standard workflow 的 DEV stage 剛完成（verdict: pass）
    And transcript 檔案恰好 6000000 bytes
    And <case>
    When `shouldSuggestCompact` 以選項 {"thresholdBytes": 0} 執行
    Then 回傳的結果是 {"suggest": false}

    Examples:
      | case                                  |
      | transcriptPath 指向一個目錄           |
      | 呼叫時沒有提供 session id             |
      | 呼叫的 session 沒有 workflow state    |
      | workflow.json 不是 workflow state     |
      | timeline 檔案含有無法解碼的位元組     |
      | workflow.json 的欄位含有 NaN          |

  @WF-051
  Scenario Outline: 通過後的下一步指引依 workflow 的並行群組決定 — <workflow> <stage>
    Given 一個 <workflow> workflow 的 <stage> stage 正在進行
    When SubagentStop hook 收到 `<agent>` 的結束事件，VERDICT 為 PASS
    Then hook 的 `result` 中並行群組收斂的宣告為「<converge>」
    And hook 的 `result` 中下一步的指引為「<next>」

    Examples:
      | workflow | stage  | agent         | converge                    | next                                            |
      | standard | PLAN   | planner       | 無                          | ⏭️ 下一步：委派 🏗️ architect（架構）            |
      | standard | ARCH   | architect     | 無                          | ⏭️ 下一步：委派 🧪 tester（測試）               |
      | standard | TEST   | tester        | 無                          | ⏭️ 下一步：委派 💻 developer（開發）            |
      | standard | RETRO  | retrospective | 無                          | ⏭️ 下一步：委派 📝 doc-updater（文件）          |
      | quick    | DEV    | developer     | 無                          | ⏭️ 下一步：並行委派 🔍 審查 + 🧪 測試           |
      | secure   | DEV    | developer     | 無                          | ⏭️ 下一步：並行委派 🔍 審查 + 🧪 測試 + 🛡️ 安全 |
      | full     | TEST:2 | tester        | 🔄 並行群組 quality 全部完成 | ⏭️ 下一步：並行委派 🏁 驗證 + 🌐 E2E            |
      | full     | E2E    | e2e-runner    | 🔄 並行群組 verify 全部完成  | ⏭️ 下一步：委派 🔁 retrospective（回顧）        |
      | tdd      | TEST   | tester        | 無                          | ⏭️ 下一步：委派 💻 developer（開發）            |

  @WF-094
  Scenario Outline: 訊息中有多個 VERDICT 標記時由第一個決定結果 — <stage>「<message>」
    The original reads the marker with a non-global match, which finds the first one; a later marker (a
    quoted example, a template the agent echoes) does not override it.
    Given 一個 standard workflow 的 <stage> stage 正在進行
    When SubagentStop hook 收到 `<agent>` 的結束事件，最後訊息為「<message>」
    Then hook 記錄 <stage> 的結果為 <verdict>

    Examples:
      | stage  | agent         | message                                                                         | verdict |
      | TEST   | tester        | <!-- VERDICT: {"result": "FAIL"} --> 重跑後 <!-- VERDICT: {"result": "PASS"} -->  | fail    |
      | REVIEW | code-reviewer | <!-- VERDICT: {"result": "PASS"} --> 範本：<!-- VERDICT: {"result": "REJECT"} --> | pass    |

  @WF-095
  Scenario: formatSize 的 MB 在恰好一半時進位，如原實作的 toFixed(1)
    The original writes megabytes with toFixed(1), which rounds the exact value of the number and a tie
    upwards: 1.25 MB is `1.3MB`. Rounding a tie to even (Python's `format`, banker's rounding) writes `1.2MB`;
    every size of WF-031 lies off a tie, where both rules agree.
    Then `formatSize` 依下表格式化位元組數：
      | bytes      | text     |
      | 1250000    | 1.3MB    |
      | 3250000    | 3.3MB    |
      | 2750000    | 2.8MB    |
      | 1000050000 | 1000.0MB |

  @WF-096
  Scenario: transcript 的大小以位元組計，不是字元數 — 6MB 的中文 transcript 只有 2M 個字元
    The original takes the file's size (statSync(path).size), in bytes like the threshold; a transcript of
    Chinese text holds a third as many characters as bytes, so measuring its text would suggest `/compact`
    only at three times the threshold.
    Given 一個 standard workflow 的 DEV stage 剛完成（verdict: pass）
    And 環境變數 SYNAPSE_COMPACT_THRESHOLD_MB 為 (未設定)
    And transcript 檔案恰好 6000000 bytes，內容是 2000000 個三位元組的中文字元「中」
    When `shouldSuggestCompact` 以選項 {} 執行
    Then 回傳的結果是 {"suggest": true, "reason": "transcript 大小 6.0MB 超過閾值 5.0MB", "transcriptSize": 6000000}

  @WF-100 @beyond-seed
  Scenario: 測試已失敗過時審查 reject，hook 提示雙重失敗並以 TEST FAIL 路徑為主，reject 仍按自己的次數計上限
    The original's D3 rule: a reject while the fail count is above zero is a double failure of the parallel
    quality group. The reject is counted against its own limit (1 of 3 here), not together with the fails.
    Given 一個 standard workflow 的 REVIEW stage 正在進行
    And TEST:2 已經以 FAIL 結束 2 次，每次都重新開始
    When SubagentStop hook 收到 `code-reviewer` 的結束事件，VERDICT 為 REJECT
    Then hook 的 `result` 逐行為：
      """
      🔙 審查拒絕（1/3）
      ⚠️ 並行群組雙重失敗（TEST FAIL + REVIEW REJECT）
      ⏭️ 協調策略（TEST FAIL > REVIEW REJECT）：等待 TEST 結果，以 TEST FAIL 路徑為主（DEBUGGER → DEVELOPER → 再次並行 [REVIEW + TEST]），REVIEW reject 原因一併帶入

      💡 可選：委派 grader agent 評估此階段輸出品質（subagent_type: ot:grader，傳入 STAGE=REVIEW AGENT=code-reviewer SESSION_ID=<sid>）
      """
    And timeline 依序新增了下列事件：
      | type           | data                                                              |
      | agent:complete | {"agent": "code-reviewer", "stage": "REVIEW", "result": "reject"} |
      | stage:complete | {"stage": "REVIEW", "result": "reject"}                           |
    And workflow state 的 rejectCount 為 1
    And workflow state 的 failCount 為 2

  @WF-101 @beyond-seed
  Scenario: 審查已 reject 過時測試 fail，hook 提示雙重失敗並把 reject 原因帶入修復
    Given 一個 standard workflow 的 REVIEW stage 正在進行
    And REVIEW 已經以 REJECT 結束 1 次，每次都重新開始
    When SubagentStop hook 收到 `tester` 的結束事件，VERDICT 為 FAIL
    Then hook 的 `result` 逐行為：
      """
      ❌ 🧪 測試失敗（1/3）
      ⚠️ 並行群組雙重失敗（TEST FAIL + REVIEW REJECT）
      ⏭️ 協調策略（TEST FAIL > REVIEW REJECT）：委派 DEBUGGER 分析根因 → DEVELOPER 修復（同時帶入 REVIEW reject 原因）→ 再次並行 [REVIEW + TEST]
      """
    And timeline 依序新增了下列事件：
      | type           | data                                                     |
      | agent:error    | {"agent": "tester", "stage": "TEST:2", "reason": "fail"} |
      | agent:complete | {"agent": "tester", "stage": "TEST:2", "result": "fail"} |
      | stage:complete | {"stage": "TEST:2", "result": "fail"}                    |
      | stage:retry    | {"stage": "TEST:2", "failCount": 1}                      |
    And workflow state 的 failCount 為 1
    And workflow state 的 rejectCount 為 1

  @WF-121 @beyond-seed
  Scenario: 測試只失敗過 1 次時審查 reject，同樣提示雙重失敗並以 TEST FAIL 路徑為主
    A fail count above zero is the D3 rule's condition: one earlier fail is enough.
    Given 一個 standard workflow 的 REVIEW stage 正在進行
    And TEST:2 已經以 FAIL 結束 1 次，每次都重新開始
    When SubagentStop hook 收到 `code-reviewer` 的結束事件，VERDICT 為 REJECT
    Then hook 的 `result` 逐行為：
      """
      🔙 審查拒絕（1/3）
      ⚠️ 並行群組雙重失敗（TEST FAIL + REVIEW REJECT）
      ⏭️ 協調策略（TEST FAIL > REVIEW REJECT）：等待 TEST 結果，以 TEST FAIL 路徑為主（DEBUGGER → DEVELOPER → 再次並行 [REVIEW + TEST]），REVIEW reject 原因一併帶入

      💡 可選：委派 grader agent 評估此階段輸出品質（subagent_type: ot:grader，傳入 STAGE=REVIEW AGENT=code-reviewer SESSION_ID=<sid>）
      """
    And workflow state 的 rejectCount 為 1
    And workflow state 的 failCount 為 1

  @WF-122
  Scenario: transcript 經由符號連結到達時以它指向的檔案大小判斷
    The original measures the transcript with statSync(path).size, which follows a link: a transcript
    whose directory was moved and linked back is as large as the file the link leads to.
    Given 一個 standard workflow 的 DEV stage 剛完成（verdict: pass）
    And transcript 是指向另一個目錄中 6.5MB 檔案的符號連結
    When `shouldSuggestCompact` 以選項 {} 執行
    Then 回傳的結果是 {"suggest": true, "reason": "transcript 大小 6.5MB 超過閾值 5.0MB", "transcriptSize": 6500000}

  @WF-130
  Scenario Outline: 安全審查與資料庫審查 reject 時 hook 同樣說「審查拒絕」 — <stage> 第 <n> 次
    The original's reject messages say 審查拒絕 (review rejected) whichever reviewing stage rejected, where
    its fail message names the failing stage's label: a SECURITY or DB-REVIEW reject reads as the REVIEW
    one does (WF-039).
    Given 一個 <workflow> workflow 的 <stage> stage 正在進行
    And <stage> 已經以 REJECT 結束 <before> 次，每次都重新開始
    When SubagentStop hook 收到 `<agent>` 的結束事件，VERDICT 為 REJECT
    Then hook 的 `result` 逐行為：
      """
      🔙 審查拒絕（<n>/3）
      ⏭️ 下一步：委派 DEVELOPER 修復（帶 reject 原因）→ REVIEWER 再審

      💡 可選：委派 grader agent 評估此階段輸出品質（subagent_type: ot:grader，傳入 STAGE=<stage> AGENT=<agent> SESSION_ID=<sid>）
      """
    And workflow state 的 rejectCount 為 <n>

    Examples:
      | workflow      | stage     | agent             | before | n |
      | secure        | SECURITY  | security-reviewer | 0      | 1 |
      | db-review     | DB-REVIEW | database-reviewer | 1      | 2 |

  @WF-131
  Scenario: 安全審查第 3 次 reject 達到上限時 hook 說「審查拒絕已達上限」
    As WF-040 for REVIEW: the original's limit message names the review, whichever reviewing stage
    rejected.
    Given 一個 security-only workflow 的 SECURITY stage 正在進行
    And SECURITY 已經以 REJECT 結束 2 次，每次都重新開始
    When SubagentStop hook 收到 `security-reviewer` 的結束事件，VERDICT 為 REJECT
    Then hook 的 `result` 逐行為：
      """
      ⛔ 審查拒絕已達上限（3 次）。請人工介入。

      💡 可選：委派 grader agent 評估此階段輸出品質（subagent_type: ot:grader，傳入 STAGE=SECURITY AGENT=security-reviewer SESSION_ID=<sid>）
      """
    And workflow state 的 rejectCount 為 3

  @WF-133
  Scenario: 最後的並行 stage 中一個通過、另一個仍在進行時，進行中的 stage 也算尚未完成，照樣建議 compact
    A stage still to come is any stage not completed, an active one included: `refactor` ends with REVIEW
    and TEST:2 in parallel, and when TEST:2 passes while REVIEW still runs, the workflow is not over and
    a large transcript is worth compacting before the review's outcome is handled.
    Given 一個 refactor workflow 的 TEST:2 stage 正在進行
    And code-reviewer 仍在進行 REVIEW（記錄於 `activeAgents`）
    And transcript 檔案大小為 6.5MB（> 5MB 閾值）
    When SubagentStop hook 收到 `tester` 的結束事件，VERDICT 為 PASS
    Then hook 的 `result` 逐行為：
      """
      ✅ 🧪 測試完成
      📊 請更新 TaskList：TaskUpdate status completed（測試）
      ⏭️ 下一步：等待並行 agent 完成：code-reviewer

      💾 transcript 已達 6.5MB，建議在繼續下一個 stage 前執行 /compact 壓縮 context。

      💡 可選：委派 grader agent 評估此階段輸出品質（subagent_type: ot:grader，傳入 STAGE=TEST:2 AGENT=tester SESSION_ID=<sid>）
      """
    And `activeAgents` 只剩 code-reviewer

  @WF-137 @beyond-seed
  Scenario: workflow.json 中不是 UTF-8 的位元組讀作 U+FFFD，hook 照常完成 stage
    The original reads the state with readFileSync(path, 'utf8'), which turns a byte that is no UTF-8
    into U+FFFD, and then JSON.parse: a feature name a script wrote in Latin-1 spoils that name only. The
    hook completes the stage and writes the state back, the name now holding U+FFFD for the byte.
    Given 一個 standard workflow 的 DEV stage 正在進行
    And 該 session 的 workflow.json 中 featureName 是以 Latin-1 寫下的 `café`
    When SubagentStop hook 收到 `developer` 的結束事件，VERDICT 為 PASS
    Then hook 記錄 DEV 的結果為 pass
    And hook 的 `result` 第一行為「✅ 💻 開發完成」
    And workflow.json 中 featureName 讀作 `caf{U+FFFD}`

  @WF-138
  Scenario: 事件完全沒有 transcript_path 欄位時 PASS 分支照常回覆，不建議 compact
    A SubagentStop event may come without the `transcript_path` key at all (not an empty string: no key).
    The passing stage is still recorded and answered as usual, with the next stage's hint; with no
    transcript to measure there is nothing to suggest, so neither the answer nor the timeline holds a
    compact suggestion, and the missing key is no error.
    Given 一個 standard workflow 的 DEV stage 正在進行
    When SubagentStop hook 收到沒有 transcript_path 的 `developer` 結束事件，VERDICT 為 PASS
    Then hook 的 `result` 逐行為：
      """
      ✅ 💻 開發完成
      📊 請更新 TaskList：TaskUpdate status completed（開發）
      ⏭️ 下一步：並行委派 🔍 審查 + 🧪 測試

      💡 可選：委派 grader agent 評估此階段輸出品質（subagent_type: ot:grader，傳入 STAGE=DEV AGENT=developer SESSION_ID=<sid>）
      """
    And timeline 依序新增了下列事件：
      | type           | data                                                     |
      | agent:complete | {"agent": "developer", "stage": "DEV", "result": "pass"} |
      | stage:complete | {"stage": "DEV", "result": "pass"}                       |
    And DEV stage 在 workflow state 中為 completed（pass）
