@skills @beyond-seed
Feature: 技能目录尚不存在时的首次导入
  A fresh installation has no skills directory yet, nor maybe the directory above it. The first
  `skill:import` creates them; with no installed skill there is nothing to compare with, so the model is
  not asked.

  @SKL-041
  Scenario: 技能目录及其上级目录都不存在时导入应创建它们并安装技能，且不询问模型
    Given 技能目录及其上级目录尚不存在
    And 导入源目录中的技能
      | name     | description     |
      | lint-fix | Fix lint errors |
    When 用技能导入器执行 `skill:import <源目录>`
    Then `skill:import` 的 stdout 应为 "Imported: lint-fix"
    And 技能目录中的目录应恰好为 "lint-fix"
    And 已安装技能 "lint-fix" 的 SKILL.md 应与导入源中的相同
    And 导入器不应询问模型
