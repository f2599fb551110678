@workflow @seed-002 @beyond-seed
Feature: Strategic Compact — 原實作缺陷的修正
  The original plugin has defects around the compact suggestion; these scenarios pin the corrected
  behaviour so that every implementation is held to it.

  @WF-026
  Scenario: 殘留的 activeAgents 紀錄不算 pending stage — 最後 stage 完成後不建議
    Given 一個 single workflow，stages 為 [DEV]
    And DEV 剛完成（verdict: pass）
    And transcript 檔案大小為 6MB（> 5MB 閾值）
    And workflow state 的 `activeAgents` 仍殘留 `planner` 的紀錄
    When `shouldSuggestCompact` 以該 state 執行
    Then 回傳 `{ suggest: false }`
    And `suggest` 為 false（最後 stage，workflow 結束，不需要 compact）

  @WF-027
  Scenario: timeline 修剪時保留最後一筆 session:compact — cooldown 不因修剪而失效
    Given timeline 最多保留 5 行（`SYNAPSE_TIMELINE_MAX_LINES=5`）
    And 一個 standard workflow 的 DEV stage 剛完成（verdict: pass）
    And transcript 檔案大小為 7MB（> 5MB 閾值）
    And timeline 中有一筆 `session:compact` 事件
    And 在該事件之後只有 1 個 `stage:complete` 事件（DEV）
    And 之後又記錄了 8 筆 `tool:failure` 事件
    When `shouldSuggestCompact` 執行
    Then timeline 檔案不超過 5 行
    And timeline 仍保留最後一筆 `session:compact` 事件
    And 回傳 `{ suggest: false }`

  @WF-028
  Scenario: 事件資料不能覆寫 timeline 事件的基本欄位
    Given `registry.js` 的 `timelineEvents` 物件
    When 以帶有 `type: 'identify-agent-conflict'` 的資料 emit `system:warning`
    Then timeline 中不出現 type 為 `identify-agent-conflict` 的事件
    And timeline 中每一筆事件的 `type`、`category`、`label` 都與 registry 一致

  @WF-029
  Scenario: timeline 無法寫入時 hook 不遺失任何訊息
    Given 觸發 compact 建議（transcript 為 6.5MB）
    And timeline 檔案的路徑是一個目錄，讀取時拋出例外
    When on-stop.js 將建議附加到 `messages` 並輸出 `result`
    Then `result` 字串中已包含原有的 pass 完成訊息（`'完成'`）
    And `result` 除了 compact 建議外與 timeline 正常時的 `result` 相同
    And 日誌記錄 warning：timeline 事件未寫入
    And stderr 指出未寫入的 timeline 事件 agent:complete、stage:complete
    And DEV stage 在 workflow state 中為 completed（pass）

  @WF-030
  Scenario Outline: hook 指令遇到無法處理的輸入時回傳空 result — <情形>
    Given 一個 standard workflow 的 DEV stage 正在進行
    When hook 指令從 stdin 讀到<輸入>
    Then stdout 是 `{"result": ""}` 且結束碼為 0
    And stderr 說明原因且不含 traceback
    And workflow state 與 timeline 都沒有改變

    Examples:
      | 情形          | 輸入                 |
      | 空白輸入        | 空白                 |
      | 不完整的 JSON   | 不完整的 JSON           |
      | JSON 不是物件   | JSON 陣列             |
      | 未知的 session | 未知 session 的 SubagentStop 事件 |
      | 不屬於任何 stage 的 agent | `ot:grader` 的 SubagentStop 事件 |
      | 沒有 session          | 沒有 session_id 的 SubagentStop 事件 |
      | 沒有 agent            | 沒有 agent_type 的 SubagentStop 事件 |
      | 不合法的 session id    | session_id 含路徑字元的 SubagentStop 事件 |
      | agent 的 stage 都已完成 | `planner` 的 SubagentStop 事件 |
      | 其他外掛的同名 agent     | `other:developer` 的 SubagentStop 事件 |
      | 不是 JSON 的 NaN      | 欄位帶有 NaN 的 SubagentStop 事件 |
      | 沒有 session，CLAUDE_SESSION_ID 為空字串 | 沒有 session_id 的 SubagentStop 事件，而 CLAUDE_SESSION_ID 為空字串 |

  @WF-099
  Scenario: timeline 修剪掉多筆 session:compact 時保留的是最新的那一筆
    The cooldown counts from the latest compaction, so of the compactions one trim drops (the bound was
    lowered after they were written), the newest one is kept in the place of the oldest line kept, not
    the first one met.
    Given 一個 standard workflow 的 DEV stage 正在進行
    And timeline 先後記錄了 trigger 為 early 與 late 的兩筆 `session:compact` 事件，之後又記錄了 4 筆 `tool:failure` 事件
    And timeline 最多保留 3 行（`SYNAPSE_TIMELINE_MAX_LINES=3`）
    And 之後又記錄了 1 筆 `tool:failure` 事件
    Then timeline 檔案不超過 3 行
    And timeline 中唯一的 `session:compact` 事件是 trigger 為 late 的那一筆

  @WF-102
  Scenario: compact 冷卻只計算 `stage:complete` 事件，`stage:retry` 與 `stage:start` 不算完成的 stage
    The original counts `timeline.query(sessionId, { type: 'stage:complete' })` after the latest compaction:
    a stage that was started again or retried is not a stage completed since.
    Given 一個 standard workflow 的 DEV stage 剛完成（verdict: pass）
    And transcript 檔案大小為 7MB（> 5MB 閾值）
    And timeline 中有一筆 `session:compact` 事件
    And 在該事件之後只有 1 個 `stage:complete` 事件（DEV）
    And 之後又記錄了 1 筆 `stage:retry` 事件
    And 之後又記錄了 1 筆 `stage:start` 事件
    When `shouldSuggestCompact` 執行
    Then 回傳 `{ suggest: false }`

  @WF-103
  Scenario: 較後的重複 stage 先完成時 `currentStage` 指向整個 workflow 中第一個 pending 的 stage
    The original moves `currentStage` to the first pending key of the whole workflow, not to the first one
    after the stage that just finished: a stage still waiting earlier in the list stays current.
    Given 一個 standard workflow 的 TEST:2 stage 正在進行
    And TEST stage 卻仍為 pending（尚未開始）
    When SubagentStop hook 收到 `tester` 的結束事件，VERDICT 為 PASS
    Then hook 記錄 TEST:2 的結果為 pass
    And workflow state 的 `currentStage` 為 TEST

  @WF-129
  Scenario: hook 剛完成的 stage 也計入 compact 冷卻：compact 後第 2 個完成的 stage 就再次建議
    The original records the stage's `stage:complete` before it asks shouldSuggestCompact, so the stage
    that just passed is one of the `minStagesSinceCompact` (2) stages completed since the last compaction.
    Given 一個 standard workflow 的 DEV stage 正在進行
    And timeline 中有一筆 `session:compact` 事件（在 TEST 之前發生）
    And 在該事件之後只有 1 個 `stage:complete` 事件（TEST）
    And transcript 檔案大小為 6.5MB（> 5MB 閾值）
    When SubagentStop hook 收到 `developer` 的結束事件，VERDICT 為 PASS
    Then `result` 字串中包含 `'6.5MB'`（格式化後的大小）
    And timeline 中出現一筆 `session:compact-suggestion` 事件
