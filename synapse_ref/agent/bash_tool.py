"""The Bash tool: runs the model's shell commands, each in a process group of its own so that cancelling
a call (an aborted request) or a command running past ``SYNAPSE_COMMAND_TIMEOUT`` ends the command and
every child it started."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from synapse_ref.agent.tools import BashTool, ToolOutcome, ToolReturn
from synapse_ref.context.settings import parse_env_positive_int
from synapse_ref.js_text import WHITESPACE, first_word, json_parse, trim

logger = logging.getLogger("synapse.agent.bash")

SHELL = "/bin/bash"
KILL_GRACE_SECONDS = 1.0
COMMAND_TIMEOUT_ENV = "SYNAPSE_COMMAND_TIMEOUT"
DEFAULT_COMMAND_TIMEOUT_MS = 30000
"""The original's limit on one command (``SYNAPSE_COMMAND_TIMEOUT``, in milliseconds): without one, a
command that never ends on its own (``tail -f``, a server, a prompt for input) blocks the run until the user
interrupts it."""
DRAIN_SECONDS = 0.2
"""How long a timed-out command's pipes are still read once its group has ended: what it wrote is read at
once, but a process outside the group (a job under job control) may hold a pipe open for good."""
READ_CHUNK = 65536
BASH_TOOL_SCHEMA: Mapping[str, Any] = {
    "name": "Bash",
    "description": "Run a shell command in the working directory; the result is its output and error output.",
    "parameters": {
        "type": "object",
        "properties": {"command": {"type": "string", "description": "The command line to run"}},
        "required": ["command"],
    },
}
NO_OUTPUT = "(Command executed successfully with no output)"
HELP_HINT = (
    'Self-description: The command failed. Next step: run `Bash(command="{command} --help")` to learn usage, '
    "then retry with valid arguments."
)
UNKNOWN_TOOL_CORRECTION = (
    '\n\nCORRECTION: You can ONLY call the "Bash" tool. To use "{name}", call Bash with command parameter:\n'
    'Bash(command="{name} <args>")\n\nExample: Bash(command="read ./README.md")'
)
MISUSE_OUTPUT = "\n".join(
    (
        "Invalid command: `Bash` is a tool name, not a runnable shell command.",
        "Do not wrap with `Bash(...)` inside the command string.",
        "Use the inner command text only. Examples:",
        '- Bash(command="read ./README.md")',
        '- Bash(command="ls -la")',
    )
)
MISUSE_MESSAGE = (
    "Tool misuse detected: you attempted to execute the Bash tool itself as a command. "
    "CORRECTION: pass only the actual command string in `command`, then retry. "
    'Examples: Bash(command="read ./README.md"), Bash(command="ls -la").'
)
"""The original's answer to a command that is the tool's own name (``Bash``, ``Bash ls``, ``Bash(ls)``):
a model that writes the call into the command would otherwise get bash's "command not found" and try
again the same way."""
COMMAND_NOT_FOUND_HINTS = ("unknown tool", "command not found", "unknown command")
INVALID_USAGE_HINTS = (
    "usage:",
    "requires a number argument",
    "must be a non-negative number",
    "unexpected argument:",
    "invalid parameters",
)
GROUP_EXIT_CHECKS = 200
GROUP_EXIT_CHECK_INTERVAL = 0.01


@dataclass(frozen=True)
class CommandRun:
    """What a finished command printed and how it exited (``CommandOutput``)."""

    stdout: str
    stderr: str
    exit_code: int


class CommandTimeoutError(Exception):
    """A command ran longer than its limit and its process group was ended.  The message is the
    original's (``Command execution timeout after <ms>ms``); ``run`` holds what the command printed
    before, so the model still sees how far it got."""

    def __init__(self, timeout_ms: int, run: CommandRun) -> None:
        super().__init__(f"Command execution timeout after {timeout_ms}ms")
        self.timeout_ms = timeout_ms
        self.run = run


def command_timeout_ms(env: Mapping[str, str] | None = None) -> int:
    """``SYNAPSE_COMMAND_TIMEOUT`` as it is when a command starts (default ``os.environ``), so a changed
    setting applies to the next command; a value that is not a positive integer falls back to 30 s."""
    source = os.environ if env is None else env
    return parse_env_positive_int(source.get(COMMAND_TIMEOUT_ENV), DEFAULT_COMMAND_TIMEOUT_MS)


def _usage_error(message: str) -> ToolOutcome:
    return ToolOutcome(
        is_error=True,
        message=message,
        brief="Invalid parameters",
        extras={"failureCategory": "invalid_usage"},
    )


async def run_command(
    command: str, cwd: str, *, grace: float = KILL_GRACE_SECONDS, timeout_ms: int | None = None
) -> CommandRun:
    """Run ``command`` to its end.  When the awaiting task is cancelled, or the command (its output
    included) is not done after ``timeout_ms`` milliseconds, the command's process group gets ``SIGTERM``,
    then ``SIGKILL`` for whatever is left after ``grace`` seconds, and the call goes on only once the
    shell is reaped: nothing of the command runs on after its call.  A timeout raises
    :class:`CommandTimeoutError` carrying what the command printed until then; ``None``: no limit."""
    starting = asyncio.ensure_future(
        asyncio.create_subprocess_exec(
            SHELL,
            "-c",
            command,
            cwd=cwd,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,  # its own session and process group, whose id is the shell's pid
        )
    )
    try:
        process = await asyncio.shield(starting)
    except asyncio.CancelledError:
        # Cancelled while the pipes were being connected: the shell may already run and have forked, so
        # let the start finish and end the whole group (asyncio alone would kill only the shell).
        with contextlib.suppress(OSError):
            await asyncio.shield(_end_group(await starting, grace))
        raise
    stdout, stderr = bytearray(), bytearray()
    # Read into buffers of our own rather than with communicate(), so that what a command printed before
    # its timeout is kept; the reading goes on while the group is ended, so the pipes reach their end.
    collecting = asyncio.ensure_future(_collect(process, stdout, stderr))
    try:
        try:
            returncode = await asyncio.wait_for(asyncio.shield(collecting), _seconds(timeout_ms))
        except BaseException as error:
            # An abort (cancellation) and a timeout end the command the same way.
            await asyncio.shield(_end_group(process, grace))
            if timeout_ms is None or not isinstance(error, asyncio.TimeoutError):
                raise
            logger.info("Command timed out after %dms (process group %d)", timeout_ms, process.pid)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(collecting), DRAIN_SECONDS)
            ended = process.returncode if process.returncode is not None else -signal.SIGKILL
            raise CommandTimeoutError(timeout_ms, _decoded(stdout, stderr, ended)) from None
    finally:
        collecting.cancel()
    return _decoded(stdout, stderr, returncode)


def _seconds(timeout_ms: int | None) -> float | None:
    # Capped (at about 31 years) so that a huge setting is still a float the event loop can schedule.
    return None if timeout_ms is None else min(timeout_ms, 10**12) / 1000


async def _collect(process: asyncio.subprocess.Process, stdout: bytearray, stderr: bytearray) -> int:
    """Both pipes to their end, then the shell's return code (as ``communicate()`` does)."""
    await asyncio.gather(_read_into(process.stdout, stdout), _read_into(process.stderr, stderr))
    return await process.wait()


async def _read_into(stream: asyncio.StreamReader | None, sink: bytearray) -> None:
    if stream is None:
        return
    while chunk := await stream.read(READ_CHUNK):
        sink.extend(chunk)


def _decoded(stdout: bytearray, stderr: bytearray, returncode: int) -> CommandRun:
    return CommandRun(
        stdout=stdout.decode("utf-8", errors="replace"),
        stderr=stderr.decode("utf-8", errors="replace"),
        exit_code=shell_exit_code(returncode),
    )


def shell_exit_code(returncode: int) -> int:
    """The exit status a shell reports (``$?``): a command ended by signal N exits with 128 + N, where
    Python's return code is -N (``bash -c`` runs a lone command in its own process, so a command killed
    by a signal reaches here as such)."""
    return returncode if returncode >= 0 else 128 - returncode


async def _end_group(process: asyncio.subprocess.Process, grace: float) -> None:
    """``SIGTERM`` to the whole group, a grace for the shell to exit, then ``SIGKILL`` to the group: a
    child that outlived the shell or ignores ``SIGTERM`` is killed too."""
    _signal_group(process.pid, signal.SIGTERM)
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(process.wait(), grace)
    _signal_group(process.pid, signal.SIGKILL)
    await process.wait()
    # The shell is reaped, but its children belong to whoever adopted them: a killed child still runs
    # until the kernel schedules its death, so wait (briefly) until no member of the group runs.
    for _ in range(GROUP_EXIT_CHECKS):
        if not _group_running(process.pid):
            break
        await asyncio.sleep(GROUP_EXIT_CHECK_INTERVAL)
    else:
        logger.warning("Process group %d still runs after SIGKILL", process.pid)
    logger.info("Ended command (process group %d)", process.pid)


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def _group_running(pgid: int) -> bool:
    """Whether a process of group ``pgid`` still runs; a zombie (dead, not yet reaped by its adopter)
    does not.  Read from ``/proc`` where there is one, else whether the group can be signalled."""
    try:
        entries = [entry.name for entry in os.scandir("/proc") if entry.name.isdigit()]
    except OSError:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    for name in entries:
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                fields = handle.read().rpartition(b")")[2].split()
        except OSError:  # it ended meanwhile
            continue
        # After "(comm)": state, ppid, pgrp, ...
        if len(fields) > 2 and int(fields[2]) == pgid and fields[0] not in (b"Z", b"X"):
            return True
    return False


def is_tool_misuse(command: str) -> bool:
    """The trimmed command is ``Bash`` alone or followed by white space or ``(``: ``Bashful`` and ``bash``
    are commands like any other."""
    text = trim(command)
    if not text.startswith("Bash"):
        return False
    rest = text[len("Bash") :]
    return not rest or rest[0] == "(" or rest[0] in WHITESPACE


def _failure_category(stderr: str) -> str:
    """The original's reading of a failed command's ``stderr``: a missing command or a usage message is a
    misuse of the tools (counted towards the consecutive-failure stop), anything else an execution error."""
    text = stderr.lower()
    if any(hint in text for hint in COMMAND_NOT_FOUND_HINTS):
        return "command_not_found"
    if any(hint in text for hint in INVALID_USAGE_HINTS):
        return "invalid_usage"
    return "execution_error"


def _output(run: CommandRun) -> str:
    """Stdout, then ``[stderr]`` and the error output, as the original joins them."""
    return "\n\n".join(part for part in (run.stdout, f"[stderr]\n{run.stderr}" if run.stderr else "") if part)


def _outcome(command: str, run: CommandRun) -> ToolOutcome:
    """What the model sees, as the original words it: stdout, then ``[stderr]`` and the error output; a
    failure adds ``Command failed with exit code N`` and a hint to read the command's ``--help``, and
    carries the exit code in ``extras.exitCode`` (as the original's does; a success carries no extras)."""
    output = _output(run)
    if run.exit_code == 0:
        # Output of white space alone counts as none, as the original's ``!output.trim()`` has it (a
        # model API may also refuse a tool result that holds only white space).
        return ToolOutcome(output=output if trim(output) else NO_OUTPUT)
    # Unlike the original, a failure without output is not called a success: its output stays empty.
    hint = HELP_HINT.format(command=first_word(command))
    category = _failure_category(run.stderr)
    if category != "execution_error":
        output = "\n\n".join(part for part in (output, hint) if part)
    return ToolOutcome(
        is_error=True,
        output=output,
        message=f"Command failed with exit code {run.exit_code}\n\n{hint}",
        brief="Bash command failed",
        extras={"failureCategory": category, "exitCode": run.exit_code},
    )


def _timeout_outcome(error: CommandTimeoutError) -> ToolOutcome:
    """A command ended at its time limit: an error in the original's words, with what it printed until
    then.  An execution error, as the original's (which has no category) counts it: a slow command is
    no misuse of the tools."""
    return ToolOutcome(
        is_error=True,
        output=_output(error.run),
        message=f"Command execution failed: {error}",
        brief="Command execution failed",
        extras={"failureCategory": "execution_error"},
    )


class ShellTool:
    """The Bash tool.  There is no sandbox here: every command runs with the user's rights, so nothing is
    ever blocked and the allow answers of a permission prompt have nothing to widen."""

    def __init__(self, cwd: str, *, grace: float = KILL_GRACE_SECONDS) -> None:
        self._cwd = cwd
        self._grace = grace

    async def call(self, args: Mapping[str, Any]) -> ToolReturn:
        command = args.get("command")
        if not isinstance(command, str) or not trim(command):
            return _usage_error("Invalid parameters: Bash needs a non-empty string `command`")
        if is_tool_misuse(command):
            return ToolOutcome(
                is_error=True,
                output=MISUSE_OUTPUT,
                message=MISUSE_MESSAGE,
                brief="Invalid Bash command",
                extras={"failureCategory": "invalid_usage"},
            )
        try:
            run = await run_command(command, self._cwd, grace=self._grace, timeout_ms=command_timeout_ms())
        except CommandTimeoutError as error:
            return _timeout_outcome(error)
        except OSError as error:  # no shell, or the working directory is gone
            return ToolOutcome(
                is_error=True,
                message=f"Command execution failed: {error}",
                brief="Command execution failed",
                extras={"failureCategory": "execution_error"},
            )
        return _outcome(command, run)

    async def execute_unsandboxed(self, command: str, cwd: str) -> CommandRun:
        """Raises :class:`CommandTimeoutError` for a command past its limit, as the original's rejects."""
        return await run_command(command, cwd, grace=self._grace, timeout_ms=command_timeout_ms())

    async def allow_session(self, path: str, cwd: str) -> None:
        logger.info("No sandbox: %s is already allowed", path)

    async def allow_permanent(self, path: str, cwd: str) -> None:
        logger.info("No sandbox: %s is already allowed", path)


class BashToolset:
    """The toolset of one tool, ``Bash``, running commands in ``cwd``."""

    def __init__(self, cwd: str, *, grace: float = KILL_GRACE_SECONDS) -> None:
        self._bash = ShellTool(cwd, grace=grace)

    @property
    def tools(self) -> Sequence[Mapping[str, Any]]:
        return [BASH_TOOL_SCHEMA]

    async def handle(self, tool_call: Mapping[str, Any]) -> ToolReturn:
        name = tool_call.get("name")
        if name != "Bash":
            return ToolOutcome(
                is_error=True,
                message=f"Unknown tool: {name}{UNKNOWN_TOOL_CORRECTION.format(name=name)}",
                brief="Unknown tool",
                extras={"failureCategory": "command_not_found"},
            )
        try:
            # JSON.parse, as in the original: NaN and Infinity are no JSON
            args = json_parse(str(tool_call.get("arguments") or "{}"))
        except ValueError as error:
            return _usage_error(
                f"Invalid parameters: tool arguments must be valid JSON. Parse error: {error}"
            )
        if not isinstance(args, dict):
            return _usage_error("Invalid parameters: the arguments must be a JSON object")
        return await self._bash.call(args)

    def get_tool(self, name: str) -> BashTool | None:
        return self._bash if name == "Bash" else None
