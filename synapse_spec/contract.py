"""The contract between the executable spec and an implementation under test.

The step definitions reach an implementation only through the :class:`Implementation` protocol below;
they never import the reference implementation.  An implementation is any object that satisfies it,
selected with ``pytest features/ --synapse-impl=package.module[:attr]`` (or ``SYNAPSE_IMPL``).  When the
selected attribute is callable it is called once per scenario, so every scenario gets a fresh instance.

Conventions that hold for every component:

* Python names are snake_case; the spec's camelCase names map one-to-one (see ``synapse_spec.names``).
* Data that is persisted or exchanged as JSON (messages, token usage, session usage, timeline events) is a
  plain ``dict`` with the original's camelCase keys, because that is the on-disk format users already have.
* Anything the spec calls "logs a warning" is a ``logging`` record of level WARNING on a logger whose name
  starts with ``synapse`` (the spec captures it with pytest's ``caplog``).
* Settings named after environment variables (``SYNAPSE_*``) are read when they are used, not at import;
  a scenario changes them with ``monkeypatch.setenv``.
* Collaborators are injected: the LLM client, the toolset, the token counter, the sleep function and every
  file-system root.  No component may touch the network or the real home directory in a scenario.
* Coroutines (``async def``) are used wherever the original awaits: LLM calls, compaction, the agent loop,
  stop hooks and the ``/compact`` command.  Everything else is synchronous.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

# --------------------------------------------------------------------------------------------------------
# Shared data shapes
# --------------------------------------------------------------------------------------------------------

Message = dict[str, Any]
"""``{"role": "system"|"user"|"assistant"|"tool", "content": [part, ...], "toolCalls"?: [...],
"toolCallId"?: str}``; a text part is ``{"type": "text", "text": str}`` and a tool call is
``{"id": str, "name": str, "arguments": str}`` (arguments: the raw JSON text the model produced)."""

TokenUsage = dict[str, int]
"""``{"inputOther", "output", "inputCacheRead", "inputCacheCreation"}`` for one LLM round."""

SessionUsageRecord = dict[str, Any]
"""``{"totalInputOther", "totalOutput", "totalCacheRead", "totalCacheCreation", "model": str,
"rounds": [TokenUsage, ...], "totalCost": float | None}``."""

PricingTable = Mapping[str, Mapping[str, float]]
"""``pricing.json``: model -> ``{"inputPerMillion", "outputPerMillion", "cacheReadPerMillion",
"cacheWritePerMillion"}``."""


# --------------------------------------------------------------------------------------------------------
# Collaborator ports (what an implementation must accept)
# --------------------------------------------------------------------------------------------------------


class TokenCounter(Protocol):
    """Counts tokens of a text; implementations count a message as the tokens of its JSON text."""

    def count_tokens(self, text: str) -> int: ...


Sleep = Callable[[float], Awaitable[None]]
"""Awaited between retries; the spec injects one that records the delays and returns at once."""


class AbortSignal(Protocol):
    """An abort flag checked by the agent loop; aborting raises an error whose message contains
    ``aborted`` (case-insensitive) or whose class is named ``AbortError``."""

    @property
    def aborted(self) -> bool: ...


class LLMReply(Protocol):
    """One model answer: the assistant message (text parts and ``toolCalls``) and its token usage."""

    @property
    def message(self) -> Message: ...

    @property
    def usage(self) -> TokenUsage: ...


class LLMClient(Protocol):
    """The model port.  ``with_model`` returns a client bound to another model (sharing its transport)."""

    @property
    def model_name(self) -> str: ...

    async def generate(
        self,
        system_prompt: str,
        messages: Sequence[Message],
        tools: Sequence[Mapping[str, Any]] = (),
        *,
        max_tokens: int | None = None,
        signal: AbortSignal | None = None,
    ) -> LLMReply: ...

    def with_model(self, model: str) -> LLMClient: ...


class LLMCall(Protocol):
    """What one ``generate`` call sent, as recorded by the scripted model."""

    @property
    def model(self) -> str: ...

    @property
    def system_prompt(self) -> str: ...

    @property
    def messages(self) -> Sequence[Message]: ...

    @property
    def tools(self) -> Sequence[Mapping[str, Any]]: ...

    @property
    def max_tokens(self) -> int | None: ...


class ScriptedLLM(LLMClient, Protocol):
    """A fake model: queued replies, injected failures and a record of every call.

    Replies are consumed in order by every client derived from it with ``with_model``; a call beyond the
    script raises ``AssertionError`` naming the call, so a scenario cannot silently call the model more
    often than it planned.
    """

    def reply_text(self, text: str, *, usage: Mapping[str, int] | None = None) -> ScriptedLLM: ...

    def reply_tool_calls(
        self,
        calls: Sequence[Mapping[str, Any]],
        *,
        text: str = "",
        usage: Mapping[str, int] | None = None,
    ) -> ScriptedLLM:
        """Queue an assistant turn with tool calls ``{"id"?, "name", "arguments": str | dict}``."""
        ...

    def fail(self, error: BaseException, *, times: int = 1) -> ScriptedLLM: ...

    @property
    def calls(self) -> Sequence[LLMCall]: ...

    @property
    def with_model_calls(self) -> Sequence[str]:
        """The model names passed to ``with_model``, in order."""
        ...

    @property
    def pending(self) -> int:
        """Scripted replies and failures not consumed yet."""
        ...


# --------------------------------------------------------------------------------------------------------
# ConversationReader and skill-import feedback (seed 003)
# --------------------------------------------------------------------------------------------------------


class ToolCallRecord(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def input(self) -> Mapping[str, Any]: ...


class ToolResultRecord(Protocol):
    @property
    def tool_use_id(self) -> str: ...

    @property
    def content(self) -> str: ...


class ConversationTurn(Protocol):
    """One user or assistant turn; ``tool_calls`` / ``tool_results`` are None when the line had none."""

    @property
    def id(self) -> str: ...

    @property
    def role(self) -> str: ...

    @property
    def content(self) -> str: ...

    @property
    def tool_calls(self) -> Sequence[ToolCallRecord] | None: ...

    @property
    def tool_results(self) -> Sequence[ToolResultRecord] | None: ...


class ConversationSummary(Protocol):
    @property
    def total_turns(self) -> int: ...

    @property
    def user_turns(self) -> int: ...

    @property
    def assistant_turns(self) -> int: ...

    @property
    def tool_calls(self) -> int: ...

    @property
    def unique_tools(self) -> Sequence[str]: ...

    @property
    def estimated_tokens(self) -> int: ...


class ConversationReader(Protocol):
    """Turns a session JSONL file into turns and a compact transcript.

    ``SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT`` (default 200) and ``SYNAPSE_CHARS_PER_TOKEN`` (default 4) are
    read when used.
    """

    def read(self, file_path: str | Path) -> list[ConversationTurn]: ...

    def read_truncated(self, file_path: str | Path, max_chars: int) -> list[ConversationTurn]: ...

    def compact(self, turns: Sequence[ConversationTurn], max_chars: int = 0) -> str: ...

    def extract_tool_sequence(self, turns: Sequence[ConversationTurn]) -> list[str]: ...

    def summarize(self, turns: Sequence[ConversationTurn]) -> ConversationSummary: ...


class CommandResult(Protocol):
    @property
    def stdout(self) -> str: ...

    @property
    def stderr(self) -> str: ...

    @property
    def exit_code(self) -> int: ...


class SkillImportManager(Protocol):
    """The port behind ``skill:import``: imports skills from a source and reports what happened.

    The returned mapping is ``{"imported": [str], "skipped": [str], "conflicts": [{"name",
    "existingPath", "newPath"}], "similar": [{"name", "similarTo", "reason"}]}``.
    """

    def import_skills(
        self,
        source: str,
        *,
        continue_skills: Sequence[str] = (),
        merge_into: Sequence[tuple[str, str]] = (),
    ) -> Mapping[str, Any]: ...


class SkillCommandHandler(Protocol):
    def execute(self, command: str) -> CommandResult: ...


# --------------------------------------------------------------------------------------------------------
# Context layer: offload storage, ContextManager, ContextCompactor, ContextOrchestrator (seeds 001, 000)
# --------------------------------------------------------------------------------------------------------

# (context section)

# --------------------------------------------------------------------------------------------------------
# Session layer: persistence, index, usage and cost, stop hooks (seeds 001, 000, 004)
# --------------------------------------------------------------------------------------------------------

# (session section)

# --------------------------------------------------------------------------------------------------------
# Agent layer and REPL: AgentRunner, sanitizer, sandbox permissions, guards, REPL commands (001, 000, 004)
# --------------------------------------------------------------------------------------------------------

# (agent section)

# --------------------------------------------------------------------------------------------------------
# Staged workflow: state, timeline, registry, strategic compact suggestion, SubagentStop hook (seed 002)
# --------------------------------------------------------------------------------------------------------

# (workflow section)

# --------------------------------------------------------------------------------------------------------
# The implementation under test
# --------------------------------------------------------------------------------------------------------


@runtime_checkable
class Implementation(Protocol):
    """The one seam between the spec and an implementation.

    ``capabilities`` names the areas an implementation offers (see ``CAPABILITIES``); a scenario tagged
    with an area the implementation does not offer is reported *not applicable* instead of failing.
    """

    @property
    def name(self) -> str: ...

    @property
    def version(self) -> str: ...

    @property
    def capabilities(self) -> frozenset[str]: ...

    # -- collaborators a scenario builds through the implementation --------------------------------------
    def scripted_llm(self, model: str = "fake-model") -> ScriptedLLM: ...

    # -- seed 003 ----------------------------------------------------------------------------------------
    def conversation_reader(self) -> ConversationReader: ...

    def skill_command_handler(self, manager: SkillImportManager) -> SkillCommandHandler: ...

    # -- context layer (seeds 001, 000) ------------------------------------------------------------------
    # (context factories)

    # -- session layer (seeds 001, 000, 004) -------------------------------------------------------------
    # (session factories)

    # -- agent layer and REPL (seeds 001, 000, 004) ------------------------------------------------------
    # (agent factories)

    # -- staged workflow (seed 002) ----------------------------------------------------------------------
    # (workflow factories)


CAPABILITIES = frozenset({"reader", "skills", "context", "session", "agent", "repl", "workflow"})
"""Every area the spec covers; an implementation declares the subset it offers."""
