"""The answer joins the text of each text part as a string: the port writes
``"".join(part["text"] for part in parts)`` (the reference did), where the original's ``extractText``
maps every text part to ``part.text`` and lets ``Array.join`` write a null text as nothing.  A reply
whose first streamed chunk came with a null text (an empty delta a provider adapter wrote as ``null``)
then fails the whole request with a ``TypeError`` after the model has answered, and its usage is
billed for nothing.

Pattern: JavaScript against Python readings (``Array.join`` against ``str.join``); every example reply
part holds a string.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.agent import runner as runner_module
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("agent",)
PATTERN = "Array.join against str.join"


def python_text_of(message: dict[str, Any]) -> str:
    return "".join(part["text"] for part in message.get("content", []) if part.get("type") == "text")


class Runner(Delegate):
    async def run(self, user_message: str, **options: Any) -> Any:
        with swapped(runner_module, "_text_of", python_text_of):
            return await self._inner.run(user_message, **options)

    async def step(self, user_message: str, **options: Any) -> Any:
        with swapped(runner_module, "_text_of", python_text_of):
            return await self._inner.step(user_message, **options)


class Mutant(ReferenceImplementation):
    name = "semantic-sq_runner_answer_null_text_part"

    def agent_runner(self, llm: Any, toolset: Any, **options: Any) -> Any:
        return Runner(super().agent_runner(llm, toolset, **options))


implementation = Mutant
