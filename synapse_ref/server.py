"""The reference implementation served over the Synapse wire protocol (``synapse_spec/protocol/PROTOCOL.md``).

``python -m synapse_ref.server`` reads requests on stdin and answers on stdout, so the spec can check the
reference exactly as it checks an implementation in another language:
``pytest features/ --synapse-server="python -m synapse_ref.server"``.  Settings are read when used
(``"settings": "live"``) and synchronous callbacks are answered on stdin (``"syncChannel": "stdin"``): every
request runs on its own thread, so a thread that waits for a callback's answer never stops the others.

``--impl MODULE:ATTR`` serves another implementation object (the default is the reference's adapter).
It uses only the standard library and the shape tables of ``synapse_spec.protocol``; none of the spec's
test machinery.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import inspect
import json
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import IO, Any

from synapse_spec import contract
from synapse_spec.protocol.codec import Codec, error_json
from synapse_spec.protocol.rpc import (
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PROTOCOL_VERSION,
    Peer,
    WireError,
    allow_deep_values,
    dumps,
)
from synapse_spec.protocol.shapes import (
    ANY,
    Member,
    Param,
    Shape,
    implementation_member,
    protocol_info,
    protocol_named,
)

DEFAULT_IMPL = "synapse_ref.adapter:implementation"


class PortProxy:
    """A kit object seen from the server: exactly the members the kit announced."""

    def __init__(self, server: Server, port_id: int, type_name: str, members: dict[str, str]) -> None:
        self._server = server
        self._port_id = port_id
        self._type = type_name
        self._members = members
        proto = protocol_named(type_name)
        self._info = protocol_info(proto).members if proto is not None else {}

    def __getattr__(self, name: str) -> Any:
        kind = self._members.get(name) if not name.startswith("_") else None
        if kind is None:
            raise AttributeError(f"{self._type} port has no member {name!r}")
        member = self._info.get(name)
        if kind == "property":
            return self._server.port_get(self._port_id, name, member)
        if kind == "async":

            async def call_async(*args: Any, **kwargs: Any) -> Any:
                return await self._server.port_call_async(self._port_id, name, args, kwargs, member)

            return call_async

        def call_sync(*args: Any, **kwargs: Any) -> Any:
            return self._server.port_call(self._port_id, name, args, kwargs, member)

        return call_sync

    def __repr__(self) -> str:
        return f"<{self._type} port {self._port_id}>"


class PortFunction:
    """A kit function seen from the server."""

    def __init__(self, server: Server, port_id: int, call: str, shape: Shape | None) -> None:
        self._server = server
        self._port_id = port_id
        self._call = call
        # The contract's Callable type where the function was received: how its arguments travel.
        self._member = (
            Member(
                "",
                call,
                tuple(Param(f"arg{i}", p, False, True) for i, p in enumerate(shape.params)),
                shape.items[0] if shape.items else ANY,
            )
            if shape is not None
            else None
        )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._call == "async":
            return self._server.port_call_async(self._port_id, None, args, kwargs, self._member)
        return self._server.port_call(self._port_id, None, args, kwargs, self._member)

    def __repr__(self) -> str:
        return f"<{self._call} function port {self._port_id}>"


class ServerCodec(Codec):
    def __init__(self, server: Server) -> None:
        self.server = server

    def is_reference(self, value: Any) -> bool:
        return isinstance(value, (PortProxy, PortFunction))

    def encode_object(self, value: Any, shape: Shape) -> Any:
        if isinstance(value, (PortProxy, PortFunction)):
            return {"$port": value._port_id}
        return self.server.handle_json(value, shape)

    def decode_ref(self, value: dict[str, Any], shape: Shape) -> Any:
        if "$handle" in value:
            return self.server.handle_object(int(value["$handle"]))
        return self.server.port_object(value, _callable_shape(shape))


class _LogForwarder(logging.Handler):
    """Sends the implementation's ``synapse.*`` records to the kit as ``log`` notifications."""

    def __init__(self, server: Server) -> None:
        super().__init__(logging.DEBUG)
        self.server = server

    def emit(self, record: logging.LogRecord) -> None:
        params: dict[str, Any] = {
            "level": {10: "debug", 20: "info", 30: "warning"}.get(record.levelno, "error")
            if record.levelno < 40
            else "error",
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info and record.exc_info[1] is not None:
            params["error"] = error_json(record.exc_info[1])
        self.server.peer.notify("log", params)


class Server:
    def __init__(self, factory: Callable[[], Any], out: IO[str]) -> None:
        self.factory = factory
        self.out = out
        self.write_lock = threading.Lock()
        self.peer = Peer(self._write, prefix="s")
        self.codec = ServerCodec(self)
        self.lock = threading.RLock()
        self.impl: Any = factory()
        self.sync_channel = "stdin"
        self.handles: dict[int, tuple[Any, type | None]] = {}
        self.handle_ids: dict[int, int] = {}
        self.ports: dict[int, Any] = {}
        self.next_handle = 1
        self._reset()

    # -- transport ---------------------------------------------------------------------------------------
    def _write(self, message: dict[str, Any], sync: bool) -> None:
        line = dumps(message)
        with self.write_lock:
            self.out.write(line + "\n")
            self.out.flush()

    def serve(self, stream: IO[str], *, main: bool = True) -> None:
        for line in stream:
            if not line.strip():
                continue
            try:
                message = json.loads(line)
            except ValueError:
                self.peer.respond(None, error=WireError(-32700, "parse error"))
                continue
            if not isinstance(message, dict):
                self.peer.respond(None, error=WireError(INVALID_REQUEST, "not a JSON-RPC object"))
                continue
            if "method" not in message:
                self.peer.settle(message)
                continue
            method = message["method"]
            if method == "shutdown":
                break
            if method in ("hello", "configure", "reset", "release"):
                self._answer(message)
            else:
                threading.Thread(target=self._answer, args=(message,), daemon=True).start()
        if main:
            self.peer.close(EOFError("the kit closed the connection"))

    def _answer(self, message: dict[str, Any]) -> None:
        request_id = message.get("id")
        try:
            result = self.dispatch(message["method"], message.get("params") or {})
        except BaseException as error:  # every error becomes a response, never a dead server
            if request_id is not None:
                self.peer.respond(request_id, error=error)
            return
        if request_id is not None:
            self.peer.respond(request_id, result)

    def dispatch(self, method: str, params: dict[str, Any]) -> Any:
        if method == "hello":
            return self.hello()
        if method == "configure":
            return self.configure(params.get("env") or {})
        if method == "reset":
            self._reset()
            return None
        if method == "release":
            with self.lock:
                for handle in params.get("handles", []):
                    obj, _ = self.handles.pop(int(handle), (None, None))
                    self.handle_ids.pop(id(obj), None)
            return None
        if method == "call":
            return self.call(params)
        if method == "get":
            return self.get(params)
        raise WireError(METHOD_NOT_FOUND, f"unknown method {method!r}")

    # -- lifecycle ---------------------------------------------------------------------------------------
    def hello(self) -> dict[str, Any]:
        return {
            "name": self.impl.name,
            "version": self.impl.version,
            "language": f"python {sys.version.split()[0]}",
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": sorted(self.impl.capabilities),
            "pid": os.getpid(),
            "syncChannel": self.sync_channel,
            "settings": "live",
        }

    def configure(self, env: dict[str, str]) -> None:
        zone = os.environ.get("TZ")
        settings = [n for n in os.environ if n.startswith("SYNAPSE_") or n in ("CLAUDE_SESSION_ID", "TZ")]
        for name in settings:
            if name != "SYNAPSE_WIRE_SYNC_FD":
                del os.environ[name]
        for name, value in env.items():
            os.environ[str(name)] = str(value)
        if os.environ.get("TZ") != zone:
            time.tzset()  # the C library reads TZ once; local time follows the new zone only after this

    def _reset(self) -> None:
        with self.lock:
            self.impl = self.factory()
            self.handles = {0: (self.impl, contract.Implementation)}
            self.handle_ids = {id(self.impl): 0}
            self.ports = {}
            self.next_handle = 1

    # -- handles and ports -------------------------------------------------------------------------------
    def handle_json(self, value: Any, shape: Shape) -> dict[str, Any]:
        proto = shape.proto if shape.kind == "object" else None
        with self.lock:
            handle = self.handle_ids.get(id(value))
            if handle is None:
                handle = self.next_handle
                self.next_handle += 1
                self.handles[handle] = (value, proto)
                self.handle_ids[id(value)] = handle
            else:
                known = self.handles[handle][1]
                proto = known or proto
                if known is None and proto is not None:
                    self.handles[handle] = (value, proto)
        if proto is not None:
            return {"$handle": handle, "type": proto.__name__}
        if callable(value) and not isinstance(value, type):
            call = "async" if inspect.iscoroutinefunction(value) else "sync"
            return {"$handle": handle, "type": "callable", "call": call}
        return {"$handle": handle, "type": type(value).__name__}

    def handle_object(self, handle: int) -> Any:
        with self.lock:
            if handle not in self.handles:
                raise WireError(-32602, f"unknown handle {handle}")
            return self.handles[handle][0]

    def port_object(self, value: dict[str, Any], shape: Shape | None = None) -> Any:
        port_id = int(value["$port"])
        with self.lock:
            port = self.ports.get(port_id)
            if port is None:
                if value.get("type") == "callable":
                    port = PortFunction(self, port_id, str(value.get("call", "sync")), shape)
                elif "members" in value:
                    port = PortProxy(self, port_id, str(value.get("type")), dict(value["members"]))
                else:
                    raise WireError(-32602, f"unknown port {port_id}")
                self.ports[port_id] = port
            return port

    # -- requests from the kit ---------------------------------------------------------------------------
    def _target(self, params: dict[str, Any]) -> tuple[Any, type | None]:
        with self.lock:
            target = int(params.get("target", 0))
            if target not in self.handles:
                raise WireError(-32602, f"unknown handle {target}")
            return self.handles[target]

    def call(self, params: dict[str, Any]) -> Any:
        obj, proto = self._target(params)
        name = params.get("method")
        member = self._member(proto, name, obj) if name is not None else None
        if name is not None and member is None:
            kind = proto.__name__ if proto is not None else type(obj).__name__
            raise WireError(METHOD_NOT_FOUND, f"{kind} has no method {name!r}")
        args, kwargs = self._decode_args(params, member)
        func = getattr(obj, name) if name is not None else obj
        result = func(*args, **kwargs)
        if inspect.isawaitable(result):
            result = _run(result)
        return self.codec.encode(result, member.result if member is not None else ANY)

    def get(self, params: dict[str, Any]) -> Any:
        obj, proto = self._target(params)
        name = str(params.get("name"))
        if proto is None and not name.startswith("_") and hasattr(obj, name):
            return self.codec.encode(getattr(obj, name))  # an object the contract does not type
        member = self._member(proto, name, obj)
        if member is None or member.kind != "property":
            kind = proto.__name__ if proto is not None else type(obj).__name__
            raise WireError(METHOD_NOT_FOUND, f"{kind} has no property {name!r}")
        return self.codec.encode(getattr(obj, name), member.result)

    @staticmethod
    def _member(proto: type | None, name: str | None, obj: Any) -> Member | None:
        if proto is None or name is None:
            return None
        if proto is contract.Implementation:
            return implementation_member(name)
        return protocol_info(proto).members.get(name)

    def _decode_args(self, params: dict[str, Any], member: Member | None) -> tuple[list[Any], dict[str, Any]]:
        positional = member.positional if member is not None else ()
        keywords = member.keywords if member is not None else {}
        args = [
            self.codec.decode(value, positional[i].shape if i < len(positional) else ANY)
            for i, value in enumerate(params.get("args") or [])
        ]
        kwargs = {
            str(key): self.codec.decode(value, keywords[key].shape if key in keywords else ANY)
            for key, value in (params.get("kwargs") or {}).items()
        }
        return args, kwargs

    # -- callbacks into the kit --------------------------------------------------------------------------
    def _port_params(
        self,
        port_id: int,
        name: str | None,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        member: Member | None,
    ) -> dict[str, Any]:
        positional = member.positional if member is not None else ()
        keywords = member.keywords if member is not None else {}
        return {
            "port": port_id,
            "member": name,
            "args": [
                self.codec.encode(v, positional[i].shape if i < len(positional) else ANY)
                for i, v in enumerate(args)
            ],
            "kwargs": {
                k: self.codec.encode(v, keywords[k].shape if k in keywords else ANY)
                for k, v in kwargs.items()
            },
        }

    def port_call(
        self,
        port_id: int,
        name: str | None,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        member: Member | None,
    ) -> Any:
        params = self._port_params(port_id, name, args, kwargs, member)
        params["sync"] = True
        result = self.peer.request("port.call", params, sync=True)
        return self.codec.decode(result, member.result if member is not None else ANY)

    async def port_call_async(
        self,
        port_id: int,
        name: str | None,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        member: Member | None,
    ) -> Any:
        params = self._port_params(port_id, name, args, kwargs, member)
        params["sync"] = False
        result = await self.peer.request_async("port.call", params)
        return self.codec.decode(result, member.result if member is not None else ANY)

    def port_get(self, port_id: int, name: str, member: Member | None) -> Any:
        result = self.peer.request("port.get", {"port": port_id, "member": name, "sync": True}, sync=True)
        return self.codec.decode(result, member.result if member is not None else ANY)


def _callable_shape(shape: Shape) -> Shape | None:
    if shape.kind == "callable":
        return shape
    return (
        next((item for item in shape.items if item.kind == "callable"), None)
        if shape.kind == "union"
        else None
    )


_loops: list[asyncio.AbstractEventLoop] = []
_loops_lock = threading.Lock()


def _run(awaitable: Any) -> Any:
    """Run a coroutine on an event loop made in advance: a request made while the kit holds the process
    at its descriptor limit (``RLIMIT_NOFILE``) must not fail for want of a new loop's descriptors."""

    async def wait() -> Any:
        return await awaitable

    with _loops_lock:
        loop = _loops.pop() if _loops else asyncio.new_event_loop()
    try:
        return loop.run_until_complete(wait())
    finally:
        with _loops_lock:
            _loops.append(loop)


def _load(spec: str) -> Callable[[], Any]:
    module_name, _, attr = spec.partition(":")
    target = getattr(importlib.import_module(module_name), attr or "implementation")
    if callable(target) and (isinstance(target, type) or not hasattr(target, "capabilities")):
        return target  # type: ignore[no-any-return]
    return lambda: target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m synapse_ref.server", description=__doc__.splitlines()[0])
    parser.add_argument("--impl", default=DEFAULT_IMPL, help="MODULE:ATTR of the implementation to serve")
    parser.add_argument(
        "--sync-channel",
        choices=("stdin", "fd"),
        default="stdin",
        help="where the kit sends answers to synchronous callbacks: stdin, or the pipe on fd 3 as servers on "
        "an event loop need (served here by a second reading thread; it exercises the kit's side)",
    )
    options = parser.parse_args(argv)
    # Only protocol messages go to stdout: anything the implementation prints goes to stderr.
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    stdin = os.fdopen(os.dup(0), "r", encoding="utf-8")
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write over RLIMIT_FSIZE fails with EFBIG instead
    allow_deep_values()
    server = Server(_load(options.impl), out)
    with _loops_lock:
        _loops.extend(asyncio.new_event_loop() for _ in range(2))
    logger = logging.getLogger("synapse")
    logger.setLevel(logging.DEBUG)
    logger.addHandler(_LogForwarder(server))
    logger.propagate = False
    if options.sync_channel == "fd":
        server.sync_channel = "fd"
        sync_stream = os.fdopen(int(os.environ.get("SYNAPSE_WIRE_SYNC_FD", "3")), "r", encoding="utf-8")
        reader = threading.Thread(
            target=server.serve, args=(sync_stream,), kwargs={"main": False}, daemon=True
        )
        reader.start()
    server.serve(stdin)
    return 0


if __name__ == "__main__":
    sys.exit(main())
