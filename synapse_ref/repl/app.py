"""The interactive REPL: ``python -m synapse_ref`` (or the ``synapse`` console script).

It runs the reference agent loop against an offline echo model built on the scripted fake, so it works
without network or credentials and shows the context and session layer at work: history persisted under
``<SYNAPSE_HOME>/sessions``, ``/compact``, ``/cost``, ``/resume`` and the other slash commands.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from synapse_ref.agent.runner import DEFAULT_SYSTEM_PROMPT, AgentRunner
from synapse_ref.agent.tools import BashTool, ToolReturn
from synapse_ref.context.orchestrator import ContextOrchestrator
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
from synapse_ref.session.session import Session

ECHO_MODEL = "synapse-echo"
CHARS_PER_TOKEN = 4
SESSION_HELP = """  /resume [ID]       Switch to the latest session, or to session ID
  /sessions          List saved sessions"""


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
            for skill in sorted(p for p in self._skills_dir.iterdir() if (p / "SKILL.md").is_file()):
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
        help="resume session ID, or the most recent session when no ID is given",
    )
    return parser


class Repl:
    """One interactive run: the current session and runner, and the command context around them."""

    def __init__(self, home: Path, out: TextIO, *, is_tty: bool, resume: str | None = None) -> None:
        self.home = home
        self.sessions_dir = home / "sessions"
        self.out = out
        self.is_tty = is_tty
        self.llm = EchoLLM()
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
        if resume is not None:
            if resume:
                found = self._find(resume)
                missing = f"Session not found: {resume}; starting a new session."
            else:
                latest = Session.list(self.sessions_dir)
                found = self._find(str(latest[0]["id"])) if latest else None
                missing = "No session to resume; starting a new session."
            if found is not None:
                return found
            self.notice = missing
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
            self.llm, self.toolset, session=session, orchestrator=ContextOrchestrator(self.llm)
        )

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

    # -- the loop ------------------------------------------------------------------------------------------
    def say(self, text: str) -> None:
        self.out.write(format_stream_text(text, is_tty=self.is_tty) + "\n")
        self.out.flush()

    async def handle(self, line: str) -> bool:
        """Handle one input line; False when the REPL should end.

        Switching sessions replaces this program's runner, so ``/resume`` and ``/sessions`` are answered
        here; every other command goes to the shared command handler."""
        command, _, argument = line.strip().partition(" ")
        command = command.lower()
        if command == "/resume":
            self.say(self.resume(argument.strip() or None))
            return True
        if command == "/sessions":
            self.say(self.list_sessions())
            return True
        if command in HELP_COMMANDS:
            self.say(f"{HELP_TEXT}\n{SESSION_HELP}")
            return True
        outcome: CommandOutcome = await handle_command(line, self.context)
        if outcome.handled:
            if outcome.output:
                self.say(outcome.output)
            return not outcome.exit
        try:
            self.say(await self.runner.run(line))
        except Exception as error:
            self.say(f"Error: {error}")
        return True

    async def loop(self, lines: TextIO) -> None:
        while True:
            if self.is_tty:
                self.out.write("> ")
                self.out.flush()
            line = await asyncio.to_thread(lines.readline)
            if not line or (line.strip() and not await self.handle(line.rstrip("\n"))):
                self.say("Goodbye.")
                return


def main(
    argv: Sequence[str] | None = None, *, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    args = build_parser().parse_args(argv)
    lines = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    home = args.home.expanduser() if args.home is not None else synapse_home()
    _log_to_file(home / "logs" / "agent.log")
    repl = Repl(home, out, is_tty=out.isatty() and lines.isatty(), resume=args.resume)
    out.write(
        "Synapse REPL (reference implementation)\n"
        "Model: offline echo model (no network; replies repeat your message)\n"
        f"Home: {home}\n"
    )
    if repl.notice:
        out.write(repl.notice + "\n")
    elif args.resume is not None:
        out.write(repl.describe_resumed() + "\n")
    out.write(f"Session: {repl.session.id}\nType /help for commands, /exit to leave.\n")
    out.flush()
    try:
        asyncio.run(repl.loop(lines))
    except KeyboardInterrupt:
        out.write("\nInterrupted.\n")
    return 0


def _log_to_file(path: Path) -> None:
    """Warnings of the ``synapse`` loggers go to ``<home>/logs/agent.log``, not into the conversation."""
    logger = logging.getLogger("synapse")
    if logger.handlers:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False


if __name__ == "__main__":
    raise SystemExit(main())
