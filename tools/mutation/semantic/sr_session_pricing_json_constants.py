"""``pricing.json`` is read with the platform's lenient JSON reader (Python's ``json.loads``, which takes
``NaN``, ``Infinity`` and ``-Infinity`` as numbers), where the original reads it with ``JSON.parse``,
which refuses them: a table whose fields beside the four prices hold ``NaN`` (a file written by a Python
script, ``json.dumps`` writes ``NaN`` unless told not to) is no JSON to the original, which prices
nothing, and a price table to the port, which bills with it.  The schema check cannot tell: it looks at
the four prices only, and extra fields are ignored.

Pattern: JavaScript against Python readings (``JSON.parse`` against ``json.loads``); the one example with
``Infinity`` puts it in a price, which the schema refuses either way.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from synapse_ref.session import pricing as pricing_module
from synapse_ref.session import session as session_module
from synapse_ref.session.paths import pricing_path
from tools.mutation.semantic._support import Delegate, SessionMutant, swapped

AREAS = ("session", "repl")
PATTERN = "JavaScript against Python readings"


def load_pricing_leniently(path: Path | None = None) -> Any:
    target = path if path is not None else pricing_path()
    try:
        data = json.loads(target.read_text(encoding="utf-8"))
    except FileNotFoundError:
        logging.getLogger("synapse.session.pricing").warning("Pricing file not found: %s", target)
        return None
    except (OSError, ValueError, RecursionError) as exc:
        logging.getLogger("synapse.session.pricing").warning("Failed to load pricing: %s", exc)
        return None
    if not pricing_module._is_pricing(data):
        logging.getLogger("synapse.session.pricing").warning("Invalid pricing file %s", target)
        return None
    return data


class Session(Delegate):
    def update_usage(self, usage: Any, model: str | None = None) -> None:
        with swapped(session_module, "load_pricing", load_pricing_leniently):
            self._inner.update_usage(usage, model)


class Mutant(SessionMutant):
    name = "semantic-sr_session_pricing_json_constants"
    session_class = Session


implementation = Mutant
