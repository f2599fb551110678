@workflow @seed-002 @beyond-seed
Feature: SubagentStop hook 的值來源優先順序與每個分支後的清理
  A value with two sources takes the more specific one: the event's own `session_id` wins over the
  CLAUDE_SESSION_ID environment variable, which only stands in for a missing id. Whatever the verdict,
  the finished agent's `active-agent.json` is removed: the agent no longer runs.

  @WF-090
  Scenario: 事件有 session_id 時優先於環境變數 CLAUDE_SESSION_ID
    Given 一個 standard workflow 的 DEV stage 正在進行
    And 環境變數 CLAUDE_SESSION_ID 是另一個沒有 workflow 的 session 的 id
    When SubagentStop hook 收到 `developer` 的結束事件，VERDICT 為 PASS
    Then hook 記錄 DEV 的結果為 pass
    And hook 的 `result` 第一行為「✅ 💻 開發完成」

  @WF-132 @live-settings
  Scenario: 給定 root 的 hook 指令不理會 `SYNAPSE_WORKFLOW_HOME`，只讀寫 root 之下的檔案
    The variable only chooses the home of the program started without one; a workflow handed its root
    keeps to it, so a hook run for this project's workflow while the variable names another home still
    completes the stage here and leaves the other home untouched.
    Given 一個 standard workflow 的 DEV stage 正在進行
    And `SYNAPSE_WORKFLOW_HOME` 指向場景目錄中另一個空的目錄
    When SubagentStop hook 收到 `developer` 的結束事件，VERDICT 為 PASS
    Then hook 記錄 DEV 的結果為 pass
    And hook 的 `result` 第一行為「✅ 💻 開發完成」
    And `SYNAPSE_WORKFLOW_HOME` 指向的目錄仍是空的

  @WF-091
  Scenario Outline: hook 在任何 verdict 之後都刪除 session 目錄中的 active-agent.json — <verdict>
    Given 一個 standard workflow 的 DEV stage 正在進行
    And session 目錄中有記錄 developer 的 active-agent.json
    When SubagentStop hook 收到 `developer` 的結束事件，VERDICT 為 <verdict>
    Then session 目錄中不再有 active-agent.json
    And hook 記錄 DEV 的結果為 <result>

    Examples:
      | verdict | result |
      | PASS    | pass   |
      | FAIL    | fail   |
      | REJECT  | reject |

  @WF-093 @live-settings
  Scenario: 事件的 session_id 為空字串時 hook 同樣改用環境變數 CLAUDE_SESSION_ID
    An empty id is no id: the original reads input.session_id || process.env.CLAUDE_SESSION_ID, so a hook
    runner that sends `"session_id": ""` still reaches the session the environment names.
    Given 一個 standard workflow 的 DEV stage 正在進行
    And 環境變數 CLAUDE_SESSION_ID 是該 session 的 id，前後帶有空白
    When SubagentStop hook 收到 session_id 為空字串的 `developer` 結束事件，VERDICT 為 PASS
    Then hook 記錄 DEV 的結果為 pass
    And hook 的 `result` 第一行為「✅ 💻 開發完成」

  @WF-097 @beyond-seed
  Scenario: 等待並行 agent 的提示依 agent 開始的先後列出，不依字母排序
    The original lists Object.keys(activeAgents), which keeps the order in which the agents were
    recorded: an agent started first is named first even when its name sorts later.
    Given 一個 secure workflow 的 TEST:2 stage 正在進行
    And security-reviewer 仍在進行 SECURITY、code-reviewer 仍在進行 REVIEW（記錄於 `activeAgents`）
    When SubagentStop hook 收到 `tester` 的結束事件，VERDICT 為 PASS
    Then hook 的 `result` 逐行為：
      """
      ✅ 🧪 測試完成
      📊 請更新 TaskList：TaskUpdate status completed（測試）
      ⏭️ 下一步：等待並行 agent 完成：security-reviewer, code-reviewer

      💡 可選：委派 grader agent 評估此階段輸出品質（subagent_type: ot:grader，傳入 STAGE=TEST:2 AGENT=tester SESSION_ID=<sid>）
      """
    And `activeAgents` 只剩 security-reviewer、code-reviewer

  @WF-098 @beyond-seed
  Scenario: 重複的 stage 中正在進行的那一個優先於較早仍在等待的同名 stage
    The original's findActualStageKey looks for an active key first (the stage itself, then a numbered
    one) and only then for the first pending one: the agent finishes the stage it was started on.
    Given 一個 standard workflow 的 TEST:2 stage 正在進行
    And TEST stage 卻仍為 pending（尚未開始）
    When SubagentStop hook 收到 `tester` 的結束事件，VERDICT 為 PASS
    Then hook 記錄 TEST:2 的結果為 pass
    And TEST stage 仍為 pending，timeline 沒有它的 `stage:complete` 事件

  @WF-124
  Scenario Outline: hook 找不到要完成的 stage 時同樣刪除 active-agent.json — <情形>
    The original removes `active-agent.json` for every agent of the session ("workflow 無關，所有 agent
    都清除") before it looks the agent up in the stage table: an agent that finishes no stage no longer
    runs either, so no stale record of it is left behind.
    Given 一個 standard workflow 的 DEV stage 正在進行
    And session 目錄中有記錄 developer 的 active-agent.json
    When hook 指令從 stdin 讀到<輸入>
    Then stdout 是 `{"result": ""}` 且結束碼為 0
    And workflow state 與 timeline 都沒有改變
    And session 目錄中不再有 active-agent.json

    Examples:
      | 情形                    | 輸入                                 |
      | 不屬於任何 stage 的 agent | `ot:grader` 的 SubagentStop 事件       |
      | agent 的 stage 都已完成   | `planner` 的 SubagentStop 事件         |
      | 其他外掛的同名 agent      | `other:developer` 的 SubagentStop 事件 |
