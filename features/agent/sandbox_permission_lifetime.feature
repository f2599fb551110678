@agent @seed-001 @beyond-seed
Feature: 待处理的权限请求只属于提出它的那一轮
  A pending sandbox permission request belongs to the turn that raised it: once a new request starts
  (whether it completes, is aborted, fails or is blocked again) or the request is answered (even when
  carrying out the answer fails), allow_once can never run the old blocked command.

  原实现的待处理权限请求会一直保留到被回答：沙箱拦截一条命令后，用户转而发出别的请求（或中止它），之后
  回答 `allow_once` 仍会在沙箱外执行那条早已无关的旧命令。权限请求只在提出它的那一轮有效：新的用户请求
  一开始（无论之后完成、被中止、失败还是又被拦截），以及请求被回答之后（即使执行回答时出错），都不应再有
  这个待处理的请求，旧命令也不会再被执行。工具集与 Bash 工具是记录调用的替身。

  Background:
    Given 沙箱拦截了 `cat ~/.ssh/id_rsa`，runner 正在等待权限回答

  @AGT-052
  Scenario Outline: 之后的请求或回答结束后，旧的权限请求不再待处理
    When 接着发生<之后发生的事>
    Then 这次操作应<结果>
    And 旧的权限请求不应再待处理
    And 之后回答 `allow_once` 不应在沙箱外执行旧命令

    Examples:
      | 之后发生的事                       | 结果             |
      | 以 step 完成的新请求               | 完成             |
      | 以 run 完成的新请求                | 完成             |
      | 开始前就已中止的新请求             | 被中止           |
      | 工具执行时被中止的新请求           | 被中止           |
      | 模型调用失败的新请求               | 因模型错误失败   |
      | 又被沙箱拦截的新请求               | 提出新的权限请求 |
      | 回答 deny                          | 得到回答         |
      | 回答 allow_once                    | 得到回答         |
      | 回答 allow_session                 | 得到回答         |
      | 执行时出错的回答 allow_once        | 因执行错误失败   |
      | 执行时出错的回答 allow_permanent   | 因执行错误失败   |
