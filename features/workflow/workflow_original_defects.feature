@workflow @seed-002 @beyond-seed
Feature: Strategic Compact — 依檔案順序計算的 timeline
  The timeline is an append-only log: "after the compact" means later in the file, and "the last N
  events" means the last N lines that are events. Two defects of the original plugin get both wrong: the
  compact cooldown compares timestamps (an event counts when its `ts` is not earlier), so a stage completed
  in the same millisecond but before the compact counts as after it; and a `limit`-only query keeps the
  last N lines before it skips the lines that are not events, so a torn or foreign last line hides real
  events.

  @WF-079
  Scenario: 只以 limit 查詢時回傳最後 N 筆事件，結尾不是事件的行不佔名額
    Given session `wfr-tl-8` 的 timeline.jsonl 內容為下列各行（`\xff\xfe` 為無法解碼的位元組）：
      """
      {"ts": "2026-03-01T07:00:00.001Z", "type": "stage:start", "category": "stage", "label": "階段開始", "n": 1}
      {"ts": "2026-03-01T07:00:00.002Z", "type": "stage:complete", "category": "stage", "label": "階段完成", "n": 2}
      {"ts": "2026-03-01T07:00:00.003Z", "type": "tool:failure", "category": "tool", "label": "工具失敗", "n": 3}
      not json at all
      {"ts": "2026-03-01T07:00:00.004Z", "type": "sta
      """
    Then 在 session `wfr-tl-8` 查詢的結果依序如下：
      | event_type | category | limit | n     |
      | -          | -        | 2     | 2,3   |
      | -          | -        | 3     | 1,2,3 |
      | -          | stage    | 1     | 2     |

  @WF-080
  Scenario: compact 之後的 stage 依檔案順序計算，同一毫秒內先寫入的不算
    Given 時鐘停住，之後寫入的事件都帶有同一個時間
    And 一個 standard workflow 的 DEV stage 剛完成（verdict: pass）
    And transcript 檔案大小為 7MB（> 5MB 閾值）
    And timeline 中有一筆 `session:compact` 事件
    And 在該事件之後只有 1 個 `stage:complete` 事件（DEV）
    When `shouldSuggestCompact` 執行
    Then timeline 中的事件都帶有同一個時間
    And 回傳 `{ suggest: false }`
    And `suggest` 為 false（距上次 compact 不足 2 個 stage，避免重複建議）
