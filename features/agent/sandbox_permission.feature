@agent @seed-004
Feature: 沙箱授权交互闭环
  沙箱拦截命令后，AgentRunner 把拦截变成等待用户回答的权限请求，并按用户的选择通过 Bash 工具执行。
  工具集与 Bash 工具是记录调用的替身；runner 的工作目录是一个临时目录。

  When the sandbox blocks a command, the AgentRunner turns the block into a permission request that waits
  for the user's answer, and runs the command through the Bash tool as the user chose. The toolset and the
  Bash tool are recording doubles; the runner's working directory is a temporary directory.

  @AGT-001
  Scenario: 遇到受限资源时返回 `requires_permission`
    Given Agent 首轮工具调用返回 `extras.type=sandbox_blocked`
      | tool | command           | message        |
      | Bash | cat ~/.ssh/id_rsa | deny file-read |
    And block 资源为 `~/.ssh/id_rsa`
    When 调用 `runner.step("读取密钥")`
    Then 返回状态应为 `requires_permission`
    And `permission.type` 应为 `sandbox_access`
    And `permission.options` 应为 `allow_once|allow_session|allow_permanent|deny`
    And permission 的资源、原因与命令应为:
      | resource      | reason         | command           |
      | ~/.ssh/id_rsa | deny file-read | cat ~/.ssh/id_rsa |
    And runner 应停在权限请求处：模型只被调用 1 次，工具只执行 1 次

  @AGT-002
  Scenario: 选择 `allow_once` 走无沙盒单次执行
    Given 已存在 pending sandbox permission
      | resource      | command           |
      | ~/.ssh/id_rsa | cat ~/.ssh/id_rsa |
    And 无沙盒执行将输出 "unsandboxed-output"
    When 调用 `resolveSandboxPermission('allow_once')`
    Then 应调用 `bashTool.executeUnsandboxed(command, cwd)`
    And 返回输出应包含无沙盒执行结果
    And 不应调用 `allowSession`、`allowPermanent`、`bashTool.call`

  @AGT-003
  Scenario: 选择 `allow_session` 添加会话白名单并重试命令
    Given 已存在 pending sandbox permission，资源为 `~/.ssh/id_rsa`
      | command           |
      | cat ~/.ssh/id_rsa |
    And 重试命令将输出 "retry-ok"
    When 调用 `resolveSandboxPermission('allow_session')`
    Then 应调用 `allowSession('~/.ssh', cwd)`
    And 随后调用 `bashTool.call({ command })` 重试
    And 返回输出应包含重试结果
    And 不应调用 `allowPermanent`、`executeUnsandboxed`

  @AGT-004
  Scenario: 选择 `allow_permanent` 写入永久授权并重试
    Given 已存在 pending sandbox permission
      | resource      | command           |
      | ~/.ssh/id_rsa | cat ~/.ssh/id_rsa |
    And 重试命令将输出 "retry-ok"
    When 调用 `resolveSandboxPermission('allow_permanent')`
    Then 应调用 `allowPermanent('<resource-dir>', cwd)`
    And `<resource-dir>` 应为 `~/.ssh`
    And 随后调用 `bashTool.call({ command })` 重试
    And 返回输出应包含重试结果
    And 不应调用 `allowSession`、`executeUnsandboxed`

  @AGT-005
  Scenario: 选择 `deny` 返回拒绝信息且不执行命令
    Given 已存在 pending sandbox permission
      | resource      | command           |
      | ~/.ssh/id_rsa | cat ~/.ssh/id_rsa |
    When 调用 `resolveSandboxPermission('deny')`
    Then 返回应包含 `User denied access`
    And 拒绝信息应指明资源 `~/.ssh/id_rsa`
    And 回答应为 "User denied access to ~/.ssh/id_rsa"
    And 不应调用 `allowSession`、`allowPermanent`、`executeUnsandboxed`
    And 不应调用 `bashTool.call`
    And 之后不应再有 pending 权限请求

  @AGT-006
  Scenario Outline: 无 pending 权限时 resolve 应报错
    Given <情形>
    And 当前没有待处理的 permission 请求
    When 调用 `resolveSandboxPermission('allow_once')`
    Then 应抛出 `No pending sandbox permission request`
    And 不应调用 `allowSession`、`allowPermanent`、`executeUnsandboxed`
    And 不应调用 `bashTool.call`

    Examples:
      | 情形                       |
      | runner 尚未处理过任何请求  |
      | 上一个权限请求已被回答     |
