"""Named probes: what a step observes of an implementation from outside it, in process and over the wire.

A step may only observe what any implementation, in any language and in its own process, shows: files on
disk, replies, log records, calls to the ports it was given, and its process's I/O and resource limits.
These probes hold for an implementation in the test process (its process is this one) and for a server
(its process is the ``pid`` of its ``hello``), and for any user, root included.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import errno
import fcntl
import json
import logging
import multiprocessing
import os
import re
import resource as resource_module
import signal
import stat
import struct
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest

from synapse_spec.contract import CAPABILITY_FACTORIES
from synapse_spec.remote import LOG_DATA_ATTRIBUTE, RemoteImplementation, server_of

T = TypeVar("T")
NOT_APPLICABLE = "not applicable: "


_UUID4 = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")


def is_uuid4_file_name(name: str, suffix: str) -> bool:
    """Whether ``name`` is a random (version 4, RFC 4122 variant) UUID in its canonical lowercase form
    followed by ``suffix``: the name ``crypto.randomUUID()`` or ``uuid.uuid4()`` gives a file."""
    return name.endswith(suffix) and _UUID4.fullmatch(name[: -len(suffix)]) is not None


def implementation_pid(synapse: object) -> int:
    """The process that does the implementation's work: this one in process, the server's over the wire."""
    server = server_of(synapse)
    return server.pid if server is not None else os.getpid()


def in_process(synapse: object) -> bool:
    return server_of(synapse) is None


def implementation_umask(synapse: object) -> int:
    """The file mode creation mask of the implementation's process: a server's from ``/proc/<pid>/status``
    where the kernel shows it, else this process's, which a server inherits when it is started."""
    pid = implementation_pid(synapse)
    if pid != os.getpid():
        with contextlib.suppress(OSError), open(f"/proc/{pid}/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def uses_capability(synapse: object, capability: str) -> None:
    """Says that the step is about to use ``capability`` through a component rather than a factory of
    the implementation (``Session.delete`` of ``session-delete``): the scenario needs it as if it had
    called a factory, so it is not applicable to an implementation that does not declare it."""
    for member in sorted(CAPABILITY_FACTORIES[capability]):
        getattr(synapse, member)


# --------------------------------------------------------------------------------------------------------
# I/O of the implementation's process
# --------------------------------------------------------------------------------------------------------


@dataclass
class IOCount:
    """Bytes the implementation's process read during a block (``rchar`` of ``/proc/<pid>/io``)."""

    pid: int
    bytes_read: int = 0
    measure: str = ""


def _rchar(pid: int) -> int:
    with open(f"/proc/{pid}/io", encoding="ascii") as handle:
        for line in handle:
            if line.startswith("rchar:"):
                return int(line.split()[1])
    raise OSError(errno.ENOENT, f"/proc/{pid}/io has no rchar")


@contextlib.contextmanager
def process_io(synapse: object) -> Iterator[IOCount]:
    """Counts what the implementation's process reads inside the block.  Where the kernel does not expose
    ``/proc/<pid>/io`` the scenario is not applicable (there is no other measure that holds for any
    process)."""
    pid = implementation_pid(synapse)
    try:
        before = _rchar(pid)
    except OSError as exc:
        pytest.skip(f"{NOT_APPLICABLE}this system does not count a process's reads (/proc/{pid}/io: {exc})")
    count = IOCount(pid, measure=f"bytes read by process {pid} (/proc/{pid}/io rchar)")
    yield count
    count.bytes_read = _rchar(pid) - before


# --------------------------------------------------------------------------------------------------------
# Files opened or read, by any process (inotify)
# --------------------------------------------------------------------------------------------------------

IN_ACCESS = 0x001
IN_MODIFY = 0x002
IN_OPEN = 0x020
IN_DELETE_SELF = 0x400
IN_CREATE = 0x100
IN_MOVED_TO = 0x80
IN_NONBLOCK = 0o4000
IN_CLOEXEC = 0o2000000
_EVENT = struct.Struct("iIII")
_EVENT_NAMES = {IN_ACCESS: "read", IN_MODIFY: "write", IN_OPEN: "open", IN_DELETE_SELF: "delete"}


@dataclass
class FileWatch:
    """What happened to watched files while the block ran: ``events`` maps a path to ``open``, ``read``,
    ``write`` or ``delete``, as the kernel saw it for any process."""

    paths: list[str]
    events: dict[str, list[str]] = field(default_factory=dict)

    def touched(self, path: str | Path) -> list[str]:
        return self.events.get(os.path.realpath(path), [])

    def opened(self, path: str | Path) -> bool:
        return bool({"open", "read"} & set(self.touched(path)))


def _libc() -> Any:
    name = ctypes.util.find_library("c") or "libc.so.6"
    return ctypes.CDLL(name, use_errno=True)


@contextlib.contextmanager
def watch_files(paths: Sequence[str | Path]) -> Iterator[FileWatch]:
    """Watches files with inotify: the kernel reports every open and read of them by any process (the
    test's own or a server's), whatever the path used (a symbolic link, ``..``) and whoever the user."""
    libc = _libc()
    fd = libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
    if fd < 0:
        pytest.skip(f"{NOT_APPLICABLE}inotify is not available here ({os.strerror(ctypes.get_errno())})")
    real = [os.path.realpath(p) for p in paths]
    watches: dict[int, str] = {}
    try:
        for path in real:
            wd = libc.inotify_add_watch(
                fd, os.fsencode(path), IN_OPEN | IN_ACCESS | IN_MODIFY | IN_DELETE_SELF
            )
            if wd < 0:
                raise OSError(ctypes.get_errno(), f"cannot watch {path}")
            watches[wd] = path
        watch = FileWatch(real)
        yield watch
        for wd, mask in _read_events(fd):
            if wd not in watches:
                continue
            for bit, name in _EVENT_NAMES.items():
                if mask & bit:
                    watch.events.setdefault(watches[wd], []).append(name)
    finally:
        os.close(fd)


def _read_events(fd: int) -> Iterator[tuple[int, int]]:
    while True:
        try:
            data = os.read(fd, 65536)
        except BlockingIOError:
            return
        offset = 0
        while offset < len(data):
            wd, mask, _cookie, length = _EVENT.unpack_from(data, offset)
            yield wd, mask
            offset += _EVENT.size + length


# --------------------------------------------------------------------------------------------------------
# Resource limits on the implementation's process
# --------------------------------------------------------------------------------------------------------


@contextlib.contextmanager
def resource_limit(synapse: object, resource: int, soft: int) -> Iterator[None]:
    """Lowers the implementation process's soft limit (``prlimit``) for the block only: a write past
    ``RLIMIT_FSIZE`` then fails with ``EFBIG`` (a full disk), an open past ``RLIMIT_NOFILE`` with
    ``EMFILE``.  In process, ``SIGXFSZ`` is ignored meanwhile so the write fails instead of killing."""
    pid = implementation_pid(synapse)
    previous_limit = resource_module.prlimit(pid, resource)
    previous_handler = None
    if pid == os.getpid() and resource == _RLIMIT_FSIZE:
        previous_handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource_module.prlimit(pid, resource, (soft, previous_limit[1]))
    try:
        yield
    finally:
        resource_module.prlimit(pid, resource, previous_limit)
        if previous_handler is not None:
            signal.signal(signal.SIGXFSZ, previous_handler)


_RLIMIT_FSIZE = resource_module.RLIMIT_FSIZE
RLIMIT_FSIZE = resource_module.RLIMIT_FSIZE
RLIMIT_NOFILE = resource_module.RLIMIT_NOFILE


def lowest_free_descriptor(synapse: object) -> int:
    """The lowest descriptor number the implementation's process has free: a ``RLIMIT_NOFILE`` of that
    number refuses its next open."""
    pid = implementation_pid(synapse)
    if pid == os.getpid():
        lowest = os.open(os.devnull, os.O_RDONLY)
        os.close(lowest)
        return lowest
    used = {int(name) for name in os.listdir(f"/proc/{pid}/fd")}
    return next(n for n in range(len(used) + 1) if n not in used)


# --------------------------------------------------------------------------------------------------------
# A file that cannot be deleted, for any user
# --------------------------------------------------------------------------------------------------------

_FS_IOC_GETFLAGS = 0x80086601
_FS_IOC_SETFLAGS = 0x40086602
_FS_IMMUTABLE_FL = 0x00000010


def _set_immutable(path: Path, on: bool) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        flags = bytearray(struct.pack("i", 0))
        fcntl.ioctl(fd, _FS_IOC_GETFLAGS, flags)
        value = struct.unpack("i", flags)[0]
        value = value | _FS_IMMUTABLE_FL if on else value & ~_FS_IMMUTABLE_FL
        fcntl.ioctl(fd, _FS_IOC_SETFLAGS, struct.pack("i", value))
    finally:
        os.close(fd)


def _bind_mount(path: Path) -> bool:
    try:
        done = subprocess.run(
            ["mount", "--bind", str(path), str(path)], capture_output=True, check=False, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


@contextlib.contextmanager
def undeletable(path: str | Path) -> Iterator[str]:
    """Makes one file impossible to delete by any process, root included, while the block runs; yields
    how (``immutable`` or ``mount point``).  Tried in turn: the file system's immutable flag (``chattr
    +i``), then a bind mount of the file onto itself (``EBUSY``).  Where neither is allowed the scenario
    is not applicable, with the reason."""
    with _immutable_or_mounted(
        Path(path),
        _bind_mount,
        "mount point",
        "mount --bind",
        "no file can be made undeletable for every user",
    ) as how:
        yield how


def _read_only_bind_mount(path: Path) -> bool:
    if not _bind_mount(path):
        return False
    done = subprocess.run(
        ["mount", "-o", "remount,bind,ro", str(path)], capture_output=True, check=False, timeout=30
    )
    if done.returncode != 0:
        subprocess.run(["umount", str(path)], capture_output=True, check=False, timeout=30)
    return done.returncode == 0


@contextlib.contextmanager
def no_new_entries(directory: str | Path) -> Iterator[str]:
    """Makes a directory refuse every new entry, for any process, root included, while the block runs;
    yields how (``immutable`` or ``read-only mount``).  Tried in turn: the immutable flag, then a
    read-only bind mount of the directory onto itself.  Where neither is allowed the scenario is not
    applicable, with the reason."""
    with _immutable_or_mounted(
        Path(directory),
        _read_only_bind_mount,
        "read-only mount",
        "mount -o remount,bind,ro",
        "no directory can be made to refuse new entries",
    ) as how:
        yield how


@contextlib.contextmanager
def _immutable_or_mounted(
    target: Path, mount: Callable[[Path], bool], mounted: str, command: str, impossible: str
) -> Iterator[str]:
    """The immutable flag on ``target``, else ``mount(target)`` (named ``mounted``), undone afterwards;
    the scenario is not applicable where neither is allowed."""
    how = ""
    reasons = []
    try:
        _set_immutable(target, True)
        how = "immutable"
    except OSError as exc:
        reasons.append(f"chattr +i: {exc.strerror}")
        if mount(target):
            how = mounted
        else:
            reasons.append(f"{command}: not permitted")
    if not how:
        pytest.skip(f"{NOT_APPLICABLE}{impossible} here ({'; '.join(reasons)})")
    try:
        yield how
    finally:
        if how == "immutable":
            _set_immutable(target, False)
        else:
            subprocess.run(["umount", str(target)], capture_output=True, check=False, timeout=30)


# --------------------------------------------------------------------------------------------------------
# Several implementation processes at once
# --------------------------------------------------------------------------------------------------------


def in_parallel_processes(
    synapse: Any, count: int, work: Callable[[Any], T], *, timeout: float = 120
) -> list[T]:
    """Runs ``work(implementation)`` in ``count`` implementation processes at once, started together.

    In process each run is a forked child of the test process using this scenario's implementation (its
    result must pickle); over the wire each is a server process of its own.  Raises the first failure."""
    remote = getattr(synapse, "__wrapped__", synapse)
    if isinstance(remote, RemoteImplementation):
        return _in_servers(remote, count, work, timeout)
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(count)
    results: Any = context.Queue()

    def child() -> None:
        try:
            barrier.wait(timeout=30)
            results.put(("ok", work(synapse)))
        except BaseException as exc:
            results.put(("error", repr(exc)))

    processes = [context.Process(target=child) for _ in range(count)]
    for process in processes:
        process.start()
    outcomes = [results.get(timeout=timeout) for _ in processes]
    for process in processes:
        process.join(timeout=30)
    errors = [detail for status, detail in outcomes if status != "ok"]
    if errors:
        raise AssertionError(f"{len(errors)} of {count} processes failed: {errors!r}")
    return [detail for _, detail in outcomes]


def _in_servers(
    synapse: RemoteImplementation, count: int, work: Callable[[Any], T], timeout: float
) -> list[T]:
    servers = [synapse.spawn() for _ in range(count)]
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[index] = work(servers[index])
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    if any(thread.is_alive() for thread in threads):
        raise AssertionError(f"{count} server processes did not finish within {timeout} s")
    if errors:
        raise AssertionError(f"{len(errors)} of {count} processes failed: {errors!r}")
    return results


def killed_while_writing(
    synapse: Any,
    directory: str | Path,
    work: Callable[..., object],
    *,
    timeout: float = 60,
    moved_in: bool = False,
    prepare: Callable[[Any], Any] | None = None,
) -> str:
    """Runs ``work(implementation)`` in another implementation process and kills it with ``SIGKILL`` the
    moment it creates a file in ``directory``: a crash in the middle of a write, whatever the language.
    Returns the name of the file it had just created.  With ``moved_in`` an entry renamed into
    ``directory`` counts as created too, for an implementation that prepares its work elsewhere.

    In process the other process is a forked child of the test process; over the wire a server process
    of its own.  inotify reports the creation whoever the user; the kill follows within microseconds,
    while a write of several megabytes is still going on.

    ``prepare(implementation)``, when given, runs before the work starts, with the implementation the
    work will use, and its result is passed to the work as a second argument: a scripted model made and
    scripted there is served to the forked child too (with ``--synapse-llm=loopback`` the model server is
    a thread of the test process, which a child made after it reaches but cannot add to)."""
    libc = _libc()
    fd = libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
    if fd < 0:
        pytest.skip(f"{NOT_APPLICABLE}inotify is not available here ({os.strerror(ctypes.get_errno())})")
    try:
        mask = IN_CREATE | IN_MOVED_TO if moved_in else IN_CREATE
        if libc.inotify_add_watch(fd, os.fsencode(os.path.realpath(directory)), mask) < 0:
            raise OSError(ctypes.get_errno(), f"cannot watch {directory}")
        remote = getattr(synapse, "__wrapped__", synapse)
        if isinstance(remote, RemoteImplementation):
            other = remote.spawn()
            args = (other,) if prepare is None else (other, prepare(other))
            worker = threading.Thread(target=_ignore_errors, args=(work, *args), daemon=True)
            worker.start()
            pid = implementation_pid(other)

            def finished() -> bool:
                return not worker.is_alive()
        else:
            args = (synapse,) if prepare is None else (synapse, prepare(synapse))
            pid = os.fork()
            if pid == 0:  # the child: do the work; the parent kills it part way
                try:
                    work(*args)
                finally:
                    os._exit(0)

            def finished() -> bool:
                return os.waitpid(pid, os.WNOHANG)[0] != 0

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            created = _created_names(fd)
            if created:
                os.kill(pid, signal.SIGKILL)
                if in_process(synapse):
                    os.waitpid(pid, 0)
                return created[0]
            if finished():
                raise AssertionError(f"setting up: the write ended without creating a file in {directory}")
            time.sleep(0.0005)
        os.kill(pid, signal.SIGKILL)
        raise AssertionError(f"setting up: no file was created in {directory} within {timeout} s")
    finally:
        os.close(fd)


def _ignore_errors(work: Callable[..., object], *args: Any) -> None:
    with contextlib.suppress(BaseException):
        work(*args)


def _created_names(fd: int) -> list[str]:
    names: list[str] = []
    while True:
        try:
            data = os.read(fd, 65536)
        except BlockingIOError:
            return names
        offset = 0
        while offset < len(data):
            _wd, _mask, _cookie, length = _EVENT.unpack_from(data, offset)
            raw = data[offset + _EVENT.size : offset + _EVENT.size + length]
            names.append(os.fsdecode(raw.rstrip(b"\0")))
            offset += _EVENT.size + length


# --------------------------------------------------------------------------------------------------------
# A directory tree as it lies on disk (links not followed)
# --------------------------------------------------------------------------------------------------------


def tree_entries(root: str | Path) -> dict[str, str]:
    """Every entry under ``root`` by its relative path: ``"dir"``, ``"file"``, ``"fifo"`` or ``"link -> <the
    link's text>"``.  Links are read, never followed, so a copy that replaced a link by what it pointed to
    (a file, a whole directory) shows up as such."""
    base = Path(root)
    entries: dict[str, str] = {}
    for directory, dirnames, filenames in os.walk(base):
        for name in [*dirnames, *filenames]:
            path = Path(directory) / name
            relative = path.relative_to(base).as_posix()
            if path.is_symlink():
                entries[relative] = f"link -> {os.readlink(path)}"
            elif path.is_dir():
                entries[relative] = "dir"
            elif stat.S_ISFIFO(path.lstat().st_mode):
                entries[relative] = "fifo"
            else:
                entries[relative] = "file"
    return entries


# --------------------------------------------------------------------------------------------------------
# Logs and coroutines
# --------------------------------------------------------------------------------------------------------


def implementation_records(
    records: Sequence[logging.LogRecord], level: int, *, or_above: bool = False
) -> list[logging.LogRecord]:
    """The records the implementation logged at ``level`` (or at it and above): those of the ``synapse``
    logger and its children, after which the protocol names every ``log`` notification.  A record of
    pytest, of a library or of the kit itself never counts as the implementation's."""
    return [
        r
        for r in records
        if (r.levelno >= level if or_above else r.levelno == level)
        and (r.name == "synapse" or r.name.startswith("synapse."))
    ]


def logged_error(record: logging.LogRecord) -> tuple[str, str] | None:
    """The error a log record is about, as ``(name, message)``: the class name and text of the exception
    in process, the ``error`` of the ``log`` notification over the wire."""
    if record.exc_info and record.exc_info[1] is not None:
        error = record.exc_info[1]
        return str(getattr(type(error), "remote_name", type(error).__name__)), str(error)
    name = getattr(record, "error_name", None)
    if name:
        return str(name), str(getattr(record, "error_message", ""))
    return None


def logged_text(record: logging.LogRecord) -> str:
    """What a log record says: its message, then the structured data logged beside it (protocol 1.1
    ``data``), so "a warning naming the path" holds whether an implementation writes the path into its
    message or logs it as a field.  Strings in the data are given as they are (a path holding ``"`` or
    ``\\`` reads as itself, not as its JSON escape), other values as JSON."""
    data = getattr(record, LOG_DATA_ATTRIBUTE, None)
    message = record.getMessage()
    if not isinstance(data, dict) or not data:
        return message
    return " ".join([message, *_data_leaves(data)])


def _data_leaves(value: object, key: str = "") -> Iterator[str]:
    """``key=value`` for every scalar inside ``value`` (nested keys joined with dots; a list's items under
    the list's key, with no index that a step counting numbers would read as one)."""
    if isinstance(value, dict):
        for name, item in value.items():
            yield from _data_leaves(item, f"{key}.{name}" if key else str(name))
    elif isinstance(value, list):
        for item in value:
            yield from _data_leaves(item, key)
    else:
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        yield f"{key}={text}" if key else text


def run_loop_until(
    loop: asyncio.AbstractEventLoop, condition: Callable[[], bool], *, timeout: float = 30
) -> bool:
    """Runs ``loop`` until ``condition()`` holds or ``timeout`` passes; True when it held.  An
    implementation in another process answers after some time, not after a fixed number of loop turns."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        loop.run_until_complete(asyncio.sleep(0.001))
    return True


# --------------------------------------------------------------------------------------------------------
# Processes a command started, and a signal that aborts once a command got going
# --------------------------------------------------------------------------------------------------------


@dataclass
class AbortOnceWritten:
    """An ``AbortSignal`` that turns aborted (and stays so) once ``path`` holds a complete line: a command
    writes it once it runs (``echo $$ > pid``), so the abort lands while the command runs, in process and
    over the wire (where the implementation reads ``aborted`` through a callback).  ``reads`` counts the
    reads, so a step can tell that the implementation watched the signal."""

    path: Path
    reads: int = 0
    _aborted: bool = field(default=False, init=False)

    @property
    def aborted(self) -> bool:
        self.reads += 1
        if not self._aborted:
            with contextlib.suppress(OSError):  # not written yet
                self._aborted = self.path.read_text(encoding="utf-8").endswith("\n")
        return self._aborted


@dataclass
class NeverAbortedWhileRunning:
    """An ``AbortSignal`` that never aborts and counts the reads made while a command runs: after the
    command created ``started`` and before it created ``ended``.  The implementation reads ``aborted`` in
    process or through a callback over the wire, so ``reads_while_running`` is how often it watched the
    signal during the command."""

    started: Path
    ended: Path
    reads: int = 0
    reads_while_running: int = 0

    @property
    def aborted(self) -> bool:
        self.reads += 1
        if self.started.exists() and not self.ended.exists():
            self.reads_while_running += 1
        return False


def read_pid(path: Path) -> int:
    """The process id a command wrote to ``path`` (``echo $$ > path``)."""
    text = path.read_text(encoding="utf-8").strip()
    assert text.isdigit(), f"{path.name} should hold a process id, it holds {text!r}"
    return int(text)


def process_running(pid: int) -> bool:
    """Whether process ``pid`` still runs.  A zombie (killed, not yet reaped by whoever adopted it) has
    stopped running.  Read from ``/proc``; where there is none, ``kill(pid, 0)`` answers."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            stat = handle.read()
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    # "pid (comm) state ...": comm may hold spaces and parentheses, the state follows the last ")".
    state = stat.rpartition(")")[2].split()[:1]
    return state not in (["Z"], ["X"])


def survivors(pids: Sequence[int]) -> list[int]:
    """Those of ``pids`` still running.  They are killed on the spot, so a scenario that finds one fails
    without leaving it behind."""
    running = [pid for pid in pids if process_running(pid)]
    for pid in running:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return running


def shell_stderr(command: str, cwd: str | Path) -> str:
    """What ``/bin/bash -c command`` prints on its standard error in ``cwd`` on this machine (bash words a
    missing command differently from one version to the next), to compare with what a tool reported."""
    done = subprocess.run(
        ["/bin/bash", "-c", command], cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, check=False
    )
    return done.stderr.decode("utf-8", errors="replace")


@contextlib.contextmanager
def time_zone(name: str) -> Iterator[None]:
    """The test process in time zone ``name`` (an IANA ``TZ`` value such as ``Asia/Shanghai``), restored
    afterwards; ``time.tzset`` makes the C library read it again.  An implementation in this process
    follows it; a server gets it as a setting of ``configure`` (``TZ`` is among them)."""
    saved = os.environ.get("TZ")
    os.environ["TZ"] = name
    time.tzset()
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = saved
        time.tzset()
