"""``SYNAPSE_OFFLOAD_RESTORE_MAX_BYTES`` is read with ``parseInt(v) || 1048576``: a missing, non-numeric
or zero value falls back to 1 MiB, but a negative one is taken, where the spec falls back for anything
that is not a positive integer: with ``-1`` every offload file is "over the limit", and no offloaded
result is restored for the summary.

Pattern: a default applied when the value is 0 (``x || default``); the examples' bad values are an
empty value, ``abc`` and ``0``.
"""

from __future__ import annotations

import os
import re

from tools.mutation.semantic._restore_limit import DEFAULT, NAME, RestoreLimitMutant

AREAS = ("context",)
PATTERN = "default applied when the value is 0"
BASELINE = "_baseline_orchestrator"


def or_default() -> int:
    found = re.match(r"\s*([+-]?\d+)", os.environ.get(NAME, ""))
    return (int(found.group(1)) if found else 0) or DEFAULT


class Mutant(RestoreLimitMutant):
    name = "semantic-sh_cmp_restore_limit_or_default"
    limit = staticmethod(or_default)


implementation = Mutant
