@workflow @beyond-seed
Feature: Workflow 的登記表、狀態檔與 timeline 檔
  What a user of the SubagentStop hook finds on disk and in the hook's answers: the registered timeline
  events with their labels, the stages with their names, emojis and agents, the `workflow.json` a session's
  workflow is kept in, and the append-only `timeline.jsonl`.  Labels, emojis, agents, file layout and
  formats follow the original plugin (the reference notes on seed 002); the label of
  `session:compact-suggestion` is the seed's.

  @WF-060
  Scenario: timeline 事件登記表 — 每種事件的 label 與 category
    Given timeline 事件登記表恰好包含下列事件：
      | type                       | label        | category |
      | workflow:start             | 工作流啟動        | workflow |
      | workflow:complete          | 工作流完成        | workflow |
      | workflow:abort             | 工作流中斷        | workflow |
      | stage:start                | 階段開始         | stage    |
      | stage:complete             | 階段完成         | stage    |
      | stage:retry                | 階段重試         | stage    |
      | agent:delegate             | 委派代理         | agent    |
      | agent:complete             | 代理完成         | agent    |
      | agent:error                | 代理錯誤         | agent    |
      | loop:start                 | 循環啟動         | loop     |
      | loop:advance               | 下一個任務        | loop     |
      | loop:complete              | 循環完成         | loop     |
      | parallel:start             | 並行啟動         | parallel |
      | parallel:converge          | 並行收斂         | parallel |
      | grader:score               | Grader 評分    | grader   |
      | specs:init                 | Specs 初始化    | specs    |
      | specs:archive              | Specs 歸檔     | specs    |
      | error:fatal                | 嚴重錯誤         | error    |
      | session:start              | 工作階段開始       | session  |
      | session:end                | 工作階段結束       | session  |
      | session:compact            | Context 壓縮   | session  |
      | session:compact-suggestion | Compact 建議   | session  |
      | tool:failure               | 工具失敗         | tool     |
      | system:warning             | 系統警告         | system   |
    When 依表中順序將每一種事件 emit 到一個 standard workflow 的 session
    Then timeline.jsonl 每行恰好一筆事件，依序帶著表中的 type、label 與 category，label 以原文保存

  @WF-061
  Scenario: 每個 stage 的名稱、emoji 與 agent — hook 的回覆依登記表顯示
    Given 一個 single workflow 明確依序包含下列 stage：
      | stage     | label | emoji | agent                |
      | PM        | 產品    | 🎯     | product-manager      |
      | PLAN      | 規劃    | 📋     | planner              |
      | ARCH      | 架構    | 🏗️    | architect            |
      | DESIGN    | 設計    | 🎨     | designer             |
      | DEV       | 開發    | 💻     | developer            |
      | DEBUG     | 除錯    | 🔧     | debugger             |
      | REVIEW    | 審查    | 🔍     | code-reviewer        |
      | TEST      | 測試    | 🧪     | tester               |
      | SECURITY  | 安全    | 🛡️    | security-reviewer    |
      | DB-REVIEW | DB審查  | 🗄️    | database-reviewer    |
      | QA        | 驗證    | 🏁     | qa                   |
      | E2E       | E2E   | 🌐     | e2e-runner           |
      | BUILD-FIX | 修構建   | 🔨     | build-error-resolver |
      | REFACTOR  | 清理    | 🧹     | refactor-cleaner     |
      | RETRO     | 回顧    | 🔁     | retrospective        |
      | DOCS      | 文件    | 📝     | doc-updater          |
    When 每個 stage 的 agent 依序以 PASS 結束自己的 stage
    Then 每次 hook 的 result 以「✅ 表情 名稱完成」開頭，並以「委派 表情 agent（名稱）」指向下一個 stage
    And 最後一個 stage 的 result 宣告所有階段已完成並建議委派 planner
    And workflow.json 中每個 stage 都是 completed（pass）

  @WF-062
  Scenario: 新 workflow 的 workflow.json — 位置、欄位與格式
    Given 時鐘停在 `2026-03-01T15:04:05.678901+08:00`
    When 為 session `wfr-new-1` 啟動一個 standard workflow
    Then `sessions/wfr-new-1/workflow.json` 是 2 格縮排並以換行結尾的 JSON，內容為：
      """
      {
        "sessionId": "wfr-new-1",
        "workflowType": "standard",
        "createdAt": "2026-03-01T07:04:05.678Z",
        "currentStage": "PLAN",
        "stages": {
          "PLAN": {"status": "pending", "result": null},
          "ARCH": {"status": "pending", "result": null},
          "TEST": {"status": "pending", "result": null, "mode": "spec"},
          "DEV": {"status": "pending", "result": null},
          "REVIEW": {"status": "pending", "result": null},
          "TEST:2": {"status": "pending", "result": null, "mode": "verify"},
          "RETRO": {"status": "pending", "result": null},
          "DOCS": {"status": "pending", "result": null}
        },
        "activeAgents": {},
        "failCount": 0,
        "rejectCount": 0,
        "retroCount": 0,
        "featureName": null
      }
      """
    And 啟動時回傳的 state 與 workflow.json 的內容相同
    And session 目錄中除了鎖定檔（*.lock）只有 workflow.json

  @WF-063
  Scenario Outline: 明確給定的 stage 清單 — 重複的 stage 依序編號，TEST 在 DEV 之後為 verify — <stages>
    When 為 session `wfr-list-1` 以 stage 清單 <stages> 啟動一個 single workflow
    Then workflow.json 的 stage 依序為 <keys>，TEST 類 stage 的 mode 依序為 <modes>
    And workflow.json 的 currentStage 是 <first>

    Examples:
      | stages                  | keys                         | modes                | first  |
      | TEST, DEV, TEST         | TEST, DEV, TEST:2            | spec, verify         | TEST   |
      | DEV, TEST, TEST, TEST   | DEV, TEST, TEST:2, TEST:3    | verify, verify, verify | DEV  |
      | REVIEW, REVIEW, DOCS    | REVIEW, REVIEW:2, DOCS       | -                    | REVIEW |

  @WF-064
  Scenario Outline: 不合法的 workflow 不會被啟動 — <情形>
    When 為 session `wfr-bad-1` 啟動 <workflowType> workflow，stage 清單為 <stages>
    Then 啟動失敗，錯誤訊息指出 <offending>
    And session `wfr-bad-1` 沒有 workflow.json

    Examples:
      | 情形         | workflowType | stages           | offending |
      | 未知的類型      | deploy       | (預設)             | deploy    |
      | 未知的 stage  | standard     | PLAN, DEPLOY, DEV | DEPLOY    |
      | 空的 stage 清單 | standard     | (空)              | -         |

  @WF-065
  Scenario: set_stage 依序改變 stage 狀態 — completedAt 與 currentStage
    Given 時鐘停在 `2026-03-01T08:30:00.250+00:00`
    And 為 session `wfr-set-1` 啟動一個 standard workflow
    When 依序設定下列 stage 狀態，每次之後 workflow.json 如表所示：
      | stage  | status    | result | currentStage |
      | PLAN   | completed | pass   | ARCH         |
      | ARCH   | active    | -      | ARCH         |
      | ARCH   | completed | fail   | TEST         |
      | PLAN   | pending   | -      | PLAN         |
      | PLAN   | completed | pass   | TEST         |
      | TEST   | completed | pass   | DEV          |
      | DEV    | completed | pass   | REVIEW       |
      | REVIEW | completed | pass   | TEST:2       |
      | TEST:2 | completed | pass   | RETRO        |
      | RETRO  | completed | 需要改善   | DOCS         |
      | DOCS   | completed | pass   | DOCS         |
    Then 每個 completed 的 stage 記錄時鐘的時間 `2026-03-01T08:30:00.250Z` 為 completedAt，其他 stage 沒有 completedAt
    And workflow.json 以原文保存 `需要改善`，不轉成 \u 跳脫序列

  @WF-066
  Scenario Outline: set_stage 拒絕不合法的輸入且不改動 workflow.json — <情形>
    Given 為 session `wfr-set-2` 啟動一個 standard workflow
    When 對 session <session> 將 stage <stage> 設為 <status>
    Then 設定失敗，錯誤訊息指出 <offending>
    And session `wfr-set-2` 的 workflow.json 與設定前完全相同
    And session `wfr-none-1` 沒有 workflow.json

    Examples:
      | 情形              | session      | stage  | status    | offending  |
      | 未知的狀態           | `wfr-set-2`  | DEV    | done      | done       |
      | 不存在的 stage       | `wfr-set-2`  | DEPLOY | completed | DEPLOY     |
      | 沒有 workflow 的 session | `wfr-none-1` | DEV    | completed | wfr-none-1 |

  @WF-067
  Scenario Outline: 損毀的 workflow.json 是錯誤，不是「沒有 workflow」 — <情形>
    Given session `wfr-broken-1` 的 workflow.json 內容為 `<內容>`
    When 讀取 session `wfr-broken-1` 的 workflow state
    Then 讀取失敗，錯誤訊息指出 workflow.json 的路徑
    And 該 session 的 SubagentStop hook 回傳空的 result，stderr 指出 workflow.json 的路徑
    And session `wfr-broken-1` 的 workflow.json 內容仍為 `<內容>`

    Examples:
      | 情形            | 內容                                  |
      | 不完整的 JSON      | {"sessionId": "wfr-broken-1", "stages": |
      | 不是物件          | ["PLAN", "DEV"]                     |
      | stages 不是物件    | {"sessionId": "wfr-broken-1", "stages": ["DEV"]} |
      | 沒有 stages      | {"sessionId": "wfr-broken-1"}       |

  @WF-068
  Scenario: hook 完成 stage 時更新 workflow.json — 結果、計數、currentStage 與 activeAgents
    Given 時鐘停在 `2026-03-01T09:00:00.000+00:00`
    And 為 session `wfr-hook-1` 啟動一個 standard workflow
    And session `wfr-hook-1` 的 workflow.json 記錄 tester 與 code-reviewer 為進行中的 agent
    And session `wfr-hook-1` 的目錄中有 pre-task hook 寫下的 `active-agent.json`
    When 下列 agent 依序結束，每次之後 workflow.json 如表所示：
      | agent         | verdict | stage  | active | failCount | rejectCount | currentStage | activeAgents          |
      | planner       | PASS    | PLAN   | -      | 0         | 0           | ARCH         | tester, code-reviewer |
      | architect     | PASS    | ARCH   | -      | 0         | 0           | TEST         | tester, code-reviewer |
      | tester        | FAIL    | TEST   | -      | 1         | 0           | DEV          | code-reviewer         |
      | developer     | PASS    | DEV    | REVIEW | 1         | 0           | TEST:2       | code-reviewer         |
      | code-reviewer | REJECT  | REVIEW | -      | 1         | 1           | TEST:2       | -                     |
      | tester        | FAIL    | TEST:2 | -      | 2         | 1           | RETRO        | -                     |
      | retrospective | PASS    | RETRO  | -      | 2         | 1           | DOCS         | -                     |
      | doc-updater   | PASS    | DOCS   | -      | 2         | 1           | DOCS         | -                     |
    Then 每個 stage 都是 completed，result 為該 agent 的 verdict（小寫），completedAt 為 `2026-03-01T09:00:00.000Z`
    And session `wfr-hook-1` 的 `active-agent.json` 已被 hook 刪除

  @WF-069
  Scenario Outline: 會離開 root 的 session id 被拒絕 — <session>
    An id is a name of letters, digits, `_`, `.` and `-` that does not start with a dot, as a whole: an id
    ending in a newline (a cell's `\n`) is no such name either.
    When 以 session id `<session>` 啟動 workflow、記錄 timeline 事件並執行 SubagentStop hook
    Then 啟動與記錄都失敗，hook 回傳空的 result
    And workflow root 之外沒有任何新檔案，root 之內也沒有

    Examples:
      | session     |
      | ../escape   |
      | a/b         |
      | .hidden     |
      | /tmp/wfr-escape-abs |
      | wfr-newline\n |

  @WF-070
  Scenario: workflow.json 的位置被目錄佔用 — 啟動失敗且不留下暫存檔
    Given session `wfr-dir-1` 的 workflow.json 位置是一個目錄
    When 為 session `wfr-dir-1` 啟動一個 single workflow
    Then 啟動失敗
    And session `wfr-dir-1` 的目錄中除了鎖定檔（*.lock）只有 workflow.json 這個目錄

  @WF-071
  Scenario: timeline 行的格式 — UTC 毫秒時間、固定的鍵順序、資料在後、原文保存
    Given 時鐘停在 `2026-03-01T15:04:05.678901+08:00`
    When 在 session `wfr-tl-1` emit `stage:start`，資料為 `{"stage": "DEV", "agent": "developer", "note": "開始開發"}`
    Then timeline.jsonl 只有一行，以換行結尾，中文以原文保存，鍵依序為 ts, type, category, label, stage, agent, note
    And 該行解析後為 `{"ts": "2026-03-01T07:04:05.678Z", "type": "stage:start", "category": "stage", "label": "階段開始", "stage": "DEV", "agent": "developer", "note": "開始開發"}`
    And emit 回傳的事件與該行相同
    And session `wfr-tl-1` 的目錄中除了鎖定檔（*.lock）只有 timeline.jsonl

  @WF-072
  Scenario Outline: 事件資料不能改寫 `<key>` — 拒絕或保留登記的值
    When 在 session `wfr-tl-2` emit `stage:complete`，資料帶有 `<key>: <value>`
    Then timeline 中沒有帶 `<key>: <value>` 的事件，每一筆事件都符合登記表

    Examples:
      | key      | value                    |
      | ts       | 1999-01-01T00:00:00.000Z |
      | category | agent                    |
      | label    | 假的標籤                     |

  @WF-073
  Scenario Outline: 被截斷的最後一行不會吞掉新事件 — <情形>
    Given session `wfr-tl-3` 的 timeline.jsonl 以沒有換行的 `<殘行>` 結尾
    When 在 session `wfr-tl-3` emit `stage:complete`，資料為 `{"stage": "DEV", "result": "pass"}`
    Then timeline.jsonl 依序是 `<殘行>` 與新事件兩行，以換行結尾
    And query 只回傳新事件

    Examples:
      | 情形     | 殘行                                              |
      | 一個位元組  | {                                               |
      | 半筆事件   | {"ts": "2026-03-01T06:59:59.000Z", "type": "sta |

  @WF-074
  Scenario: query 依類型、分類與數量篩選，latest 取檔案中最後一筆
    Given session `wfr-tl-4` 的 timeline 依序記錄了下列事件：
      | n | type           |
      | 1 | stage:start    |
      | 2 | stage:complete |
      | 3 | agent:complete |
      | 4 | stage:start    |
      | 5 | stage:complete |
      | 6 | tool:failure   |
      | 7 | stage:complete |
    Then 在 session `wfr-tl-4` 查詢的結果依序如下：
      | event_type     | category | limit | n       |
      | -              | -        | -     | 1,2,3,4,5,6,7 |
      | stage:complete | -        | -     | 2,5,7   |
      | -              | stage    | -     | 1,2,4,5,7 |
      | stage:start    | stage    | -     | 1,4     |
      | stage:start    | agent    | -     | -       |
      | -              | stage    | 2     | 5,7     |
      | -              | -        | 3     | 5,6,7   |
      | -              | -        | 0     | 1,2,3,4,5,6,7 |
      | session:compact | -       | -     | -       |
    And `stage:complete` 的 latest 是 n 為 7 的事件，`session:compact` 的 latest 不存在

  @WF-075
  Scenario: query 略過不是事件的行，其餘事件照常回傳
    Given session `wfr-tl-5` 的 timeline.jsonl 內容為下列各行（`\xff\xfe` 為無法解碼的位元組）：
      """
      {"ts": "2026-03-01T07:00:00.001Z", "type": "stage:start", "category": "stage", "label": "階段開始", "n": 1}

      not json at all
      \xff\xfe broken bytes
      [1, 2, 3]
      "just a string"
      {"ts": "2026-03-01T07:00:00.002Z", "type": 5}
      {"ts": "2026-03-01T07:00:00.003Z", "label": "沒有 type"}
      {"ts": "2026-03-01T07:00:00.004Z", "type": "stage:complete", "category": "stage", "label": "階段完成", "n": 2}
      """
    Then 在 session `wfr-tl-5` 查詢的結果依序如下：
      | event_type     | category | limit | n   |
      | -              | -        | -     | 1,2 |
      | stage:complete | -        | -     | 2   |
    And timeline 路徑是目錄的 session 查詢結果為空，latest 不存在
    And 沒有 timeline 檔的 session 查詢結果為空，latest 不存在

  @WF-076
  Scenario Outline: timeline 行數上限 — `SYNAPSE_TIMELINE_MAX_LINES` 為 <設定> 時保留最新的 <上限> 行
    The setting is read like the other integer settings, as parseInt reads it: the leading ASCII digits.
    Given `SYNAPSE_TIMELINE_MAX_LINES` 設為 <設定>
    And session `wfr-tl-6` 的 timeline 已有 <上限> 筆 `tool:failure` 事件
    When 在 session `wfr-tl-6` emit `stage:complete`，資料為 `{"stage": "DEV", "result": "pass"}`
    Then timeline.jsonl 恰好 <上限> 行：最舊的一筆被丟棄，最後一行是新事件

    Examples:
      | 設定    | 上限   |
      | (未設定) | 2000 |
      | abc   | 2000 |
      | 0     | 2000 |
      | -5    | 2000 |
      | 1     | 1    |
      | 3     | 3    |
      | 2.9   | 2    |
      | ２    | 2000 |

  @WF-077
  Scenario Outline: 修剪 timeline 時只保留最後一筆 session:compact — <情形>
    Given `SYNAPSE_TIMELINE_MAX_LINES` 設為 <上限>
    And session `wfr-tl-7` 的 timeline.jsonl 一開始<開頭>
    When 在 session `wfr-tl-7` 依序 emit <事件>
    Then timeline.jsonl 依序是 <保留>

    Examples:
      | 情形                 | 上限 | 開頭         | 事件                                               | 保留                                  |
      | 舊的 compact 留在最前面     | 3  | 是空的        | compact1, failure2, failure3, failure4, failure5 | compact1, failure4, failure5        |
      | 較新的 compact 取代舊的     | 3  | 是空的        | compact1, failure2, failure3, failure4, failure5, compact6, failure7 | failure5, compact6, failure7 |
      | 損毀的行也算一行            | 2  | 有一行無法解碼的位元組 | compact1, failure2, failure3                     | compact1, failure3                  |
      | 上限 1 時只留下 compact     | 1  | 是空的        | compact1, failure2                               | compact1                            |

  @WF-136 @beyond-seed
  Scenario Outline: 修剪 timeline 時如原版計算行數：只在換行處分行，空行不計 — <情形>
    The original counts the lines its trim keeps with `content.trim().split('\n').filter(Boolean)`: an
    empty line is no line, and a carriage return inside a line ends none, so a line where a CR runs two
    events together is one damaged line (no event) and stays one. Under the limit nothing is trimmed, and
    `query` reads what the file holds. A cell's {U+000D} stands for a carriage return inside the line.
    At the limit the file is only appended to, never rewritten, so its empty lines stay too (a trim that
    also runs at the limit, `<` for `<=`, drops them).
    Given `SYNAPSE_TIMELINE_MAX_LINES` 設為 2
    And session `wfr-tl-12` 的 timeline.jsonl 一開始是 <開頭> 這幾行
    When 在 session `wfr-tl-12` 依序 emit failure1
    Then query 依序回傳 <事件>，timeline.jsonl 仍有 2 個非空的行
    And timeline.jsonl 未被改寫：原有的各行（空行也在）原樣在前，其後只多了 failure1 這一行

    Examples:
      | 情形                       | 開頭                          | 事件                |
      | 空行不算在上限之內         | failure9 / (空行) / (空行)    | failure9, failure1  |
      | 行中的 CR 不是換行         | compact8{U+000D}failure9      | failure1            |

  @WF-078
  Scenario: 18 種 workflow 類型 — 預設的 stage 清單與並行委派
    When 以下列類型各啟動一個 workflow，並讓每個 stage 的 agent 依序以 PASS 結束：
      | workflowType  | stages                                                                  | 並行委派                                                 |
      | single        | DEV                                                                     | -                                                    |
      | quick         | DEV, REVIEW, TEST, RETRO, DOCS                                          | 🔍 審查 + 🧪 測試                                          |
      | standard      | PLAN, ARCH, TEST, DEV, REVIEW, TEST:2, RETRO, DOCS                      | 🔍 審查 + 🧪 測試                                          |
      | full          | PLAN, ARCH, DESIGN, TEST, DEV, REVIEW, TEST:2, QA, E2E, RETRO, DOCS     | 🔍 審查 + 🧪 測試；🏁 驗證 + 🌐 E2E                            |
      | secure        | PLAN, ARCH, TEST, DEV, REVIEW, TEST:2, SECURITY, RETRO, DOCS            | 🔍 審查 + 🧪 測試 + 🛡️ 安全；🧪 測試 + 🛡️ 安全                   |
      | tdd           | TEST, DEV, TEST:2                                                       | -                                                    |
      | debug         | DEBUG, DEV, TEST                                                        | -                                                    |
      | refactor      | ARCH, TEST, DEV, REVIEW, TEST:2                                         | 🔍 審查 + 🧪 測試                                          |
      | review-only   | REVIEW                                                                  | -                                                    |
      | security-only | SECURITY                                                                | -                                                    |
      | build-fix     | BUILD-FIX                                                               | -                                                    |
      | e2e-only      | E2E                                                                     | -                                                    |
      | diagnose      | DEBUG                                                                   | -                                                    |
      | clean         | REFACTOR                                                                | -                                                    |
      | db-review     | DB-REVIEW                                                               | -                                                    |
      | product       | PM, PLAN, ARCH, TEST, DEV, REVIEW, TEST:2, RETRO, DOCS                  | 🔍 審查 + 🧪 測試                                          |
      | product-full  | PM, PLAN, ARCH, DESIGN, TEST, DEV, REVIEW, TEST:2, QA, E2E, RETRO, DOCS | 🔍 審查 + 🧪 測試；🏁 驗證 + 🌐 E2E                            |
      | discovery     | PM                                                                      | -                                                    |
    Then 每個 workflow.json 的 stage 依序如表，每次 hook 的下一步提示中「並行委派」依序如表

  @WF-123
  Scenario: query 依事件行中記錄的 category 篩選，不依 registry 為其類型給的分類
    The original filters on `e.category`, the category written in the line: a line another tool wrote
    with a category of its own, or with a type the registry does not know, is listed under that category.
    Given session `wfr-tl-9` 的 timeline.jsonl 內容為下列各行（`\xff\xfe` 為無法解碼的位元組）：
      """
      {"ts": "2026-03-01T07:00:00.001Z", "type": "stage:start", "category": "stage", "label": "階段開始", "n": 1}
      {"ts": "2026-03-01T07:00:00.002Z", "type": "stage:complete", "category": "custom", "label": "階段完成", "n": 2}
      {"ts": "2026-03-01T07:00:00.003Z", "type": "deploy:done", "category": "stage", "label": "部署完成", "n": 3}
      """
    Then 在 session `wfr-tl-9` 查詢的結果依序如下：
      | event_type     | category | limit | n   |
      | -              | stage    | -     | 1,3 |
      | -              | custom   | -     | 2   |
      | stage:complete | stage    | -     | -   |
      | stage:complete | custom   | -     | 2   |

  @WF-125
  Scenario: 以 UTF-8 BOM 開頭的 timeline 照常讀出第一筆事件
    The original reads the timeline as text and trims it (readFileSync(...).trim()), and JavaScript's
    `trim()` removes a byte-order mark: a log that an editor saved with one keeps its first event.
    Given session `wfr-tl-10` 的 timeline.jsonl 以 UTF-8 BOM 開頭，內容為下列各行：
      """
      {"ts": "2026-03-01T07:00:00.001Z", "type": "session:compact", "category": "session", "label": "Context 壓縮", "n": 1}
      {"ts": "2026-03-01T07:00:00.002Z", "type": "stage:complete", "category": "stage", "label": "階段完成", "n": 2}
      """
    Then 在 session `wfr-tl-10` 查詢的結果依序如下：
      | event_type      | category | limit | n   |
      | -               | -        | -     | 1,2 |
      | session:compact | -        | -     | 1   |

  @WF-128
  Scenario: 事件資料含 U+2028、U+2029 或 U+0085 時仍是一筆事件，query 與 latest 照常讀出
    The original splits the timeline it reads at "\n" only. A JSON line written without ASCII escapes
    keeps U+2028, U+2029 and U+0085 raw inside its strings (a note pasted from a web page, a file name),
    so the event holding one is still one line and one event, not two halves that are no JSON.
    When 在 session `wfr-tl-11` emit `stage:start`，資料為 `{"n": 1, "note": "第一行\u2028第二行"}`
    And 在 session `wfr-tl-11` emit `stage:complete`，資料為 `{"n": 2, "note": "a\u2029b\u0085c"}`
    Then 在 session `wfr-tl-11` 查詢的結果依序如下：
      | event_type     | category | limit | n   |
      | -              | -        | -     | 1,2 |
      | stage:complete | -        | -     | 2   |
    And `stage:complete` 的 latest 是 n 為 2 的事件，`session:compact` 的 latest 不存在

  @WF-134
  Scenario: 含 NaN 或 Infinity 的行不是 JSON，query 與 latest 略過它
    The original parses each line with JSON.parse, which refuses the bare words NaN and Infinity (a line
    a Python tool wrote with its default json.dumps): such a line is no event, like any other line that is
    no JSON, even when a lenient parser would read it.
    Given session `wfr-tl-12` 的 timeline.jsonl 內容為下列各行：
      """
      {"ts": "2026-03-01T07:00:00.001Z", "type": "stage:complete", "category": "stage", "label": "階段完成", "n": 1}
      {"ts": "2026-03-01T07:00:00.002Z", "type": "stage:complete", "category": "stage", "label": "階段完成", "n": 2, "score": NaN}
      {"ts": "2026-03-01T07:00:00.003Z", "type": "session:compact", "category": "session", "label": "Context 壓縮", "n": 3, "size": Infinity}
      {"ts": "2026-03-01T07:00:00.004Z", "type": "stage:start", "category": "stage", "label": "階段開始", "n": 4, "ratio": -Infinity}
      """
    Then 在 session `wfr-tl-12` 查詢的結果依序如下：
      | event_type     | category | limit | n |
      | -              | -        | -     | 1 |
      | stage:complete | -        | -     | 1 |
      | stage:start    | -        | -     | - |
    And `stage:complete` 的 latest 是 n 為 1 的事件，`session:compact` 的 latest 不存在

  @WF-135
  Scenario Outline: compact 判斷時 timeline 中的空白行依 JavaScript 的 trim() 判斷 — <情形>
    The compact decision refuses a timeline it cannot read, and a blank line is no damage. Blank is what
    JavaScript's trim() empties, as the original reads its text: a line holding only a byte-order mark (a
    second log appended with its mark) is blank, while a line holding only an information separator
    (U+001C, which Python's strip() would remove) is not blank, and being no JSON it makes the timeline
    unreadable.
    Given 一個 standard workflow 的 DEV stage 剛完成（verdict: pass）
    And transcript 檔案大小為 7MB（> 5MB 閾值）
    And timeline 中無任何 `session:compact` 事件（從未 compact 過）
    And timeline 末尾另有一行，只有 <字元>
    When `shouldSuggestCompact` 執行
    Then `suggest` 為 <suggest>

    Examples:
      | 情形                     | 字元          | suggest |
      | 位元組順序標記是空白     | U+FEFF        | true    |
      | 不換行空格與 Tab 是空白  | U+00A0 U+0009 | true    |
      | 資訊分隔符號不是空白     | U+001C        | false   |
