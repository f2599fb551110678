@workflow @seed-002 @beyond-seed
Feature: SubagentStop hook 對任何輸入都回答，且不留下中斷寫入的殘檔
  The SubagentStop hook command answers one line of {"result": ...} JSON with exit code 0 for any stdin,
  including input the JSON parser itself rejects (huge numbers, deep nesting), and the next locked write
  removes the temp files a write killed before its rename left behind, touching nothing else.

  hook 指令無論 stdin 是什麼都必須印出一行 `{"result": ...}` JSON 並以 0 結束：Claude Code 會把失敗 hook
  的 traceback 顯示在對話中。JSON 解析器本身拒絕的輸入（超過位數上限的數字、超過堆疊深度的巢狀）也一樣。
  狀態檔與 timeline 以「寫入暫存檔再改名」的方式原子更新，暫存檔名為 `.<檔名>.<隨機字元>.tmp`；寫入在改名前
  被強制結束時會留下暫存檔，下一次（持有該檔鎖的）寫入必須把它們清除，而不碰其他檔案。

  @WF-081
  Scenario Outline: hook 指令遇到 JSON 解析器拒絕的輸入時回傳空 result — <情形>
    Given 一個 standard workflow 的 DEV stage 正在進行
    When hook 指令從 stdin 讀到<輸入>
    Then stdout 是 `{"result": ""}` 且結束碼為 0
    And stderr 說明原因且不含 traceback
    And workflow state 與 timeline 都沒有改變

    Examples:
      | 情形                 | 輸入                                         |
      | 超過位數上限的數字   | 5000 位數的數字                              |
      | 超過堆疊深度的陣列   | 十萬層巢狀的陣列                             |
      | 事件的欄位是巨大數字 | session_id 為 5000 位數字的 SubagentStop 事件 |
      | 事件的欄位巢狀極深   | last_assistant_message 巢狀十萬層的 SubagentStop 事件 |

  @WF-082
  Scenario: 對任意 stdin，hook 指令都回傳帶字串 `result` 的 JSON 物件且結束碼為 0
    Given 一個 standard workflow 的 DEV stage 正在進行
    When hook 指令逐一讀到隨機產生的 stdin：任意文字、任意 JSON，以及欄位型別任意的 SubagentStop 事件
    Then 每一次 stdout 都是一行帶字串 `result` 的 JSON 物件，結束碼為 0
    And 每一次 stderr 都不含 traceback

  @WF-083
  Scenario: 上次寫入在改名前被中斷留下的暫存檔，在下一次寫入時被清除
    Given 一個 standard workflow 的 DEV stage 正在進行
    And session 目錄中有這些檔案:
      | file                        | 是中斷寫入的殘檔 |
      | .workflow.json.k3j2h1.tmp   | 是               |
      | .workflow.json.q8w7e6.tmp   | 是               |
      | .timeline.jsonl.x9y8z7.tmp  | 是               |
      | .workflow.json.bak          | 否               |
      | workflow.json.tmp           | 否               |
      | notes.tmp                   | 否               |
    When SubagentStop hook 收到 `developer` 的結束事件，VERDICT 為 PASS
    Then DEV stage 在 workflow state 中為 completed（pass）
    And 中斷寫入的殘檔都已刪除，其他檔案內容不變

  @WF-092
  Scenario: 名稱像暫存檔的符號連結與目錄不是中斷寫入的殘檔，下一次寫入不碰它們
    Given 一個 standard workflow 的 DEV stage 正在進行
    And session 目錄中有這些項目:
      | file                        | 種類                      |
      | .workflow.json.k3j2h1.tmp   | 中斷寫入的殘檔            |
      | notes.txt                   | 一般檔案                  |
      | .workflow.json.lnk001.tmp   | 指向 notes.txt 的符號連結 |
      | .timeline.jsonl.lnk002.tmp  | 指向 notes.txt 的符號連結 |
      | .workflow.json.dir001.tmp   | 目錄                      |
      | .timeline.jsonl.dir002.tmp  | 目錄                      |
    When SubagentStop hook 收到 `developer` 的結束事件，VERDICT 為 PASS
    Then DEV stage 在 workflow state 中為 completed（pass）
    And 中斷寫入的殘檔都已刪除，符號連結、目錄與一般檔案原樣保留

  @WF-126
  Scenario: hook 的寫入在改名前被強制結束時留下的暫存檔，在下一次寫入時被清除
    A hook process killed between creating its temp file and renaming it leaves that file behind; the
    next hook's locked write removes it, whatever the hook wrote first (the state or the timeline).
    Given 一個 standard workflow 的 DEV stage 正在進行
    When 另一個 hook 行程處理 `developer` 的結束事件（VERDICT 為 PASS），在 session 目錄中建立第一個新檔案時被強制結束
    Then 它建立的檔案名為 `.<檔名>.<隨機字元>.tmp`
    When SubagentStop hook 收到 `developer` 的結束事件，VERDICT 為 PASS
    Then DEV stage 在 workflow state 中為 completed（pass）
    And 被強制結束的 hook 建立的暫存檔已刪除

  @WF-127
  Scenario: 刪除不了的殘檔不妨礙其他殘檔被清除，寫入照常完成
    A leftover that no process can delete is skipped; the clean-up goes on with the others, whatever
    order the directory lists them in, and the write itself completes.
    Given 一個 standard workflow 的 DEV stage 正在進行
    And session 目錄中有這些檔案:
      | file                        | 是中斷寫入的殘檔 |
      | .workflow.json.a1b2c3.tmp   | 是               |
      | .workflow.json.d4e5f6.tmp   | 是               |
      | .workflow.json.g7h8i9.tmp   | 是               |
      | .workflow.json.j1k2l3.tmp   | 是               |
      | .workflow.json.m4n5o6.tmp   | 是               |
      | .workflow.json.p7q8r9.tmp   | 是               |
      | .workflow.json.s1t2u3.tmp   | 是               |
      | .workflow.json.v4w5x6.tmp   | 是               |
      | .workflow.json.y7z8a9.tmp   | 是               |
      | .workflow.json.b1c2d3.tmp   | 是               |
      | notes.tmp                   | 否               |
    And 殘檔 ".workflow.json.m4n5o6.tmp" 任何行程都刪除不了
    When SubagentStop hook 收到 `developer` 的結束事件，VERDICT 為 PASS
    Then DEV stage 在 workflow state 中為 completed（pass）
    And 除了刪除不了的那一個，中斷寫入的殘檔都已刪除，其他檔案內容不變
