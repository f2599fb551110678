@workflow @seed-002
Feature: S14 Strategic Compact — 階段完成時的 Compact 建議
  `shouldSuggestCompact` 函式在 SubagentStop hook（agent/on-stop.js）的 PASS 分支中執行，
  判斷是否應在 `result` 訊息中附加 compact 建議。

  觸發條件（四者同時成立）：
  1. transcript 檔案大小 > thresholdBytes（預設 5_000_000 即 5MB）
  2. 不是最後一個 stage（還有 pending stage）
  3. 自上次 `session:compact` 事件後已完成 >= minStagesSinceCompact（預設 2）個 `stage:complete`
  4. 若從未 compact 過，允許首次觸發

  Transcripts are real files of exactly the stated number of bytes (1MB = 1_000_000 bytes). The workflow
  state and the timeline live below a fresh root per scenario; "剛完成" means the stage and every stage
  before it are `completed` in the stored state. The hook scenarios feed a SubagentStop event through
  the hook command and read its `{"result": ...}` answer.

  @WF-001
  Scenario: 超過閾值且非最後 stage — 建議 compact（正常觸發）
    Given 一個 standard workflow，stages 為 [PLAN, ARCH, TEST, DEV, REVIEW, TEST, RETRO, DOCS]
    And 目前完成了 DEV stage（verdict: pass），還有 REVIEW/TEST/RETRO/DOCS 尚未完成
    And transcript 檔案大小為 6.5MB（> 5MB 閾值）
    And timeline 中無任何 `session:compact` 事件（從未 compact 過）
    When `shouldSuggestCompact` 以預設選項執行
    Then 回傳 `{ suggest: true, reason: ..., transcriptSize: 6500000 }`
    And `suggest` 為 true
    And `transcriptSize` 等於 6500000

  @WF-002
  Scenario: transcript 大小未達閾值 — 不建議
    Given 一個 standard workflow 的 PLAN stage 剛完成（verdict: pass）
    And transcript 檔案大小為 2MB（< 5MB 閾值）
    And 還有多個 pending stage
    When `shouldSuggestCompact` 以預設選項執行
    Then 回傳 `{ suggest: false }`
    And `suggest` 為 false

  @WF-003
  Scenario: 最後一個 stage 完成 — 不建議
    Given 一個 standard workflow，所有 stage 僅剩 DOCS 尚未完成
    And DOCS stage 剛完成（verdict: pass），無任何 pending stage
    And transcript 檔案大小為 8MB（> 5MB 閾值）
    When `shouldSuggestCompact` 執行
    Then 回傳 `{ suggest: false }`
    And `suggest` 為 false（最後 stage 不需要壓縮空間，workflow 即將結束）

  @WF-004
  Scenario: 剛 compact 過（距上次 compact 僅 1 個 stage）— 跳過建議
    Given 一個 standard workflow 的 DEV stage 剛完成（verdict: pass）
    And transcript 檔案大小為 7MB（> 5MB 閾值）
    And timeline 中有一筆 `session:compact` 事件
    And 在該事件之後只有 1 個 `stage:complete` 事件（DEV）
    And minStagesSinceCompact 預設為 2
    When `shouldSuggestCompact` 執行
    Then 回傳 `{ suggest: false }`
    And `suggest` 為 false（距上次 compact 不足 2 個 stage，避免重複建議）

  @WF-005
  Scenario: 距上次 compact 已完成足夠多 stage — 再次建議
    Given 一個 standard workflow 的 TEST:2 stage 剛完成（verdict: pass）
    And transcript 檔案大小為 6MB（> 5MB 閾值）
    And timeline 中有一筆 `session:compact` 事件（在 DEV 之前發生）
    And 在該事件之後已有 3 個 `stage:complete` 事件（DEV、REVIEW、TEST:2）
    And minStagesSinceCompact 預設為 2（3 >= 2）
    And 還有 RETRO、DOCS 尚未完成
    When `shouldSuggestCompact` 執行
    Then 回傳 `{ suggest: true, ... }`
    And `suggest` 為 true

  @WF-006
  Scenario: 從未 compact 過 — 允許首次觸發
    Given 一個 quick workflow 的 DEV stage 剛完成（verdict: pass）
    And transcript 檔案大小為 5.5MB（> 5MB 閾值）
    And timeline 中無任何 `session:compact` 事件
    And 還有 REVIEW、TEST、RETRO、DOCS 尚未完成
    When `shouldSuggestCompact` 執行
    Then 回傳 `{ suggest: true, ... }`
    And `suggest` 為 true（從未 compact 過，無需 cooldown 檢查）

  @WF-007
  Scenario: 自訂閾值 — 3MB 閾值，transcript 4MB 觸發
    Given 一個 standard workflow 的 ARCH stage 剛完成（verdict: pass）
    And transcript 檔案大小為 4MB
    And 還有多個 pending stage
    And timeline 中無任何 `session:compact` 事件
    When `shouldSuggestCompact` 以 `options: { thresholdBytes: 3_000_000 }` 執行
    Then 回傳 `{ suggest: true, transcriptSize: 4000000, ... }`
    And `suggest` 為 true（4MB > 自訂閾值 3MB）

  @WF-008
  Scenario: 自訂 minStagesSinceCompact — 降低 cooldown 門檻
    Given 一個 standard workflow 的 DEV stage 剛完成（verdict: pass）
    And transcript 檔案大小為 6MB（> 5MB 閾值）
    And timeline 中有一筆 `session:compact` 事件
    And 在該事件之後有 1 個 `stage:complete` 事件（DEV）
    And 還有 pending stage
    When `shouldSuggestCompact` 以 `options: { minStagesSinceCompact: 1 }` 執行
    Then 回傳 `{ suggest: true, ... }`
    And `suggest` 為 true（1 >= 自訂 minStagesSinceCompact 1）

  @WF-009
  Scenario: transcript_path 不存在 — 靜默降級
    Given `shouldSuggestCompact` 收到一個不存在的 `transcriptPath`
    When 函式執行
    Then 回傳 `{ suggest: false }`
    And 不拋出任何例外（靜默降級）

  @WF-010
  Scenario: transcriptPath 為空字串或 undefined — 靜默降級 — 空字串
    Given `shouldSuggestCompact` 收到 `transcriptPath` 為空字串 `''`
    When 函式執行
    Then 回傳 `{ suggest: false }`
    And 不拋出任何例外

  @WF-011
  Scenario: transcriptPath 為空字串或 undefined — 靜默降級 — undefined
    Given `shouldSuggestCompact` 收到 `transcriptPath` 為 `undefined`
    When 函式執行
    Then 回傳 `{ suggest: false }`
    And 不拋出任何例外

  @WF-012
  Scenario: transcriptPath 為空字串或 undefined — 靜默降級 — null
    Given `shouldSuggestCompact` 收到 `transcriptPath` 為 `null`
    When 函式執行
    Then 回傳 `{ suggest: false }`
    And 不拋出任何例外

  @WF-013
  Scenario: statSync 失敗（如無讀取權限）— 靜默降級
    Given `transcriptPath` 指向一個存在但 statSync 操作會拋出例外的路徑
    When `shouldSuggestCompact` 執行
    Then 回傳 `{ suggest: false }`
    And 不拋出任何例外

  @WF-014
  Scenario: timeline 查詢失敗 — 靜默降級 — timeline 檔案內容損毀
    Given timeline 檔案損毀或查詢拋出例外
    And timeline 檔案的內容是無法解析的行：
      """
      {"ts": "2026-03-01T07:00:00.000Z", "type": "session:comp
      %%% not json at all
      [1, 2, 3]
      """
    And transcript 檔案大小為 6MB（> 5MB 閾值）
    When `shouldSuggestCompact` 執行
    Then 回傳 `{ suggest: false }`
    And 不拋出任何例外
    And on-stop.js 主流程不受影響

  @WF-015
  Scenario: timeline 查詢失敗 — 靜默降級 — timeline 路徑是目錄
    Given timeline 檔案損毀或查詢拋出例外
    And timeline 檔案的路徑是一個目錄，讀取時拋出例外
    And transcript 檔案大小為 6MB（> 5MB 閾值）
    When `shouldSuggestCompact` 執行
    Then 回傳 `{ suggest: false }`
    And 不拋出任何例外
    And on-stop.js 主流程不受影響

  @WF-016
  Scenario: 觸發時 emit session:compact-suggestion 事件
    Given 符合觸發條件（transcript 超閾值、非最後 stage、未剛 compact）
    When `shouldSuggestCompact` 回傳 `suggest: true`
    And on-stop.js 的 pass 分支將 compact 建議加入 `messages`
    Then timeline 中出現一筆 `session:compact-suggestion` 事件
    And 事件的 `category` 為 `'session'`
    And 事件的 `label` 為 `'Compact 建議'`
    And 事件的 `transcriptSize` 等於實際 transcript 大小（bytes）
    And 事件的 `stage` 等於觸發時的 stage key（如 `'DEV'`）
    And 事件的 `agent` 等於觸發時的 agent 名稱（如 `'developer'`）

  @WF-017
  Scenario: result 訊息包含建議文字和格式化大小
    Given 觸發 compact 建議（transcript 為 6.5MB）
    When on-stop.js 將建議附加到 `messages` 並輸出 `result`
    Then `result` 字串中包含 `'6.5MB'`（格式化後的大小）
    And `result` 字串中包含壓縮建議的關鍵詞（如 `'compact'` 或 `'壓縮'` 或 `'/compact'`）
    And `result` 字串中已包含原有的 pass 完成訊息（`'完成'`）
    And compact 建議出現在 pass 完成訊息之後

  @WF-018
  Scenario: fail/reject/issues verdict — 不建議 compact — fail
    Given 一個 standard workflow 的 TEST stage 剛完成（verdict: fail）
    And transcript 檔案大小為 8MB（> 5MB 閾值）
    And 還有多個 pending stage
    When on-stop.js 的 fail 分支執行
    Then `result` 訊息不包含 compact 建議
    And timeline 中無 `session:compact-suggestion` 事件

  @WF-019
  Scenario: fail/reject/issues verdict — 不建議 compact — reject
    Given 一個 standard workflow 的 REVIEW stage 剛完成（verdict: reject）
    And transcript 檔案大小為 7MB（> 5MB 閾值）
    When on-stop.js 的 reject 分支執行
    Then `result` 訊息不包含 compact 建議

  @WF-020
  Scenario: fail/reject/issues verdict — 不建議 compact — issues
    Given 一個 standard workflow 的 RETRO stage 剛完成（verdict: issues）
    And transcript 檔案大小為 7MB（> 5MB 閾值）
    And 還有 DOCS 尚未完成
    When on-stop.js 的 issues 分支執行
    Then `result` 訊息不包含 compact 建議
    And timeline 中無 `session:compact-suggestion` 事件

  @WF-021
  Scenario: single workflow — DEV 完成（唯一 stage，不建議）
    Given 一個 single workflow，stages 為 [DEV]
    And DEV 剛完成（verdict: pass）
    And transcript 檔案大小為 6MB（> 5MB 閾值）
    And DEV 是唯一 stage，完成後無任何 pending stage
    When `shouldSuggestCompact` 執行
    Then 回傳 `{ suggest: false }`
    And `suggest` 為 false（最後 stage，workflow 結束，不需要 compact）

  @WF-022
  Scenario: formatSize — 大小格式化正確 — 6.5MB
    Given compact 建議觸發，transcriptSize 為 6_500_000 bytes
    Then result 訊息中顯示 `'6.5MB'`
    And `formatSize(transcriptSize)` 回傳同一個字串 `'6.5MB'`

  @WF-023 @live-settings
  Scenario: formatSize — 大小格式化正確 — 800KB
    Given compact 建議觸發，transcriptSize 為 800_000 bytes（假設閾值調低至 500KB）
    Then result 訊息中顯示 `'800KB'`
    And `formatSize(transcriptSize)` 回傳同一個字串 `'800KB'`

  @WF-024 @live-settings
  Scenario: formatSize — 大小格式化正確 — 500B
    Given compact 建議觸發，transcriptSize 為 500 bytes（假設閾值調低至 100 bytes）
    Then result 訊息中顯示 `'500B'`
    And `formatSize(transcriptSize)` 回傳同一個字串 `'500B'`

  @WF-025
  Scenario: registry 包含 session:compact-suggestion 事件定義
    Given `registry.js` 的 `timelineEvents` 物件
    When 讀取 `timelineEvents['session:compact-suggestion']`
    Then 取得 `{ label: 'Compact 建議', category: 'session' }`
    And `emit(sessionId, 'session:compact-suggestion', ...)` 不拋出 `'未知的 timeline 事件類型'` 錯誤
    And `emit(sessionId, 'session:compact-suggest', ...)` 拋出 `'未知的 timeline 事件類型：session:compact-suggest'` 錯誤
