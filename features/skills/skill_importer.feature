@skills @beyond-seed
Feature: 技能导入器：冲突、相似检查、--continue 与 --merge
  The seed checks what `skill:import` prints; these scenarios hold the importer behind it to what the
  printed advice promises. A skill of an installed name is a conflict and is never overwritten; otherwise
  the model is asked whether the skill resembles an installed one, and a resemblance is reported instead of
  importing. `--continue=<name>` imports without asking; `--merge=<name>:<target>` asks the model to merge
  the skill into the installed target, whose previous files are kept as a version. An answer the importer
  cannot parse never blocks an import. Files on disk (links read, not followed), the command's output, the
  importer's result, the `synapse.*` log and the model's requests are what is checked.

  Background:
    Given 已安装的技能
      | name       | description                  |
      | git-commit | Write conventional commits   |

  @SKL-014
  Scenario: 与已安装技能同名时应报告冲突且不覆盖已安装的技能
    Given 导入源目录中的技能
      | name       | description               |
      | git-commit | Another way to commit     |
    When 用技能导入器执行 `skill:import <源目录>`
    Then `skill:import` 的 stdout 应包含 "Conflicts:" 与 "  - git-commit"
    And 已安装技能 "git-commit" 的描述仍应为 "Write conventional commits"
    And 导入器不应询问模型

  @SKL-015
  Scenario: 模型认为相似时应报告相似原因与可用选项且不导入
    Given 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型对相似度的回答为
      """
      {"similar": [{"name": "git-commit", "reason": "Both write commit messages"}]}
      """
    When 用技能导入器执行 `skill:import <源目录>`
    Then `skill:import` 的 stdout 应包含 "  - commit-helper ~ git-commit: Both write commit messages" 与 "    --merge=commit-helper:git-commit"
    And 技能 "commit-helper" 不应被安装
    And 模型应被询问 1 次，请求中包含 "Helps writing commit messages" 与 "git-commit: Write conventional commits"

  @SKL-016
  Scenario: `--continue` 指定的技能应直接导入而不询问模型
    Given 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    When 用技能导入器执行 `skill:import <源目录> --continue=commit-helper`
    Then `skill:import` 的 stdout 应为 "Imported: commit-helper"
    And 已安装技能 "commit-helper" 的 SKILL.md 应与导入源中的相同
    And 导入器不应询问模型

  @SKL-017
  Scenario: `--merge` 应由模型把技能合并进目标技能并保留目标的旧版本
    Given 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型的合并结果为
      """
      ---
      description: Write conventional commits, with help for the message
      ---
      # git-commit (merged)
      """
    When 用技能导入器执行 `skill:import <源目录> --merge=commit-helper:git-commit`
    Then `skill:import` 的 stdout 应为 "Imported: commit-helper → git-commit"
    And 已安装技能 "git-commit" 的描述应为 "Write conventional commits, with help for the message"
    And 技能 "git-commit" 应保留 1 个旧版本，其描述为 "Write conventional commits"
    And 技能 "commit-helper" 不应被安装
    And 模型应被询问 1 次，请求中包含 "Helps writing commit messages" 与 "Write conventional commits"

  @SKL-064
  Scenario: 同一个技能有两个 `--merge` 目标时按第一个合并，后一个被忽略
    The original looks a skill's target up with `mergeInto.find(item => item.source === name)`: the first
    pair naming the skill wins, whichever option or list it came in.
    Given 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型的合并结果为
      """
      ---
      description: Write conventional commits, with help for the message
      ---
      # git-commit (merged)
      """
    When 用技能导入器执行 `skill:import <源目录> --merge=commit-helper:git-commit --merge=commit-helper:pr-summary`
    Then `skill:import` 的 stdout 应为 "Imported: commit-helper → git-commit"
    And 已安装技能 "git-commit" 的描述应为 "Write conventional commits, with help for the message"
    And 技能目录中的目录应恰好为 "git-commit"
    And 模型应被询问 1 次，请求中包含 "Helps writing commit messages" 与 "Write conventional commits"

  @SKL-018
  Scenario: 模型的相似度回答无法解析时应照常导入并记录告警
    Given 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型对相似度的回答为
      """
      I think they are similar.
      """
    When 用技能导入器执行 `skill:import <源目录>`
    Then `skill:import` 的 stdout 应为 "Imported: commit-helper"
    And 已安装技能 "commit-helper" 的 SKILL.md 应与导入源中的相同
    And `synapse.*` 日志应有 1 条警告

  @SKL-097
  Scenario: 相似度检查的模型调用失败时应照常导入并记录告警
    As the original's own tests have it: a similarity request that fails (a timeout) blocks no import,
    any more than an answer that cannot be parsed does; the skill is imported and the failure is logged.
    Given 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型的相似度调用以错误 "timeout" 失败
    When 用技能导入器执行 `skill:import <源目录>`
    Then `skill:import` 的 stdout 应为 "Imported: commit-helper"
    And 已安装技能 "commit-helper" 的 SKILL.md 应与导入源中的相同
    And `synapse.*` 日志应有 1 条警告

  @SKL-019
  Scenario: 同一来源中的多个技能应各自处理：冲突、相似与导入互不影响
    Given 导入源目录中的技能
      | name          | description                   |
      | git-commit    | Another way to commit         |
      | commit-helper | Helps writing commit messages |
      | lint-fix      | Fix lint errors               |
    And 模型对相似度的回答依次为
      | answer                                                                          |
      | {"similar": [{"name": "git-commit", "reason": "Both write commit messages"}]} |
      | {"similar": []}                                                                 |
    When 用技能导入器执行 `skill:import <源目录>`
    Then `skill:import` 的 stdout 应包含 "Imported: lint-fix" 与 "  - commit-helper ~ git-commit: Both write commit messages"
    And `skill:import` 的 stdout 应包含 "Conflicts:" 与 "  - git-commit"
    And 技能 "commit-helper" 不应被安装
    And 已安装技能 "lint-fix" 的 SKILL.md 应与导入源中的相同

  @SKL-020
  Scenario: 导入源不存在时应以错误结束且不安装任何技能
    When 用技能导入器执行 `skill:import <源目录>/missing`
    Then `skill:import` 的退出码应为 1
    And `skill:import` 的 stderr 应包含 "missing"
    And 已安装的技能应只有 "git-commit"
    And 导入器不应询问模型

  @SKL-030
  Scenario: `--merge` 的目标技能未安装时应跳过该技能且不询问模型
    Given 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    When 用技能导入器执行 `skill:import <源目录> --merge=commit-helper:git-comit`
    Then `skill:import` 的 stdout 应为 "Skipped: commit-helper"
    And 已安装的技能应只有 "git-commit"
    And 导入器不应询问模型
    And `synapse.*` 日志应有 1 条警告

  @SKL-031
  Scenario: 模型回答的相似技能并未安装时应照常导入
    Given 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型对相似度的回答为
      """
      {"similar": [{"name": "commit-tools", "reason": "Both write commit messages"}]}
      """
    When 用技能导入器执行 `skill:import <源目录>`
    Then `skill:import` 的 stdout 应为 "Imported: commit-helper"
    And 已安装技能 "commit-helper" 的 SKILL.md 应与导入源中的相同

  @SKL-032
  Scenario: 合并时模型调用失败应跳过该技能且目标技能保持不变
    Given 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型的合并调用以错误 "model unavailable" 失败
    When 用技能导入器执行 `skill:import <源目录> --merge=commit-helper:git-commit`
    Then `skill:import` 的 stdout 应为 "Skipped: commit-helper"
    And 已安装技能 "git-commit" 的描述仍应为 "Write conventional commits"
    And 技能 "commit-helper" 不应被安装
    And `synapse.*` 日志应有 1 条警告

  @SKL-021 @live-settings
  Scenario Outline: `--merge` 只保留 `SYNAPSE_SKILL_MAX_VERSIONS` 个最新的旧版本 — <setting>
    The setting is read as the original's parseInt reads it: ASCII digits after JavaScript's white space,
    which includes a byte-order mark; full-width digits are no digits, so the default of 20 applies.
    Given 环境变量 `SYNAPSE_SKILL_MAX_VERSIONS` 为 `<setting>`
    And 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型的合并结果依次为描述如下的 SKILL.md
      | description |
      | 第一次合并  |
      | 第二次合并  |
      | 第三次合并  |
    When 用技能导入器执行 3 次 `skill:import <源目录> --merge=commit-helper:git-commit`
    Then 已安装技能 "git-commit" 的描述应为 "第三次合并"
    And 技能 "git-commit" 的旧版本从新到旧的描述应为 "<versions>"

    Examples:
      | setting  | versions                                     |
      | 1        | 第二次合并                                   |
      | 2        | 第二次合并、第一次合并                       |
      | 1.5      | 第二次合并                                   |
      | 2 个     | 第二次合并、第一次合并                       |
      | 0        | 第二次合并、第一次合并、Write conventional commits |
      | -1       | 第二次合并、第一次合并、Write conventional commits |
      | abc      | 第二次合并、第一次合并、Write conventional commits |
      | (未设置) | 第二次合并、第一次合并、Write conventional commits |
      | ２       | 第二次合并、第一次合并、Write conventional commits |
      | {U+FEFF}1 | 第二次合并                                  |

  @SKL-022
  Scenario: 无法复制的技能（含命名管道）列入 Skipped 且不留下半成品，其余技能照常导入
    Given 导入源目录中的技能
      | name     | description     |
      | lint-fix | Fix lint errors |
      | test-gen | Generate tests  |
    And 导入源技能 "lint-fix" 中有一个命名管道 "events.fifo"
    And 模型对相似度的回答依次为
      | answer          |
      | {"similar": []} |
      | {"similar": []} |
    When 用技能导入器执行 `skill:import <源目录>`
    Then `skill:import` 的 stdout 应包含 "Imported: test-gen" 与 "Skipped: lint-fix"
    And 已安装技能 "test-gen" 的 SKILL.md 应与导入源中的相同
    And 技能目录中的目录应恰好为 "git-commit、test-gen"
    And `synapse.*` 日志应有 1 条错误，提到 "lint-fix"

  @SKL-023
  Scenario: 未设置 `SYNAPSE_SKILL_MAX_VERSIONS` 时默认保留 20 个旧版本，合并后删除最早的一个
    Given 环境变量 `SYNAPSE_SKILL_MAX_VERSIONS` 为 `(未设置)`
    And 技能 "git-commit" 已有 20 个旧版本 `2026-01-01-001` 至 `2026-01-01-020`
    And 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型的合并结果依次为描述如下的 SKILL.md
      | description |
      | 第一次合并  |
    When 用技能导入器执行 1 次 `skill:import <源目录> --merge=commit-helper:git-commit`
    Then 技能 "git-commit" 应保留 20 个旧版本，最新的描述为 "Write conventional commits"，最早的 `2026-01-01-001` 已被删除

  @SKL-024
  Scenario Outline: `--merge` 无法完成时该技能列入 Skipped，目标技能不变且不安装 — <情形>
    Given 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型的合并请求<模型>
    When 用技能导入器执行 `skill:import <源目录> --merge=commit-helper:<目标>`
    Then `skill:import` 的 stdout 应为 "Skipped: commit-helper"
    And 已安装技能 "git-commit" 的描述仍应为 "Write conventional commits"
    And 技能 "git-commit" 不应有旧版本
    And 技能 "commit-helper" 不应被安装
    And 技能目录中的目录应恰好为 "git-commit"
    And `synapse.*` 日志应有 1 条警告
    And 模型应被询问 `<询问>` 次

    Examples:
      | 情形             | 目标       | 模型                 | 询问 |
      | 目标技能未安装   | pr-summary | 会回复一份合并结果   | 0    |
      | 模型调用失败     | git-commit | 抛出错误             | 1    |
      | 模型回复为空白   | git-commit | 回复空白文本         | 1    |
      | 模型回复只有字节顺序标记与空白 | git-commit | 回复字节顺序标记与空白 | 1    |

  @SKL-025
  Scenario Outline: 导入源的布局 — <布局>
    Given 导入源是<布局>，其中的技能为 "lint-fix"
    And 模型对相似度的回答为
      """
      {"similar": []}
      """
    When 用技能导入器执行 `skill:import <源目录>`
    Then `skill:import` 的 stdout 应为 "Imported: lint-fix"
    And 技能目录中的目录应恰好为 "git-commit、lint-fix"

    Examples:
      | 布局                                   |
      | 一个技能目录本身（含 SKILL.md）        |
      | 只含 `skills/` 子目录的目录            |
      | 含 `skills/` 子目录与隐藏目录的目录    |
      | 技能目录旁另有装着技能的 `skills/` 目录的目录 |
      | 含 `skills/` 子目录与 README.md、LICENSE 两个文件的目录 |

  @SKL-065
  Scenario Outline: 导入源本身是技能目录时，技能名取自解析后的目录名，与路径的写法无关 — `<写法>`
    The original names such a skill `path.basename(path.resolve(dir))`: a trailing `/` (as shell completion
    writes it), a trailing `/.` or a detour through `..` still gives the directory's own name.
    Given 导入源是一个技能目录本身（含 SKILL.md），其中的技能为 "lint-fix"
    And 模型对相似度的回答为
      """
      {"similar": []}
      """
    When 用技能导入器执行 `skill:import <写法>`
    Then `skill:import` 的 stdout 应为 "Imported: lint-fix"
    And 技能目录中的目录应恰好为 "git-commit、lint-fix"

    Examples:
      | 写法                        |
      | <源目录>/                   |
      | <源目录>/.                  |
      | <源目录>/../lint-fix        |

  @SKL-026
  Scenario Outline: 模型指出的相似技能不可用时照常导入 — <情形>
    Given 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型对相似度的回答为
      """
      <回答>
      """
    When 用技能导入器执行 `skill:import <源目录>`
    Then `skill:import` 的 stdout 应为 "Imported: commit-helper"
    And 已安装技能 "commit-helper" 的 SKILL.md 应与导入源中的相同

    Examples:
      | 情形                 | 回答                                                                              |
      | 指出的技能未安装     | {"similar": [{"name": "pr-summary", "reason": "Both write text"}]}                |
      | 没有给出理由         | {"similar": [{"name": "git-commit", "reason": ""}]}                               |
      | 条目不是对象         | {"similar": ["git-commit", {"name": "nothing-installed", "reason": "no"}]}        |
      | target 为空字符串    | {"similar": [{"target": "", "name": "git-commit", "reason": "Both write commit messages"}]} |
      | similarity 为空字符串 | {"similar": [{"name": "git-commit", "similarity": "", "reason": "Both write commit messages"}]} |

  @SKL-027
  Scenario: 相似检查只列出已安装的技能并按原样读取描述，导入源中不是技能的条目被忽略
    Given 技能目录中还有一个 SKILL.md 为如下内容的技能 "pr-notes"，以及隐藏目录 ".pr-notes.importing" 与没有 SKILL.md 的目录 "drafts"
      """
      Description
      **Description**: "Writes release notes"
      """
    And 导入源目录中的技能
      | name     | description     |
      | lint-fix | Fix lint errors |
    And 导入源目录中还有文件 "README.md"、没有 SKILL.md 的目录 "notes" 与隐藏的技能目录 ".cache"
    And 模型对相似度的回答为
      """
      {"similar": []}
      """
    When 用技能导入器执行 `skill:import <源目录>`
    Then `skill:import` 的 stdout 应为 "Imported: lint-fix"
    And 模型应被询问 1 次，请求中包含 "git-commit: Write conventional commits" 与 "pr-notes: Writes release notes"
    And 相似检查的请求不应提到 "drafts" 或 ".pr-notes.importing"
    And 技能目录中的目录应恰好为 ".pr-notes.importing、drafts、git-commit、lint-fix、pr-notes"

  @SKL-028
  Scenario: SKILL.md 中的无效 UTF-8 字节按原实现替换为 U+FFFD，导入与合并照常进行
    Given 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 导入源技能 "commit-helper" 与已安装技能 "git-commit" 的 SKILL.md 末尾各有一个无效 UTF-8 字节
    And 模型的合并结果依次为描述如下的 SKILL.md
      | description |
      | 合并结果    |
    When 用技能导入器执行 `skill:import <源目录> --merge=commit-helper:git-commit`
    Then `skill:import` 的 stdout 应为 "Imported: commit-helper → git-commit"
    And 合并请求中两份 SKILL.md 的末尾都应是 U+FFFD

  @SKL-029
  Scenario: 含无效 UTF-8 字节的技能照常经过相似检查后导入
    Given 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 导入源技能 "commit-helper" 与已安装技能 "git-commit" 的 SKILL.md 末尾各有一个无效 UTF-8 字节
    And 模型对相似度的回答为
      """
      {"similar": []}
      """
    When 用技能导入器执行 `skill:import <源目录>`
    Then `skill:import` 的 stdout 应为 "Imported: commit-helper"
    And 已安装技能 "commit-helper" 的 SKILL.md 应与导入源中的相同

  @SKL-033
  Scenario: 导入的技能中的符号链接应原样保留为符号链接，不跟随复制其指向的内容
    Given 导入源目录中的技能
      | name     | description     |
      | lint-fix | Fix lint errors |
    And 导入源技能 "lint-fix" 中有文件 "scripts/run.sh" 与如下符号链接
      | link    | target         |
      | run     | scripts/run.sh |
      | shared  | <外部目录>     |
      | missing | gone.txt       |
    When 用技能导入器执行 `skill:import <源目录> --continue=lint-fix`
    Then `skill:import` 的 stdout 应为 "Imported: lint-fix"
    And 已安装技能 "lint-fix" 中的这些符号链接应原样保留，不被跟随复制

  @SKL-034
  Scenario: `--merge` 保留的旧版本中的符号链接应原样保留为符号链接
    Given 已安装技能 "git-commit" 中有文件 "scripts/run.sh" 与如下符号链接
      | link   | target         |
      | run    | scripts/run.sh |
      | shared | <外部目录>     |
    And 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型的合并结果依次为描述如下的 SKILL.md
      | description |
      | 合并结果    |
    When 用技能导入器执行 `skill:import <源目录> --merge=commit-helper:git-commit`
    Then `skill:import` 的 stdout 应为 "Imported: commit-helper → git-commit"
    And 技能 "git-commit" 的旧版本中这些符号链接也应原样保留，不被跟随复制
    And 已安装技能 "git-commit" 中的这些符号链接应原样保留，不被跟随复制

  @SKL-035
  Scenario: 导入器的结果为冲突给出已安装技能与导入源技能各自的目录
    Given 导入源目录中的技能
      | name       | description           |
      | git-commit | Another way to commit |
    When 直接调用导入器导入 `<源目录>`
    Then 导入结果中的冲突 "git-commit" 应给出已安装技能的目录与导入源中该技能的目录
    And 已安装技能 "git-commit" 的描述仍应为 "Write conventional commits"
    And 导入器不应询问模型

  @SKL-036
  Scenario Outline: 相似度回答的其他写法：原实现的字段别名与混入的无效条目 — <情形>
    Given 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型对相似度的回答为
      """
      <回答>
      """
    When 用技能导入器执行 `skill:import <源目录>`
    Then `skill:import` 的 stdout 应包含 "  - commit-helper ~ git-commit: Both write commit messages" 与 "    --merge=commit-helper:git-commit"
    And 技能 "commit-helper" 不应被安装

    Examples:
      | 情形                           | 回答                                                                                                              |
      | 用 target 与 similarity 字段   | {"similar": [{"target": "git-commit", "similarity": "Both write commit messages"}]}                               |
      | 有效条目之前有不是对象的条目   | {"similar": ["git-commit", null, 7, {"name": "git-commit", "reason": "Both write commit messages"}]}              |
      | 有效条目之前有未安装的技能     | {"similar": [{"name": "pr-summary", "reason": "Both write text"}, {"name": "git-commit", "reason": "Both write commit messages"}]} |
      | 两个有效条目时取第一个         | {"similar": [{"name": "git-commit", "reason": "Both write commit messages"}, {"name": "git-commit", "reason": "Both are about git"}]} |
      | similarity 与 reason 都有时取 similarity | {"similar": [{"name": "git-commit", "similarity": "Both write commit messages", "reason": "Other words"}]} |

  @SKL-037
  Scenario: `--merge` 写入的 SKILL.md 是模型回复去掉首尾空白后以一个换行结尾
    Given 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型的合并结果为描述 "合并结果" 的 SKILL.md，前后带有空行与空格
    When 用技能导入器执行 `skill:import <源目录> --merge=commit-helper:git-commit`
    Then `skill:import` 的 stdout 应为 "Imported: commit-helper → git-commit"
    And 已安装技能 "git-commit" 的 SKILL.md 应为该合并结果去掉首尾空白，以一个换行结尾

  @SKL-038
  Scenario: 同一天的旧版本编号接在当天最大的编号之后，超过 099 也不重复
    Given 技能 "git-commit" 已有今天（UTC）的旧版本 "098、099、100"
    And 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型的合并结果依次为描述如下的 SKILL.md
      | description |
      | 合并结果    |
    When 用技能导入器执行 `skill:import <源目录> --merge=commit-helper:git-commit`
    Then `skill:import` 的 stdout 应为 "Imported: commit-helper → git-commit"
    And 技能 "git-commit" 今天（UTC）的旧版本应为 "098、099、100、101"，其中 "101" 的描述为 "Write conventional commits"

  @SKL-039
  Scenario: 复制中途被强行终止的导入不留下半个技能，再次导入时照常完成
    Given 导入源目录中的技能
      | name     | description     |
      | lint-fix | Fix lint errors |
    And 导入源技能 "lint-fix" 中还有一个 16 MB 的文件 "data/corpus.bin"
    When 另一个进程导入 "lint-fix"，在技能目录中出现第一个新条目时被强行终止
    Then 技能 "lint-fix" 应要么未被安装，要么已与导入源完全相同
    When 用技能导入器执行 `skill:import <源目录> --continue=lint-fix`
    Then 已安装技能 "lint-fix" 的文件应与导入源中的完全相同
    And 技能目录中不以 "." 开头的目录应恰好为 "git-commit、lint-fix"

  @SKL-060 @beyond-seed
  Scenario: 保存旧版本时被强行终止的 `--merge` 不留下半个旧版本，再次合并时照常完成
    The original copies the snapshot straight into `versions/<version>`, so a process killed during the
    copy leaves a half version that lists, counts and is kept like a whole one (and can push a whole one
    out). A version appears whole or not at all; the skill itself stays as it was until its version is.
    Given 技能 "git-commit" 已有 2 个旧版本 `2026-01-01-001` 至 `2026-01-01-002`
    And 已安装技能 "git-commit" 中还有一个 16 MB 的文件 "data/corpus.bin"
    And 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    When 另一个进程把 "commit-helper" 合并进 "git-commit"，在其旧版本目录中出现第一个新条目时被强行终止
    Then 技能 "git-commit" 的旧版本应为 "2026-01-01-001、2026-01-01-002"，至多再多一个与合并前的技能完全相同的版本
    And 已安装技能 "git-commit" 的文件应与合并前完全相同
    Given 模型的合并结果依次为描述如下的 SKILL.md
      | description |
      | 合并结果    |
    When 用技能导入器执行 `skill:import <源目录> --merge=commit-helper:git-commit`
    Then `skill:import` 的 stdout 应为 "Imported: commit-helper → git-commit"
    And 已安装技能 "git-commit" 的描述应为 "合并结果"
    And 技能 "git-commit" 的旧版本应为 "2026-01-01-001、2026-01-01-002"，再加上与合并前的技能完全相同的版本
    And 技能 "git-commit" 的目录中不应留下以 "." 开头的条目

  @SKL-086 @beyond-seed
  Scenario: 被强行终止的 `--merge` 在旧版本目录中留下的条目删除不了时，再次合并照常完成
    What a merge killed while keeping a version leaves in `versions/` is housekeeping for the next merge:
    when it cannot be removed, the next merge still keeps its own whole version and is carried out, as
    with an old version that cannot be removed (SKL-040).
    Given 技能 "git-commit" 已有 2 个旧版本 `2026-01-01-001` 至 `2026-01-01-002`
    And 已安装技能 "git-commit" 中还有一个 16 MB 的文件 "data/corpus.bin"
    And 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    When 另一个进程把 "commit-helper" 合并进 "git-commit"，在其旧版本目录中出现第一个新条目时被强行终止
    Given 模型的合并结果依次为描述如下的 SKILL.md
      | description |
      | 合并结果    |
    When 在被终止的进程留在旧版本目录中的条目无法删除时用技能导入器执行 `skill:import <源目录> --merge=commit-helper:git-commit`
    Then `skill:import` 的 stdout 应为 "Imported: commit-helper → git-commit"
    And 已安装技能 "git-commit" 的描述应为 "合并结果"
    And 技能 "git-commit" 的旧版本应为 "2026-01-01-001、2026-01-01-002"，再加上与合并前的技能完全相同的版本

  @SKL-061 @beyond-seed
  Scenario: 旧版本无法保存时 `--merge` 列入 Skipped 并记录错误，目标技能不变
    A merge replaces the target's SKILL.md only once its old files are kept as a version; when they
    cannot be (here `versions` is a file), the merge is not carried out and the import goes on.
    Given 技能 "git-commit" 的 `versions` 是一个普通文件
    And 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型的合并请求会回复一份合并结果
    When 用技能导入器执行 `skill:import <源目录> --merge=commit-helper:git-commit`
    Then `skill:import` 的退出码应为 0
    And `skill:import` 的 stdout 应为 "Skipped: commit-helper"
    And 已安装技能 "git-commit" 的描述仍应为 "Write conventional commits"
    And 技能 "commit-helper" 不应被安装
    And 技能 "git-commit" 的目录中不应留下以 "." 开头的条目
    And `synapse.*` 日志应有 1 条错误，提到 "commit-helper"

  @SKL-076 @beyond-seed
  Scenario: 旧版本目录中的普通文件不算旧版本，既不占保留名额，也不随旧版本删除
    Versions are the directories of `versions/`, as the original lists them: a file there (a note, an
    archive) neither takes the place of a version nor goes with the old ones.
    Given 环境变量 `SYNAPSE_SKILL_MAX_VERSIONS` 为 `2`
    And 技能 "git-commit" 已有 2 个旧版本 `2026-01-01-001` 至 `2026-01-01-002`
    And 技能 "git-commit" 的 `versions` 中还有一个普通文件 "notes.txt"
    And 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型的合并结果依次为描述如下的 SKILL.md
      | description |
      | 第一次合并  |
    When 用技能导入器执行 1 次 `skill:import <源目录> --merge=commit-helper:git-commit`
    Then 已安装技能 "git-commit" 的描述应为 "第一次合并"
    And 技能 "git-commit" 应保留 2 个旧版本，最新的描述为 "Write conventional commits"，最早的 `2026-01-01-001` 已被删除
    And 技能 "git-commit" 的 `versions` 中的普通文件 "notes.txt" 应原样保留

  @SKL-084 @beyond-seed
  Scenario: 旧版本目录中以 "." 开头的目录不算旧版本，既不占保留名额，也不随旧版本删除
    A hidden directory of `versions/` (a tool's own folder, a copy being staged) is no version, as the
    original's skill list shows them (REPL-050): the number of versions kept neither counts it nor removes
    it. (The original's clean-up after a merge counts it and, sorting it before every dated name, removes
    it as the oldest version.)
    Given 环境变量 `SYNAPSE_SKILL_MAX_VERSIONS` 为 `2`
    And 技能 "git-commit" 已有 2 个旧版本 `2026-01-01-001` 至 `2026-01-01-002`
    And 技能 "git-commit" 的 `versions` 中还有一个以 "." 开头的目录 ".git"
    And 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型的合并结果依次为描述如下的 SKILL.md
      | description |
      | 第一次合并  |
    When 用技能导入器执行 1 次 `skill:import <源目录> --merge=commit-helper:git-commit`
    Then 已安装技能 "git-commit" 的描述应为 "第一次合并"
    And 技能 "git-commit" 不以 "." 开头的旧版本应有 2 个，最新的描述为 "Write conventional commits"，最早的 `2026-01-01-001` 已被删除
    And 技能 "git-commit" 的 `versions` 中以 "." 开头的目录 ".git" 应原样保留

  @SKL-085 @beyond-seed
  Scenario: 合并结果写不下（磁盘已满）时 `--merge` 列入 Skipped 并记录错误，目标技能不变且不留下写了一半的文件
    The merged SKILL.md is written beside the old one and replaces it only when whole: when the disk
    fills up part way, the target keeps its SKILL.md and nothing half written stays in its directory.
    Given 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型的合并结果是一份 64 KiB 的 SKILL.md
    When 在实现进程只能写入 `4096` 字节以内的文件时用技能导入器执行 `skill:import <源目录> --merge=commit-helper:git-commit`
    Then `skill:import` 的退出码应为 0
    And `skill:import` 的 stdout 应为 "Skipped: commit-helper"
    And 已安装技能 "git-commit" 的描述仍应为 "Write conventional commits"
    And 技能 "commit-helper" 不应被安装
    And 技能 "git-commit" 的目录中不应留下以 "." 开头的条目
    And `synapse.*` 日志应有 1 条错误，提到 "commit-helper"

  @SKL-077 @beyond-seed
  Scenario: 旧版本复制不了（技能中有命名管道）时 `--merge` 列入 Skipped，不留下半个旧版本，目标技能不变
    A version is whole or absent: when a file of the skill cannot be copied, the part already copied is
    removed, no version is kept and the merge is not carried out.
    Given 已安装技能 "git-commit" 中有一个命名管道 "events.fifo"
    And 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型的合并请求会回复一份合并结果
    When 用技能导入器执行 `skill:import <源目录> --merge=commit-helper:git-commit`
    Then `skill:import` 的退出码应为 0
    And `skill:import` 的 stdout 应为 "Skipped: commit-helper"
    And 已安装技能 "git-commit" 的描述仍应为 "Write conventional commits"
    And 技能 "git-commit" 不应有旧版本
    And 技能 "git-commit" 的目录中不应留下以 "." 开头的条目
    And `synapse.*` 日志应有 1 条错误，提到 "commit-helper"

  @SKL-040
  Scenario: 删除不了的最早旧版本不妨碍合并，记录一条指出该版本的警告
    Given 技能 "git-commit" 已有 20 个旧版本 `2026-01-01-001` 至 `2026-01-01-020`
    And 技能 "git-commit" 的旧版本 "2026-01-01-001" 中的 SKILL.md 无法删除
    And 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型的合并结果依次为描述如下的 SKILL.md
      | description |
      | 合并结果    |
    When 用技能导入器执行 `skill:import <源目录> --merge=commit-helper:git-commit`
    Then `skill:import` 的 stdout 应为 "Imported: commit-helper → git-commit"
    And 已安装技能 "git-commit" 的描述应为 "合并结果"
    And `synapse.*` 日志应有 1 条警告，提到 "2026-01-01-001"

  @SKL-042
  Scenario: 相似检查中已安装技能的描述只去掉首尾的引号与空白，文字本身原样
    Given 技能目录中还有 SKILL.md 为如下内容的技能 "xml-lint"
      """
      ---
      description: 'XML linting, as XSLTX'
      ---
      """
    And 导入源目录中的技能
      | name     | description     |
      | lint-fix | Fix lint errors |
    And 模型对相似度的回答为
      """
      {"similar": []}
      """
    When 用技能导入器执行 `skill:import <源目录>`
    Then `skill:import` 的 stdout 应为 "Imported: lint-fix"
    And 模型应被询问 1 次，请求中包含 "xml-lint: XML linting, as XSLTX" 与 "git-commit: Write conventional commits"

  @SKL-062
  Scenario: 相似检查中已安装技能的描述含冒号时，第一个冒号之后的文字全部保留
    The original reads a description line as key and value split at the first colon only: a value that
    holds a colon of its own reaches the model whole.
    Given 技能目录中还有 SKILL.md 为如下内容的技能 "release-notes"
      """
      ---
      description: Changelog helper: drafts release notes from commits: grouped by type
      ---
      """
    And 导入源目录中的技能
      | name     | description     |
      | lint-fix | Fix lint errors |
    And 模型对相似度的回答为
      """
      {"similar": []}
      """
    When 用技能导入器执行 `skill:import <源目录>`
    Then `skill:import` 的 stdout 应为 "Imported: lint-fix"
    And 模型应被询问 1 次，请求中包含 "release-notes: Changelog helper: drafts release notes from commits: grouped by type" 与 "git-commit: Write conventional commits"

  @SKL-063
  Scenario: 相似检查中已安装技能的描述只去掉整个包住它的一对引号，开头或结尾的单个引号是文字
    The original's front-matter parser removes quotes only when the same quote begins and ends the value
    (its stripWrappingQuotes).
    Given 技能目录中还有 SKILL.md 为如下内容的技能 "make-check"
      """
      ---
      description: Run "make test"
      ---
      """
    And 技能目录中还有 SKILL.md 为如下内容的技能 "tidy"
      """
      ---
      description: 'lint' then "format"
      ---
      """
    And 导入源目录中的技能
      | name     | description     |
      | lint-fix | Fix lint errors |
    And 模型对相似度的回答为
      """
      {"similar": []}
      """
    When 用技能导入器执行 `skill:import <源目录>`
    Then `skill:import` 的 stdout 应为 "Imported: lint-fix"
    And 模型应被询问 1 次，请求中包含 "make-check: Run "make test"" 与 "tidy: 'lint' then "format""

  @SKL-087 @beyond-seed
  Scenario: 相似检查中已安装技能的描述只在换行处分行，描述中的 U+2028 与换页符留在描述里
    The original splits SKILL.md into lines at a line feed (after an optional carriage return) only; a line
    separator (U+2028) or a form feed inside a description is text, and the description reaches the model
    whole. {U+XXXX} stands for the character of that code point.
    Given 技能目录中还有 SKILL.md 为如下内容的技能 "release-notes"
      """
      ---
      description: Drafts notes{U+2028}from commits{U+000C}by type
      ---
      """
    And 导入源目录中的技能
      | name     | description     |
      | lint-fix | Fix lint errors |
    And 模型对相似度的回答为
      """
      {"similar": []}
      """
    When 用技能导入器执行 `skill:import <源目录>`
    Then `skill:import` 的 stdout 应为 "Imported: lint-fix"
    And 模型应被询问 1 次，请求中包含 "release-notes: Drafts notes{U+2028}from commits{U+000C}by type" 与 "git-commit: Write conventional commits"

  @SKL-043
  Scenario: 技能目录拒绝新建条目时导入的技能列入 Skipped 并记录错误，命令照常结束
    Given 导入源目录中的技能
      | name     | description     |
      | lint-fix | Fix lint errors |
    And 技能目录拒绝新建任何条目
    When 用技能导入器执行 `skill:import <源目录> --continue=lint-fix`
    Then `skill:import` 的 stdout 应为 "Skipped: lint-fix"
    And 已安装的技能应只有 "git-commit"
    And `synapse.*` 日志应有 1 条错误，提到 "lint-fix"

  @SKL-044
  Scenario: 名称长达 250 个字符的技能照常导入
    Given 导入源目录中还有一个名称长 250 个字符的技能
    And 模型对相似度的回答为
      """
      {"similar": []}
      """
    When 用技能导入器执行 `skill:import <源目录>`
    Then `skill:import` 的 stdout 应为 "Imported: " 加上这个 250 个字符的名称，已安装的 SKILL.md 与导入源中的相同

  @SKL-091 @beyond-seed
  Scenario Outline: 名称的字节数接近上限的非 ASCII 技能照常导入 — <字符>
    A directory name may have 255 bytes, not 255 characters: 84 CJK characters take 252 bytes and 63
    emoji outside the BMP 252. Such a skill is imported like the 250-character ASCII one (SKL-044); the
    copy must not fail on a working name that only an ASCII name keeps short enough.
    Given 导入源目录中还有一个名称由 <个数> 个「<字符>」组成的技能
    And 模型对相似度的回答为
      """
      {"similar": []}
      """
    When 用技能导入器执行 `skill:import <源目录>`
    Then `skill:import` 的 stdout 应为 "Imported: " 加上这个由 <个数> 个「<字符>」组成的名称，已安装的 SKILL.md 与导入源中的相同

    Examples:
      | 字符 | 个数 |
      | 技   | 84   |
      | 🔧   | 63   |
      | é    | 127  |

  @SKL-045 @beyond-seed
  Scenario: 导入源是一个文件而不是目录时以错误结束，指出该路径不是目录，且不安装任何技能
    The original refuses such a source with `Import source is not a directory: <path>` before reading
    anything; no skill is installed and the model is not asked.
    Given 导入源目录中有一个普通文件 `notes.md`
    When 用技能导入器执行 `skill:import <源目录>/notes.md`
    Then `skill:import` 的退出码应为 1
    And `skill:import` 的 stderr 应包含 "Import source is not a directory:" 紧接着导入源中 `notes.md` 的完整路径
    And 已安装的技能应只有 "git-commit"
    And 导入器不应询问模型

  @SKL-046
  Scenario: `--continue` 指定的技能与已安装技能同名时仍报告冲突且不覆盖已安装的技能
    The original checks every source skill for a name conflict first; `--continue` only skips the
    similarity check, it never overwrites an installed skill.
    Given 导入源目录中的技能
      | name       | description               |
      | git-commit | Another way to commit     |
    When 用技能导入器执行 `skill:import <源目录> --continue=git-commit`
    Then `skill:import` 的 stdout 应包含 "Conflicts:" 与 "  - git-commit"
    And 已安装技能 "git-commit" 的描述仍应为 "Write conventional commits"
    And 导入器不应询问模型

  @SKL-092 @beyond-seed
  Scenario: 同一个技能既由 `--continue` 又由 `--merge` 指定时按 `--continue` 原样导入，不询问模型
    The original tries `--continue` before `--merge`: a skill named by both is copied as it is, the
    installed merge target is left alone and the model is not asked.
    Given 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    When 用技能导入器执行 `skill:import <源目录> --continue=commit-helper --merge=commit-helper:git-commit`
    Then `skill:import` 的 stdout 应为 "Imported: commit-helper"
    And 已安装技能 "commit-helper" 的 SKILL.md 应与导入源中的相同
    And 已安装技能 "git-commit" 的描述仍应为 "Write conventional commits"
    And 技能 "git-commit" 不应有旧版本
    And 导入器不应询问模型

  @SKL-093 @beyond-seed
  Scenario: 同一次导入中先装好的技能也在后一个技能的相似检查之列
    The original lists the installed skills again for every source skill, so a skill the same import has
    just installed is offered to the model when the next one is checked, and can be the one it resembles.
    Given 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
      | commit-lint   | Checks commit messages        |
    And 模型对相似度的回答依次为
      | answer                                                                              |
      | {"similar": []}                                                                     |
      | {"similar": [{"name": "commit-helper", "reason": "Both handle commit messages"}]} |
    When 用技能导入器执行 `skill:import <源目录>`
    Then `skill:import` 的 stdout 应为
      """
      Imported: commit-helper
      Similar Skills:
        - commit-lint ~ commit-helper: Both handle commit messages
          --continue=commit-lint
          --merge=commit-lint:commit-helper
      """
    And 模型应被询问 2 次，其最后一条 user 消息应包含如下文本
      """
      Existing skills:
      - commit-helper: Helps writing commit messages
      - git-commit: Write conventional commits
      """
    And 技能 "commit-lint" 不应被安装

  @SKL-094 @beyond-seed
  Scenario: 模型分成几个片段回复的合并结果按片段直接相连写入 SKILL.md，非文本片段不计入
    A reply may come in several parts (a provider streams them, a model thinks in between); as the
    agent's final reply (AGT-087), the merged SKILL.md is its text parts put together as they came, so
    no blank line appears where two parts meet.
    Given 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型的合并结果依次由以下片段组成
      | type     | text                                                                        |
      | text     | ---\ndescription: Write conventional commits, with help for the message\n---\n |
      | thinking | 再确认一下格式                                                                |
      | text     | # git-commit (merged)\n                                                     |
    When 用技能导入器执行 `skill:import <源目录> --merge=commit-helper:git-commit`
    Then `skill:import` 的 stdout 应为 "Imported: commit-helper → git-commit"
    And 已安装技能 "git-commit" 的 SKILL.md 应为各文本片段直接相连、去掉首尾空白，以一个换行结尾
    And 已安装技能 "git-commit" 的描述应为 "Write conventional commits, with help for the message"

  @SKL-095 @beyond-seed
  Scenario: 导入的技能不带导入源中的 `versions/`，装好的技能没有旧版本
    The original installs a source skill with its snapshot copy, which leaves `versions/` out: a skill
    imported from another installation does not bring that installation's old versions, and the one
    installed here starts with none.
    Given 导入源目录中的技能
      | name     | description     |
      | lint-fix | Fix lint errors |
    And 导入源技能 "lint-fix" 带着另一处安装留下的旧版本 "2026-01-01-001"
    When 用技能导入器执行 `skill:import <源目录> --continue=lint-fix`
    Then `skill:import` 的 stdout 应为 "Imported: lint-fix"
    And 已安装技能 "lint-fix" 的 SKILL.md 应与导入源中的相同
    And 技能 "lint-fix" 不应有旧版本
    And 导入器不应询问模型

  @SKL-047
  Scenario Outline: 旧版本按 UTC 日期命名，实现进程的时区不是 UTC 时也一样 — <zone>
    The original names a version after toISOString(), the UTC date. The two zones lie 26 hours apart, so
    at any time of day at least one of them is on another date than UTC.
    Given 实现进程的时区为 `<zone>`（环境变量 TZ），与 UTC 相差 <hours> 小时
    And 技能 "git-commit" 已有今天（UTC）的旧版本 "001"
    And 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型的合并结果依次为描述如下的 SKILL.md
      | description |
      | 合并结果    |
    When 用技能导入器执行 `skill:import <源目录> --merge=commit-helper:git-commit`
    Then `skill:import` 的 stdout 应为 "Imported: commit-helper → git-commit"
    And 技能 "git-commit" 今天（UTC）的旧版本应为 "001、002"，其中 "002" 的描述为 "Write conventional commits"

    Examples:
      | zone               | hours |
      | Pacific/Kiritimati | 14    |
      | Etc/GMT+12         | -12   |

  @SKL-078
  Scenario: `--continue` 只认与技能名完全相同的名字，大小写不同的名字不跳过相似检查
    The original skips the similarity check for `continueSkills.includes(name)`: the exact name. A name
    typed in another case names no skill of the source, so the model is still asked and its resemblance
    reported, as without the option.
    Given 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型对相似度的回答为
      """
      {"similar": [{"name": "git-commit", "reason": "Both write commit messages"}]}
      """
    When 用技能导入器执行 `skill:import <源目录> --continue=Commit-Helper`
    Then `skill:import` 的 stdout 应包含 "  - commit-helper ~ git-commit: Both write commit messages" 与 "    --continue=commit-helper"
    And 技能 "commit-helper" 不应被安装
    And 模型应被询问 1 次，请求中包含 "Helps writing commit messages" 与 "git-commit: Write conventional commits"

  @SKL-079
  Scenario: SKILL.md 是符号链接的目录同样是技能，照常导入且链接原样保留
    The original recognises a skill by whether `<dir>/SKILL.md` exists (`fs.access`, which follows a
    link): a skill whose SKILL.md links to a shared copy is imported like any other, the link kept as a link.
    Given 导入源目录中的技能
      | name     | description     |
      | lint-fix | Fix lint errors |
    And 导入源技能 "lint-fix" 的 SKILL.md 换成指向外部目录中同样内容的文件的符号链接
    And 模型对相似度的回答为
      """
      {"similar": []}
      """
    When 用技能导入器执行 `skill:import <源目录>`
    Then `skill:import` 的 stdout 应为 "Imported: lint-fix"
    And 技能目录中的目录应恰好为 "git-commit、lint-fix"
    And 已安装技能 "lint-fix" 中的这些符号链接应原样保留，不被跟随复制

  @SKL-080
  Scenario: 相似检查的请求是原实现的提示：新技能的 SKILL.md 全文与已安装技能的 "- 名称: 描述" 列表，没有描述的技能写作 "No description"
    The original asks the model with the prompt of its skill merger's similarity check (buildSimilarityPrompt
    in skill-merger.ts): the task, the new skill's SKILL.md as it is, one line `- <name>: <description>`
    per installed skill, `No description` for a skill that has none, and the JSON answer it expects. The
    importer's request ends with a user message of exactly that text.
    Given 技能目录中还有 SKILL.md 为如下内容的技能 "scratch"
      """
      # Scratch

      Notes kept without front matter.
      """
    And 导入源目录中的技能
      | name     | description     |
      | lint-fix | Fix lint errors |
    And 模型对相似度的回答为
      """
      {"similar": []}
      """
    When 用技能导入器执行 `skill:import <源目录>`
    Then `skill:import` 的 stdout 应为 "Imported: lint-fix"
    And 模型应被询问 1 次，其最后一条 user 消息应为如下文本，"<SKILL.md>" 代表导入源技能 "lint-fix" 的 SKILL.md 全文
      """
      Analyze whether the new skill is semantically similar to any existing skill.

      New skill content:
      <SKILL.md>

      Existing skills:
      - git-commit: Write conventional commits
      - scratch: No description

      Return JSON only:
      {"similar":[{"name":"existing-skill-name","reason":"why they are similar"}]}

      If none:
      {"similar":[]}
      """

  @SKL-081
  Scenario: `--merge` 的合并请求写明目标技能与原实现的三条合并要求
    The original's merge prompt (buildMergePrompt in skill-merger.ts) names the existing skill to merge
    into, then asks to preserve the useful capabilities of both sides, remove duplicated or conflicting
    instructions and keep a coherent skill definition, in these words; the importer's merge request says
    the same.
    Given 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型的合并结果为
      """
      ---
      description: Write conventional commits, with help for the message
      ---
      # git-commit (merged)
      """
    When 用技能导入器执行 `skill:import <源目录> --merge=commit-helper:git-commit`
    Then `skill:import` 的 stdout 应为 "Imported: commit-helper → git-commit"
    And 模型应被询问 1 次，其最后一条 user 消息应包含如下文本
      """
      existing skill "git-commit".

      Requirements:
      1. Preserve all useful capabilities from both sides.
      2. Remove duplicated or conflicting instructions.
      3. Keep output as a coherent, maintainable skill definition.
      """

  @SKL-083
  Scenario: 导入源不存在时 stderr 是原实现的 `Import source not found: <路径>`
    The original refuses a source that does not exist with `Import source not found: <path>` before
    reading anything, and its command prints that message on stderr with exit code 1.
    When 用技能导入器执行 `skill:import <源目录>/missing`
    Then `skill:import` 的退出码应为 1
    And `skill:import` 的 stderr 应包含 "Import source not found:" 紧接着导入源中 `missing` 的完整路径
    And 已安装的技能应只有 "git-commit"
    And 导入器不应询问模型

  @SKL-088
  Scenario: 导入源唯一的目录 `skills/` 本身是技能、其中没有技能目录时，导入的就是这个技能
    The original unwraps a source whose one visible directory is `skills/` only when that directory holds
    skills; otherwise it lists the source's own directories, and `skills/` holding a SKILL.md is then a
    skill of that name.
    Given 导入源中只有一个目录 `skills/`，它本身含 SKILL.md，其子目录 "scripts" 不含 SKILL.md
    And 模型对相似度的回答为
      """
      {"similar": []}
      """
    When 用技能导入器执行 `skill:import <源目录>`
    Then `skill:import` 的 stdout 应为 "Imported: skills"
    And 技能目录中的目录应恰好为 "git-commit、skills"

  @SKL-089
  Scenario Outline: 相似度回答中含 `<值>` 时不是 JSON，照常导入并记录告警
    The original reads the model's answer with JSON.parse, which refuses NaN and Infinity: such an answer
    is as unreadable as prose (SKL-018), even when it names an installed skill as similar.
    Given 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型对相似度的回答为
      """
      {"similar": [{"name": "git-commit", "reason": "Both write commit messages", "score": <值>}]}
      """
    When 用技能导入器执行 `skill:import <源目录>`
    Then `skill:import` 的 stdout 应为 "Imported: commit-helper"
    And 已安装技能 "commit-helper" 的 SKILL.md 应与导入源中的相同
    And `synapse.*` 日志应有 1 条警告

    Examples:
      | 值        |
      | NaN       |
      | Infinity  |
      | -Infinity |

  @SKL-090
  Scenario: 旧版本目录中今天日期后面不是编号的目录不是旧版本，不打乱当天的编号
    A directory such as `<today>-before-refactor`, made by hand beside the versions, is no version: the next
    version takes the day's next number after the numbered ones, and the hand-made directory stays as it
    was.
    Given 技能 "git-commit" 已有今天（UTC）的旧版本 "001、before-refactor"
    And 导入源目录中的技能
      | name          | description                   |
      | commit-helper | Helps writing commit messages |
    And 模型的合并结果依次为描述如下的 SKILL.md
      | description |
      | 合并结果    |
    When 用技能导入器执行 `skill:import <源目录> --merge=commit-helper:git-commit`
    Then `skill:import` 的 stdout 应为 "Imported: commit-helper → git-commit"
    And 技能 "git-commit" 今天（UTC）的旧版本应为 "001、002、before-refactor"，其中 "002" 的描述为 "Write conventional commits"
