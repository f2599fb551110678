"""The reference server with one thing it says changed, to test how the kit treats what a server declares.

``python -m tests.wire_servers build``: announces ``"settings": "build"`` (settings fixed when a component
is built), so ``@live-settings`` scenarios are not applicable to it.
``python -m tests.wire_servers restart``: reads settings only at start-up, like a server that cannot change
them later: ``configure`` with settings other than its own answers ``{"restart": true}``.
``python -m tests.wire_servers bad-log``: sends log levels the protocol does not know (``warn``), which
``--synapse-wire-validate`` must reject.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import Any

from synapse_ref import server


def main(argv: list[str]) -> int:
    mode, *rest = argv
    if mode == "build":
        hello = server.Server.hello

        def build_hello(self: server.Server) -> dict[str, Any]:
            return {**hello(self), "settings": "build"}

        server.Server.hello = build_hello  # type: ignore[method-assign]
    elif mode == "restart":
        hello = server.Server.hello

        def restart_hello(self: server.Server) -> dict[str, Any]:
            return {**hello(self), "settings": "build"}

        def configure(self: server.Server, env: dict[str, str]) -> dict[str, bool] | None:
            own = {k: v for k, v in os.environ.items() if k in env or k.startswith("SYNAPSE_")}
            own.pop("SYNAPSE_WIRE_SYNC_FD", None)
            return None if own == env else {"restart": True}

        server.Server.hello = restart_hello  # type: ignore[method-assign]
        server.Server.configure = configure  # type: ignore[assignment,method-assign]
    elif mode == "bad-log":
        emit = server._LogForwarder.emit

        def bad_emit(self: server._LogForwarder, record: logging.LogRecord) -> None:
            record.levelno = 35  # between warning and error: sent as "warn"
            self.server.peer.notify(
                "log", {"level": "warn", "logger": record.name, "message": record.getMessage()}
            )

        server._LogForwarder.emit = bad_emit  # type: ignore[method-assign]
        del emit
    else:
        raise SystemExit(f"unknown mode {mode!r}")
    return server.main(rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
