"""An offload reference is recognised after the white space Python's ``str.lstrip()`` removes: the
port's reading of the original's ``content.trimStart().startsWith("Tool result is at:")``.  The two
disagree at the edges: ``lstrip()`` keeps a byte-order mark (U+FEFF), which ``trimStart()`` removes, and
removes the information separators U+001C..U+001F and U+0085, which ``trimStart()`` keeps.  A reference
behind a byte-order mark is saved to a new file and referenced again; an output that starts with U+001C
and then quotes a reference stays inline although it is long.  (The reference itself read it this way
until CTX-109, while its compaction read the same reference with JavaScript's white space.)

Pattern: white space read by the host language's rule; every example reference is padded with white
space both rules remove.
"""

from __future__ import annotations

from tools.mutation.semantic._baseline_offload import Baseline
from tools.mutation.semantic._support import OFFLOAD_PREFIX, OffloadManager

AREAS = ("context",)
PATTERN = "white space read by the host language's rule"
BASELINE = "_baseline_offload"


class PythonStripManager(OffloadManager):
    def is_reference(self, text: str) -> bool:
        return text.lstrip().startswith(OFFLOAD_PREFIX)


class Mutant(Baseline):
    name = "semantic-so_ctx_offload_ref_python_lstrip"
    manager = PythonStripManager


implementation = Mutant
