"""The strategic compact's cooldown (stages since the last ``session:compact``), decided outside the
reference so a mutant can change one rule of it; every other condition stays the reference's."""

from __future__ import annotations

from typing import Any

from tools.mutation.semantic._support import Delegate


class CooldownWorkflow(Delegate):
    first_compact = False
    inclusive = False

    def should_suggest_compact(self, *, options: Any = None, session_id: Any = None, **rest: Any) -> Any:
        wanted = (options or {}).get("minStagesSinceCompact", 2)
        opened = {**(options or {}), "minStagesSinceCompact": 0}
        try:
            verdict = self._inner.should_suggest_compact(options=opened, session_id=session_id, **rest)
        except ValueError:
            return self._inner.should_suggest_compact(options=options, session_id=session_id, **rest)
        if not verdict.get("suggest") or session_id is None:
            return verdict
        events = self._inner.timeline.query(session_id)
        compacts = [i for i, e in enumerate(events) if e.get("type") == "session:compact"]
        if not compacts:
            return verdict
        start = compacts[0] if self.first_compact else compacts[-1]
        since = sum(1 for e in events[start + 1 :] if e.get("type") == "stage:complete")
        blocked = since <= wanted if self.inclusive else since < wanted
        return {"suggest": False} if blocked else verdict
