"""JSON-RPC 2.0 over NDJSON (PROTOCOL.md §1, §7): outstanding requests of one end, matched to responses.

Both ends use it: a request waits on its own event (or asyncio future), so any thread may wait while the
reading thread routes responses by id and other requests are served meanwhile, at any depth.  Standard
library only: a server may import it.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
import threading
from collections.abc import Callable
from typing import Any

from synapse_spec.protocol.codec import error_json, make_error
from synapse_spec.version import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION"]

NESTING = 10_000
"""How deeply nested a value both Python ends carry: data an implementation keeps in process (a session line
nested 1 000 arrays deep) must cross the wire too, and Python's default recursion limit (1 000) would stop
the encoder first.  ``allow_deep_values`` raises the limit to this once per process."""


def allow_deep_values() -> None:
    if sys.getrecursionlimit() < NESTING:
        sys.setrecursionlimit(NESTING)


SERVER_ERROR = -32000
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603


def dumps(message: dict[str, Any]) -> str:
    """One line of NDJSON in ASCII: a string may hold a lone surrogate (any text a hook reads on stdin),
    which UTF-8 cannot encode but a ``\\ud800`` escape carries to any JSON parser.  NaN and infinities
    never reach it (they travel as ``$float``)."""
    return json.dumps(message, ensure_ascii=True, separators=(",", ":"), allow_nan=False)


class WireError(Exception):
    """A JSON-RPC error with its code; ``data`` carries ``{name, message}``."""

    def __init__(self, code: int, message: str, name: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.name = name

    def to_json(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": str(self)}
        if self.name:
            error["data"] = {"name": self.name, "message": str(self)}
        return error


def error_response(error: BaseException) -> dict[str, Any]:
    """The JSON-RPC ``error`` member for an exception raised while serving a request."""
    if isinstance(error, WireError):
        return error.to_json()
    data = error_json(error)
    return {"code": SERVER_ERROR, "message": data["message"], "data": data}


def raise_error(error: dict[str, Any]) -> BaseException:
    """The exception a JSON-RPC error stands for: named after ``data.name``."""
    raw = error.get("data")
    data: dict[str, Any] = raw if isinstance(raw, dict) else {}
    code = error.get("code", SERVER_ERROR)
    name = str(data.get("name") or ("ProtocolError" if code != SERVER_ERROR else "Error"))
    message = str(data.get("message", error.get("message", "")))
    exc = make_error(name, message)
    if code != SERVER_ERROR:
        exc.wire_code = code  # type: ignore[attr-defined]
    return exc


class _Pending:
    __slots__ = ("error", "event", "future", "loop", "result")

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self.event = threading.Event()
        self.loop = loop
        self.future: asyncio.Future[Any] | None = loop.create_future() if loop is not None else None
        self.result: Any = None
        self.error: BaseException | None = None

    def settle(self, result: Any, error: BaseException | None) -> None:
        self.result, self.error = result, error
        self.event.set()
        if self.loop is not None and self.future is not None:
            self.loop.call_soon_threadsafe(self._settle_future)

    def _settle_future(self) -> None:
        assert self.future is not None
        if self.future.done():
            return
        if self.error is not None:
            self.future.set_exception(self.error)
        else:
            self.future.set_result(self.result)


class Peer:
    """One end's outstanding requests.  ``write(message, sync)`` sends a message; ``sync`` asks for the
    channel of synchronous callbacks (the server's fd 3 when it chose ``"fd"``)."""

    def __init__(self, write: Callable[[dict[str, Any], bool], None], prefix: str = "") -> None:
        self._write = write
        self._ids = itertools.count(1)
        self._prefix = prefix
        self._pending: dict[Any, _Pending] = {}
        self._lock = threading.Lock()
        self._closed: BaseException | None = None

    def _new_id(self) -> Any:
        n = next(self._ids)
        return f"{self._prefix}{n}" if self._prefix else n

    def _register(self, loop: asyncio.AbstractEventLoop | None) -> tuple[Any, _Pending]:
        with self._lock:
            if self._closed is not None:
                raise self._closed
            request_id = self._new_id()
            pending = _Pending(loop)
            self._pending[request_id] = pending
        return request_id, pending

    def request(
        self, method: str, params: dict[str, Any], *, sync: bool = False, timeout: float | None = None
    ) -> Any:
        """Send a request and wait (this thread only) for its response."""
        request_id, pending = self._register(None)
        try:
            self._write({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}, sync)
            if not pending.event.wait(timeout):
                raise TimeoutError(f"no response to {method} within {timeout} s")
        finally:
            with self._lock:
                self._pending.pop(request_id, None)
        if pending.error is not None:
            raise pending.error
        return pending.result

    async def request_async(self, method: str, params: dict[str, Any]) -> Any:
        """Send a request and await its response without blocking the event loop."""
        request_id, pending = self._register(asyncio.get_running_loop())
        assert pending.future is not None
        try:
            self._write({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}, False)
            return await pending.future
        finally:
            with self._lock:
                self._pending.pop(request_id, None)

    def notify(self, method: str, params: dict[str, Any], *, sync: bool = False) -> None:
        self._write({"jsonrpc": "2.0", "method": method, "params": params}, sync)

    def respond(
        self, request_id: Any, result: Any = None, error: BaseException | None = None, *, sync: bool = False
    ) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id}
        if error is not None:
            message["error"] = error_response(error)
        else:
            message["result"] = result
        try:
            self._write(message, sync)
        except (RecursionError, ValueError, TypeError) as exc:
            # A result JSON cannot carry (nested too deeply, say) is answered with an error: the other
            # end must never wait for a response that is not coming.
            reason = f"the response cannot be encoded: {type(exc).__name__}: {exc}"
            failure = WireError(INTERNAL_ERROR, reason)
            self._write({"jsonrpc": "2.0", "id": request_id, "error": failure.to_json()}, sync)

    def settle(self, message: dict[str, Any]) -> bool:
        """Route a response to its waiting request; False when no request waits for that id."""
        with self._lock:
            pending = self._pending.get(message.get("id"))
        if pending is None:
            return False
        if "error" in message:
            pending.settle(None, raise_error(message["error"]))
        else:
            pending.settle(message.get("result"), None)
        return True

    def close(self, error: BaseException) -> None:
        """Fail every outstanding request (the other end is gone) and refuse new ones."""
        with self._lock:
            self._closed = error
            waiting = list(self._pending.values())
            self._pending.clear()
        for pending in waiting:
            pending.settle(None, error)

    @property
    def outstanding(self) -> int:
        with self._lock:
            return len(self._pending)
