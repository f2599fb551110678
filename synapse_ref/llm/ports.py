"""The model port every component of the reference talks to (the scripted model and the REPL's echo
model implement it; a real provider client would too)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

Message = dict[str, Any]


class AbortSignal(Protocol):
    @property
    def aborted(self) -> bool: ...


class LLMReply(Protocol):
    @property
    def message(self) -> Message: ...

    @property
    def usage(self) -> Mapping[str, int]: ...


class LLMClient(Protocol):
    """``with_model`` is optional for callers: they look it up and skip switching models without it."""

    @property
    def model_name(self) -> str: ...

    async def generate(
        self,
        system_prompt: str,
        messages: Sequence[Message],
        tools: Sequence[Mapping[str, Any]] = (),
        *,
        max_tokens: int | None = None,
        signal: AbortSignal | None = None,
    ) -> LLMReply: ...
