"""Cooperative cancellation of the agent loop."""

from __future__ import annotations

from synapse_ref.llm.ports import AbortSignal

__all__ = ["AbortError", "AbortSignal", "throw_if_aborted"]


class AbortError(Exception):
    """Raised when the loop notices its signal was aborted (named as in the original, so callers can
    tell an abort from a failure by the class name)."""


def throw_if_aborted(signal: AbortSignal | None) -> None:
    if signal is not None and signal.aborted:
        raise AbortError("Operation aborted")
