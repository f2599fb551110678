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
    """An abort flag (Ctrl-C) the caller sets while the agent loop works; aborting raises an error whose
    message contains ``aborted`` (case-insensitive) or whose class is named ``AbortError``.

    The signal has no callback, only the live property ``aborted``.  The loop reads it before every stage
    (loading stop hooks, sanitizing, each model turn, each tool call) and hands the signal to the model
    port.  While a tool runs it polls ``aborted`` every 50 to 100 ms (the reference: 100 ms; not more
    often than every 50 ms, since over the wire each read is a callback) and, once it is set, cancels
    the tool instead of waiting for it: a Bash command's whole process group gets ``SIGTERM`` and, after
    a short grace (the reference: 1 s), ``SIGKILL`` for whatever of it is left, so neither the command
    nor a child it started runs on once the request has raised.  Nothing of the interrupted round is
    recorded.
    """

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
    """Turns a session JSONL file into turns and a compact transcript (stateless).

    Lines are Anthropic-style ``{"id"?, "timestamp"?, "role", "content": str | [block]}`` with ``text``,
    ``tool_use`` and ``tool_result`` blocks, or the agent's own session lines (``toolCalls`` with JSON-text
    ``arguments``, ``role: "tool"`` results with ``toolCallId``).  Roles other than user/assistant are
    dropped; a line that is not a JSON object is skipped and reading goes on.

    ``SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT`` (default 200) and ``SYNAPSE_CHARS_PER_TOKEN`` (default 4) are
    read on every use; a missing, non-numeric or non-positive value means the default.
    """

    def read(self, file_path: str | Path) -> Sequence[ConversationTurn]:
        """All turns; a missing file gives an empty sequence and a warning, never an exception."""
        ...

    def read_truncated(self, file_path: str | Path, max_chars: int) -> Sequence[ConversationTurn]:
        """The turns in the last ``max_chars`` characters (code points, newlines included) of the file.

        Reads only the tail of the file.  A window that starts inside a line drops that partial line.
        ``max_chars <= 0`` gives an empty sequence without opening the file.
        """
        ...

    def compact(self, turns: Sequence[ConversationTurn], max_chars: int = 0) -> str:
        """``[User] ...`` / ``[Assistant] ...`` / ``[Tool] <name>`` / ``[Result] ...`` blocks separated by
        one blank line; tool results longer than the summary limit end in ``...``.  ``max_chars > 0``
        keeps at most that many characters from the end; 0 means no limit."""
        ...

    def extract_tool_sequence(self, turns: Sequence[ConversationTurn]) -> Sequence[str]:
        """Tool names in call order, repeats kept."""
        ...

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
    """Runs ``skill:import <source> [--continue=a,b] [--merge=src:dst[,src2:dst2]]``.

    It passes the source and options to the :class:`SkillImportManager` (``continue_skills`` as names,
    ``merge_into`` as ``(source, target)`` pairs) and reports the result on stdout: conflicting names with
    an instruction to rename them in the source directory and re-import, and for every similar skill the
    ``--continue=<name>`` and ``--merge=<name>:<similarTo>`` options to rerun with.  A failure of the
    manager goes to stderr with exit code 1.
    """

    def execute(self, command: str) -> CommandResult: ...


# --------------------------------------------------------------------------------------------------------
# Context layer: offload storage, ContextManager, ContextCompactor, ContextOrchestrator (seeds 001, 000)
# --------------------------------------------------------------------------------------------------------

# (context section)

SessionDir = Path
"""A per-session directory: the offload files live in its ``offloaded/`` subdirectory."""


class OffloadResult(Protocol):
    """One offload pass: ``freed_tokens == previous_tokens - current_tokens``, and
    ``still_exceeds_threshold`` is ``current_tokens >= offload_threshold``."""

    @property
    def messages(self) -> list[Message]: ...

    @property
    def offloaded_count(self) -> int: ...

    @property
    def previous_tokens(self) -> int: ...

    @property
    def current_tokens(self) -> int: ...

    @property
    def freed_tokens(self) -> int: ...

    @property
    def still_exceeds_threshold(self) -> bool: ...


class CompactResult(Protocol):
    """One compaction: on success ``messages`` is ``[user "[Compressed History]\\n\\n<summary>", *tail]``;
    on failure it is the original history and ``freed_tokens`` is 0."""

    @property
    def messages(self) -> list[Message]: ...

    @property
    def previous_tokens(self) -> int: ...

    @property
    def current_tokens(self) -> int: ...

    @property
    def freed_tokens(self) -> int: ...

    @property
    def preserved_count(self) -> int: ...

    @property
    def deleted_files(self) -> list[str]: ...

    @property
    def success(self) -> bool: ...


class OrchestratorResult(Protocol):
    """The history to continue with; ``offload_result`` only when something was offloaded,
    ``compact_result`` only when a compaction succeeded."""

    @property
    def messages(self) -> list[Message]: ...

    @property
    def offload_result(self) -> OffloadResult | None: ...

    @property
    def compact_result(self) -> CompactResult | None: ...


class OffloadStorage(Protocol):
    """Offload files of one session directory: ``<session_dir>/offloaded/<uuid>.txt|.json``."""

    @property
    def offloaded_dir(self) -> Path: ...

    def save(self, content: str, ext: str | None = None) -> str:
        """Write a new file (``.json`` when ``content`` parses as JSON, else ``.txt``); returns its path."""
        ...

    def list_files(self) -> list[str]:
        """Paths of the plain files in ``offloaded/`` (``[]`` when the directory does not exist)."""
        ...

    def remove(self, path: str) -> None: ...


class OffloadPort(Protocol):
    """What the orchestrator needs from a ContextManager (a scenario may inject a double)."""

    def offload_if_needed(self, messages: list[Message]) -> OffloadResult: ...


class CompactPort(Protocol):
    """What the orchestrator needs from a ContextCompactor (a scenario may inject a double)."""

    async def compact(self, messages: list[Message]) -> CompactResult: ...


class ContextManager(OffloadPort, Protocol):
    """Offloads long ``tool`` results of the first ``floor(len * scan_ratio)`` messages to files once the
    history reaches ``offload_threshold`` tokens, replacing them with ``Tool result is at: <path>``."""


class ContextCompactor(CompactPort, Protocol):
    """Summarises all but the last ``preserve_count`` messages with the model (``retry_count`` attempts
    in total, waiting ``0.1 * attempt`` s through the injected sleep after a failed one)."""

    def restore_offloaded_content(self, messages: list[Message]) -> list[Message]:
        """A copy where offload references in ``tool`` messages carry the file content again; paths
        outside the offload directory are left alone and not read; a missing file becomes
        ``[Content unavailable: <path>]``.  Only a regular file with one link on the directory's device,
        reached without following a link and at most ``SYNAPSE_OFFLOAD_RESTORE_MAX_BYTES`` bytes (read
        when used; default 1048576) is read, without ever blocking; any other reference (a NUL in the
        path included) keeps its text and a warning naming it is logged."""
        ...

    def cleanup_offloaded_files(self, retained: Sequence[str] | set[str] | frozenset[str] = ()) -> list[str]:
        """Delete every offload file not in ``retained``; returns the deleted paths.  A file that cannot be
        deleted is logged as a warning and the others are still deleted."""
        ...


class ContextOrchestrator(Protocol):
    """Once per agent step: offload, then compact when still over the threshold, offloading freed less
    than ``compact_trigger_threshold`` and no attempt was made in the last ``compact_cooldown_steps``
    steps."""

    async def offload_if_needed(
        self, history: list[Message], offload_dir: Path | None
    ) -> OrchestratorResult: ...

    async def force_compact(self, history: list[Message], offload_dir: Path | None) -> CompactResult: ...


# --------------------------------------------------------------------------------------------------------
# Session layer: persistence, index, usage and cost, stop hooks (seeds 001, 000, 004)
# --------------------------------------------------------------------------------------------------------

# (session section)

SessionsDir = Path
"""The directory holding ``sessions.json``, the ``<id>.jsonl`` histories and the per-session dirs."""

SessionIndexEntry = dict[str, Any]
"""One entry of ``<sessions_dir>/sessions.json`` (``{"version": "1.0.0", "sessions": [entry, ...newest
first], "updatedAt": ISO}``): ``{"id", "createdAt", "updatedAt", "messageCount", "title"?, "cwd"?,
"usage"?: SessionUsageRecord}``."""


class Session(Protocol):
    """One persisted conversation.

    Files: the history ``<sessions_dir>/<id>.jsonl`` (one JSON message per line), the per-session
    directory ``<sessions_dir>/<id>/`` holding ``offloaded/``, and the session's entry in
    ``<sessions_dir>/sessions.json``, which every change below updates at once.  An append may leave
    the entry's ``messageCount`` behind while further appends follow in quick succession, as long as
    ``Session.list``/``Session.find`` count what the history file holds (also after a crash between the
    two writes).  A line left unfinished by a killed writer never swallows a later message.
    """

    @property
    def id(self) -> str: ...

    @property
    def sessions_dir(self) -> Path: ...

    @property
    def history_path(self) -> Path: ...

    @property
    def offload_dir(self) -> Path: ...

    @property
    def title(self) -> str | None:
        """From the first user message: its text parts joined by a space, 50 chars max (47 + ``...``)."""
        ...

    @property
    def message_count(self) -> int: ...

    def append_message(self, message_or_list: Message | list[Message]) -> None:
        """Appends each message as one line; a write that fails part way raises and leaves the history as
        it was."""
        ...

    def load_history(self) -> list[Message]:
        """Every line that holds a message, in order: a JSON object with a string ``role`` whose
        ``toolCalls``, when present, is an array.  Any other line is skipped with a warning."""
        ...

    def rewrite_history(self, messages: list[Message]) -> None:
        """Atomic: on failure raises an error whose message is the original's, ``Failed to rewrite session
        history: `` followed by the cause, leaves the old file byte-identical and leaves no temporary file
        behind."""
        ...

    def clear(self, *, reset_usage: bool = True) -> None:
        """Empties the history file (kept), deletes the per-session directory, resets the title (in the
        index too) and, with ``reset_usage``, the usage (keeping its model)."""
        ...

    def delete(self) -> None:
        """Deletes the session as ``Implementation.delete_session(sessions_dir, id)`` does.  A later write
        through this object (or another object of the session) may start the session anew."""
        ...

    def get_usage(self) -> SessionUsageRecord:
        """A deep copy."""
        ...

    def update_usage(self, usage: TokenUsage, model: str | None = None) -> None:
        """Switch to ``model`` when given, accumulate one round (priced from the pricing table) and
        persist the usage in the index."""
        ...


StopHookProgress = Callable[[str], Awaitable[None]]


class StopHookContext(Protocol):
    """What a stop hook is given; ``on_progress`` shows progress text through the executor."""

    @property
    def session_id(self) -> str | None: ...

    @property
    def cwd(self) -> str: ...

    @property
    def messages(self) -> list[Message]: ...

    @property
    def final_response(self) -> str: ...

    @property
    def on_progress(self) -> StopHookProgress: ...


StopHook = Callable[[StopHookContext], Awaitable[Mapping[str, Any] | None]]
"""A hook: an async callable returning ``{"message": str}`` (blank messages add nothing) or None."""

MessagePartCallback = Callable[[dict[str, Any]], Awaitable[None] | None]
"""Receives ``{"type": "text", "text": str}`` parts for display; may be sync or async."""

StopHookLoader = Callable[["StopHookRegistry"], None]
"""Registers the stop hooks into the given registry (the original imports its hook modules)."""


class StopHookRegistry(Protocol):
    """Named hooks: registering a name again replaces its hook; ``execute_all`` runs the hooks last
    registered first, and a hook that raises is logged and skipped while the others still run."""

    def register(self, name: str, hook: StopHook) -> None: ...

    async def execute_all(self, context: StopHookContext) -> Sequence[Any]: ...


class StopHookExecutor(Protocol):
    """Runs stop hooks at the end of a run and appends their non-blank messages after the marker: the
    final response, a blank line (only when the response is not empty), ``[StopHook]``, a newline, then
    the messages joined by blank lines.  Disabled, it neither loads (``init`` does not call the loader)
    nor runs hooks, even when ``execute_and_append`` is called directly."""

    def should_execute(self) -> bool: ...

    def init(self) -> None: ...

    async def execute_and_append(
        self, final_response: str, *, session_id: str | None, messages: list[Message], cwd: str
    ) -> str: ...

    async def emit_progress(self, message: str) -> None:
        """Passes ``{"type": "text", "text": f"\\n{message.strip()}\\n"}`` to ``on_message_part``; a
        callback that raises (sync or async) is logged as a warning and ignored."""
        ...


# --------------------------------------------------------------------------------------------------------
# Agent layer and REPL: AgentRunner, sanitizer, sandbox permissions, guards, REPL commands (001, 000, 004)
# --------------------------------------------------------------------------------------------------------

# (agent section)

SynapseHome = Path
"""The ``SYNAPSE_HOME`` root (``~/.synapse`` by default): ``skills/``, ``sessions/``, ``sandbox.json``."""


class ToolResult(Protocol):
    """What a tool returns (``{isError, output, message, brief, extras}`` in the original).

    ``extras`` carries loop signals: ``{"type": "sandbox_blocked", "resource": str}`` for a command the
    sandbox refused, ``{"failureCategory": "command_not_found"|"invalid_usage"|"execution_error"}`` for
    errors.  An implementation must accept any object with these attributes from the toolset port.
    """

    @property
    def is_error(self) -> bool: ...

    @property
    def output(self) -> str: ...

    @property
    def message(self) -> str: ...

    @property
    def brief(self) -> str: ...

    @property
    def extras(self) -> Mapping[str, Any] | None: ...


class BashTool(Protocol):
    """The Bash tool as the sandbox permission round trip uses it (a port: the spec passes a double, or
    the implementation's own from :meth:`Implementation.bash_toolset`).

    ``execute_unsandboxed`` returns a :class:`CommandResult`; ``allow_session`` whitelists a path for the
    session, ``allow_permanent`` persists it.
    """

    async def call(self, args: Mapping[str, Any]) -> ToolResult: ...

    async def execute_unsandboxed(self, command: str, cwd: str) -> CommandResult: ...

    async def allow_session(self, path: str, cwd: str) -> None: ...

    async def allow_permanent(self, path: str, cwd: str) -> None: ...


class Toolset(Protocol):
    """The toolset port of the agent loop.  ``handle`` receives one tool call as it appears in the
    assistant message (``{"id", "name", "arguments": str}``); ``get_tool("Bash")`` gives the Bash tool or
    None.  The runner cancels a ``handle`` that is still running when its request is aborted (see
    :class:`AbortSignal`): a toolset must then stop what it started before the cancellation completes."""

    @property
    def tools(self) -> Sequence[Mapping[str, Any]]: ...

    async def handle(self, tool_call: Mapping[str, Any]) -> ToolResult: ...

    def get_tool(self, name: str) -> BashTool | None: ...


class SandboxPermissionRequest(Protocol):
    """The question put to the user when the sandbox blocked a command.

    ``type`` is ``"sandbox_access"``; ``options`` is ``("allow_once", "allow_session",
    "allow_permanent", "deny")`` in that order; ``command`` is the blocked Bash command.
    """

    @property
    def type(self) -> str: ...

    @property
    def resource(self) -> str: ...

    @property
    def reason(self) -> str: ...

    @property
    def command(self) -> str: ...

    @property
    def options(self) -> Sequence[str]: ...


class StepResult(Protocol):
    """``status`` is ``"completed"`` (``response`` is the final text) or ``"requires_permission"``
    (``permission`` is the pending request)."""

    @property
    def status(self) -> str: ...

    @property
    def response(self) -> str: ...

    @property
    def permission(self) -> SandboxPermissionRequest | None: ...


class AgentRunner(Protocol):
    """The agent loop (``AgentRunner`` in the original).

    Before the user message and before every model turn the history is sanitized
    (``sanitize_tool_protocol_history``) and, when changed, persisted with an atomic rewrite that keeps
    every other session file.  A tool result with ``extras.type == "sandbox_blocked"`` ends the request
    with a pending :class:`SandboxPermissionRequest`.  ``max_consecutive_tool_failures`` (default 3,
    ``SYNAPSE_MAX_CONSECUTIVE_TOOL_FAILURES``) and ``max_iterations`` (default 50,
    ``SYNAPSE_MAX_TOOL_ITERATIONS``) stop the loop.  An aborted signal raises an error whose message
    contains ``aborted`` or whose class is ``AbortError`` before anything is appended; an abort while a
    tool runs cancels the tool (see :class:`AbortSignal`) and keeps only the request's user message, never
    the interrupted round, so the next request runs on a history the provider accepts.  Stop hooks run
    only in ``run`` and only when the model finished on its own.  With a session, every appended message
    goes to the session file and every model round's usage to ``Session.update_usage``.
    """

    @property
    def history(self) -> list[Message]: ...

    async def step(self, user_message: str, *, signal: AbortSignal | None = None) -> StepResult: ...

    async def run(self, user_message: str, *, signal: AbortSignal | None = None) -> str: ...

    async def force_compact(self) -> CompactResult:
        """Compact now; on success the history is replaced, the session file rewritten and a ``compact``
        event emitted with ``{"previousTokens", "currentTokens", "freedTokens", "deletedFileCount"}``."""
        ...

    def get_pending_sandbox_permission(self) -> SandboxPermissionRequest | None: ...

    async def resolve_sandbox_permission(self, option: str) -> str:
        """Carry out the user's choice for the pending request; raises ``No pending sandbox permission
        request`` when there is none."""
        ...

    def on(self, event: str, callback: Callable[[dict[str, Any]], Any]) -> None: ...

    def clear_session(self) -> None: ...

    def get_session_usage(self) -> SessionUsageRecord | None: ...


class SanitizeResult(Protocol):
    @property
    def sanitized(self) -> list[Message]: ...

    @property
    def changed(self) -> bool: ...


class CompactingRunner(Protocol):
    """All ``/compact`` needs of a runner (the spec passes a double)."""

    async def force_compact(self) -> CompactResult: ...


class ReplRunner(CompactingRunner, Protocol):
    """What the REPL commands use of a runner: ``/compact`` needs ``force_compact``; ``/cost`` and
    ``/clear`` use ``get_session_usage`` / ``clear_session`` only when the runner has them (over the wire
    a runner announces exactly the members it has)."""

    def get_session_usage(self) -> SessionUsageRecord | None: ...

    def clear_session(self) -> None: ...


class ToolCatalog(Protocol):
    """The source of ``/tools`` (``McpInstaller`` in the original): its listing starts with a
    ``Found N tools`` line."""

    def format_search_result(self) -> str: ...


class CommandOutcome(Protocol):
    """``handled`` is False for input that is not a command (it goes to the model); ``exit`` is True
    when the REPL should end (``/exit``, ``/quit``, ``/q``)."""

    @property
    def handled(self) -> bool: ...

    @property
    def output(self) -> str: ...

    @property
    def exit(self) -> bool: ...


class ReplCommands(Protocol):
    """The REPL's slash commands (``/help /exit /clear /cost /compact /skills /tools``), returning the
    text to show instead of printing it; a slash command it does not know is answered with
    ``Unknown command: <command>``."""

    async def handle(self, line: str) -> CommandOutcome: ...


# --------------------------------------------------------------------------------------------------------
# Staged workflow: state, timeline, registry, strategic compact suggestion, SubagentStop hook (seed 002)
# --------------------------------------------------------------------------------------------------------

# (workflow section)

WorkflowState = dict[str, Any]
"""``workflow.json``: ``{"sessionId", "workflowType", "createdAt", "currentStage", "stages": {key:
{"status": "pending"|"active"|"completed", "result": None|"pass"|"fail"|"reject"|"issues", ...}},
"activeAgents", "failCount", "rejectCount", "retroCount", "featureName"}``.  Repeated stages are keyed in
list order ``TEST``, ``TEST:2``; the insertion order of ``stages`` is the workflow order."""

TimelineEvent = dict[str, Any]
"""One ``timeline.jsonl`` line: ``{"ts": ISO-8601 UTC, "type", "category", "label", ...data}``."""

CompactSuggestion = dict[str, Any]
"""``{"suggest": True, "reason": str, "transcriptSize": int (bytes)}``, or exactly ``{"suggest": False}``."""

WorkflowClock = Callable[[], Any]
"""Returns the current time as an aware ``datetime`` (stamps timeline events and state)."""

WorkflowRoot = Path
"""The directory holding ``sessions/<sessionId>/``; by default ``SYNAPSE_WORKFLOW_HOME`` or
``~/.synapse/workflow``."""


class WorkflowStateStore(Protocol):
    """``<root>/sessions/<sessionId>/workflow.json``, rewritten atomically."""

    def init(self, session_id: str, workflow_type: str, stages: Sequence[str] | None = None) -> WorkflowState:
        """Start a workflow: every stage ``pending``; ``stages`` defaults to the type's list, one of the
        original plugin's 18 templates (``single`` = DEV; ``quick`` = DEV, REVIEW, TEST, RETRO, DOCS;
        ``standard`` = PLAN, ARCH, TEST, DEV, REVIEW, TEST, RETRO, DOCS; ``full``, ``secure``, ``tdd``, ...:
        the table of ``workflow_records.feature``).  An unknown type, an unknown stage name or an empty
        list raises and writes nothing."""
        ...

    def read(self, session_id: str) -> WorkflowState | None:
        """The state, or None when the session has no workflow; a file that is not a workflow state
        raises (naming the file)."""
        ...

    def set_stage(
        self, session_id: str, stage_key: str, *, status: str, result: str | None = None
    ) -> WorkflowState:
        """Set one stage's status and verdict (how a scenario reaches "DEV has just passed"); an unknown
        status or stage, or a session without workflow, raises and changes nothing."""
        ...

    def path(self, session_id: str) -> Path: ...


class WorkflowTimeline(Protocol):
    """``<root>/sessions/<sessionId>/timeline.jsonl``: append-only, one JSON event per line.

    The log is bounded: it keeps at most ``SYNAPSE_TIMELINE_MAX_LINES`` lines (read when used; default
    2000), dropping the oldest, but never the latest ``session:compact`` (the compact cooldown needs it).
    """

    def emit(self, session_id: str, event_type: str, data: Mapping[str, Any] | None = None) -> TimelineEvent:
        """Append an event whose ``category`` and ``label`` come from the registry; an unregistered type
        raises an exception whose message is ``未知的 timeline 事件類型：<type>``.  ``data`` never replaces
        ``ts``/``type``/``category``/``label`` (refuse it or keep the registered values)."""
        ...

    def query(
        self,
        session_id: str,
        *,
        event_type: str | None = None,
        category: str | None = None,
        limit: int | None = None,
    ) -> list[TimelineEvent]:
        """Matching events in file order (lines that are not events are skipped); ``limit`` keeps the
        newest ``limit`` of them, and ``None`` or ``0`` keeps all (the original's ``if (limit)``)."""
        ...

    def latest(self, session_id: str, event_type: str) -> TimelineEvent | None: ...

    def path(self, session_id: str) -> Path: ...


class StagedWorkflow(Protocol):
    """The staged workflow below one root: registry, state, timeline, compact decision, SubagentStop hook.

    ``SYNAPSE_COMPACT_THRESHOLD_MB`` (decimal megabytes, read when used; default 5) sets the transcript
    threshold when the caller gives none; the hook never passes one, so scenarios lower it this way.
    """

    @property
    def timeline_events(self) -> Mapping[str, Mapping[str, str]]:
        """The registry ``timelineEvents``: type -> ``{"label", "category"}``."""
        ...

    @property
    def state(self) -> WorkflowStateStore: ...

    @property
    def timeline(self) -> WorkflowTimeline: ...

    def should_suggest_compact(
        self,
        *,
        transcript_path: str | Path | None = None,
        session_id: str | None = None,
        state: Mapping[str, Any] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> CompactSuggestion:
        """``shouldSuggestCompact``.  ``options`` takes ``thresholdBytes`` (default 5_000_000) and
        ``minStagesSinceCompact`` (default 2).  ``state`` defaults to the session's stored state and is
        what "a pending stage remains" is judged on.  Suggests only when the transcript is strictly larger
        than the threshold, some stage is not completed (``activeAgents`` entries do not count), and at
        least ``minStagesSinceCompact`` ``stage:complete`` events follow the latest ``session:compact``
        (in file order; none: no cooldown).  A missing,
        empty or unstat-able path, a missing state or a damaged/unreadable timeline gives
        ``{"suggest": False}`` and never raises."""
        ...

    def format_size(self, size: int) -> str:
        """Decimal units: ``500B``, ``800KB`` (whole KB), ``6.5MB`` (one decimal)."""
        ...

    def on_stop(self, event: Mapping[str, Any]) -> Mapping[str, str]:
        """The SubagentStop hook on a parsed event ``{"session_id", "agent_type" (an ``ot:`` prefix is
        dropped), "last_assistant_message", "transcript_path"}``; returns ``{"result": text}``.  Agents map
        to stages as in the original plugin (planner PLAN, architect ARCH, tester TEST, developer DEV,
        code-reviewer REVIEW, retrospective RETRO, doc-updater DOCS, ...); the agent's stage is its active
        key, else its first pending key (``TEST`` before ``TEST:2``).  The verdict
        is read from ``<!-- VERDICT: {"result": "..."} -->`` in the last message.  It completes the agent's
        stage, emits ``agent:complete`` and ``stage:complete``; on pass the text starts with the ``…完成``
        line and, when the compact decision says so, later holds the suggestion (formatted size and
        ``/compact``) and a ``session:compact-suggestion`` event ``{transcriptSize (bytes), stage, agent}``
        is emitted.  fail / reject / issues never suggest.  Timeline write failures never lose the text."""
        ...

    def on_stop_command(self, stdin: str) -> CommandResult:
        """The hook as its command sees it: stdin text in, ``{"result": ...}`` JSON on stdout, exit 0;
        bad input (empty, not JSON, unknown session) answers ``{"result": ""}`` with a reason on stderr."""
        ...


# --------------------------------------------------------------------------------------------------------
# The implementation under test
# --------------------------------------------------------------------------------------------------------


@runtime_checkable
class Implementation(Protocol):
    """The one seam between the spec and an implementation.

    ``capabilities`` names the areas an implementation offers (see ``CAPABILITIES``), as a set of strings;
    a scenario whose steps use a member of an area the implementation does not offer is reported *not
    applicable* instead of failing.
    """

    @property
    def name(self) -> str: ...

    @property
    def version(self) -> str: ...

    @property
    def capabilities(self) -> frozenset[str]: ...

    # -- collaborators a scenario builds through the implementation --------------------------------------
    def scripted_llm(self, model: str) -> ScriptedLLM: ...

    # -- seed 003 ----------------------------------------------------------------------------------------
    def conversation_reader(self) -> ConversationReader: ...

    def skill_command_handler(self, manager: SkillImportManager) -> SkillCommandHandler: ...

    def skill_importer(self, skills_dir: Path, llm: LLMClient) -> SkillImportManager:
        """The importer behind ``skill:import`` on an installed-skills directory: conflicts by name, the
        model asked whether a skill resembles an installed one, ``--continue`` and ``--merge``."""
        ...

    # -- context layer (seeds 001, 000) ------------------------------------------------------------------
    # (context factories)
    def offload_storage(self, session_dir: Path) -> OffloadStorage: ...

    def context_manager(
        self,
        storage: OffloadStorage,
        *,
        offload_threshold: int,
        scan_ratio: float,
        min_chars: int,
        token_counter: TokenCounter | None = None,
    ) -> ContextManager: ...

    def context_compactor(
        self,
        storage: OffloadStorage,
        llm: LLMClient,
        *,
        token_counter: TokenCounter | None = None,
        preserve_count: int = 5,
        target_tokens: int = 8000,
        retry_count: int = 3,
        model: str | None = None,
        sleep: Sleep | None = None,
    ) -> ContextCompactor: ...

    def context_orchestrator(
        self,
        llm: LLMClient,
        *,
        token_counter: TokenCounter | None = None,
        sleep: Sleep | None = None,
        context_manager: OffloadPort | None = None,
        compactor: CompactPort | None = None,
        offload_threshold: int | None = None,
        compact_trigger_threshold: int | None = None,
        compact_cooldown_steps: int | None = None,
    ) -> ContextOrchestrator:
        """Options left None come from the ``SYNAPSE_*`` environment at construction; the two doubles
        replace the ContextManager / ContextCompactor the orchestrator would build for the offload dir."""
        ...

    # -- session layer (seeds 001, 000, 004) -------------------------------------------------------------
    # (session factories)
    def create_session(
        self,
        sessions_dir: SessionsDir,
        *,
        session_id: str | None = None,
        model: str | None = None,
        pricing: PricingTable | None = None,
    ) -> Session:
        """Registers a new session (newest first) in ``sessions.json``.  Without ``pricing`` the table is
        read from ``<SYNAPSE_HOME>/pricing.json`` when usage is priced (missing/invalid: no pricing)."""
        ...

    def find_session(
        self,
        session_id: str,
        sessions_dir: SessionsDir,
        *,
        model: str | None = None,
        pricing: PricingTable | None = None,
    ) -> Session | None:
        """``Session.find``: usage, title and count restored from the index (the index's usage model
        wins over ``model``); None when the id is unknown or the index is corrupt or unreadable."""
        ...

    def list_sessions(self, sessions_dir: SessionsDir) -> list[SessionIndexEntry]:
        """``Session.list``: newest first; ``[]`` (no exception) when the index is corrupt or does not
        match the schema.  A corrupt index is never silently overwritten: the next write keeps it aside
        as a backup file next to it and logs where."""
        ...

    def continue_session(self, sessions_dir: SessionsDir) -> Session | None:
        """``Session.continue``: the newest session, or None when there is none."""
        ...

    # (session-delete factories)
    def delete_session(self, sessions_dir: SessionsDir, session_id: str) -> bool:
        """Deletes the session ``session_id``: its history ``<id>.jsonl``, its directory ``<id>/`` with
        the offloaded files in it, and its entry in ``sessions.json``.  True when the sessions directory
        held any of these; False, changing nothing, when it holds nothing of that id (an unknown id, or
        a session deleted already: deleting twice is harmless).

        * Nothing outside those names is touched: other sessions' entries and files stay as they were,
          and an id that is not a plain file name (``../x``, ``..``, ``.``, empty, holding a NUL)
          removes no file at all, only its index entry (which only a hand-edited index can hold).
        * The index update is a read-modify-write under the same lock as every other index write, and
          the index is replaced atomically: a process writing other sessions at the same time (creating,
          appending, recording usage) loses nothing.
        * A file that cannot be removed raises an error whose message contains ``Failed to delete
          session`` and the path of that file, and leaves the session's index entry in place, so no file
          is left unlisted silently; the deletion can be retried.
        * A process killed part way through never leaves an index entry for a session whose history is
          gone: the entry lists a complete session or is gone, and deleting the id again removes what the
          killed process left.
        """
        ...

    def create_empty_usage(self, model: str) -> SessionUsageRecord: ...

    def accumulate_usage(
        self, usage: SessionUsageRecord, round_usage: TokenUsage, pricing: PricingTable | None = None
    ) -> SessionUsageRecord:
        """A new record: totals grow by the round, ``rounds`` keeps the last ``SYNAPSE_MAX_ROUNDS_KEPT``
        (default 50, read at use), ``totalCost`` grows by the round's price (per million tokens) when the
        model has one and is otherwise left as it was."""
        ...

    def format_cost_output(self, usage: SessionUsageRecord) -> str:
        """``Token: 12,345 in / 3,456 out | Cache: 9,600 read / 1,200 write (78% hit) | Cost: $0.42``;
        cost ``$0.00`` with no rounds, ``N/A`` with rounds but no price."""
        ...

    @property
    def stop_hook_marker(self) -> str:
        """``[StopHook]``."""
        ...

    def stop_hook_registry(self) -> StopHookRegistry:
        """A new, empty registry (no process-wide state)."""
        ...

    def stop_hook_executor(
        self,
        *,
        enabled: bool,
        registry: StopHookRegistry,
        on_message_part: MessagePartCallback | None = None,
        loader: StopHookLoader | None = None,
    ) -> StopHookExecutor:
        """``loader`` registers the hooks; ``init()`` calls it once, and only when enabled."""
        ...

    # -- agent layer and REPL (seeds 001, 000, 004) ------------------------------------------------------
    # (agent factories)
    def agent_runner(
        self,
        llm: LLMClient,
        toolset: Toolset,
        *,
        session: Session | None = None,
        stop_hooks: StopHookExecutor | None = None,
        cwd: str | None = None,
        max_iterations: int | None = None,
        max_consecutive_tool_failures: int | None = None,
        token_counter: TokenCounter | None = None,
        sleep: Sleep | None = None,
    ) -> AgentRunner:
        """Without a session the history lives in memory only (no offload, no compaction); with one it is
        loaded from and persisted to it.  ``cwd`` is what the sandbox round trip passes to the Bash tool;
        ``token_counter``/``sleep`` go to the context orchestrator the runner builds; limits left None
        come from ``SYNAPSE_*`` when a request runs."""
        ...

    def bash_toolset(self, cwd: str) -> Toolset:
        """Capability ``bash-tool``: the implementation's own toolset offering one tool, ``Bash``
        (arguments ``{"command": str}``), which runs the command with ``/bin/bash -c`` in ``cwd``, in a
        process group of its own, and reports it in the original's words: its standard output, then
        ``[stderr]`` and the error output, in ``output``; ``is_error`` when the exit status is not 0, with
        ``Command failed with exit code N`` and the status as ``extras.exitCode``
        (``features/agent/bash_tool_results.feature``).  A command running longer than
        ``SYNAPSE_COMMAND_TIMEOUT`` milliseconds (default 30000) is ended like a cancelled one and is an
        error saying so (``bash_tool_timeout.feature``).  A command
        that is the tool's own name (``Bash``, ``Bash ls``, ``Bash(ls)``) runs nothing: it is an
        ``invalid_usage`` error carrying the original's correction.  Cancelling a
        running ``handle`` ends the command's whole process group (``SIGTERM``, then ``SIGKILL`` after a
        short grace): when the cancellation completes, no process of the group runs any more (a killed
        child adopted by another process counts once it has died)."""
        ...

    def sanitize_tool_protocol_history(self, messages: list[Message]) -> SanitizeResult: ...

    def repl_commands(
        self,
        *,
        runner: ReplRunner | None = None,
        synapse_home: SynapseHome | None = None,
        tool_catalog: ToolCatalog | None = None,
    ) -> ReplCommands:
        """``/skills`` lists ``<synapse_home>/skills`` (``synapse_home`` None: ``$SYNAPSE_HOME``, else
        ``~/.synapse``); ``/cost`` and ``/clear`` use the runner's ``get_session_usage`` /
        ``clear_session`` when it has them."""
        ...

    def format_stream_text(self, text: str, *, is_tty: bool) -> str:
        """Highlight (``\\x1b[1;93m`` ... ``\\x1b[0m``) text containing ``Analyzing skill
        enhancement...`` when the stream is a terminal; anything else unchanged."""
        ...

    # -- staged workflow (seed 002) ----------------------------------------------------------------------
    # (workflow factories)
    def staged_workflow(self, root: WorkflowRoot, *, clock: WorkflowClock) -> StagedWorkflow:
        """The workflow domain with every file below ``root``, telling time by ``clock``."""
        ...

    # -- capability llm-http: the implementation's own model client, checked against a loopback model -----
    def http_llm_client(self, provider: str, base_url: str, model: str, api_key: str) -> LLMClient:
        """Your real client for ``provider`` talking to ``base_url`` (see :class:`HttpLLMClientFactory`)."""
        ...


CAPABILITY_FACTORIES: Mapping[str, frozenset[str]] = {
    "reader": frozenset({"conversation_reader"}),
    "skills": frozenset({"skill_command_handler"}),
    "skill-import": frozenset({"skill_importer"}),
    "context": frozenset({"offload_storage", "context_manager", "context_compactor", "context_orchestrator"}),
    "session": frozenset({"create_session", "find_session", "list_sessions", "continue_session"}),
    "session-delete": frozenset({"delete_session"}),
    "usage": frozenset({"create_empty_usage", "accumulate_usage", "format_cost_output"}),
    "stop-hooks": frozenset({"stop_hook_registry", "stop_hook_executor", "stop_hook_marker"}),
    "sanitizer": frozenset({"sanitize_tool_protocol_history"}),
    "runner": frozenset({"agent_runner"}),
    "bash-tool": frozenset({"bash_toolset"}),
    "repl": frozenset({"repl_commands", "format_stream_text"}),
    "workflow": frozenset({"staged_workflow"}),
    "llm-http": frozenset({"http_llm_client"}),
}
"""Each capability and the members of :class:`Implementation` it stands for.  A scenario needs exactly the
capabilities whose members its steps use; every other member (``name``, ``version``, ``capabilities``,
``scripted_llm``) is always required."""

CAPABILITIES = frozenset(CAPABILITY_FACTORIES)
"""Every area the spec covers; an implementation declares the subset it offers."""

FACTORY_CAPABILITY: Mapping[str, str] = {
    member: capability for capability, members in CAPABILITY_FACTORIES.items() for member in members
}
"""The capability each member of :class:`Implementation` belongs to."""

RETIRED_CAPABILITIES: Mapping[str, frozenset[str]] = {
    "agent": frozenset({"runner", "sanitizer", "stop-hooks"}),
}
"""Capability names of earlier spec versions and what replaced them (spec 0.2.0 split ``agent``)."""

LLM_HTTP = "llm-http"
"""The capability of an implementation that has its own HTTP model client (``http_llm_client``).  With
``--synapse-llm=loopback:<provider>`` the spec runs its model-using scenarios through that client against a
scripted model served on 127.0.0.1 (``synapse_spec.model_server``)."""


@runtime_checkable
class HttpLLMClientFactory(Protocol):
    """What an implementation declaring ``llm-http`` also offers."""

    def http_llm_client(self, provider: str, base_url: str, model: str, api_key: str) -> LLMClient:
        """The implementation's real client for ``provider`` (``anthropic``: Messages API at
        ``{base_url}/v1/messages``; ``openai``: chat completions at ``{base_url}/chat/completions``),
        talking to ``base_url`` with ``api_key``.  It must honour the ``x-should-retry: false`` header
        the loopback server sends with scripted failures (or not retry 5xx at all), so that each failure
        is seen once."""
        ...
