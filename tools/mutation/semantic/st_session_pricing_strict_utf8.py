"""``pricing.json`` is decoded strictly, as Python's ``read_text(encoding="utf-8")`` (or Go's and Rust's
checked conversions) do, where the original reads it with ``readFileSync(path, 'utf-8')``, which turns a
byte that is no UTF-8 into U+FFFD.  A table where one model's name was saved in Latin-1 (a hand-edited
note, ``claude-sonnet-4 (prix réduit)``) is still a table to the original, which prices every other model
with it; the port refuses the whole file, and every cost becomes ``N/A``.  (The reference itself read it
so; SES-146 pins the original's reading.)

Pattern: a file decoded strictly where JavaScript replaces invalid bytes; every example file is UTF-8.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from synapse_ref.session import session as session_module
from synapse_ref.session.paths import pricing_path
from synapse_ref.session.pricing import load_pricing
from tools.mutation.semantic._support import Delegate, SessionMutant, swapped

AREAS = ("session", "repl")
PATTERN = "a file decoded strictly where JavaScript replaces invalid bytes"


def load_pricing_strictly(path: Path | None = None) -> Any:
    target = path if path is not None else pricing_path()
    try:
        target.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        logging.getLogger("synapse.session.pricing").warning(
            "Failed to load pricing from %s: %s", target, exc
        )
        return None
    except OSError:
        pass
    return load_pricing(path)


class Session(Delegate):
    def update_usage(self, usage: Any, model: str | None = None) -> None:
        with swapped(session_module, "load_pricing", load_pricing_strictly):
            self._inner.update_usage(usage, model)


class Mutant(SessionMutant):
    name = "semantic-st_session_pricing_strict_utf8"
    session_class = Session


implementation = Mutant
