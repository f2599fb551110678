"""Only the final reply's usage reaches the session: the port reads token usage where it reads the answer
(after the loop), where the original records the usage of every model call, tool rounds included, so
a request that took three rounds is billed for one.

Pattern: one event per round where several can happen; the examples' requests are answered in one round.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, replace_record

AREAS = ("agent", "session")
PATTERN = "one event per round"


class Client(Delegate):
    async def generate(self, *args: Any, **kwargs: Any) -> Any:
        reply = await self._inner.generate(*args, **kwargs)
        message = reply.message if isinstance(reply.message, dict) else {}
        if message.get("toolCalls"):
            return replace_record(reply, usage={})
        return reply


class Mutant(ReferenceImplementation):
    name = "semantic-sf_runner_usage_final_reply_only"

    def agent_runner(self, llm: Any, toolset: Any, **options: Any) -> Any:
        return super().agent_runner(Client(llm), toolset, **options)


implementation = Mutant
