"""Shared pieces of the semantic mutants: a delegating wrapper and helpers on the contract's records."""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import json
import logging
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.js_text import parse_int, trim
from synapse_ref.session.index import INDEX_FILE


class Delegate:
    """Forwards every attribute it does not define to the wrapped component.

    A mutant subclasses it and defines the one method it breaks; everything else is the reference's.
    """

    def __init__(self, inner: Any) -> None:
        object.__setattr__(self, "_inner", inner)

    def __getattr__(self, name: str) -> Any:
        return getattr(object.__getattribute__(self, "_inner"), name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name.startswith("_mut_"):
            object.__setattr__(self, name, value)
        else:
            setattr(object.__getattribute__(self, "_inner"), name, value)


@contextlib.contextmanager
def swapped(module: Any, name: str, value: Any) -> Iterator[None]:
    """``module.name`` bound to ``value`` while one call of the mutant runs, the reference's binding
    restored afterwards: a mutant replaces a helper the reference calls by its module-level name."""
    saved = getattr(module, name)
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, saved)


def listed_in_index(sessions_dir: Path, session_id: str) -> bool:
    """Whether ``sessions.json`` has an entry for the session, read straight from the file, so the check
    itself logs nothing and sets no corrupt index aside."""
    try:
        entries = json.loads((sessions_dir / INDEX_FILE).read_text(encoding="utf-8"))["sessions"]
        return any(isinstance(e, dict) and e.get("id") == session_id for e in entries)
    except (OSError, ValueError, KeyError, TypeError):
        return False


ImportOptions = tuple[Sequence[str], Sequence[tuple[str, str]]]


class OptionsImporter(Delegate):
    """A skill importer as a port wraps it: a mutant overrides :meth:`options` (how ``--continue`` and
    ``--merge`` are read) or :meth:`importing` (what holds while an import runs), and the import itself is
    the reference's."""

    def options(
        self, source: str, continue_skills: Sequence[str], merge_into: Sequence[tuple[str, str]]
    ) -> ImportOptions:
        return continue_skills, merge_into

    @contextlib.contextmanager
    def importing(self) -> Iterator[None]:
        yield

    def import_skills(
        self,
        source: str,
        *,
        continue_skills: Sequence[str] = (),
        merge_into: Sequence[tuple[str, str]] = (),
    ) -> Any:
        continued, merged = self.options(source, continue_skills, merge_into)
        with self.importing():
            return self._inner.import_skills(source, continue_skills=continued, merge_into=merged)


class SwappedImporter(OptionsImporter):
    """A skill importer whose imports run with one helper of the importer module replaced."""

    def __init__(self, inner: Any, name: str, value: Any) -> None:
        super().__init__(inner)
        self._mut_swap = (name, value)

    @contextlib.contextmanager
    def importing(self) -> Iterator[None]:
        from synapse_ref.skills import importer

        with swapped(importer, *self._mut_swap):
            yield


class SwappedWritesSession(Delegate):
    """A session whose writes (the only places a title is made) run with one module-level name of the
    session module replaced."""

    def __init__(self, inner: Any, name: str, value: Any) -> None:
        super().__init__(inner)
        self._mut_swap = (name, value)

    def append_message(self, message_or_list: Any) -> None:
        from synapse_ref.session import session

        with swapped(session, *self._mut_swap):
            self._inner.append_message(message_or_list)

    def rewrite_history(self, messages: Any) -> None:
        from synapse_ref.session import session

        with swapped(session, *self._mut_swap):
            self._inner.rewrite_history(messages)


class SessionMutant(ReferenceImplementation):
    """An implementation that hands out every session wrapped by ``session_class``.

    Sessions come from three doors (create, find, continue); a session mutant must break all of them,
    or a scenario that resumes a session would meet the reference's."""

    session_class: type[Delegate]

    def wrap_session(self, session: Any) -> Any:
        return self.session_class(session) if session is not None else None

    def create_session(self, sessions_dir: Any, **options: Any) -> Any:
        return self.wrap_session(super().create_session(sessions_dir, **options))

    def find_session(self, session_id: str, sessions_dir: Any, **options: Any) -> Any:
        return self.wrap_session(super().find_session(session_id, sessions_dir, **options))

    def continue_session(self, sessions_dir: Any) -> Any:
        return self.wrap_session(super().continue_session(sessions_dir))


def replace_record(record: Any, **changes: Any) -> Any:
    """A copy of a result record with some fields changed (dataclass or plain object)."""
    if dataclasses.is_dataclass(record) and not isinstance(record, type):
        return dataclasses.replace(record, **changes)
    return _Record({**{k: getattr(record, k) for k in dir(record) if not k.startswith("_")}, **changes})


class _Record:
    def __init__(self, fields: dict[str, Any]) -> None:
        self.__dict__.update(fields)


@dataclasses.dataclass
class Turn:
    """A conversation turn built by a mutant (``compact`` and ``summarize`` accept any turn-like)."""

    id: str
    role: str
    content: str
    tool_calls: Any = None
    tool_results: Any = None
    raw_content: Any = None


@dataclasses.dataclass
class ToolResultRecord:
    tool_use_id: str
    content: str


def turn_like(turn: Any, **changes: Any) -> Turn:
    fields = {
        "id": turn.id,
        "role": turn.role,
        "content": turn.content,
        "tool_calls": turn.tool_calls,
        "tool_results": turn.tool_results,
        "raw_content": getattr(turn, "raw_content", None),
    }
    return Turn(**{**fields, **changes})


def env_positive_int(name: str, default: int) -> int:
    """A positive integer setting with a leading-integer parse (``"2.9"`` is 2), else ``default``."""
    import os

    value = parse_int(os.environ.get(name, "")) or 0
    return value if value > 0 else default


def align_tail(text: str, tail: str) -> str:
    """The reference's rule for a tail cut out of ``text``: start at a line boundary, no leading blank."""
    start = len(text) - len(tail)
    if start > 0 and text[start - 1] != "\n":
        tail = tail[tail.find("\n", 0, len(tail) - 1) + 1 :]
    return tail.lstrip("\n")


OFFLOAD_PREFIX = "Tool result is at:"


@dataclasses.dataclass
class OffloadOutcome:
    messages: list[dict[str, Any]]
    offloaded_count: int
    previous_tokens: int
    current_tokens: int
    freed_tokens: int
    still_exceeds_threshold: bool


def message_text(message: dict[str, Any]) -> str:
    """The text parts of a message joined by newlines, or its content as ``JSON.stringify`` writes it."""
    from synapse_ref.js_text import json_stringify

    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [p.get("text") for p in content if isinstance(p, dict) and p.get("type") == "text"]
        if texts:  # as Array.join writes them: a missing or null text is nothing
            return "\n".join(
                "" if t is None else str(t).lower() if isinstance(t, bool) else str(t) for t in texts
            )
    return json_stringify(content)


class OffloadManager:
    """A self-contained offload (the contract's rules) whose length test a mutant replaces.

    Tokens are counted by a reference manager that never offloads (its threshold is out of reach), so
    the counts are the reference's whatever counter the scenario injected."""

    def __init__(
        self, storage: Any, counter: Any, *, threshold: int, scan_ratio: float, min_chars: int
    ) -> None:
        self.storage = storage
        self._counter = counter
        self.threshold = threshold
        self.scan_ratio = scan_ratio
        self.min_chars = min_chars

    def count(self, messages: list[dict[str, Any]]) -> int:
        return int(self._counter.offload_if_needed(messages).previous_tokens)

    def text_of(self, message: dict[str, Any]) -> str:
        return message_text(message)

    def too_short(self, text: str) -> bool:
        return len(text) <= self.min_chars

    def scan_end(self, count: int) -> int:
        import math

        return math.floor(count * self.scan_ratio)

    def is_reference(self, text: str) -> bool:
        """Whether a tool result is already an offload reference (and so is left as it is): the prefix
        after JavaScript's white space, as ``trimStart()`` removes it."""
        from synapse_ref.js_text import WHITESPACE

        return text.lstrip(WHITESPACE).startswith(OFFLOAD_PREFIX)

    def offload_if_needed(self, messages: list[dict[str, Any]]) -> OffloadOutcome:
        previous = self.count(messages)
        if previous < self.threshold:
            return OffloadOutcome(list(messages), 0, previous, previous, 0, False)
        result = list(messages)
        offloaded = 0
        for index in range(min(self.scan_end(len(messages)), len(messages))):
            message = messages[index]
            if message.get("role") != "tool":
                continue
            text = self.text_of(message)
            if self.too_short(text) or self.is_reference(text):
                continue
            try:
                path = self.storage.save(text)
            except Exception as exc:
                import logging

                logging.getLogger("synapse.context.manager").warning(
                    "Failed to offload tool message, skipping message: %s", exc
                )
                continue
            result[index] = {**message, "content": [{"type": "text", "text": f"{OFFLOAD_PREFIX} {path}"}]}
            offloaded += 1
        current = self.count(result) if offloaded else previous
        return OffloadOutcome(
            result, offloaded, previous, current, previous - current, current >= self.threshold
        )


THRESHOLD_ENV = "SYNAPSE_COMPACT_THRESHOLD_MB"
DEFAULT_THRESHOLD_BYTES = 5_000_000


def env_megabytes() -> float | None:
    """``SYNAPSE_COMPACT_THRESHOLD_MB`` when it is a positive finite number, else None."""
    import math
    import os

    try:
        value = float(os.environ.get(THRESHOLD_ENV, ""))
    except ValueError:
        return None
    return value if math.isfinite(value) and value > 0 else None


class patched_env:
    """Set (or with None, remove) one environment variable for the duration of a ``with`` block."""

    def __init__(self, name: str, value: str | None) -> None:
        self.name, self.value = name, value

    def __enter__(self) -> None:
        import os

        self.saved = os.environ.get(self.name)
        if self.value is None:
            os.environ.pop(self.name, None)
        else:
            os.environ[self.name] = self.value

    def __exit__(self, *exc: object) -> None:
        import os

        if self.saved is None:
            os.environ.pop(self.name, None)
        else:
            os.environ[self.name] = self.saved


def hook_threshold_bytes(threshold: int) -> patched_env:
    """Make the hook (which reads only the environment) use ``threshold`` bytes."""
    return patched_env(THRESHOLD_ENV, repr(threshold / 1_000_000))


class CostCommands(Delegate):
    """REPL commands whose ``/cost`` line comes from the implementation's (mutated) ``format_cost_output``,
    so a mutant of that function reaches the REPL as it would in a port with one formatter."""

    def __init__(self, inner: Any, runner: Any, implementation: Any) -> None:
        super().__init__(inner)
        self._mut_runner = runner
        self._mut_implementation = implementation

    async def handle(self, line: str) -> Any:
        outcome = await self._inner.handle(line)
        get_usage = getattr(self._mut_runner, "get_session_usage", None)
        if trim(line).lower() != "/cost" or not callable(get_usage):
            return outcome
        usage = get_usage()
        if usage is None:
            return outcome
        return type(outcome)(
            outcome.handled, self._mut_implementation.format_cost_output(usage), outcome.exit
        )


class ToolResultCutter(Delegate):
    """A conversation reader that cuts each tool result with the mutant's ``cut`` and lets the
    reference's summary do the rest (its own cut then never applies: the limit it sees is one more)."""

    LIMIT_ENV = "SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT"

    def cut(self, content: str, limit: int) -> str:
        raise NotImplementedError

    def compact(self, turns: Any, max_chars: int = 0) -> str:
        limit = env_positive_int(self.LIMIT_ENV, 200)
        cut = []
        for turn in turns:
            if turn.role == "user" and turn.tool_results:
                results = tuple(
                    ToolResultRecord(r.tool_use_id, self.cut(r.content, limit)) for r in turn.tool_results
                )
                cut.append(turn_like(turn, tool_results=results))
            else:
                cut.append(turn)
        with patched_env(self.LIMIT_ENV, str(limit + 1)):
            return str(self._inner.compact(cut, max_chars))


STOP_HOOK_MARKER = "[StopHook]"


class _HookContext:
    def __init__(self, final_response: str, options: dict[str, Any], on_progress: Any) -> None:
        self.session_id = options.get("session_id")
        self.cwd = options.get("cwd", "")
        self.messages = options.get("messages", [])
        self.final_response = final_response
        self.on_progress = on_progress


class StopHookMessages(Delegate):
    """A stop-hook executor that appends the hooks' messages by the contract's rules, asking
    ``kept`` whether a message counts and ``shown`` what of it is appended: a mutant overrides one."""

    def __init__(self, inner: Any, registry: Any) -> None:
        super().__init__(inner)
        self._mut_registry = registry

    def kept(self, message: str) -> bool:
        return bool(trim(message))

    def shown(self, message: str) -> str:
        return message

    async def execute_and_append(self, final_response: str, **options: Any) -> str:
        if not self._inner.should_execute():
            return str(await self._inner.execute_and_append(final_response, **options))
        context = _HookContext(final_response, options, self._inner.emit_progress)
        results = await self._mut_registry.execute_all(context)
        texts = [
            self.shown(text) for r in results if isinstance(text := r.get("message"), str) and self.kept(text)
        ]
        if not texts:
            return final_response
        separator = "\n\n" if final_response else ""
        return f"{final_response}{separator}{STOP_HOOK_MARKER}\n" + "\n\n".join(texts)


class StopHookMessagesMutant(ReferenceImplementation):
    """Plugs a :class:`StopHookMessages` subclass (``executor``) in as the stop-hook executor."""

    executor: type[StopHookMessages] = StopHookMessages

    def stop_hook_executor(self, *, enabled: bool, registry: Any, **options: Any) -> Any:
        inner = super().stop_hook_executor(enabled=enabled, registry=registry, **options)
        return self.executor(inner, registry)


class StopHookProgress(Delegate):
    """A stop-hook executor whose hooks' progress goes through ``progress_text`` (empty: not shown),
    then to the caller as the contract says (a text part set off by newlines)."""

    def progress_text(self, message: str) -> str:
        return trim(message)

    async def emit_progress(self, message: str) -> None:
        text = self.progress_text(message)
        callback = self._mut_callback
        if not text or callback is None:
            return
        try:
            outcome = callback({"type": "text", "text": f"\n{text}\n"})
            if inspect.isawaitable(outcome):
                await outcome
        except Exception as exc:
            logging.getLogger("synapse.agent.stop_hooks").warning(
                "Stop hook progress callback failed: %s", exc
            )

    async def execute_and_append(self, final_response: str, **options: Any) -> str:
        inner = self._inner
        object.__setattr__(inner, "emit_progress", self.emit_progress)
        try:
            return str(await inner.execute_and_append(final_response, **options))
        finally:
            object.__delattr__(inner, "emit_progress")


class StopHookProgressMutant(ReferenceImplementation):
    """Plugs a :class:`StopHookProgress` subclass (``executor``) in as the stop-hook executor."""

    executor: type[StopHookProgress] = StopHookProgress

    def stop_hook_executor(self, **options: Any) -> Any:
        executor = self.executor(super().stop_hook_executor(**options))
        executor._mut_callback = options.get("on_message_part")
        return executor


class SwappedCalls(Delegate):
    """A component every call of which (plain or ``async``) runs with module-level names replaced:
    ``swaps`` are ``(module, name, value)`` triples, as :func:`swapped` takes them."""

    def __init__(self, inner: Any, *swaps: tuple[Any, str, Any]) -> None:
        super().__init__(inner)
        self._mut_swaps = swaps

    def _mut_swapping(self) -> contextlib.ExitStack:
        stack = contextlib.ExitStack()
        for module, name, value in self._mut_swaps:
            stack.enter_context(swapped(module, name, value))
        return stack

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(object.__getattribute__(self, "_inner"), name)
        if not callable(attribute):
            return attribute
        if inspect.iscoroutinefunction(attribute):

            async def run(*args: Any, **kwargs: Any) -> Any:
                with self._mut_swapping():
                    return await attribute(*args, **kwargs)

            return run

        def call(*args: Any, **kwargs: Any) -> Any:
            with self._mut_swapping():
                return attribute(*args, **kwargs)

        return call


_PYTHON_INT_PREFIX = r"\s*([+-]?)(\d+)"
_PYTHON_FLOAT_PREFIX = r"\s*([+-]?(?:Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?))"


def python_parse_int(text: str) -> int | None:
    """``parseInt(text, 10)`` as a port writes it with Python's own ``\\s`` and ``\\d``: the digits of
    every script (``'２'``, ``'٣'``) are digits, and U+001C..U+001F and U+0085 are white space, U+FEFF
    is not.  Otherwise it reads as the reference's :func:`~synapse_ref.js_text.parse_int`."""
    import re

    match = re.match(_PYTHON_INT_PREFIX, text)
    if match is None:
        return None
    sign, digits = match.groups()
    digits = digits.lstrip("0") or "0"
    if len(digits) > 400:
        return None
    value = int(sign + digits)
    try:
        float(value)
    except OverflowError:
        return None
    return value


def python_parse_float(text: str) -> float | None:
    """``parseFloat(text)`` as a port writes it with Python's ``\\s`` and ``\\d`` (and ``float()``,
    which reads the digits of every script)."""
    import re

    match = re.match(_PYTHON_FLOAT_PREFIX, text)
    return float(match.group(1)) if match else None


class SwappedWorkflow(SwappedCalls):
    """A staged workflow every call of which, and of its state store and timeline, runs with ``swaps``:
    a port whose module reads something its own way reads it so on every path (the hook's, the compact
    decision's and the components' own)."""

    def __getattr__(self, name: str) -> Any:
        if name in ("state", "timeline"):
            return SwappedCalls(getattr(object.__getattribute__(self, "_inner"), name), *self._mut_swaps)
        return super().__getattr__(name)
