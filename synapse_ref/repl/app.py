"""The interactive REPL: ``python -m synapse_ref`` (or the ``synapse`` console script).

It runs the reference agent loop against an offline echo model built on the scripted fake, so it works
without network or credentials and shows the context and session layer at work: history persisted under
``<SYNAPSE_HOME>/sessions``, ``/compact``, ``/cost``, ``/resume`` and the other slash commands.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import synapse_ref
from synapse_ref.agent.runner import DEFAULT_SYSTEM_PROMPT, AgentRunner
from synapse_ref.agent.tools import BashTool, ToolReturn
from synapse_ref.context.orchestrator import ContextOrchestrator
from synapse_ref.context.settings import ContextSettings
from synapse_ref.context.token_counter import count_message_tokens, default_token_counter
from synapse_ref.js_text import trim
from synapse_ref.llm.scripted import Message, Reply, ScriptedLLM
from synapse_ref.repl.commands import (
    HELP_COMMANDS,
    HELP_TEXT,
    CommandOutcome,
    ReplContext,
    format_stream_text,
    handle_command,
    skill_description,
)
from synapse_ref.session.paths import synapse_home
from synapse_ref.session.session import Session, SessionDeleteError

ECHO_MODEL = "synapse-echo"
CHARS_PER_TOKEN = 4
SESSION_HELP = """  /context           Tokens in the context against the offload and compaction thresholds
  /resume [ID]       Switch to the latest session, or to session ID
  /sessions          List saved sessions
  /delete ID         Delete saved session ID: its history, offloaded files and index entry"""
PROMPT = "You> "
"""The input prompt (a terminal shows it as drawn by prompt_toolkit: the trailing space is a cursor move)."""


def _text_of(message: Mapping[str, Any]) -> str:
    return "".join(
        str(part.get("text", ""))
        for part in message.get("content", [])
        if isinstance(part, dict) and part.get("type") == "text"
    )


def _estimate(text: str) -> int:
    return -(-len(text) // CHARS_PER_TOKEN) if text else 0


class EchoLLM:
    """An offline model: it repeats the latest request, and summarises when asked to compact.

    Each call scripts one reply on a :class:`ScriptedLLM` and lets it answer, so the REPL exercises the
    same client the spec uses.
    """

    def __init__(self, model: str = ECHO_MODEL, *, scripted: ScriptedLLM | None = None) -> None:
        self._scripted = scripted if scripted is not None else ScriptedLLM(model)

    @property
    def model_name(self) -> str:
        return self._scripted.model_name

    def with_model(self, model: str) -> EchoLLM:
        return EchoLLM(scripted=self._scripted.with_model(model))

    async def generate(
        self,
        system_prompt: str,
        messages: Sequence[Message],
        tools: Sequence[Mapping[str, Any]] = (),
        *,
        max_tokens: int | None = None,
        signal: Any = None,
    ) -> Reply:
        if system_prompt == DEFAULT_SYSTEM_PROMPT:
            users = [m for m in messages if m.get("role") == "user"]
            text = f"Echo: {_text_of(users[-1])}" if users else "Echo: (nothing to echo)"
        else:
            texts = [f"{m.get('role')}: {_text_of(m)[:80]}" for m in messages if _text_of(m)]
            text = f"Summary of {len(texts)} earlier messages:\n" + "\n".join(texts[-20:])
        prompt = system_prompt + "".join(_text_of(m) for m in messages)
        self._scripted.reply_text(text, usage={"inputOther": _estimate(prompt), "output": _estimate(text)})
        return await self._scripted.generate(
            system_prompt, messages, tools, max_tokens=max_tokens, signal=signal
        )


@dataclass(frozen=True)
class ToolError:
    """An error answer of a tool (``ToolError`` in the original: ``brief`` repeats the message)."""

    message: str
    extras: Mapping[str, Any]
    is_error: bool = True
    output: str = ""

    @property
    def brief(self) -> str:
        return self.message


class EmptyToolset:
    """A toolset with no tools, for the offline model that only talks."""

    @property
    def tools(self) -> Sequence[Mapping[str, Any]]:
        return ()

    async def handle(self, tool_call: Mapping[str, Any]) -> ToolReturn:
        return ToolError(f"Unknown tool: {tool_call.get('name')}", {"failureCategory": "command_not_found"})

    def get_tool(self, name: str) -> BashTool | None:
        return None


def format_tool_catalog(tools: Sequence[Mapping[str, Any]], skills: Sequence[tuple[str, str]] = ()) -> str:
    """The original's listing format: ``Found N tool(s):`` then the MCP and skill groups."""
    count = len(tools) + len(skills)
    if count == 0:
        return "No tools found matching pattern: *"
    lines = [f"Found {count} tool{'s' if count > 1 else ''}:", ""]
    if tools:
        lines.append("MCP Tools:")
        for tool in tools:
            lines.append(f"  {tool.get('name', '?')}")
            if tool.get("description"):
                lines.append(f"    {tool['description']}")
    if tools and skills:
        lines.append("")
    if skills:
        lines.append("Skill Tools:")
        for name, description in skills:
            lines.append(f"  {name}")
            if description:
                lines.append(f"    {description}")
    return "\n".join(lines)


class LocalToolCatalog:
    """``/tools``: the toolset's tools and the installed skills, in the original's listing format."""

    def __init__(self, tools: Sequence[Mapping[str, Any]], skills_dir: Path) -> None:
        self._tools = tools
        self._skills_dir = skills_dir

    def format_search_result(self) -> str:
        skills: list[tuple[str, str]] = []
        if self._skills_dir.is_dir():
            found = (
                p for p in self._skills_dir.iterdir() if p.name[:1] != "." and (p / "SKILL.md").is_file()
            )
            for skill in sorted(found):
                text = (skill / "SKILL.md").read_text(encoding="utf-8", errors="replace")
                skills.append((f"skill:{skill.name}", skill_description(text) or ""))
        return format_tool_catalog(self._tools, skills)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="synapse",
        description=(
            "Interactive Synapse session (reference implementation). It talks to an offline echo model "
            "(no network, no credentials): every reply repeats your message, so you can try history "
            "persistence, /compact, /cost and /resume. Sessions are stored under <home>/sessions."
        ),
        epilog=(
            "Commands inside the REPL: /help, /exit, /clear, /compact, /cost, /skills, /tools, "
            "/resume [ID], /sessions. Settings such as SYNAPSE_OFFLOAD_THRESHOLD, "
            "SYNAPSE_COMPACT_PRESERVE_COUNT or SYNAPSE_MAX_TOOL_ITERATIONS are read from the environment."
        ),
    )
    parser.add_argument(
        "--home",
        type=Path,
        default=None,
        help="Synapse home directory holding sessions/ and skills/ (default: $SYNAPSE_HOME or ~/.synapse)",
    )
    parser.add_argument(
        "--resume",
        nargs="?",
        const="",
        default=None,
        metavar="ID",
        help="resume session ID (an unknown ID is an error), or the most recent session when no ID is given",
    )
    parser.add_argument(
        "--provider",
        choices=("echo", "anthropic", "openai"),
        default="echo",
        help="the model's API: echo (offline, the default), anthropic (ANTHROPIC_API_KEY, "
        "ANTHROPIC_BASE_URL) or openai (OPENAI_API_KEY, OPENAI_BASE_URL)",
    )
    parser.add_argument(
        "--model", default="", help="the model's name (default: the provider's; openai needs one)"
    )
    parser.add_argument("--version", action="version", version=f"synapse {synapse_ref.__version__}")
    return parser


class StartupError(Exception):
    """The REPL cannot start: the message says why, for the user (no traceback)."""


class TurnSignal:
    """The abort signal of one model turn: Ctrl-C sets it, and the runner stops at its next check."""

    def __init__(self) -> None:
        self.aborted = False


class Repl:
    """One interactive run: the current session and runner, and the command context around them."""

    def __init__(
        self,
        home: Path,
        out: TextIO,
        *,
        is_tty: bool,
        resume: str | None = None,
        llm: Any = None,
    ) -> None:
        self.home = home
        self.sessions_dir = home / "sessions"
        self.out = out
        self.is_tty = is_tty
        self.llm = llm if llm is not None else EchoLLM()
        self.streamed = False
        listen = getattr(self.llm, "with_text_listener", None)
        # The turn's replies print as they arrive; summaries for compaction stay silent.
        self.turn_llm = listen(self._print_piece) if callable(listen) else self.llm
        self.toolset = EmptyToolset()
        self.notice = ""
        self.session: Session = self._start(resume)
        self.runner = self._runner_for(self.session)
        self.context = ReplContext(
            runner=self.runner,
            synapse_home=home,
            tool_catalog=LocalToolCatalog(self.toolset.tools, home / "skills"),
        )

    # -- sessions ------------------------------------------------------------------------------------------
    def _start(self, resume: str | None) -> Session:
        """The session to start with: the one asked for with ``--resume`` when it exists, else a new one."""
        if resume:
            found = self._find(resume)
            if found is None:
                raise StartupError(f"Session not found: {resume} (see /sessions or {self.sessions_dir})")
            return found
        if resume is not None:
            latest = Session.list(self.sessions_dir)
            found = self._find(str(latest[0]["id"])) if latest else None
            if found is not None:
                return found
            self.notice = "No previous sessions found; starting a new session."
        return self._new_session()

    def _new_session(self) -> Session:
        return Session.create(
            self.sessions_dir, model=self.llm.model_name, pricing_path=self.home / "pricing.json"
        )

    def _find(self, session_id: str) -> Session | None:
        return Session.find(
            session_id, self.sessions_dir, model=self.llm.model_name, pricing_path=self.home / "pricing.json"
        )

    def _runner_for(self, session: Session) -> AgentRunner:
        return AgentRunner(
            self.turn_llm, self.toolset, session=session, orchestrator=ContextOrchestrator(self.llm)
        )

    def _print_piece(self, text: str) -> None:
        self.streamed = True
        self.out.write(text)
        self.out.flush()

    def _switch(self, session: Session) -> None:
        self.session = session
        self.runner = self._runner_for(session)
        self.context.runner = self.runner

    def resume(self, session_id: str | None) -> str:
        """Switch to ``session_id``, or to the most recent session other than the current one."""
        if session_id:
            found = self._find(session_id)
            if found is None:
                return f"Session not found: {session_id}"
        else:
            others = [e for e in Session.list(self.sessions_dir) if e.get("id") != self.session.id]
            if not others:
                return "No other session to resume."
            found = self._find(str(others[0]["id"]))
            if found is None:
                return f"Session not found: {others[0]['id']}"
        self._switch(found)
        return self.describe_resumed()

    def describe_resumed(self) -> str:
        history = self.runner.history
        lines = [f"Resumed session {self.session.id} ({len(history)} messages)."]
        for message in history[-10:]:
            text = _text_of(message).strip().replace("\n", " ")
            if text:
                lines.append(f"  {message.get('role')}: {text[:120]}")
        return "\n".join(lines)

    def context_report(self) -> str:
        """``/context``: the tokens the next request carries, against the thresholds that act on them."""
        settings = ContextSettings.from_env()
        history = self.runner.history
        tokens = count_message_tokens(history, default_token_counter())
        share = f"{tokens / settings.offload_threshold:.1%}" if settings.offload_threshold > 0 else "n/a"
        lines = [
            f"Context: {tokens:,} tokens in {len(history)} messages ({share} of the offload threshold)",
            f"  offload threshold:  {settings.offload_threshold:>9,} tokens "
            "(above it, long tool results move to files)",
            f"  compaction trigger: {settings.compact_trigger_threshold:>9,} tokens "
            "(compaction runs when offloading frees fewer and the context is still above the threshold)",
        ]
        return "\n".join(lines)

    def list_sessions(self) -> str:
        entries = Session.list(self.sessions_dir)
        if not entries:
            return "No saved sessions."
        lines = ["Saved sessions (newest first):"]
        for entry in entries:
            current = " (current)" if entry.get("id") == self.session.id else ""
            title = (str(entry.get("title") or "").strip().splitlines() or ["(untitled)"])[0][:60]
            lines.append(f"  {entry.get('id')}  {entry.get('messageCount', 0)} messages  {title}{current}")
        return "\n".join(lines)

    def delete_session(self, session_id: str) -> str:
        """``/delete ID``.  The current session is refused rather than deleted under the running
        conversation: the next message would write it anew, so the user switches away first."""
        if not session_id:
            return "Usage: /delete ID (the ids are listed by /sessions)"
        if session_id == self.session.id:
            return (
                f"Cannot delete the current session {session_id}: "
                "/resume another session first (or /clear this one)."
            )
        try:
            deleted = Session.delete_by_id(self.sessions_dir, session_id)
        except SessionDeleteError as error:
            return f"{error}\nThe session is kept; /delete {session_id} again once the file can be removed."
        return f"Deleted session {session_id}." if deleted else f"Session not found: {session_id}"

    # -- the loop ------------------------------------------------------------------------------------------
    def say(self, text: str) -> None:
        self.out.write(format_stream_text(text, is_tty=self.is_tty) + "\n")
        self.out.flush()

    async def handle(self, line: str) -> bool:
        """Handle one input line; False when the REPL should end.

        Switching sessions replaces this program's runner, so ``/resume``, ``/sessions`` and ``/delete``
        are answered here; every other command goes to the shared command handler."""
        command, _, argument = trim(line).partition(" ")
        command = command.lower()
        if command == "/resume":
            self.say(self.resume(trim(argument) or None))
            return True
        if command == "/sessions":
            self.say(self.list_sessions())
            return True
        if command == "/delete":
            self.say(self.delete_session(trim(argument)))
            return True
        if command == "/context":
            self.say(self.context_report())
            return True
        if command in HELP_COMMANDS:
            self.say(f"{HELP_TEXT}\n{SESSION_HELP}")
            return True
        outcome: CommandOutcome = await handle_command(line, self.context)
        if outcome.handled:
            if outcome.output:
                self.say(outcome.output)
            return not outcome.exit
        await self.run_turn(line)
        return True

    async def run_turn(self, line: str) -> None:
        """One model turn; Ctrl-C aborts it (the runner's signal, and the request in flight is cancelled)
        and the REPL goes back to the prompt."""
        turn_signal = TurnSignal()
        self.streamed = False
        turn = asyncio.ensure_future(self.runner.run(line, signal=turn_signal))

        def interrupt() -> None:
            turn_signal.aborted = True
            turn.cancel()

        with _on_interrupt(interrupt):
            try:
                answer = await turn
                if self.streamed:
                    self.out.write("\n")  # the reply was printed as it arrived
                    self.out.flush()
                else:
                    self.say(answer)
            except asyncio.CancelledError:
                if not turn_signal.aborted:
                    raise
                self.say("Interrupted.")
            except Exception as error:
                self.say("Interrupted." if turn_signal.aborted else f"Error: {error}")

    async def loop(self, lines: TextIO) -> None:
        """Lines from a pipe or file, one command or message each, until end of input or ``/exit``."""
        while True:
            line = await asyncio.to_thread(lines.readline)
            if not line or (trim(line) and not await self.handle(line.rstrip("\n"))):
                self.say("Goodbye.")
                return

    async def interactive_loop(self) -> None:
        """A terminal: line editing and a history kept in ``<home>/history``; Ctrl-C clears the line,
        Ctrl-D (on an empty line) or ``/exit`` leaves."""
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import FileHistory

        prompt: PromptSession[str] = PromptSession(history=FileHistory(str(self.home / "history")))
        while True:
            try:
                line = await prompt.prompt_async(PROMPT)
            except KeyboardInterrupt:
                continue
            except EOFError:
                break
            if trim(line) and not await self.handle(line):
                break
        self.say("Goodbye.")


@contextlib.contextmanager
def _on_interrupt(callback: Callable[[], None]) -> Iterator[None]:
    """Route SIGINT to ``callback`` while a turn runs (where the event loop can take signals)."""
    loop = asyncio.get_running_loop()
    try:
        loop.add_signal_handler(signal.SIGINT, callback)
    except (NotImplementedError, RuntimeError, ValueError):
        yield
        return
    try:
        yield
    finally:
        loop.remove_signal_handler(signal.SIGINT)


def main(
    argv: Sequence[str] | None = None, *, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    args = build_parser().parse_args(argv)
    lines = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    home = args.home.expanduser() if args.home is not None else synapse_home()
    is_tty = out.isatty() and lines.isatty()
    try:
        llm = _model_client(args.provider, args.model)
        with _log_to_file(home / "logs" / "agent.log"):
            repl = Repl(home, out, is_tty=is_tty, resume=args.resume, llm=llm)
            _run(repl, args.resume is not None, lines, out)
    except StartupError as error:
        sys.stderr.write(f"synapse: {error}\n")
        return 1
    except OSError as error:
        reason = error.strerror or str(error)
        where = error.filename or home
        sys.stderr.write(f"synapse: cannot use the Synapse home {home}: {reason}: {where}\n")
        return 1
    return 0


def _model_client(provider: str, model: str) -> Any:
    """The model the REPL talks to; a missing key or model is a start-up error, not a traceback."""
    if provider == "echo":
        return EchoLLM(model or ECHO_MODEL)
    import os

    from synapse_ref.llm import make_llm_client
    from synapse_ref.llm.errors import ProviderError

    try:
        return make_llm_client(provider, model, env=os.environ)
    except ProviderError as error:
        raise StartupError(str(error)) from None


def _run(repl: Repl, resumed: bool, lines: TextIO, out: TextIO) -> None:
    home = repl.home
    model = (
        "offline echo model (no network; replies repeat your message)"
        if isinstance(repl.llm, EchoLLM)
        else repl.llm.model_name
    )
    out.write(f"Synapse REPL (reference implementation)\nModel: {model}\nHome: {home}\n")
    if repl.notice:
        out.write(repl.notice + "\n")
    elif resumed:
        out.write(repl.describe_resumed() + "\n")
    out.write(f"Session: {repl.session.id}\nType /help for commands, /exit to leave.\n")
    out.flush()
    try:
        asyncio.run(repl.interactive_loop() if repl.is_tty else repl.loop(lines))
    except KeyboardInterrupt:
        out.write("\nInterrupted.\n")


@contextlib.contextmanager
def _log_to_file(path: Path) -> Iterator[None]:
    """Records of the ``synapse`` loggers also go to ``<home>/logs/agent.log`` while the REPL runs.

    The handler is removed afterwards and propagation is left alone, so an application that embeds
    the REPL keeps receiving the records on its own handlers.  Python prints WARNING records to stderr
    only when no handler exists anywhere, so the conversation stays clean without disabling propagation.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger = logging.getLogger("synapse")
    previous_level = logger.level
    logger.addHandler(handler)
    if logger.getEffectiveLevel() > logging.INFO:
        logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(previous_level)
        handler.close()


if __name__ == "__main__":
    raise SystemExit(main())
