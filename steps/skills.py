"""Step definitions for the skill-import feedback features (seed 003).

The import itself is a port: a pytest-mock double of ``SkillImportManager`` (autospecced from the contract,
so a call with the wrong signature fails) returns the conflicts / similar skills of the scenario, and the
steps check both what the handler prints and what it passed to the port.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, cast

import pytest
from pytest_bdd import given, parsers, then, when
from pytest_mock import MockerFixture

from steps.support import PartsModel, parts_of
from synapse_spec import cells, contract, probes

SOURCE = "/tmp/incoming"

# "Rename the conflicting skills in the source directory and re-import", in English or Chinese.
RENAME = re.compile(r"\brenam|重命名|改名|修改.{0,12}名称", re.IGNORECASE)
SOURCE_DIR = re.compile(r"\bsource\b|源目录|源文件夹|导入源|来源目录", re.IGNORECASE)
REIMPORT = re.compile(r"\bre-?import|\bimport\b.{0,20}\bagain\b|重新导入|再次导入", re.IGNORECASE)
GUIDANCE = (("rename", RENAME), ("in the source directory", SOURCE_DIR), ("re-import", REIMPORT))
RENAME_GUIDANCE_LINE = "<改名并重新导入的指引>"
# The first line of the original's help text.
HELP_TITLE = "skill:import - Import skills from local directory or remote URL"


@dataclass
class SkillsContext:
    manager: Any
    handler: contract.SkillCommandHandler
    result: contract.CommandResult | None = None
    command: str = ""
    names: Sequence[str] = ()
    similar: Sequence[Mapping[str, str]] = ()

    def output(self) -> str:
        assert self.result is not None, "the command was not run"
        return self.result.stdout

    def import_call(self) -> tuple[str, Sequence[str], Sequence[Sequence[str]]]:
        """(source, continue_skills, merge_into) of the single call the handler made to the port."""
        calls = self.manager.import_skills.call_args_list
        assert len(calls) == 1, (
            f"`{self.command}` must call SkillImportManager.import_skills once, got {len(calls)}"
        )
        call = calls[0]
        source = call.args[0] if call.args else call.kwargs.get("source")
        return (
            source,
            list(call.kwargs.get("continue_skills", ())),
            [tuple(pair) for pair in call.kwargs.get("merge_into", ())],
        )


@pytest.fixture
def skills_ctx(synapse: contract.Implementation, mocker: MockerFixture) -> SkillsContext:
    manager = mocker.create_autospec(contract.SkillImportManager, instance=True)
    manager.import_skills.return_value = {"imported": [], "skipped": [], "conflicts": [], "similar": []}
    return SkillsContext(manager=manager, handler=synapse.skill_command_handler(manager))


def _rows(datatable: list[list[str]]) -> list[dict[str, str]]:
    header, *rows = datatable
    return [dict(zip(header, row, strict=True)) for row in rows]


def _has_option(text: str, option: str) -> bool:
    """Whether ``--opt=value`` is offered, alone or as one item of a comma-separated ``--opt=a,value``."""
    name, _, value = option.partition("=")
    pattern = rf"{re.escape(name)}=(?:[\w.:-]+,)*{re.escape(value)}(?![\w:-])"
    return re.search(pattern, text) is not None


# --------------------------------------------------------------------------------------------------------
# Seed scenarios
# --------------------------------------------------------------------------------------------------------


@given("`skill:import` 返回命名冲突列表")
def skills_conflicts(skills_ctx: SkillsContext, datatable: list[list[str]]) -> None:
    conflicts = _rows(datatable)
    skills_ctx.names = [c["name"] for c in conflicts]
    skills_ctx.manager.import_skills.return_value = {
        "imported": [],
        "skipped": [],
        "conflicts": conflicts,
        "similar": [],
    }


@given("`skill:import` 返回 similar 列表")
def skills_similar(skills_ctx: SkillsContext, datatable: list[list[str]]) -> None:
    skills_ctx.similar = _rows(datatable)
    skills_ctx.names = [s["name"] for s in skills_ctx.similar]
    skills_ctx.manager.import_skills.return_value = {
        "imported": [],
        "skipped": [],
        "conflicts": [],
        "similar": list(skills_ctx.similar),
    }


@when("Handler 格式化输出")
@when("Handler 生成提示文本")
def skills_run_import(skills_ctx: SkillsContext) -> None:
    skills_ctx.command = f"skill:import {SOURCE}"
    skills_ctx.result = skills_ctx.handler.execute(skills_ctx.command)


@then("输出应包含冲突 skill 名称")
def skills_conflict_names(skills_ctx: SkillsContext) -> None:
    out = skills_ctx.output()
    missing = [
        name for name in skills_ctx.names if not re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", out)
    ]
    assert not missing, f"the import output must name every conflicting skill; missing {missing} in {out!r}"


@then("给出“修改源目录名称后重新导入”的明确指引")
def skills_rename_guidance(skills_ctx: SkillsContext) -> None:
    out = skills_ctx.output()
    lacking = [what for what, pattern in GUIDANCE if not pattern.search(out)]
    assert not lacking, (
        "after a name conflict the output must tell the user to rename the skills in the source directory "
        "and "
        f"import again (English or Chinese); it does not say: {', '.join(lacking)}. Output: {out!r}"
    )


@then("Handler 应把命令中的导入源原样交给导入器")
def skills_source_passed(skills_ctx: SkillsContext) -> None:
    source, _, _ = skills_ctx.import_call()
    assert source == SOURCE, (
        f"`{skills_ctx.command}` must pass the source {SOURCE!r} to the importer, got {source!r}"
    )


@then("输出应包含 `--continue=<skill>` 示例")
def skills_continue_examples(skills_ctx: SkillsContext) -> None:
    out = skills_ctx.output()
    missing = [
        f"--continue={s['name']}"
        for s in skills_ctx.similar
        if not _has_option(out, f"--continue={s['name']}")
    ]
    assert not missing, (
        f"each similar skill needs a ready-to-use `--continue=<skill>` example; missing {missing} in {out!r}"
    )


@then("同时包含 `--merge=<source>:<target>` 示例")
def skills_merge_examples(skills_ctx: SkillsContext) -> None:
    out = skills_ctx.output()
    wanted = [f"--merge={s['name']}:{s['similarTo']}" for s in skills_ctx.similar]
    missing = [option for option in wanted if not _has_option(out, option)]
    assert not missing, (
        "each similar skill needs a `--merge=<source>:<target>` example merging the imported skill into the "
        f"existing similar one; missing {missing} in {out!r}"
    )


# --------------------------------------------------------------------------------------------------------
# Options and errors (beyond the seed)
# --------------------------------------------------------------------------------------------------------


@given("`skill:import` 的导入器什么也没有导入")
def skills_nothing_imported(skills_ctx: SkillsContext) -> None:
    skills_ctx.manager.import_skills.return_value = {
        "imported": [],
        "skipped": [],
        "conflicts": [],
        "similar": [],
    }


@given(parsers.parse('`skill:import` 的导入器抛出错误 "{message}"'))
def skills_importer_fails(skills_ctx: SkillsContext, message: str) -> None:
    skills_ctx.manager.import_skills.side_effect = RuntimeError(message)


@when(parsers.re(r"执行 skill 命令 `(?P<command>[^`]+)`"))
def skills_execute(skills_ctx: SkillsContext, command: str) -> None:
    skills_ctx.command = command
    skills_ctx.result = skills_ctx.handler.execute(command)


@then(parsers.parse("导入器收到的导入源应为 `{source}`"))
def skills_received_source(skills_ctx: SkillsContext, source: str) -> None:
    got, _, _ = skills_ctx.import_call()
    assert got == source, (
        f"`{skills_ctx.command}` must pass the source {source!r} to the importer, got {got!r}"
    )


@then(parsers.parse("导入器收到的导入源按 JSON 字符串应为 `{source_json}`"))
def skills_received_source_json(skills_ctx: SkillsContext, source_json: str) -> None:
    skills_received_source(skills_ctx, json.loads(source_json))


@then(parsers.re(r"导入器收到的 continueSkills 应为 `(?P<names>[^`]*)`"))
def skills_received_continue(skills_ctx: SkillsContext, names: str) -> None:
    expected = [n.strip() for n in names.split(",") if n.strip()]
    _, got, _ = skills_ctx.import_call()
    assert got == expected, (
        f"`{skills_ctx.command}` must pass continue_skills={expected} to the importer, got {got}"
    )


@then(parsers.re(r"导入器收到的 mergeInto 应为 `(?P<pairs>[^`]*)`"))
def skills_received_merge(skills_ctx: SkillsContext, pairs: str) -> None:
    expected = [tuple(p.strip().split(":")) for p in pairs.split(",") if p.strip()]
    _, _, got = skills_ctx.import_call()
    assert got == expected, (
        f"`{skills_ctx.command}` must pass merge_into={expected} ((source, target) pairs) to the importer, "
        f"got {got}"
    )


@then("`skill:import` 应以退出码 0 结束且 stderr 为空")
def skills_succeeded(skills_ctx: SkillsContext) -> None:
    result = skills_ctx.result
    assert result is not None
    assert (result.exit_code, result.stderr) == (0, ""), (
        f"`{skills_ctx.command}` must succeed (exit 0, empty stderr), got exit {result.exit_code} and stderr "
        f"{result.stderr!r}"
    )


@then(parsers.parse('`skill:import` 的 stderr 应包含 "{text}"'))
def skills_stderr_contains(skills_ctx: SkillsContext, text: str) -> None:
    result = skills_ctx.result
    assert result is not None
    assert text in result.stderr, (
        f"the importer's error {text!r} must be reported on stderr, got {result.stderr!r}"
    )


@then(parsers.parse('`skill:import` 的 stderr 应以 "{text}" 开头'))
def skills_stderr_starts_with(skills_ctx: SkillsContext, text: str) -> None:
    result = skills_ctx.result
    assert result is not None
    assert result.stderr.startswith(text), (
        f"`{skills_ctx.command}` must report {text!r} first on stderr, got {result.stderr!r}"
    )


@then(parsers.parse("`skill:import` 的退出码应为 {code:d}"))
def skills_exit_code(skills_ctx: SkillsContext, code: int) -> None:
    result = skills_ctx.result
    assert result is not None
    assert result.exit_code == code, f"`{skills_ctx.command}` must exit with {code}, got {result.exit_code}"


@then("`skill:import` 应输出用法说明")
def skills_usage_shown(skills_ctx: SkillsContext) -> None:
    result = skills_ctx.result
    assert result is not None
    text = f"{result.stdout}\n{result.stderr}"
    assert HELP_TITLE in text.splitlines(), (
        f"`{skills_ctx.command}` must print the usage of skill:import, whose first line is {HELP_TITLE!r}; "
        f"got {text!r}"
    )


@then("导入器不应被调用")
def skills_importer_not_called(skills_ctx: SkillsContext) -> None:
    calls = skills_ctx.manager.import_skills.call_args_list
    assert not calls, f"`{skills_ctx.command}` must not call the importer, got {calls}"


# --------------------------------------------------------------------------------------------------------
# The whole report and malformed command lines (beyond the seed)
# --------------------------------------------------------------------------------------------------------


@given("`skill:import` 的导入器返回结果")
def skills_import_result(skills_ctx: SkillsContext, docstring: str) -> None:
    result = json.loads(docstring)
    assert set(result) == {"imported", "skipped", "conflicts", "similar"}, f"not an import result: {result}"
    skills_ctx.manager.import_skills.return_value = result


@given("`skill:import` 的导入器抛出不带消息的错误")
def skills_importer_fails_silently(skills_ctx: SkillsContext) -> None:
    skills_ctx.manager.import_skills.side_effect = RuntimeError()


@then("`skill:import` 的 stdout 应为")
def skills_stdout_is(skills_ctx: SkillsContext, docstring: str) -> None:
    """Line by line; the line ``<改名并重新导入的指引>`` is the rename guidance, checked by its meaning."""
    got, expected = skills_ctx.output().split("\n"), docstring.split("\n")
    assert len(got) == len(expected), (
        f"`{skills_ctx.command}` must print {len(expected)} lines:\n{docstring}\ngot {len(got)}:\n"
        f"{skills_ctx.output()}"
    )
    for number, (line, wanted) in enumerate(zip(got, expected, strict=True), start=1):
        if wanted == RENAME_GUIDANCE_LINE:
            lacking = [what for what, pattern in GUIDANCE if not pattern.search(line)]
            assert not lacking, (
                f"line {number} must tell to rename the skills in the source directory and re-import; it "
                f"does not say {', '.join(lacking)}: {line!r}"
            )
        else:
            assert line == wanted, f"line {number} of the output must be {wanted!r}, got {line!r}"


@then("`skill:import` 的 stderr 不应为空")
def skills_stderr_not_empty(skills_ctx: SkillsContext) -> None:
    result = skills_ctx.result
    assert result is not None
    assert result.stderr.strip(), f"`{skills_ctx.command}` must explain its failure on stderr, got nothing"


# --------------------------------------------------------------------------------------------------------
# The importer behind skill:import (beyond the seed): real directories, the scripted model
# --------------------------------------------------------------------------------------------------------

SOURCE_PLACEHOLDER = "<源目录>"


@dataclass
class ImporterContext:
    skills_dir: Path
    source_dir: Path
    llm: contract.ScriptedLLM
    importer: contract.SkillImportManager
    handler: contract.SkillCommandHandler
    outside: Path
    links: dict[str, str] = field(default_factory=dict)
    merge_reply: str = ""
    before_merge: dict[str, str] = field(default_factory=dict)
    killed_entry: str = ""
    result: Mapping[str, Any] | None = None


def _skill_md(description: str) -> str:
    return f"---\ndescription: {description}\n---\n# Skill\n\n{description}.\n"


def _description_of(skill_md: str) -> str:
    found = re.search(r"^description:\s*(.*?)\s*$", skill_md, re.MULTILINE)
    assert found, f"SKILL.md has no description line:\n{skill_md}"
    return found.group(1)


def _write_skills(root: Path, datatable: list[list[str]]) -> None:
    for row in _rows(datatable):
        (root / row["name"]).mkdir(parents=True)
        (root / row["name"] / "SKILL.md").write_text(_skill_md(row["description"]), encoding="utf-8")


@pytest.fixture
def importer_ctx(
    synapse: contract.Implementation, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> ImporterContext:
    caplog.set_level(logging.WARNING, logger="synapse")
    skills_dir, source_dir = tmp_path / "home" / "skills", tmp_path / "incoming"
    skills_dir.mkdir(parents=True)
    source_dir.mkdir()
    llm = synapse.scripted_llm("skill-model")
    importer = synapse.skill_importer(skills_dir, llm)
    return ImporterContext(
        skills_dir,
        source_dir,
        llm,
        importer,
        synapse.skill_command_handler(importer),
        outside=tmp_path / "shared-scripts",
    )


@given("已安装的技能")
def importer_installed(importer_ctx: ImporterContext, datatable: list[list[str]]) -> None:
    _write_skills(importer_ctx.skills_dir, datatable)


@given("导入源目录中的技能")
def importer_source(importer_ctx: ImporterContext, datatable: list[list[str]]) -> None:
    _write_skills(importer_ctx.source_dir, datatable)


@given(parsers.re(r'(?P<where>导入源技能|已安装技能) "(?P<name>[^"]+)" 中有一个命名管道 "(?P<pipe>[^"]+)"'))
def importer_pipe(importer_ctx: ImporterContext, where: str, name: str, pipe: str) -> None:
    root = importer_ctx.source_dir if where == "导入源技能" else importer_ctx.skills_dir
    os.mkfifo(root / name / pipe)


@given(
    parsers.re(
        r'技能目录中还有一个 SKILL.md 为如下内容的技能 "(?P<name>[^"]+)"，以及隐藏目录 "(?P<hidden>[^"]+)" '
        r'与没有 SKILL.md 的目录 "(?P<bare>[^"]+)"'
    )
)
def importer_installed_extra(
    importer_ctx: ImporterContext, name: str, hidden: str, bare: str, docstring: str
) -> None:
    (importer_ctx.skills_dir / name).mkdir()
    (importer_ctx.skills_dir / name / "SKILL.md").write_text(cells.expand(docstring) + "\n", encoding="utf-8")
    (importer_ctx.skills_dir / hidden).mkdir()
    (importer_ctx.skills_dir / hidden / "SKILL.md").write_text(
        _skill_md("A half-copied skill"), encoding="utf-8"
    )
    (importer_ctx.skills_dir / bare).mkdir()


@given(
    parsers.re(
        r'导入源目录中还有文件 "(?P<file>[^"]+)"、没有 SKILL.md 的目录 "(?P<bare>[^"]+)" '
        r'与隐藏的技能目录 "(?P<hidden>[^"]+)"'
    )
)
def importer_source_extra(importer_ctx: ImporterContext, file: str, bare: str, hidden: str) -> None:
    (importer_ctx.source_dir / file).write_text("# Not a skill\n", encoding="utf-8")
    (importer_ctx.source_dir / bare).mkdir()
    (importer_ctx.source_dir / hidden).mkdir()
    (importer_ctx.source_dir / hidden / "SKILL.md").write_text(_skill_md("A cache"), encoding="utf-8")


@given(
    parsers.parse('导入源技能 "{source}" 与已安装技能 "{installed}" 的 SKILL.md 末尾各有一个无效 UTF-8 字节')
)
def importer_invalid_utf8(importer_ctx: ImporterContext, source: str, installed: str) -> None:
    for path in (
        importer_ctx.source_dir / source / "SKILL.md",
        importer_ctx.skills_dir / installed / "SKILL.md",
    ):
        path.write_bytes(path.read_bytes() + b"\xff")


@given("模型对相似度的回答为")
@given("模型的合并结果为")
def importer_model_answers(importer_ctx: ImporterContext, docstring: str) -> None:
    importer_ctx.llm.reply_text(docstring)


@given(parsers.parse('模型的相似度调用以错误 "{message}" 失败'))
@given(parsers.parse('模型的合并调用以错误 "{message}" 失败'))
def importer_model_fails(importer_ctx: ImporterContext, message: str) -> None:
    importer_ctx.llm.fail(RuntimeError(message))


@given("模型对相似度的回答依次为")
def importer_model_answers_in_turn(importer_ctx: ImporterContext, datatable: list[list[str]]) -> None:
    for row in _rows(datatable):
        importer_ctx.llm.reply_text(row["answer"])


@given(parsers.re(r"环境变量 `SYNAPSE_SKILL_MAX_VERSIONS` 为 `(?P<setting>[^`]*)`"))
def importer_max_versions(monkeypatch: pytest.MonkeyPatch, setting: str) -> None:
    if setting == "(未设置)":
        monkeypatch.delenv("SYNAPSE_SKILL_MAX_VERSIONS", raising=False)
    else:
        monkeypatch.setenv("SYNAPSE_SKILL_MAX_VERSIONS", cells.expand(setting))  # {U+FEFF}


@given("模型的合并结果依次为描述如下的 SKILL.md")
def importer_merges_in_turn(importer_ctx: ImporterContext, datatable: list[list[str]]) -> None:
    for row in _rows(datatable):
        importer_ctx.llm.reply_text(_skill_md(row["description"]))


@given(
    parsers.re(
        r'技能 "(?P<name>[^"]+)" 已有 (?P<count>\d+) 个旧版本 `(?P<day>\d{4}-\d{2}-\d{2})-001` 至 `.+`'
    )
)
def importer_existing_versions(importer_ctx: ImporterContext, name: str, count: str, day: str) -> None:
    for number in range(1, int(count) + 1):
        version = importer_ctx.skills_dir / name / "versions" / f"{day}-{number:03d}"
        version.mkdir(parents=True)
        (version / "SKILL.md").write_text(_skill_md(f"旧版本 {number}"), encoding="utf-8")


@given(parsers.re(r"模型的合并请求(?P<how>会回复一份合并结果|抛出错误|回复空白文本|回复字节顺序标记与空白)"))
def importer_merge_model(importer_ctx: ImporterContext, how: str) -> None:
    if how == "会回复一份合并结果":
        importer_ctx.llm.reply_text(_skill_md("A merge that must not be applied"))
    elif how == "抛出错误":
        importer_ctx.llm.fail(RuntimeError("model unavailable"))
    elif how == "回复空白文本":
        importer_ctx.llm.reply_text("  \n")
    elif how == "回复字节顺序标记与空白":
        importer_ctx.llm.reply_text("\ufeff \u00a0\n")  # white space to JavaScript's trim()


SOURCE_LAYOUTS = (
    "一个技能目录本身（含 SKILL.md）",
    "只含 `skills/` 子目录的目录",
    "含 `skills/` 子目录与隐藏目录的目录",
    "技能目录旁另有装着技能的 `skills/` 目录的目录",
    "含 `skills/` 子目录与 README.md、LICENSE 两个文件的目录",
)


@given(parsers.re(r"导入源是(?P<layout>.+)，其中的技能为 \"(?P<name>[^\"]+)\""))
def importer_source_layout(importer_ctx: ImporterContext, layout: str, name: str) -> None:
    assert layout in SOURCE_LAYOUTS, f"the step has no layout {layout!r}"
    root = importer_ctx.source_dir
    if layout == SOURCE_LAYOUTS[0]:
        importer_ctx.source_dir = root / name
        skill = importer_ctx.source_dir
    elif layout == SOURCE_LAYOUTS[3]:
        skill = root / name
        draft = root / "skills" / "draft"
        draft.mkdir(parents=True)
        (draft / "SKILL.md").write_text(_skill_md("A draft kept beside the skills"), encoding="utf-8")
    else:
        skill = root / "skills" / name
        if layout == SOURCE_LAYOUTS[2]:
            (root / ".git").mkdir()
        elif layout == SOURCE_LAYOUTS[4]:
            (root / "README.md").write_text("# Skills of the team\n", encoding="utf-8")
            (root / "LICENSE").write_text("MIT License\n", encoding="utf-8")
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(_skill_md("Fix lint errors"), encoding="utf-8")


@given(parsers.parse('导入源中只有一个目录 `skills/`，它本身含 SKILL.md，其子目录 "{sub}" 不含 SKILL.md'))
def importer_source_skills_is_skill(importer_ctx: ImporterContext, sub: str) -> None:
    skill = importer_ctx.source_dir / "skills"
    (skill / sub).mkdir(parents=True)
    (skill / "SKILL.md").write_text(_skill_md("Skills about skills"), encoding="utf-8")


@when(parsers.re(r"用技能导入器执行 (?P<times>\d+) 次 `(?P<command>[^`]+)`"))
def importer_run_times(
    importer_ctx: ImporterContext, skills_ctx: SkillsContext, times: str, command: str
) -> None:
    skills_ctx.command = command.replace(SOURCE_PLACEHOLDER, str(importer_ctx.source_dir))
    for _ in range(int(times)):
        skills_ctx.result = importer_ctx.handler.execute(skills_ctx.command)
        assert skills_ctx.result.exit_code == 0, f"`{skills_ctx.command}` failed: {skills_ctx.result}"


@when(parsers.re(r"用技能导入器执行 `(?P<command>[^`]+)`"))
def importer_run(importer_ctx: ImporterContext, skills_ctx: SkillsContext, command: str) -> None:
    skills_ctx.command = command.replace(SOURCE_PLACEHOLDER, str(importer_ctx.source_dir))
    skills_ctx.result = importer_ctx.handler.execute(skills_ctx.command)


@given(parsers.parse("模型的合并结果是一份 {size:d} KiB 的 SKILL.md"))
def importer_large_merge(importer_ctx: ImporterContext, size: int) -> None:
    head = _skill_md("A merge too large for the disk")
    importer_ctx.llm.reply_text(head + "Step.\n" * ((size * 1024 - len(head)) // 6))


@when(
    parsers.re(r"在实现进程只能写入 `(?P<limit>\d+)` 字节以内的文件时用技能导入器执行 `(?P<command>[^`]+)`")
)
def importer_run_disk_full(
    importer_ctx: ImporterContext,
    skills_ctx: SkillsContext,
    synapse: contract.Implementation,
    limit: str,
    command: str,
) -> None:
    skills_ctx.command = command.replace(SOURCE_PLACEHOLDER, str(importer_ctx.source_dir))
    # Writes of the implementation's process past the limit fail with EFBIG (a full disk).
    with probes.resource_limit(synapse, probes.RLIMIT_FSIZE, int(limit)):
        skills_ctx.result = importer_ctx.handler.execute(skills_ctx.command)


@then(parsers.parse('`skill:import` 的 stdout 应包含 "{first}" 与 "{second}"'))
def importer_stdout_contains(skills_ctx: SkillsContext, first: str, second: str) -> None:
    lines = skills_ctx.output().splitlines()
    for expected in (first, second):
        assert expected in lines, f"stdout should have the line {expected!r}:\n{skills_ctx.output()}"


@then(parsers.parse('`skill:import` 的 stdout 应为 "{text}"'))
def importer_stdout_is(skills_ctx: SkillsContext, text: str) -> None:
    assert skills_ctx.result is not None and skills_ctx.result.exit_code == 0, skills_ctx.result
    assert skills_ctx.output().strip() == text


@then(parsers.parse('已安装技能 "{name}" 的描述仍应为 "{description}"'))
@then(parsers.parse('已安装技能 "{name}" 的描述应为 "{description}"'))
def importer_installed_description(importer_ctx: ImporterContext, name: str, description: str) -> None:
    skill_md = (importer_ctx.skills_dir / name / "SKILL.md").read_text(encoding="utf-8")
    assert _description_of(skill_md) == description


@then(parsers.parse('已安装技能 "{name}" 的 SKILL.md 应与导入源中的相同'))
def importer_installed_copy(importer_ctx: ImporterContext, name: str) -> None:
    installed = importer_ctx.skills_dir / name / "SKILL.md"
    assert installed.is_file(), f"{name} should be installed at {installed.parent}"
    source = (importer_ctx.source_dir / name / "SKILL.md").read_bytes()
    assert installed.read_bytes() == source, f"{installed} should be a byte-for-byte copy of the source"


@then(parsers.parse('技能 "{name}" 不应被安装'))
def importer_not_installed(importer_ctx: ImporterContext, name: str) -> None:
    assert not (importer_ctx.skills_dir / name).exists(), f"{name} must not be installed"


@then(parsers.parse('已安装的技能应只有 "{name}"'))
def importer_only_installed(importer_ctx: ImporterContext, name: str) -> None:
    assert sorted(p.name for p in importer_ctx.skills_dir.iterdir()) == [name]


@then(parsers.parse('技能 "{name}" 应保留 {count:d} 个旧版本，其描述为 "{description}"'))
def importer_versions(importer_ctx: ImporterContext, name: str, count: int, description: str) -> None:
    versions = importer_ctx.skills_dir / name / "versions"
    kept = sorted(p for p in versions.iterdir() if p.is_dir()) if versions.is_dir() else []
    assert len(kept) == count, f"{name} should keep {count} version(s), has {[p.name for p in kept]}"
    for version in kept:
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}-\d{3}", version.name), f"version name {version.name!r}"
        assert _description_of((version / "SKILL.md").read_text(encoding="utf-8")) == description


@then(parsers.parse('技能 "{name}" 的旧版本从新到旧的描述应为 "{descriptions}"'))
def importer_versions_newest_first(importer_ctx: ImporterContext, name: str, descriptions: str) -> None:
    versions = importer_ctx.skills_dir / name / "versions"
    kept = sorted((p for p in versions.iterdir() if p.is_dir()), reverse=True) if versions.is_dir() else []
    found = [_description_of((version / "SKILL.md").read_text(encoding="utf-8")) for version in kept]
    merges = len(importer_ctx.llm.calls)
    numbers = [p.name.rsplit("-", 1)[-1] for p in kept]
    assert numbers == [f"{n:03d}" for n in range(merges, merges - len(kept), -1)], (
        f"the day's versions are numbered 001, 002, ... in merge order: got {[p.name for p in kept]}"
    )
    assert found == descriptions.split("、"), (
        f"{name} should keep {descriptions!r}, newest first; has {[p.name for p in kept]}: {found}"
    )


@then(parsers.parse('技能目录中的目录应恰好为 "{names}"'))
def importer_skills_dir_entries(importer_ctx: ImporterContext, names: str) -> None:
    """Skills, half-installed copies and stray folders are directories; a file beside them (the original
    keeps its skill index, ``index.json``, there) is none of these."""
    found = sorted(p.name for p in importer_ctx.skills_dir.iterdir() if p.is_dir())
    assert found == sorted(names.split("、")), (
        f"the directories of the skills directory should be exactly {names!r}, are {found}"
    )


@then(
    parsers.re(
        r'技能 "(?P<name>[^"]+)" 应保留 (?P<count>\d+) 个旧版本，最新的描述为 "(?P<newest>[^"]+)"，'
        r"最早的 `(?P<oldest>[^`]+)` 已被删除"
    )
)
def importer_versions_capped(
    importer_ctx: ImporterContext, name: str, count: str, newest: str, oldest: str
) -> None:
    versions = importer_ctx.skills_dir / name / "versions"
    _assert_versions_capped(name, [p for p in versions.iterdir() if p.is_dir()], count, newest, oldest)


@then(parsers.parse("模型应被询问 `{count:d}` 次"))
def importer_model_asked_times(importer_ctx: ImporterContext, count: int) -> None:
    calls = list(importer_ctx.llm.calls)
    assert len(calls) == count, f"the model should be asked {count} time(s), was asked {len(calls)}"


def _request_texts(importer_ctx: ImporterContext) -> str:
    parts = []
    for call in importer_ctx.llm.calls:
        parts.append(call.system_prompt)
        for message in call.messages:
            parts += [str(p.get("text", "")) for p in message.get("content", []) if isinstance(p, dict)]
    return "\n".join(parts)


@then(parsers.parse('相似检查的请求不应提到 "{first}" 或 "{second}"'))
def importer_request_omits(importer_ctx: ImporterContext, first: str, second: str) -> None:
    sent = _request_texts(importer_ctx)
    for name in (first, second):
        assert name not in sent, f"{name!r} is no installed skill and must not be offered to the model"


@then("合并请求中两份 SKILL.md 的末尾都应是 U+FFFD")
def importer_merge_request_replaced(importer_ctx: ImporterContext) -> None:
    sent = _request_texts(importer_ctx)
    for tail in ("Helps writing commit messages.\n\ufffd", "Write conventional commits.\n\ufffd"):
        assert tail in sent, f"the merge request should carry {tail!r}: an invalid byte reads as U+FFFD"


@then("导入器不应询问模型")
def importer_model_not_asked(importer_ctx: ImporterContext) -> None:
    assert list(importer_ctx.llm.calls) == [], "the model must not be asked"


@then(parsers.parse('模型应被询问 {count:d} 次，请求中包含 "{first}" 与 "{second}"'))
def importer_model_asked(importer_ctx: ImporterContext, count: int, first: str, second: str) -> None:
    calls = list(importer_ctx.llm.calls)
    assert len(calls) == count, f"the model should be asked {count} time(s), was asked {len(calls)}"
    for call in calls:
        texts = [call.system_prompt]
        for message in call.messages:
            content = message.get("content")
            assert message.get("role") in ("user", "assistant") and isinstance(content, list), (
                f"the request should send messages of the model port (role, content parts), got {message!r}"
            )
            for part in content:
                assert isinstance(part, dict) and part.get("type") == "text", (
                    f"a text part expected: {part!r}"
                )
                assert isinstance(part.get("text"), str), f"a text part carries its text: {part!r}"
                texts.append(part["text"])
        assert call.messages and call.messages[-1].get("role") == "user", (
            "the request should end with the user"
        )
        for expected in map(cells.expand, (first, second)):
            assert any(expected in text for text in texts), f"the request should contain {expected!r}"
    assert importer_ctx.llm.pending == 0, "every scripted answer should have been used"


def _last_user_text(importer_ctx: ImporterContext, count: int) -> str:
    importer_model_asked_times(importer_ctx, count)
    messages = importer_ctx.llm.calls[-1].messages
    assert messages and messages[-1].get("role") == "user", "the request should end with the user"
    content = messages[-1].get("content")
    assert isinstance(content, list), f"a user message of content parts expected: {messages[-1]!r}"
    return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict) and p.get("type") == "text")


@then(
    parsers.parse(
        "模型应被询问 {count:d} 次，其最后一条 user 消息应为如下文本，"
        '"{placeholder}" 代表导入源技能 "{name}" 的 SKILL.md 全文'
    )
)
def importer_last_user_text_is(
    importer_ctx: ImporterContext, count: int, placeholder: str, name: str, docstring: str
) -> None:
    skill_md = (importer_ctx.source_dir / name / "SKILL.md").read_text(encoding="utf-8")
    expected = docstring.replace(placeholder, skill_md)
    sent = _last_user_text(importer_ctx, count)
    assert sent == expected, f"the request should be exactly\n{expected!r}\ngot\n{sent!r}"


@then(parsers.parse("模型应被询问 {count:d} 次，其最后一条 user 消息应包含如下文本"))
def importer_last_user_text_has(importer_ctx: ImporterContext, count: int, docstring: str) -> None:
    sent = _last_user_text(importer_ctx, count)
    assert docstring in sent, f"the request should contain\n{docstring}\ngot\n{sent}"


@then(parsers.parse("`synapse.*` 日志应有 {count:d} 条警告"))
def importer_warnings(caplog: pytest.LogCaptureFixture, count: int) -> None:
    warnings = probes.implementation_records(caplog.records, logging.WARNING)
    assert len(warnings) == count, [r.getMessage() for r in warnings]


# -- files as they lie on disk: links, leftovers, the skills directory itself -------------------------------

OUTSIDE_PLACEHOLDER = "<外部目录>"


@given(
    parsers.re(r'(?P<where>已安装|导入源)技能 "(?P<name>[^"]+)" 中有文件 "(?P<file>[^"]+)" 与如下符号链接')
)
def importer_skill_links(
    importer_ctx: ImporterContext, where: str, name: str, file: str, datatable: list[list[str]]
) -> None:
    skill = (importer_ctx.skills_dir if where == "已安装" else importer_ctx.source_dir) / name
    (skill / file).parent.mkdir(parents=True, exist_ok=True)
    (skill / file).write_text("#!/bin/sh\necho run\n", encoding="utf-8")
    importer_ctx.outside.mkdir(exist_ok=True)
    (importer_ctx.outside / "common.sh").write_text("echo common\n", encoding="utf-8")
    for row in _rows(datatable):
        target = row["target"].replace(OUTSIDE_PLACEHOLDER, str(importer_ctx.outside))
        os.symlink(target, skill / row["link"])
        importer_ctx.links[row["link"]] = target


@given(parsers.parse('导入源技能 "{name}" 的 SKILL.md 换成指向外部目录中同样内容的文件的符号链接'))
def importer_skill_file_linked(importer_ctx: ImporterContext, name: str) -> None:
    skill_file = importer_ctx.source_dir / name / "SKILL.md"
    shared = importer_ctx.outside / name / "SKILL.md"
    shared.parent.mkdir(parents=True)
    shared.write_bytes(skill_file.read_bytes())
    skill_file.unlink()
    skill_file.symlink_to(shared)
    assert skill_file.is_symlink() and skill_file.read_bytes() == shared.read_bytes()
    importer_ctx.links["SKILL.md"] = str(shared)


def _assert_links_kept(copy: Path, links: Mapping[str, str]) -> None:
    entries = probes.tree_entries(copy)
    for link, target in links.items():
        assert entries.get(link) == f"link -> {target}", (
            f"{copy / link} should still be a symbolic link to {target!r}, not followed; found "
            f"{entries.get(link, 'nothing')!r} in {sorted(entries.items())}"
        )


@then(parsers.parse('已安装技能 "{name}" 中的这些符号链接应原样保留，不被跟随复制'))
def importer_links_kept(importer_ctx: ImporterContext, name: str) -> None:
    _assert_links_kept(importer_ctx.skills_dir / name, importer_ctx.links)


@then(parsers.parse('技能 "{name}" 的旧版本中这些符号链接也应原样保留，不被跟随复制'))
def importer_version_links_kept(importer_ctx: ImporterContext, name: str) -> None:
    versions = importer_ctx.skills_dir / name / "versions"
    kept = sorted(p for p in versions.iterdir() if p.is_dir()) if versions.is_dir() else []
    assert len(kept) == 1, f"{name} should keep one version, has {[p.name for p in kept]}"
    _assert_links_kept(kept[0], importer_ctx.links)


@given(
    parsers.re(
        r'(?P<where>导入源技能|已安装技能) "(?P<name>[^"]+)" 中还有一个 (?P<size>\d+) MB 的文件 '
        r'"(?P<file>[^"]+)"'
    )
)
def importer_large_file(importer_ctx: ImporterContext, where: str, name: str, size: str, file: str) -> None:
    root = importer_ctx.source_dir if where == "导入源技能" else importer_ctx.skills_dir
    path = root / name / file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(os.urandom(1024 * 1024) * int(size))


@when(parsers.parse('另一个进程导入 "{name}"，在技能目录中出现第一个新条目时被强行终止'))
def importer_killed_mid_import(
    importer_ctx: ImporterContext, synapse: contract.Implementation, name: str
) -> None:
    skills_dir, source = importer_ctx.skills_dir, str(importer_ctx.source_dir)

    def run_import(implementation: contract.Implementation) -> object:
        importer = implementation.skill_importer(skills_dir, implementation.scripted_llm("skill-model"))
        return importer.import_skills(source, continue_skills=[name])

    probes.killed_while_writing(synapse, skills_dir, run_import, moved_in=True)


@when(parsers.parse('另一个进程把 "{name}" 合并进 "{target}"，在其旧版本目录中出现第一个新条目时被强行终止'))
def importer_killed_mid_merge(
    importer_ctx: ImporterContext, synapse: contract.Implementation, name: str, target: str
) -> None:
    skills_dir, source = importer_ctx.skills_dir, str(importer_ctx.source_dir)
    importer_ctx.before_merge = _skill_files(skills_dir / target)

    def merge_model(implementation: contract.Implementation) -> contract.ScriptedLLM:
        llm = implementation.scripted_llm("skill-model")
        llm.reply_text(_skill_md("A merge that is never written"))
        return llm

    def run_merge(implementation: contract.Implementation, llm: contract.ScriptedLLM) -> object:
        importer = implementation.skill_importer(skills_dir, llm)
        return importer.import_skills(source, merge_into=[(name, target)])

    importer_ctx.killed_entry = probes.killed_while_writing(
        synapse, skills_dir / target / "versions", run_merge, moved_in=True, prepare=merge_model
    )


@when(parsers.re(r"在被终止的进程留在旧版本目录中的条目无法删除时用技能导入器执行 `(?P<command>[^`]+)`"))
def importer_run_with_undeletable_leftover(
    importer_ctx: ImporterContext, skills_ctx: SkillsContext, command: str
) -> None:
    assert importer_ctx.killed_entry, "a process should have been killed while keeping a version"
    (leftover,) = [p for p in importer_ctx.skills_dir.glob(f"*/versions/{importer_ctx.killed_entry}")]
    skills_ctx.command = command.replace(SOURCE_PLACEHOLDER, str(importer_ctx.source_dir))
    with probes.undeletable(leftover):
        skills_ctx.result = importer_ctx.handler.execute(skills_ctx.command)


def _skill_files(skill: Path) -> dict[str, str]:
    """A skill's entries without its ``versions/``: a digest of each file, the kind of anything else."""
    return {
        relative: hashlib.sha256((skill / relative).read_bytes()).hexdigest() if kind == "file" else kind
        for relative, kind in probes.tree_entries(skill).items()
        if relative.split("/")[0] != "versions"
    }


@then(
    parsers.re(
        r'技能 "(?P<name>[^"]+)" 的旧版本应为 "(?P<kept>[^"]+)"，'
        r"(?P<extra>至多再多一个|再加上)与合并前的技能完全相同的版本"
    )
)
def importer_versions_whole(importer_ctx: ImporterContext, name: str, kept: str, extra: str) -> None:
    """Versions are the visible entries of ``versions/``; hidden ones are no version (REPL-050)."""
    versions = importer_ctx.skills_dir / name / "versions"
    found = sorted(p.name for p in versions.iterdir() if not p.name.startswith("."))
    old = kept.split("、")
    assert set(old) <= set(found), f"{name} should still keep the versions {old}, has {found}"
    new = [version for version in found if version not in old]
    if extra == "至多再多一个":
        assert len(new) <= 1, f"one merge may add one version to {name}, found new {new}"
    else:
        assert new, f"the merge should have kept {name} as it was as a version, found only {found}"
    for version in new:
        assert _skill_files(versions / version) == importer_ctx.before_merge, (
            f"the version {version} of {name} should hold exactly the skill before the merge: "
            f"{sorted(probes.tree_entries(versions / version).items())}"
        )


@then(parsers.parse('已安装技能 "{name}" 的文件应与合并前完全相同'))
def importer_unchanged_by_merge(importer_ctx: ImporterContext, name: str) -> None:
    skill = importer_ctx.skills_dir / name
    assert _skill_files(skill) == importer_ctx.before_merge, (
        f"{name} should be as it was before the merge: {sorted(probes.tree_entries(skill).items())}"
    )


@then(parsers.parse('技能 "{name}" 的目录中不应留下以 "." 开头的条目'))
def importer_no_hidden_leftovers(importer_ctx: ImporterContext, name: str) -> None:
    hidden = [
        relative
        for relative in probes.tree_entries(importer_ctx.skills_dir / name)
        if any(part.startswith(".") for part in relative.split("/"))
    ]
    assert not hidden, f"{name} should hold no temporary entry left by an interrupted write: {hidden}"


@given(parsers.re(r'导入源技能 "(?P<name>[^"]+)" 带着另一处安装留下的旧版本 "(?P<version>[^"]+)"'))
def importer_source_with_versions(importer_ctx: ImporterContext, name: str, version: str) -> None:
    old = importer_ctx.source_dir / name / "versions" / version
    old.mkdir(parents=True)
    (old / "SKILL.md").write_text(_skill_md("An old version from elsewhere"), encoding="utf-8")


@then(parsers.parse('技能 "{name}" 不应有旧版本'))
def importer_no_versions(importer_ctx: ImporterContext, name: str) -> None:
    versions = importer_ctx.skills_dir / name / "versions"
    found = sorted(p.name for p in versions.iterdir()) if versions.is_dir() else []
    assert not found, f"{name} should keep no version, has {found}"


@given(parsers.parse('技能 "{name}" 的 `versions` 是一个普通文件'))
def importer_versions_is_file(importer_ctx: ImporterContext, name: str) -> None:
    (importer_ctx.skills_dir / name / "versions").write_text("not a directory\n", encoding="utf-8")


def _versions_note(name: str, file: str) -> bytes:
    return f"{file}: notes on the versions of {name}\n".encode()


@given(parsers.parse('技能 "{name}" 的 `versions` 中还有一个普通文件 "{file}"'))
def importer_versions_holds_file(importer_ctx: ImporterContext, name: str, file: str) -> None:
    (importer_ctx.skills_dir / name / "versions" / file).write_bytes(_versions_note(name, file))


@then(parsers.parse('技能 "{name}" 的 `versions` 中的普通文件 "{file}" 应原样保留'))
def importer_versions_file_kept(importer_ctx: ImporterContext, name: str, file: str) -> None:
    kept = importer_ctx.skills_dir / name / "versions" / file
    assert kept.is_file(), f"{kept} should still be a file"
    assert kept.read_bytes() == _versions_note(name, file), f"{kept} should be as it was"


def _hidden_folder(name: str, folder: str) -> dict[str, bytes]:
    return {"HEAD": b"ref: refs/heads/main\n", "notes/README": f"{folder} of {name}\n".encode()}


@given(parsers.parse('技能 "{name}" 的 `versions` 中还有一个以 "." 开头的目录 "{folder}"'))
def importer_versions_holds_hidden_folder(importer_ctx: ImporterContext, name: str, folder: str) -> None:
    for relative, data in _hidden_folder(name, folder).items():
        path = importer_ctx.skills_dir / name / "versions" / folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


@then(parsers.parse('技能 "{name}" 的 `versions` 中以 "." 开头的目录 "{folder}" 应原样保留'))
def importer_versions_hidden_folder_kept(importer_ctx: ImporterContext, name: str, folder: str) -> None:
    kept = importer_ctx.skills_dir / name / "versions" / folder
    found = {
        relative: (kept / relative).read_bytes()
        for relative, kind in (probes.tree_entries(kept).items() if kept.is_dir() else ())
        if kind == "file"
    }
    assert found == _hidden_folder(name, folder), f"{kept} should be as it was, holds {sorted(found)}"


@then(
    parsers.re(
        r'技能 "(?P<name>[^"]+)" 不以 "\." 开头的旧版本应有 (?P<count>\d+) 个，'
        r'最新的描述为 "(?P<newest>[^"]+)"，'
        r"最早的 `(?P<oldest>[^`]+)` 已被删除"
    )
)
def importer_visible_versions_capped(
    importer_ctx: ImporterContext, name: str, count: str, newest: str, oldest: str
) -> None:
    versions = importer_ctx.skills_dir / name / "versions"
    visible = [p for p in versions.iterdir() if p.is_dir() and not p.name.startswith(".")]
    _assert_versions_capped(name, visible, count, newest, oldest)


def _assert_versions_capped(name: str, versions: list[Path], count: str, newest: str, oldest: str) -> None:
    kept = sorted(versions, reverse=True)
    assert len(kept) == int(count), f"{name} should keep {count} versions, has {[p.name for p in kept]}"
    assert oldest not in [p.name for p in kept], f"the oldest version {oldest} should have been removed"
    assert _description_of((kept[0] / "SKILL.md").read_text(encoding="utf-8")) == newest, (
        f"the newest version {kept[0].name} should be the skill before the merge"
    )


@then(parsers.parse('技能 "{name}" 应要么未被安装，要么已与导入源完全相同'))
def importer_all_or_nothing(importer_ctx: ImporterContext, name: str) -> None:
    installed = importer_ctx.skills_dir / name
    if installed.exists() or installed.is_symlink():
        importer_installed_tree(importer_ctx, name)


@then(parsers.parse('技能目录中不以 "." 开头的目录应恰好为 "{names}"'))
def importer_visible_entries(importer_ctx: ImporterContext, names: str) -> None:
    found = sorted(
        p.name for p in importer_ctx.skills_dir.iterdir() if p.is_dir() and not p.name.startswith(".")
    )
    assert found == sorted(names.split("、")), (
        f"the visible directories of the skills directory should be exactly {names!r}, are {found}"
    )


@then(parsers.parse('已安装技能 "{name}" 的文件应与导入源中的完全相同'))
def importer_installed_tree(importer_ctx: ImporterContext, name: str) -> None:
    installed, source = importer_ctx.skills_dir / name, importer_ctx.source_dir / name
    assert probes.tree_entries(installed) == probes.tree_entries(source), (
        f"{installed} should hold exactly the files of {source}: {probes.tree_entries(installed)}"
    )
    for relative, kind in probes.tree_entries(source).items():
        if kind == "file":
            assert (installed / relative).read_bytes() == (source / relative).read_bytes(), relative


@given("技能目录及其上级目录尚不存在")
def importer_fresh_skills_dir(importer_ctx: ImporterContext, synapse: contract.Implementation) -> None:
    importer_ctx.skills_dir = importer_ctx.source_dir.parent / "fresh-home" / "skills"
    assert not importer_ctx.skills_dir.parent.exists()
    importer_ctx.importer = synapse.skill_importer(importer_ctx.skills_dir, importer_ctx.llm)
    importer_ctx.handler = synapse.skill_command_handler(importer_ctx.importer)


# -- the importer's own report -------------------------------------------------------------------------------


@when(parsers.re(r"直接调用导入器导入 `<源目录>`"))
def importer_call_directly(importer_ctx: ImporterContext) -> None:
    importer_ctx.result = importer_ctx.importer.import_skills(str(importer_ctx.source_dir))


@then(parsers.parse('导入结果中的冲突 "{name}" 应给出已安装技能的目录与导入源中该技能的目录'))
def importer_conflict_paths(importer_ctx: ImporterContext, name: str) -> None:
    assert importer_ctx.result is not None, "the importer was not called"
    entries = [c for c in importer_ctx.result.get("conflicts", []) if c.get("name") == name]
    assert len(entries) == 1, f"the result should hold one conflict {name!r}: {importer_ctx.result}"
    conflict = entries[0]
    for key, expected in (
        ("existingPath", importer_ctx.skills_dir / name),
        ("newPath", importer_ctx.source_dir / name),
    ):
        got = conflict.get(key)
        assert isinstance(got, str) and Path(got).resolve() == expected.resolve(), (
            f"the conflict's {key} should be {expected}, got {got!r}"
        )


# -- the merged file and the versions ------------------------------------------------------------------------


@given(parsers.parse('模型的合并结果为描述 "{description}" 的 SKILL.md，前后带有空行与空格'))
def importer_merge_reply_padded(importer_ctx: ImporterContext, description: str) -> None:
    importer_ctx.merge_reply = f"\n  \n{_skill_md(description)}\n \n\n"
    importer_ctx.llm.reply_text(importer_ctx.merge_reply)


@then(parsers.parse('已安装技能 "{name}" 的 SKILL.md 应为该合并结果去掉首尾空白，以一个换行结尾'))
def importer_merged_file(importer_ctx: ImporterContext, name: str) -> None:
    expected = importer_ctx.merge_reply.strip() + "\n"
    got = (importer_ctx.skills_dir / name / "SKILL.md").read_bytes()
    assert got == expected.encode("utf-8"), f"SKILL.md should be {expected!r}, got {got!r}"


@given("模型的合并结果依次由以下片段组成")
def importer_merge_reply_of_parts(
    importer_ctx: ImporterContext, synapse: contract.Implementation, datatable: list[list[str]]
) -> None:
    parts = [{**row, "text": cells.text(row["text"])} for row in parts_of(datatable)]
    importer_ctx.merge_reply = "".join(p["text"] for p in parts if p["type"] == "text")
    model = cast(contract.LLMClient, PartsModel("skill-model", parts))
    importer_ctx.importer = synapse.skill_importer(importer_ctx.skills_dir, model)
    importer_ctx.handler = synapse.skill_command_handler(importer_ctx.importer)


@then(parsers.parse('已安装技能 "{name}" 的 SKILL.md 应为各文本片段直接相连、去掉首尾空白，以一个换行结尾'))
def importer_merged_parts_file(importer_ctx: ImporterContext, name: str) -> None:
    importer_merged_file(importer_ctx, name)


def _today_utc() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%d")


@given(parsers.re(r'技能 "(?P<name>[^"]+)" 已有今天（UTC）的旧版本 "(?P<numbers>[^"]+)"'))
def importer_versions_today(importer_ctx: ImporterContext, name: str, numbers: str) -> None:
    for number in numbers.split("、"):
        version = importer_ctx.skills_dir / name / "versions" / f"{_today_utc()}-{number}"
        version.mkdir(parents=True)
        (version / "SKILL.md").write_text(_skill_md(f"旧版本 {number}"), encoding="utf-8")


@then(
    parsers.re(
        r'技能 "(?P<name>[^"]+)" 今天（UTC）的旧版本应为 "(?P<numbers>[^"]+)"，'
        r'其中 "(?P<newest>\d+)" 的描述为 "(?P<description>[^"]+)"'
    )
)
def importer_versions_today_are(
    importer_ctx: ImporterContext, name: str, numbers: str, newest: str, description: str
) -> None:
    today = _today_utc()
    versions = importer_ctx.skills_dir / name / "versions"
    found = sorted(p.name for p in versions.iterdir())
    assert found == [f"{today}-{n}" for n in numbers.split("、")], (
        f"{name} should keep the versions {numbers} of {today} (the day's next number follows its highest), "
        f"has {found}"
    )
    skill_md = (versions / f"{today}-{newest}" / "SKILL.md").read_text(encoding="utf-8")
    assert _description_of(skill_md) == description


@given(parsers.parse('技能 "{name}" 的旧版本 "{version}" 中的 SKILL.md 无法删除'))
def importer_version_undeletable(
    importer_ctx: ImporterContext, request: pytest.FixtureRequest, name: str, version: str
) -> None:
    stack = contextlib.ExitStack()
    request.addfinalizer(stack.close)
    skill_md = importer_ctx.skills_dir / name / "versions" / version / "SKILL.md"
    stack.enter_context(probes.undeletable(skill_md))


# -- logs ----------------------------------------------------------------------------------------------------


@then(parsers.re(r'`synapse\.\*` 日志应有 (?P<count>\d+) 条(?P<level>警告|错误)，提到 "(?P<text>[^"]+)"'))
def importer_log_names(caplog: pytest.LogCaptureFixture, count: str, level: str, text: str) -> None:
    records = probes.implementation_records(
        caplog.records, logging.WARNING if level == "警告" else logging.ERROR
    )
    messages = [probes.logged_text(r) for r in records]
    assert len(records) == int(count), f"{count} {level} record(s) expected, got {messages}"
    assert all(text in message for message in messages), f"each should name {text!r}: {messages}"


@given(parsers.parse('技能目录中还有 SKILL.md 为如下内容的技能 "{name}"'))
def importer_installed_with_text(importer_ctx: ImporterContext, name: str, docstring: str) -> None:
    (importer_ctx.skills_dir / name).mkdir()
    (importer_ctx.skills_dir / name / "SKILL.md").write_text(cells.expand(docstring) + "\n", encoding="utf-8")


@given("技能目录拒绝新建任何条目")
def importer_skills_dir_frozen(importer_ctx: ImporterContext, request: pytest.FixtureRequest) -> None:
    stack = contextlib.ExitStack()
    request.addfinalizer(stack.close)
    stack.enter_context(probes.no_new_entries(importer_ctx.skills_dir))


def _long_name(length: int) -> str:
    return "lint-fix-" + "x" * (length - len("lint-fix-"))


@given(parsers.parse("导入源目录中还有一个名称长 {length:d} 个字符的技能"))
def importer_source_long_name(importer_ctx: ImporterContext, length: int) -> None:
    _write_skills(importer_ctx.source_dir, [["name", "description"], [_long_name(length), "Fix lint errors"]])


@then(
    parsers.parse(
        '`skill:import` 的 stdout 应为 "Imported: " 加上这个 {length:d} 个字符的名称，'
        "已安装的 SKILL.md 与导入源中的相同"
    )
)
def importer_long_name_imported(
    importer_ctx: ImporterContext, skills_ctx: SkillsContext, length: int
) -> None:
    importer_stdout_is(skills_ctx, f"Imported: {_long_name(length)}")
    importer_installed_copy(importer_ctx, _long_name(length))


@given(parsers.parse("导入源目录中还有一个名称由 {count:d} 个「{char}」组成的技能"))
def importer_source_repeated_name(importer_ctx: ImporterContext, count: int, char: str) -> None:
    _write_skills(importer_ctx.source_dir, [["name", "description"], [char * count, "Fix lint errors"]])


@then(
    parsers.parse(
        '`skill:import` 的 stdout 应为 "Imported: " 加上这个由 {count:d} 个「{char}」组成的名称，'
        "已安装的 SKILL.md 与导入源中的相同"
    )
)
def importer_repeated_name_imported(
    importer_ctx: ImporterContext, skills_ctx: SkillsContext, count: int, char: str
) -> None:
    importer_stdout_is(skills_ctx, f"Imported: {char * count}")
    importer_installed_copy(importer_ctx, char * count)


@given(parsers.parse("导入源目录中有一个普通文件 `{name}`"))
def importer_given_plain_file(importer_ctx: ImporterContext, name: str) -> None:
    (importer_ctx.source_dir / name).write_text("# not a skill directory\n", encoding="utf-8")


@then(parsers.parse('`skill:import` 的 stderr 应包含 "{text}" 紧接着导入源中 `{name}` 的完整路径'))
def importer_stderr_names_source(
    importer_ctx: ImporterContext, skills_ctx: SkillsContext, text: str, name: str
) -> None:
    result = skills_ctx.result
    assert result is not None
    expected = f"{text} {importer_ctx.source_dir / name}"
    assert expected in result.stderr, f"stderr should contain {expected!r}, got {result.stderr!r}"
