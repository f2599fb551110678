"""The kit's client of the Synapse wire protocol: an implementation in another process, in any language.

``pytest features/ --synapse-server="<command>"`` (env ``SYNAPSE_SERVER``) starts the command, says
``hello`` and hands the step definitions an object that satisfies ``synapse_spec.contract.Implementation``:
every component is a proxy typed from the contract (properties, synchronous methods, coroutines for async
members; records arrive as attribute-access objects, ``Path`` annotations as paths, JSON data as dicts).
Kit objects passed as arguments (the scripted model, doubles, the token counter, sleeps, clocks) become
ports exposing the members of the parameter's contract Protocol that they have; the server calls them
back, and a thread of this client answers (nested requests included).  ``log`` notifications are re-emitted
as ``logging`` records.  PROTOCOL.md is the normative description.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import inspect
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

from synapse_spec import contract
from synapse_spec.protocol.codec import Codec, Record, error_json, make_error
from synapse_spec.protocol.rpc import PROTOCOL_VERSION, Peer, allow_deep_values, dumps
from synapse_spec.protocol.shapes import (
    ANY,
    Member,
    Shape,
    implementation_member,
    protocol_info,
    protocol_named,
)
from synapse_spec.scripted_llm import ScriptedLLM

KIT_VARIABLES = frozenset(
    {"SYNAPSE_IMPL", "SYNAPSE_BASELINE", "SYNAPSE_SERVER", "SYNAPSE_REQUIRE", "SYNAPSE_WIRE_SYNC_FD"}
)
"""Environment variables of the kit itself, never sent to a server as settings."""

OTHER_SETTINGS = frozenset({"CLAUDE_SESSION_ID", "TZ"})
"""Variables outside ``SYNAPSE_*`` that the spec sets as settings (the hook's fallback session id, the
implementation's time zone)."""

DEFAULT_TIMEOUT = float(os.environ.get("SYNAPSE_WIRE_TIMEOUT", "300"))
STDERR_TAIL = 40

_local = threading.local()


class ServerCrashed(RuntimeError):
    """The server process ended while a scenario used it."""


class ServerError(RuntimeError):
    """The server broke the protocol (a bad hello, a message that is not JSON-RPC)."""


def _in_sync_callback() -> bool:
    return bool(getattr(_local, "sync", False))


# --------------------------------------------------------------------------------------------------------
# Proxies of server objects
# --------------------------------------------------------------------------------------------------------


class RemoteObject:
    """A server object, typed by its contract Protocol."""

    def __init__(self, server: ServerProcess, handle: int, proto: type | None, type_name: str) -> None:
        self._server = server
        self._handle = handle
        self._proto = proto
        self._type = type_name

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        if self._proto is contract.Implementation:
            member = implementation_member(name)
        else:
            member = protocol_info(self._proto).members.get(name) if self._proto is not None else None
        if member is None:
            raise AttributeError(f"{self._type} (server object {self._handle}) has no member {name!r}")
        if member.kind == "property":
            return self._server.get(self._handle, member)
        if member.kind == "async":

            async def call_async(*args: Any, **kwargs: Any) -> Any:
                return await self._server.call_async(self._handle, member, args, kwargs)

            call_async.__name__ = name
            return call_async

        def call(*args: Any, **kwargs: Any) -> Any:
            return self._server.call(self._handle, member, args, kwargs)

        call.__name__ = name
        return call

    def __repr__(self) -> str:
        return f"<remote {self._type} {self._handle}>"


class RemoteFunction:
    """A server function (a hook context's ``on_progress``, ...)."""

    def __init__(self, server: ServerProcess, handle: int, call: str) -> None:
        self._server = server
        self._handle = handle
        self._call = call

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._call == "async":
            return self._server.call_async(self._handle, None, args, kwargs)
        return self._server.call(self._handle, None, args, kwargs)

    def __repr__(self) -> str:
        return f"<remote {self._call} function {self._handle}>"


class RemoteImplementation(RemoteObject):
    """Handle 0: what the ``synapse`` fixture hands the steps.  ``scripted_llm`` is the kit's own."""

    def __init__(self, server: ServerProcess, client: RemoteClient | None = None) -> None:
        super().__init__(server, 0, contract.Implementation, "Implementation")
        self._client = client
        hello = server.hello
        self.name: str = str(hello.get("name", "server"))
        self.version: str = str(hello.get("version", "?"))
        self.capabilities: frozenset[str] = frozenset(hello.get("capabilities", ()))

    def scripted_llm(self, model: str) -> ScriptedLLM:
        return ScriptedLLM(model)

    @property
    def server(self) -> ServerProcess:
        return self._server

    def spawn(self) -> RemoteImplementation:
        """The same implementation in another server process, for this scenario only (the concurrency
        scenarios: several processes sharing one sessions directory)."""
        if self._client is None:
            raise RuntimeError("this implementation was not started by a client that can start others")
        return self._client.spawn(self._server.scenario)


# --------------------------------------------------------------------------------------------------------
# Values: the kit's side of the codec
# --------------------------------------------------------------------------------------------------------


class KitCodec(Codec):
    """Kit objects become ports; server references become (identical) proxies."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.lock = threading.RLock()
        self.clear()

    def clear(self) -> None:
        with self.lock:
            self.ports: dict[int, tuple[Any, type | None, Shape]] = {}
            self.port_ids: dict[int, int] = {}
            self.proxies: dict[int, Any] = {}
            self.next_port = 1

    def is_reference(self, value: Any) -> bool:
        return isinstance(value, (RemoteObject, RemoteFunction))

    def encode_object(self, value: Any, shape: Shape) -> Any:
        if isinstance(value, RemoteObject):
            return {"$handle": value._handle, "type": value._type}
        if isinstance(value, RemoteFunction):
            return {"$handle": value._handle, "type": "callable", "call": value._call}
        with self.lock:
            port = self.port_ids.get(id(value))
            if port is not None:
                _, proto, known = self.ports[port]
                return self._port_json(port, value, proto, known)
            proto = shape.proto if shape.kind == "object" else None
            if proto is None and shape.kind != "callable":
                if callable(value):
                    shape = Shape("callable", items=(ANY,), call="either")
                else:
                    raise TypeError(f"cannot pass {value!r} to the server: its contract type is unknown")
            port = self.next_port
            self.next_port += 1
            self.ports[port] = (value, proto, shape)
            self.port_ids[id(value)] = port
            return self._port_json(port, value, proto, shape)

    @staticmethod
    def _port_json(port: int, value: Any, proto: type | None, shape: Shape) -> dict[str, Any]:
        if proto is None:
            call = shape.call
            if call not in ("sync", "async"):
                call = "async" if _is_async_callable(value) else "sync"
            return {"$port": port, "type": "callable", "call": call}
        members = {
            name: member.kind
            for name, member in protocol_info(proto).members.items()
            if _has_member(value, name)
        }
        return {"$port": port, "type": proto.__name__, "members": members}

    def decode_ref(self, value: dict[str, Any], shape: Shape) -> Any:
        if "$port" in value:
            with self.lock:
                entry = self.ports.get(int(value["$port"]))
            if entry is None:
                raise ServerError(f"the server sent back an unknown port {value!r}")
            return entry[0]
        handle = int(value["$handle"])
        with self.lock:
            proxy = self.proxies.get(handle)
            if proxy is None:
                type_name = str(value.get("type", "object"))
                if type_name == "callable":
                    proxy = RemoteFunction(self.server, handle, str(value.get("call", "sync")))
                else:
                    proto = protocol_named(type_name) or (shape.proto if shape.kind == "object" else None)
                    proxy = RemoteObject(self.server, handle, proto, type_name)
                self.proxies[handle] = proxy
            return proxy


def _has_member(value: Any, name: str) -> bool:
    try:
        inspect.getattr_static(value, name)
        return True
    except AttributeError:
        return hasattr(value, name)


def _is_async_callable(value: Any) -> bool:
    if inspect.iscoroutinefunction(value):
        return True
    return inspect.iscoroutinefunction(type(value).__call__) or type(value).__name__ == "AsyncMock"


def _bind(member: Member, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    """Positional parameters (even when passed by name) travel in order; keyword-only ones by name."""
    positional = member.positional
    args_out = list(args)
    rest = dict(kwargs)
    named = [p for p in positional[len(args_out) :] if p.name in rest]
    if named:
        for param in positional[len(args_out) :]:
            if param.name in rest:
                args_out.append(rest.pop(param.name))
            elif any(p.name in rest for p in positional[len(args_out) :]):
                args_out.append(_default(member, param.name))
            else:
                break
    return args_out, rest


def _default(member: Member, name: str) -> Any:
    proto = protocol_named(member.owner)
    func = getattr(proto, member.name)
    return inspect.signature(func).parameters[name].default


# --------------------------------------------------------------------------------------------------------
# One server process
# --------------------------------------------------------------------------------------------------------


class WireTap:
    """Sees every message: the transcript (``--synapse-wire-log``) and schema validation
    (``--synapse-wire-validate``)."""

    def __init__(
        self, log_path: str | None, validator: Callable[[str, dict[str, Any]], str | None] | None
    ) -> None:
        self.lock = threading.Lock()
        self.log: IO[str] | None = open(log_path, "a", encoding="utf-8") if log_path else None  # noqa: SIM115
        self.validator = validator
        self.errors: list[str] = []
        self.messages = 0

    def see(self, direction: str, message: dict[str, Any], line: str) -> None:
        with self.lock:
            self.messages += 1
            if self.log is not None:
                self.log.write(f"{direction} {line}\n")
                self.log.flush()
            if self.validator is not None:
                problem = self.validator(direction, message)
                if problem is not None:
                    self.errors.append(f"{direction} {line[:400]}\n    {problem}")

    def take_errors(self) -> list[str]:
        with self.lock:
            errors, self.errors = self.errors, []
            return errors

    def close(self) -> None:
        if self.log is not None:
            self.log.close()


SERVER_HOME_PREFIX = "synapse-server-home-"


def server_home() -> str:
    """A fresh ``HOME`` for a server, named after the kit's pid.  A kit process that was killed (a time
    limit, Ctrl-C twice) could not remove its servers' homes; the next kit removes those whose kit no
    longer runs, so they do not pile up in the temporary directory."""
    base = tempfile.gettempdir()
    with contextlib.suppress(OSError):
        for entry in os.scandir(base):
            owner = entry.name.removeprefix(SERVER_HOME_PREFIX).partition("-")[0]
            if entry.name.startswith(SERVER_HOME_PREFIX) and owner.isdigit() and not _running(int(owner)):
                shutil.rmtree(entry.path, ignore_errors=True)
    return tempfile.mkdtemp(prefix=f"{SERVER_HOME_PREFIX}{os.getpid()}-", dir=base)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: not ours to judge
        return True
    return True


class ServerProcess:
    """One running server: its pipes, the thread that reads it, and what its ``hello`` said."""

    def __init__(self, command: str, tap: WireTap, *, label: str = "") -> None:
        self.command = command
        self.tap = tap
        self.label = label
        self.scenario = ""
        self.home = server_home()
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=STDERR_TAIL)
        self.codec = KitCodec(self)
        self.write_lock = threading.Lock()
        self.sent_env: dict[str, str] | None = None
        self.loops_lock = threading.Lock()
        self.awaiting: dict[asyncio.AbstractEventLoop, int] = {}
        self.blocked: set[asyncio.AbstractEventLoop] = set()
        self._launch({})

    def _launch(self, settings: dict[str, str]) -> None:
        """Start the command (with ``settings`` in its environment when it asked for a restart) and say
        ``hello``."""
        sync_read, sync_write = os.pipe()
        env = {
            k: v for k, v in os.environ.items() if not k.startswith("SYNAPSE_") and k not in OTHER_SETTINGS
        }
        env.update(
            SYNAPSE_WIRE_SYNC_FD="3",
            HOME=self.home,
            PATH=os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", ""),
        )
        env.update(settings)

        def child_setup() -> None:
            os.dup2(sync_read, 3)
            # Its own process group: the command runs under a shell, and stopping a server that hangs must
            # stop the program the shell started (and whatever that started) too.
            os.setsid()

        proc = subprocess.Popen(
            ["/bin/sh", "-c", self.command],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            pass_fds=(3,),
            preexec_fn=child_setup,
        )
        os.close(sync_read)
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        peer = Peer(self._write)
        with self.write_lock:
            self.proc = proc
            self.peer = peer
            self.stdin = proc.stdin
            self.sync_stream = os.fdopen(sync_write, "w", encoding="utf-8")
            self.sync_channel = "stdin"
            self.exit_error: ServerCrashed | None = None
            self.abandoned = ""
        threading.Thread(
            target=self._read_stderr, args=(proc,), daemon=True, name="synapse-server-stderr"
        ).start()
        threading.Thread(
            target=self._read_stdout, args=(proc, peer), daemon=True, name="synapse-server-reader"
        ).start()
        try:
            self.hello: dict[str, Any] = self.peer.request(
                "hello",
                {
                    "protocolVersion": PROTOCOL_VERSION,
                    "kit": {"name": "synapse-spec", "version": _kit_version()},
                    "spec": {"version": _kit_version()},
                },
                timeout=60,
            )
        except BaseException:
            self.close()
            raise
        self._check_hello()
        self.pid = int(self.hello["pid"])
        self.sync_channel = str(self.hello.get("syncChannel", "stdin"))

    def _check_hello(self) -> None:
        hello = self.hello
        if not isinstance(hello, dict):
            raise ServerError(f"{self.command}: hello answered {hello!r}, not an object")
        version = str(hello.get("protocolVersion", ""))
        if version.split(".")[0] != PROTOCOL_VERSION.split(".")[0]:
            raise ServerError(
                f"{self.command} speaks protocol {version!r}; the kit speaks {PROTOCOL_VERSION}"
            )
        unknown = set(hello.get("capabilities", ())) - contract.CAPABILITIES
        if unknown:
            raise ServerError(f"{self.command} declares unknown capabilities: {', '.join(sorted(unknown))}")
        if not isinstance(hello.get("pid"), int):
            raise ServerError(f"{self.command}: hello has no pid")

    # -- transport ---------------------------------------------------------------------------------------
    def _write(self, message: dict[str, Any], sync: bool) -> None:
        line = dumps(message)
        to_fd = sync and getattr(self, "sync_channel", "stdin") == "fd"
        self.tap.see("kit>fd3" if to_fd else "kit>server", message, line)
        data = (line + "\n").encode("utf-8")
        with self.write_lock:
            try:
                if to_fd:
                    self.sync_stream.write(data.decode("utf-8"))
                    self.sync_stream.flush()
                else:
                    self.stdin.write(data)
                    self.stdin.flush()
            except (OSError, ValueError) as exc:  # a closed pipe or file: the server is gone
                raise self._crash_error(f"writing to it failed ({exc})") from None

    def _read_stdout(self, proc: subprocess.Popen[bytes], peer: Peer) -> None:
        assert proc.stdout is not None
        for raw in proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if not line.strip():
                continue
            try:
                message = json.loads(line)
            except ValueError:
                self.stderr_tail.append(f"[not JSON on stdout] {line[:200]}")
                self.tap.see("server>kit", {}, line)
                continue
            self.tap.see("server>kit", message if isinstance(message, dict) else {}, line)
            if not isinstance(message, dict):
                continue
            try:
                self._route(message, peer)
            except Exception as exc:  # a bad message must never kill the reader
                self.stderr_tail.append(f"[kit] cannot handle {line[:200]}: {exc!r}")
        proc.wait()
        error = self._crash_error(f"it exited with status {proc.returncode}")
        if peer is self.peer:
            self.exit_error = error
        peer.close(error)

    def _read_stderr(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stderr is not None
        for raw in proc.stderr:
            self.stderr_tail.append(raw.decode("utf-8", "replace").rstrip("\n"))

    def _crash_error(self, what: str) -> ServerCrashed:
        time.sleep(0.05)  # let the stderr reader catch the last lines
        if self.abandoned:
            what = f"{self.abandoned}, so the kit stopped it ({what})"
        tail = "\n".join(f"    {line}" for line in self.stderr_tail) or "    (nothing)"
        where = f" in scenario {self.scenario}" if self.scenario else ""
        return ServerCrashed(f"the server `{self.command}`{where}: {what}; the end of its stderr:\n{tail}")

    def _route(self, message: dict[str, Any], peer: Peer) -> None:
        method = message.get("method")
        if method is None:
            peer.settle(message)
        elif method == "log":
            emit_log(message.get("params") or {})
        elif method in ("port.call", "port.get"):
            threading.Thread(target=self._serve_callback, args=(message,), daemon=True).start()
        elif "id" in message:
            peer.respond(message["id"], error=make_error("ProtocolError", f"unknown method {method!r}"))

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None and self.exit_error is None

    def close(self) -> None:
        self._stop()
        shutil.rmtree(self.home, ignore_errors=True)

    def _stop(self) -> None:
        with contextlib.suppress(Exception):
            self.peer.notify("shutdown", {})
        for stream in (self.stdin, self.sync_stream):
            with contextlib.suppress(Exception):
                stream.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._kill()

    def _kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:  # the group is gone already
            self.proc.kill()
        self.proc.wait()

    def _abandon(self, what: str) -> None:
        """A call that got no answer in time leaves the server busy with it (a loop, a pathological input):
        stop it, so the rest of the scenario fails at once instead of waiting again for every call, and the
        next scenario gets a fresh server."""
        self.abandoned = what
        self._kill()

    # -- requests ----------------------------------------------------------------------------------------
    def configure(self, force: bool = False) -> None:
        env = scenario_environment(self.home)
        if force or env != self.sent_env:
            result = self._request("configure", {"env": env})
            self.sent_env = env
            if isinstance(result, dict) and result.get("restart"):
                self._restart(env)

    def _restart(self, env: dict[str, str]) -> None:
        """The server reads settings only at start-up: start it again with them in its environment.  Only
        possible while the scenario holds none of its objects (they die with the process)."""
        with self.codec.lock:
            holds = len(self.codec.proxies) + len(self.codec.ports)
        if holds:
            raise ServerError(
                f"{self.command} asked to be restarted for new settings in scenario {self.scenario}, which "
                f"already holds {holds} of its objects: a server that reads settings only at start-up cannot "
                "serve a scenario that changes them after building components"
            )
        self._stop()
        self._launch(env)
        self.sent_env = env

    def reset(self, scenario: str) -> None:
        self.scenario = scenario
        self.codec.clear()
        self._request("reset", {})
        self.configure(force=True)

    def _request(self, method: str, params: dict[str, Any]) -> Any:
        if self.exit_error is not None:
            raise self.exit_error
        loop = _running_loop()
        if loop is not None:
            with self.loops_lock:
                self.blocked.add(loop)
        try:
            return self.peer.request(method, params, sync=_in_sync_callback(), timeout=DEFAULT_TIMEOUT)
        except TimeoutError as exc:
            self._abandon(f"it did not answer {method} within {DEFAULT_TIMEOUT:g} s")
            raise exc
        finally:
            if loop is not None:
                with self.loops_lock:
                    self.blocked.discard(loop)

    def _free_loop(self) -> asyncio.AbstractEventLoop | None:
        """The event loop of a scenario coroutine that is awaiting the server right now: the kit's async
        callbacks run there, as they would in process (a double may await a future of that loop)."""
        with self.loops_lock:
            for loop in reversed(self.awaiting):
                if loop not in self.blocked and not loop.is_closed():
                    return loop
        return None

    def _params(
        self, handle: int, member: Member | None, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> dict[str, Any]:
        if member is None:
            return {
                "target": handle,
                "method": None,
                "args": [self.codec.encode(a) for a in args],
                "kwargs": {k: self.codec.encode(v) for k, v in kwargs.items()},
            }
        bound, rest = _bind(member, args, kwargs)
        positional = member.positional
        keywords = member.keywords
        unknown = set(rest) - set(keywords)
        if unknown:
            raise TypeError(f"{member.name}() got unexpected keyword arguments {sorted(unknown)}")
        return {
            "target": handle,
            "method": member.name,
            "args": [
                self.codec.encode(a, positional[i].shape if i < len(positional) else ANY)
                for i, a in enumerate(bound)
            ],
            "kwargs": {k: self.codec.encode(v, keywords[k].shape) for k, v in rest.items()},
        }

    def call(self, handle: int, member: Member | None, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        self.configure()
        result = self._request("call", self._params(handle, member, args, kwargs))
        return self.codec.decode(result, member.result if member is not None else ANY)

    async def call_async(
        self, handle: int, member: Member | None, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> Any:
        self.configure()
        if self.exit_error is not None:
            raise self.exit_error
        params = self._params(handle, member, args, kwargs)
        try:
            result = await self._call_async(params)
        except (TimeoutError, asyncio.TimeoutError) as exc:  # two classes before Python 3.11
            self._abandon(f"it did not answer call within {DEFAULT_TIMEOUT:g} s")
            raise exc
        return self.codec.decode(result, member.result if member is not None else ANY)

    async def _call_async(self, params: dict[str, Any]) -> Any:
        if _in_sync_callback():
            return self.peer.request("call", params, sync=True, timeout=DEFAULT_TIMEOUT)
        loop = asyncio.get_running_loop()
        with self.loops_lock:
            self.awaiting[loop] = self.awaiting.get(loop, 0) + 1
        try:
            return await asyncio.wait_for(self.peer.request_async("call", params), DEFAULT_TIMEOUT)
        finally:
            with self.loops_lock:
                self.awaiting[loop] -= 1
                if not self.awaiting[loop]:
                    del self.awaiting[loop]

    def get(self, handle: int, member: Member) -> Any:
        self.configure()
        result = self._request("get", {"target": handle, "name": member.name})
        return self.codec.decode(result, member.result)

    # -- callbacks from the server -----------------------------------------------------------------------
    def _serve_callback(self, message: dict[str, Any]) -> None:
        params = message.get("params") or {}
        sync = bool(params.get("sync"))
        _local.sync = sync
        request_id = message.get("id")
        try:
            result = self._callback(message.get("method"), params)
        except BaseException as error:
            if request_id is not None:
                with contextlib.suppress(ServerCrashed):
                    self.peer.respond(request_id, error=error, sync=sync)
            return
        if request_id is not None:
            with contextlib.suppress(ServerCrashed):
                self.peer.respond(request_id, result, sync=sync)

    def _callback(self, method: Any, params: dict[str, Any]) -> Any:
        with self.codec.lock:
            entry = self.codec.ports.get(int(params.get("port", -1)))
        if entry is None:
            raise make_error("ProtocolError", f"unknown port {params.get('port')!r}")
        obj, proto, shape = entry
        name = params.get("member")
        if name is None:
            func, param_shapes, result_shape = (
                obj,
                list(shape.params),
                (shape.items[0] if shape.items else ANY),
            )
            keywords: dict[str, Shape] = {}
        else:
            member = protocol_info(proto).members.get(str(name)) if proto is not None else None
            if member is None or not _has_member(obj, str(name)):
                raise make_error("ProtocolError", f"the port has no member {name!r}")
            if method == "port.get":
                return self.codec.encode(getattr(obj, member.name), member.result)
            func = getattr(obj, member.name)
            param_shapes = [p.shape for p in member.positional]
            keywords = {k: p.shape for k, p in member.keywords.items()}
            result_shape = member.result
        args = [
            self.codec.decode(a, param_shapes[i] if i < len(param_shapes) else ANY)
            for i, a in enumerate(params.get("args") or [])
        ]
        kwargs = {
            str(k): self.codec.decode(v, keywords.get(str(k), ANY))
            for k, v in (params.get("kwargs") or {}).items()
        }
        result = func(*args, **kwargs)
        if inspect.isawaitable(result):
            loop = None if _in_sync_callback() else self._free_loop()
            if loop is not None:
                result = asyncio.run_coroutine_threadsafe(_awaited(result), loop).result(DEFAULT_TIMEOUT)
            else:
                result = _run_awaitable(result)
        return self.codec.encode(result, result_shape)


async def _awaited(awaitable: Any) -> Any:
    return await awaitable


def _run_awaitable(awaitable: Any) -> Any:
    return asyncio.run(_awaited(awaitable))


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


LOG_DATA_ATTRIBUTE = "synapse_data"
"""The attribute of a forwarded log record that holds the ``data`` of its ``log`` notification."""


def emit_log(params: dict[str, Any]) -> None:
    """A ``log`` notification as a ``logging`` record on its logger, as if logged in this process."""
    level = logging.getLevelName(str(params.get("level", "info")).upper())
    if not isinstance(level, int):
        level = logging.INFO
    logger = logging.getLogger(str(params.get("logger") or "synapse"))
    if not logger.isEnabledFor(level):
        return
    error = params.get("error")
    exc_info = None
    if isinstance(error, dict):
        exc = make_error(str(error.get("name", "Error")), str(error.get("message", "")))
        exc_info = (type(exc), exc, None)
    record = logger.makeRecord(
        logger.name, level, "<server>", 0, str(params.get("message", "")), (), exc_info
    )
    if isinstance(error, dict):
        record.error_name = str(error.get("name", ""))
        record.error_message = str(error.get("message", ""))
    data = params.get("data")
    if isinstance(data, dict):
        setattr(record, LOG_DATA_ATTRIBUTE, data)
    logger.handle(record)


def scenario_environment(private_home: str) -> dict[str, str]:
    """The settings a server gets: every ``SYNAPSE_*`` of the scenario, and ``HOME`` when the scenario set
    its own (the user's real home never reaches a server)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if (k.startswith("SYNAPSE_") and k not in KIT_VARIABLES) or k in OTHER_SETTINGS
    }
    home = os.environ.get("HOME")
    env["HOME"] = home if home and home != _ORIGINAL_HOME else private_home
    return env


_ORIGINAL_HOME = os.environ.get("HOME")


def _kit_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("synapse-spec")
    except PackageNotFoundError:
        return "0"


# --------------------------------------------------------------------------------------------------------
# The client the plugin uses
# --------------------------------------------------------------------------------------------------------


class RemoteClient:
    """Keeps one server process for the run (restarted after a crash) and extra ones on demand."""

    def __init__(
        self,
        command: str,
        *,
        log_path: str | None = None,
        validator: Callable[[str, dict[str, Any]], str | None] | None = None,
    ) -> None:
        allow_deep_values()
        self.command = command
        self.tap = WireTap(log_path, validator)
        self.main: ServerProcess | None = None
        self.extra: list[ServerProcess] = []
        self.crashes: list[str] = []

    def process(self) -> ServerProcess:
        if self.main is None or not self.main.alive:
            if self.main is not None:
                self.main.close()
            self.main = ServerProcess(self.command, self.tap)
        return self.main

    def implementation(self, scenario: str = "") -> RemoteImplementation:
        """A fresh scenario on the main process: ``reset`` and ``configure``."""
        server = self.process()
        server.reset(scenario)
        return RemoteImplementation(server, self)

    def spawn(self, scenario: str = "") -> RemoteImplementation:
        """Another server process for this scenario (closed when the scenario ends)."""
        server = ServerProcess(self.command, self.tap, label=f"extra {len(self.extra) + 1}")
        self.extra.append(server)
        server.reset(scenario)
        return RemoteImplementation(server, self)

    def end_scenario(self) -> list[str]:
        """Close the scenario's extra processes; the protocol problems seen during the scenario."""
        for server in self.extra:
            server.close()
        self.extra.clear()
        return self.tap.take_errors()

    def close(self) -> None:
        self.end_scenario()
        if self.main is not None:
            self.main.close()
            self.main = None
        self.tap.close()


def server_of(impl: Any) -> ServerProcess | None:
    """The server process behind an implementation object (or a wrapper of one that sets
    ``__wrapped__``), or None in process."""
    impl = getattr(impl, "__wrapped__", impl)
    return impl.server if isinstance(impl, RemoteImplementation) else None


__all__ = [
    "Connection",
    "Record",
    "RemoteClient",
    "RemoteImplementation",
    "RemoteObject",
    "ServerCrashed",
    "ServerProcess",
    "connect",
    "error_json",
    "server_of",
]


@dataclass
class Connection:
    """One server started outside pytest (benchmarks, scripts): its implementation, the pid doing the
    work, and how to stop it."""

    implementation: RemoteImplementation
    pid: int
    client: RemoteClient

    def close(self) -> None:
        self.client.close()


def connect(command: str) -> Connection:
    """Start ``command``, say ``hello`` and ``reset``, and hand back its implementation."""
    client = RemoteClient(command)
    try:
        implementation = client.implementation()
    except BaseException:
        client.close()
        raise
    return Connection(implementation, implementation.server.pid, client)
