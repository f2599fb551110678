@reader @seed-003
Feature: ConversationReader 文件读取与截断
  The reader turns a session JSONL file into turns; it may read only the tail of the file, and it never
  fails because a file is missing or a line is damaged.

  @RDR-001
  Scenario: 会话文件不存在时 `read` 返回空数组
    Given 输入的会话 JSONL 路径不存在
    When 调用 `ConversationReader.read(filePath)`
    Then 返回应为 `[]`
    And 调用方无需处理异常
    And 应记录一条 warning 日志指出该路径不存在

  @RDR-002
  Scenario: `readTruncated` 在 `maxChars<=0` 时直接返回空结果
    Given 合法会话文件存在但 `maxChars=0`
    When 调用 `readTruncated(filePath, 0)`
    Then 返回应为 `[]`
    And 不应执行后续截断解析逻辑

  @RDR-003
  Scenario: `readTruncated` 在 `maxChars<=0` 时直接返回空结果 — 负数
    Given 合法会话文件存在但 `maxChars=-1`
    When 调用 `readTruncated(filePath, -1)`
    Then 返回应为 `[]`
    And 不应执行后续截断解析逻辑

  @RDR-004
  Scenario: `readTruncated` 从尾部截断后应对齐到完整行边界
    Given 原文件长度超过 `maxChars` 且截断点位于行中间
      """
      {"id":"msg-1","role":"user","content":"Help me analyze error.log"}
      {"id":"msg-2","role":"assistant","content":"I will help you analyze the log file."}
      {"id":"msg-3","role":"user","content":"Find all ERROR entries"}
      {"id":"msg-4","role":"assistant","content":[{"type":"text","text":"Let me search for errors."},{"type":"tool_use","id":"tool-1","name":"search","input":{"pattern":"ERROR"}}]}
      {"id":"msg-5","role":"user","content":[{"type":"tool_result","tool_use_id":"tool-1","content":"ERROR: Connection failed\nERROR: Timeout"}]}
      """
    And 文件末尾没有换行符
    And 截断点落在第 4 行的正中间
    When 执行 `readTruncated`
    Then 结果首行应从下一个完整换行开始
    And 不应出现半截 JSON 行

  @RDR-005
  Scenario: `readTruncated` 从尾部截断后应对齐到完整行边界 — 截断点落在中文多字节字符之间
    Given 原文件长度超过 `maxChars` 且截断点位于行中间
      """
      {"id":"zh-1","role":"user","content":"请帮我分析一下这个构建日志"}
      {"id":"zh-2","role":"assistant","content":"构建失败的原因是依赖版本冲突导致类型声明缺失，需要升级相关依赖包。具体来说，新版本的工具链移除了旧的全局类型定义，而项目仍然引用了这些定义，所以编译阶段报错"}
      {"id":"zh-3","role":"user","content":"好的，请把依赖升级到最新的稳定版本，同时更新类型声明文件，然后重新运行全部测试用例，并把失败的用例整理成列表发给我确认"}
      """
    And 截断点落在第 2 行的正中间
    When 执行 `readTruncated`
    Then 结果首行应从下一个完整换行开始
    And 不应出现半截 JSON 行

  @RDR-006
  Scenario: `readTruncated` 从尾部截断后应对齐到完整行边界 — 截断点恰在行首时保留该行
    Given 原文件长度超过 `maxChars` 且截断点恰好位于行首
      """
      {"id":"msg-1","role":"user","content":"Help me analyze error.log"}
      {"id":"msg-2","role":"assistant","content":"I will help you analyze the log file."}
      {"id":"msg-3","role":"user","content":"Find all ERROR entries"}
      {"id":"msg-4","role":"assistant","content":"Searching now."}
      """
    And 截断点落在第 3 行的行首
    When 执行 `readTruncated`
    Then 结果首行应从下一个完整换行开始
    And 不应出现半截 JSON 行

  @RDR-027
  Scenario: `readTruncated` 从尾部截断后应对齐到完整行边界 — 窗口内没有完整行时返回空结果
    Given 原文件长度超过 `maxChars` 且截断点位于行中间
      """
      {"id":"msg-1","role":"user","content":"Help me analyze error.log"}
      {"id":"msg-2","role":"assistant","content":"I will help you analyze the log file and list every ERROR entry with its timestamp."}
      """
    And 截断点落在第 2 行的正中间
    When 执行 `readTruncated`
    Then 结果首行应从下一个完整换行开始
    And 不应出现半截 JSON 行

  @RDR-007
  Scenario Outline: JSONL 含损坏行时应跳过坏行继续解析
    # The file is fixtures/sessions/corrupt_lines.jsonl: three valid lines between an unterminated string,
    # plain text, bytes that are not UTF-8, `null`, an array, a number and an object with a trailing comma.
    Given 文件中混合合法行与非法 JSON 行
    And 本例以 `<method>` 读取
    When 调用 `read` 或 `readTruncated`
    Then 非法行应被忽略
      | id   | role      | content           |
      | ok-1 | user      | first valid line  |
      | ok-2 | assistant | second valid line |
      | ok-3 | user      | third valid line  |
    And 合法行仍应转换为 ConversationTurn
    And 每个非法行都应记录一条包含 "Failed to parse conversation line" 的 warning 日志

    Examples:
      | method                          |
      | read(filePath)                  |
      | readTruncated(filePath, 100000) |
