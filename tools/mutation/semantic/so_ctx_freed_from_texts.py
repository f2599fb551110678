"""The tokens an offload frees are counted from the texts it replaced, not from the history: the port
saves a second count of the whole history by subtracting, for each offloaded message, the tokens of its
reference from the tokens of the text it saved (``freed += count(text) - count(reference)``).  The
original counts the new history again (``currentTokens = countMessageTokens(nextMessages)``), and the
two differ wherever a message is more than its joined text: an image part dropped with the text, a line
break or a quote that JSON escapes.  ``currentTokens``, ``freedTokens`` and ``stillExceedsThreshold``
are then off, and so is the orchestrator's decision to compact.

Pattern: two rules that agree on the examples; every offloaded example is one text part of plain
characters, where the text and the message differ by the same constant before and after.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.context.token_counter import default_token_counter
from tools.mutation.semantic._support import Delegate, message_text, replace_record

AREAS = ("context",)
PATTERN = "two rules agree on the examples"


class TextFreedManager(Delegate):
    def __init__(self, inner: Any, counter: Any, threshold: int) -> None:
        super().__init__(inner)
        self._mut_counter = counter
        self._mut_threshold = threshold

    def offload_if_needed(self, messages: list[Any]) -> Any:
        result = self._inner.offload_if_needed(messages)
        if not result.offloaded_count:
            return result
        count = self._mut_counter.count_tokens
        freed = sum(
            count(message_text(before)) - count(message_text(after))
            for before, after in zip(messages, result.messages, strict=True)
            if after is not before and after != before
        )
        current = result.previous_tokens - freed
        return replace_record(
            result,
            current_tokens=current,
            freed_tokens=freed,
            still_exceeds_threshold=current >= self._mut_threshold,
        )


class Mutant(ReferenceImplementation):
    name = "semantic-so_ctx_freed_from_texts"

    def context_manager(
        self, storage: Any, *, offload_threshold: int, token_counter: Any = None, **options: Any
    ) -> Any:
        inner = super().context_manager(
            storage, offload_threshold=offload_threshold, token_counter=token_counter, **options
        )
        counter = token_counter if token_counter is not None else default_token_counter()
        return TextFreedManager(inner, counter, offload_threshold)


implementation = Mutant
