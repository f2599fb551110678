"""A model reply's token usage is recorded together with the round's messages: the port keeps the
usage of the reply and writes it when it appends the round (``session.appendMessage(...)`` then
``session.updateUsage(...)``, "one write per round"), where the original records it as soon as the reply
arrives.  A request aborted while a tool runs drops the round, as it must, and with it the usage of a
model call that was made and billed: ``/cost`` shows less than the provider charges.

Pattern: state written after one branch only; every example round runs to its end.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("agent",)
PATTERN = "state kept after one branch"


class RoundSession(Delegate):
    _mut_pending: tuple[Any, Any] | None = None

    def update_usage(self, usage: Any, model: Any = None) -> None:
        self._mut_pending = (usage, model)

    def append_message(self, message_or_list: Any) -> None:
        self._inner.append_message(message_or_list)
        pending = self._mut_pending
        if pending is not None:
            self._mut_pending = None
            self._inner.update_usage(*pending)


class Mutant(ReferenceImplementation):
    name = "semantic-sl_runner_usage_with_round_messages"

    def agent_runner(self, llm: Any, toolset: Any, *, session: Any = None, **options: Any) -> Any:
        wrapped = RoundSession(session) if session is not None else None
        return super().agent_runner(llm, toolset, session=wrapped, **options)


implementation = Mutant
