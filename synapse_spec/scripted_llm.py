"""A scripted stand-in for the model: queued replies, injected failures, a record of every call.

It is deterministic and offline, so scenarios can say exactly what the model answers and then check what
was sent to it.  It belongs to the kit and uses only the standard library, so any implementation's
``scripted_llm(model)`` may simply return it; over the wire the kit's own object is passed to the server
as an ``LLMClient`` port, and the scenario scripts and reads it on the kit's side.
"""

from __future__ import annotations

import copy
import json
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import count
from typing import Any

from synapse_spec.contract import AbortSignal

Message = dict[str, Any]


class ScriptExhausted(AssertionError):
    """Raised when the model is called more often than the scenario scripted."""


@dataclass
class Reply:
    """One answer of the model."""

    message: Message
    usage: dict[str, int]


@dataclass
class LLMCall:
    """What one ``generate`` call sent (deep-copied, so later mutations of the history do not show)."""

    model: str
    system_prompt: str
    messages: list[Message]
    tools: list[Mapping[str, Any]]
    max_tokens: int | None


@dataclass
class _Script:
    """State shared by a scripted model and every client derived from it with ``with_model``."""

    steps: deque[Reply | BaseException] = field(default_factory=deque)
    calls: list[LLMCall] = field(default_factory=list)
    with_model_calls: list[str] = field(default_factory=list)
    ids: count[int] = field(default_factory=count)


class ScriptedLLM:
    """A fake LLM client whose answers are queued in advance."""

    def __init__(self, model: str, *, _script: _Script | None = None) -> None:
        self._model = model
        self._script = _script if _script is not None else _Script()

    # -- scripting ---------------------------------------------------------------------------------------
    def reply_text(self, text: str, *, usage: Mapping[str, int] | None = None) -> ScriptedLLM:
        parts = [{"type": "text", "text": text}] if text else []
        self._script.steps.append(Reply({"role": "assistant", "content": parts}, _usage(usage)))
        return self

    def reply_tool_calls(
        self,
        calls: Sequence[Mapping[str, Any]],
        *,
        text: str = "",
        usage: Mapping[str, int] | None = None,
    ) -> ScriptedLLM:
        tool_calls = []
        for call in calls:
            arguments = call["arguments"]
            tool_calls.append(
                {
                    "id": str(call.get("id") or next(self._script.ids)),
                    "name": call["name"],
                    "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments),
                }
            )
        parts = [{"type": "text", "text": text}] if text else []
        message = {"role": "assistant", "content": parts, "toolCalls": tool_calls}
        self._script.steps.append(Reply(message, _usage(usage)))
        return self

    def fail(self, error: BaseException, *, times: int = 1) -> ScriptedLLM:
        self._script.steps.extend([error] * times)
        return self

    # -- inspection --------------------------------------------------------------------------------------
    @property
    def calls(self) -> list[LLMCall]:
        return self._script.calls

    @property
    def with_model_calls(self) -> list[str]:
        return self._script.with_model_calls

    @property
    def pending(self) -> int:
        return len(self._script.steps)

    # -- the LLM client port -----------------------------------------------------------------------------
    @property
    def model_name(self) -> str:
        return self._model

    def with_model(self, model: str) -> ScriptedLLM:
        self._script.with_model_calls.append(model)
        return ScriptedLLM(model, _script=self._script)

    async def generate(
        self,
        system_prompt: str,
        messages: Sequence[Message],
        tools: Sequence[Mapping[str, Any]] = (),
        *,
        max_tokens: int | None = None,
        signal: AbortSignal | None = None,
    ) -> Reply:
        call = LLMCall(self._model, system_prompt, copy.deepcopy(list(messages)), list(tools), max_tokens)
        self._script.calls.append(call)
        if not self._script.steps:
            raise ScriptExhausted(call)
        step = self._script.steps.popleft()
        if isinstance(step, BaseException):
            raise step
        return step


def _usage(usage: Mapping[str, int] | None) -> dict[str, int]:
    # Missing kinds count as zero wherever usage is read, so an unscripted usage stays empty.
    return dict(usage or {})
