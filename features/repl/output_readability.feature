@repl @seed-004
Feature: 输出与可读性
  技能增强进度文本（`SKILL_ENHANCE_PROGRESS_TEXT` = `Analyzing skill enhancement...`）在终端里高亮，
  写入管道或日志时保持原样。`formatStreamText(text)` 由调用方告知输出流是否为 TTY。

  The skill-enhancement progress text (`SKILL_ENHANCE_PROGRESS_TEXT` = `Analyzing skill enhancement...`) is
  highlighted on a terminal and left unchanged when written to a pipe or a log. The caller of
  `formatStreamText(text)` says whether the output stream is a TTY.

  @REPL-006
  Scenario: 技能增强进度文本在 TTY 下高亮
    Given `process.stdout.isTTY=true` 且输出包含 `SKILL_ENHANCE_PROGRESS_TEXT`
    When 调用 `formatStreamText(text)`
    Then 返回值应包含高亮 ANSI 前缀/后缀
    And 文本内容保持不变

  @REPL-007
  Scenario: 技能增强进度文本在 TTY 下高亮 — 不含进度文本时不高亮
    Given `process.stdout.isTTY=true` 且输出不含技能增强进度文本
    When 调用 `formatStreamText(text)`
    Then 返回应等于原始文本（不加颜色控制符）

  @REPL-008
  Scenario: 非 TTY 下不注入 ANSI 高亮
    Given `process.stdout.isTTY=false` 且输出包含技能增强进度文本
    When 调用 `formatStreamText(text)`
    Then 返回应等于原始文本（不加颜色控制符）
