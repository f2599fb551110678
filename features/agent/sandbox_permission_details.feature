@agent @beyond-seed
Feature: 沙箱授权请求与回答的细节
  原实现（`SandboxPermissionHandler`）如何补全缺省字段、在同一轮多个工具调用中选出请求，以及各选项的回答文本
  （参考说明中的原文）。工具集与 Bash 工具是记录调用的替身。

  How the original's `SandboxPermissionHandler` fills in missing fields, picks the request among several
  tool calls of one round, and words the answer for each option (the original texts of the reference notes).
  The toolset and the Bash tool are recording doubles.

  @AGT-022
  Scenario: 拦截结果没有原因、资源不是字符串时使用默认值，run 返回拦截原因
    Given Agent 首轮工具调用被沙箱拦截，结果没有 message 且 `extras.resource` 不是字符串
    When 执行 `runner.run(...)`
    Then run 应返回 "Sandbox blocked command execution"
    And 待处理的权限请求的资源、原因与命令应为:
      | resource         | reason                            | command           |
      | unknown-resource | Sandbox blocked command execution | cat ~/.ssh/id_rsa |

  @AGT-023
  Scenario: 同一轮多个工具调用时按第一个被拦截的调用提出权限请求
    Given 模型首轮同时调用这些 Bash 命令，结果依次为（拦截的资源是命令的最后一个参数）:
      | command           | result      |
      | ls ~/.ssh         | 成功        |
      | cat ~/.ssh/id_rsa | 拦截        |
      | cat ~/.aws/config | 拦截        |
    When 调用 `runner.step("读取密钥")`
    Then 返回状态应为 `requires_permission`
    And permission 的资源、原因与命令应为:
      | resource      | reason         | command           |
      | ~/.ssh/id_rsa | deny file-read | cat ~/.ssh/id_rsa |
    And 本轮 3 个工具调用都应执行，历史以该轮的 assistant 消息与 3 条 tool 结果结束

  @AGT-024
  Scenario Outline: 权限请求的命令只取自 Bash 调用的 `command` 参数
    Given 模型首轮调用工具 "<tool>"，参数为 `<arguments>`，结果被沙箱拦截
    When 调用 `runner.step("读取密钥")`
    Then 返回状态应为 `requires_permission`
    And permission 的命令应为 "<command>"

    Examples:
      | tool | arguments                                            | command         |
      | Bash | {"command":"cat /etc/shadow"}                        | cat /etc/shadow |
      | Read | {"command":"cat /etc/shadow"}                        |                 |
      | Bash | {"cmd":"cat /etc/shadow"}                            |                 |
      | Bash | {"command":["cat","x"]}                              |                 |
      | Bash | ["cat /etc/shadow"]                                  |                 |
      | Bash | cat /etc/shadow                                      |                 |
      | Bash | {"command":"cat /etc/shadow","timeout":NaN}          |                 |
      | Bash | {"command":"cat /etc/shadow","limits":[1,-Infinity]} |                 |

  @AGT-025
  Scenario Outline: 授权写入白名单的是资源所在目录，目录资源保持原样
    Given 已存在 pending sandbox permission
      | resource   | command      |
      | <resource> | cat ~/.netrc |
    When 调用 `resolveSandboxPermission('<option>')`
    Then Bash 工具应只被调用 `<method>("<path>", cwd)` 一次，随后重试命令

    Examples:
      | option          | method         | resource         | path      |
      | allow_session   | allowSession   | ~/.ssh/id_rsa    | ~/.ssh    |
      | allow_session   | allowSession   | /etc/ssl/        | /etc/ssl/ |
      | allow_permanent | allowPermanent | /                | /         |
      | allow_session   | allowSession   | id_rsa           | .         |
      | allow_permanent | allowPermanent | unknown-resource | .         |
      | allow_session   | allowSession   |                  |           |
      | allow_session   | allowSession   | /netrc           | /         |

  @AGT-026
  Scenario Outline: `allow_once` 的回答由无沙盒执行的 stdout、stderr 与退出码组成
    Given 已存在 pending sandbox permission
      | resource      | command           |
      | ~/.ssh/id_rsa | cat ~/.ssh/id_rsa |
    And 无沙盒执行将输出 stdout "<stdout>"、stderr "<stderr>"，退出码 <code>
    When 调用 `resolveSandboxPermission('allow_once')`
    Then 回答应为 "<answer>"

    Examples:
      | stdout   | stderr         | code | answer                                     |
      | key-data |                | 0    | key-data                                   |
      | key-data | warning: perms | 0    | key-data\\n\\n[stderr]\\nwarning: perms    |
      |          | denied         | 1    | [stderr]\\ndenied                          |
      |          |                | 2    | (Command exited with code 2)               |
      | \\n      |                | 0    | \\n                                        |

  @AGT-027
  Scenario Outline: 授权后重试的回答由重试结果的 output 与 message 组成
    Given 已存在 pending sandbox permission
      | resource      | command           |
      | ~/.ssh/id_rsa | cat ~/.ssh/id_rsa |
    And 重试命令将返回 output "<output>"、message "<message>"
    When 调用 `resolveSandboxPermission('<option>')`
    Then 回答应为 "<answer>"

    Examples:
      | option          | output   | message     | answer                                          |
      | allow_session   | retry-ok |             | retry-ok                                        |
      | allow_permanent | retry-ok | exit code 0 | retry-ok\\n\\nexit code 0                       |
      | allow_session   |          | exit code 0 | exit code 0                                     |
      | allow_permanent |          |             | (Command executed successfully with no output)  |
      | allow_session   | \\n      |             | \\n                                             |

  @AGT-028
  Scenario: 工具集没有 Bash 工具时回答失败，请求保持待处理
    Given 已存在 pending sandbox permission
      | resource      | command           |
      | ~/.ssh/id_rsa | cat ~/.ssh/id_rsa |
    And 工具集中没有 Bash 工具
    When 调用 `resolveSandboxPermission('allow_once')`
    Then 应抛出 `Bash tool is unavailable for sandbox permission handling`
    And 待处理的权限请求应仍是原来的请求

  @AGT-029
  Scenario: 未知的选项被拒绝，请求保持待处理
    Given 已存在 pending sandbox permission
      | resource      | command           |
      | ~/.ssh/id_rsa | cat ~/.ssh/id_rsa |
    When 调用 `resolveSandboxPermission('allow_forever')`
    Then 应抛出错误并指出未知的选项 "allow_forever"
    And 待处理的权限请求应仍是原来的请求
    And 不应调用 `allowSession`、`allowPermanent`、`executeUnsandboxed`
    And 不应调用 `bashTool.call`

  @AGT-030
  Scenario: 未指定工作目录时在当前进程目录执行
    Given runner 创建时不指定工作目录
    And 已存在 pending sandbox permission
      | resource      | command           |
      | ~/.ssh/id_rsa | cat ~/.ssh/id_rsa |
    When 调用 `resolveSandboxPermission('allow_once')`
    Then 应调用 `bashTool.executeUnsandboxed(command, cwd)`

  @AGT-101
  Scenario: 被拦截的命令在拦截前已有输出时，权限请求的原因仍只是拦截原因
    The reason of the request is the blocked result's message alone (the original's
    returnValue.message, else `Sandbox blocked command execution`): output the command printed before
    the sandbox stopped it stays in the tool message the model sees and never becomes the question the
    user is asked.
    Given Agent 首轮工具调用被沙箱拦截，结果的 output 为 "id_rsa\nid_rsa.pub\n"，message 为 "deny file-read"
    When 执行 `runner.run(...)`
    Then run 应返回 "deny file-read"
    And 待处理的权限请求的资源、原因与命令应为:
      | resource      | reason         | command                         |
      | ~/.ssh/id_rsa | deny file-read | ls ~/.ssh && cat ~/.ssh/id_rsa |
