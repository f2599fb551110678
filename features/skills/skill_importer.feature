@skills @beyond-seed
Feature: 技能导入器：冲突、相似检查、--continue 与 --merge
  The seed checks what `skill:import` prints; these scenarios hold the importer behind it to what the
  printed advice promises. A skill of an installed name is a conflict and is never overwritten; otherwise
  the model is asked whether the skill resembles an installed one, and a resemblance is reported instead of
  importing. `--continue=<name>` imports without asking; `--merge=<name>:<target>` asks the model to merge
  the skill into the installed target, whose previous files are kept as a version. An answer the importer
  cannot parse never blocks an import. Files on disk, the command's output and the model's requests are
  what is checked.

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
