"""The static tables of the staged workflow: stages, workflow types, parallel groups, timeline events.

The names, labels and emojis are the original plugin's, so people who know it find what they expect; the
one deliberate difference is the label of ``session:compact-suggestion`` (``Compact 建議``), which the
specification fixes.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple


class StageDef(NamedTuple):
    """What a stage is called, how it is shown and which agent does it."""

    label: str
    emoji: str
    agent: str


class WorkflowDef(NamedTuple):
    """A workflow type: its ordered stage list (repeats allowed) and its parallel groups."""

    stages: tuple[str, ...]
    parallel_groups: tuple[str, ...] = ()


STAGES: Mapping[str, StageDef] = MappingProxyType(
    {
        "PM": StageDef("產品", "🎯", "product-manager"),
        "PLAN": StageDef("規劃", "📋", "planner"),
        "ARCH": StageDef("架構", "🏗️", "architect"),
        "DESIGN": StageDef("設計", "🎨", "designer"),
        "DEV": StageDef("開發", "💻", "developer"),
        "DEBUG": StageDef("除錯", "🔧", "debugger"),
        "REVIEW": StageDef("審查", "🔍", "code-reviewer"),
        "TEST": StageDef("測試", "🧪", "tester"),
        "SECURITY": StageDef("安全", "🛡️", "security-reviewer"),
        "DB-REVIEW": StageDef("DB審查", "🗄️", "database-reviewer"),
        "QA": StageDef("驗證", "🏁", "qa"),
        "E2E": StageDef("E2E", "🌐", "e2e-runner"),
        "BUILD-FIX": StageDef("修構建", "🔨", "build-error-resolver"),
        "REFACTOR": StageDef("清理", "🧹", "refactor-cleaner"),
        "RETRO": StageDef("回顧", "🔁", "retrospective"),
        "DOCS": StageDef("文件", "📝", "doc-updater"),
    }
)

AGENT_STAGES: Mapping[str, str] = MappingProxyType({d.agent: key for key, d in STAGES.items()})
"""Agent name -> the base stage it works on (the SubagentStop hook only knows the agent)."""

PARALLEL_GROUPS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "quality": ("REVIEW", "TEST"),
        "verify": ("QA", "E2E"),
        "secure-quality": ("REVIEW", "TEST", "SECURITY"),
    }
)

_STANDARD = ("PLAN", "ARCH", "TEST", "DEV", "REVIEW", "TEST", "RETRO", "DOCS")
_FULL = ("PLAN", "ARCH", "DESIGN", "TEST", "DEV", "REVIEW", "TEST", "QA", "E2E", "RETRO", "DOCS")

WORKFLOWS: Mapping[str, WorkflowDef] = MappingProxyType(
    {
        "single": WorkflowDef(("DEV",)),
        "quick": WorkflowDef(("DEV", "REVIEW", "TEST", "RETRO", "DOCS"), ("quality",)),
        "standard": WorkflowDef(_STANDARD, ("quality",)),
        "full": WorkflowDef(_FULL, ("quality", "verify")),
        "secure": WorkflowDef(
            ("PLAN", "ARCH", "TEST", "DEV", "REVIEW", "TEST", "SECURITY", "RETRO", "DOCS"),
            ("secure-quality",),
        ),
        "tdd": WorkflowDef(("TEST", "DEV", "TEST")),
        "debug": WorkflowDef(("DEBUG", "DEV", "TEST")),
        "refactor": WorkflowDef(("ARCH", "TEST", "DEV", "REVIEW", "TEST"), ("quality",)),
        "review-only": WorkflowDef(("REVIEW",)),
        "security-only": WorkflowDef(("SECURITY",)),
        "build-fix": WorkflowDef(("BUILD-FIX",)),
        "e2e-only": WorkflowDef(("E2E",)),
        "diagnose": WorkflowDef(("DEBUG",)),
        "clean": WorkflowDef(("REFACTOR",)),
        "db-review": WorkflowDef(("DB-REVIEW",)),
        "product": WorkflowDef(("PM", *_STANDARD), ("quality",)),
        "product-full": WorkflowDef(("PM", *_FULL), ("quality", "verify")),
        "discovery": WorkflowDef(("PM",)),
    }
)
"""The original's 18 workflow templates (their display names are not shown anywhere, so not kept)."""


def _event(label: str, category: str) -> Mapping[str, str]:
    return MappingProxyType({"label": label, "category": category})


TIMELINE_EVENTS: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        "workflow:start": _event("工作流啟動", "workflow"),
        "workflow:complete": _event("工作流完成", "workflow"),
        "workflow:abort": _event("工作流中斷", "workflow"),
        "stage:start": _event("階段開始", "stage"),
        "stage:complete": _event("階段完成", "stage"),
        "stage:retry": _event("階段重試", "stage"),
        "agent:delegate": _event("委派代理", "agent"),
        "agent:complete": _event("代理完成", "agent"),
        "agent:error": _event("代理錯誤", "agent"),
        "loop:start": _event("循環啟動", "loop"),
        "loop:advance": _event("下一個任務", "loop"),
        "loop:complete": _event("循環完成", "loop"),
        "parallel:start": _event("並行啟動", "parallel"),
        "parallel:converge": _event("並行收斂", "parallel"),
        "grader:score": _event("Grader 評分", "grader"),
        "specs:init": _event("Specs 初始化", "specs"),
        "specs:archive": _event("Specs 歸檔", "specs"),
        "error:fatal": _event("嚴重錯誤", "error"),
        "session:start": _event("工作階段開始", "session"),
        "session:end": _event("工作階段結束", "session"),
        "session:compact": _event("Context 壓縮", "session"),
        "session:compact-suggestion": _event("Compact 建議", "session"),
        "tool:failure": _event("工具失敗", "tool"),
        "system:warning": _event("系統警告", "system"),
    }
)

MAX_RETRIES = 3
"""Fail / reject / retro rounds allowed before the hook asks for a human."""


def base_stage(stage_key: str) -> str:
    """``TEST:2`` -> ``TEST``: repeated stages share the definition of their base stage."""
    return stage_key.split(":", 1)[0]
