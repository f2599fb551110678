"""The hook tries the keyword rules first and reads the ``<!-- VERDICT -->`` marker only when no keyword
matched: a tester's "2 tests fail before the fix, all pass now" with a ``pass`` marker becomes ``fail``.

Pattern: precedence between two sources of one value (the explicit marker and the keywords); only a
message holding both, disagreeing, shows which wins.
"""

from __future__ import annotations

import json
import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("workflow",)
PATTERN = "precedence between two sources of one value"
MARKER = re.compile(r"<!--\s*VERDICT:\s*\{[^}]+\}\s*-->")
KEYWORDS = ("fail", "失敗", "error", "reject", "拒絕", "issues", "改善建議", "建議優化")


def keywords_first(event: Any) -> Any:
    if not isinstance(event, dict):
        return event
    message = str(event.get("last_assistant_message") or "")
    rest = MARKER.sub("", message)
    if rest != message and any(word in rest.lower() for word in KEYWORDS):
        return {**event, "last_assistant_message": rest}
    return event


class Workflow(Delegate):
    def on_stop(self, event: Any) -> Any:
        return self._inner.on_stop(keywords_first(event))

    def on_stop_command(self, stdin: str) -> Any:
        try:
            event = json.loads(stdin)
        except (ValueError, RecursionError):
            return self._inner.on_stop_command(stdin)
        changed = keywords_first(event)
        if changed is event:
            return self._inner.on_stop_command(stdin)
        return self._inner.on_stop_command(json.dumps(changed, ensure_ascii=False))


class Mutant(ReferenceImplementation):
    name = "semantic-wf_keywords_over_marker"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
