"""Cooperative cancellation of the agent loop."""

from __future__ import annotations

from synapse_ref.llm.ports import AbortSignal

__all__ = ["AbortController", "AbortSignal", "throw_if_aborted"]


class AbortController:
    """A settable abort flag (the REPL sets it on Ctrl-C)."""

    def __init__(self) -> None:
        self._aborted = False

    @property
    def aborted(self) -> bool:
        return self._aborted

    def abort(self) -> None:
        self._aborted = True


class AbortError(Exception):
    """Raised when the loop notices its signal was aborted."""

    def __init__(self, message: str = "Operation aborted") -> None:
        super().__init__(message)


def throw_if_aborted(signal: AbortSignal | None) -> None:
    if signal is not None and signal.aborted:
        raise AbortError()


def is_abort_error(error: BaseException) -> bool:
    return type(error).__name__ == "AbortError" or "aborted" in str(error).lower()
