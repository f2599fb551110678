"""Cooperative cancellation of the agent loop: the loop checks the signal between its stages, and watches
it while a tool runs so that an abort cancels the tool instead of waiting for it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

from synapse_ref.llm.ports import AbortSignal

__all__ = ["ABORT_POLL_INTERVAL", "AbortError", "AbortSignal", "throw_if_aborted", "until_aborted"]

T = TypeVar("T")

ABORT_POLL_INTERVAL = 0.1
"""Seconds between two reads of ``aborted`` while work runs: prompt enough for a person pressing Ctrl-C,
and at most ten reads a second when each read is a call back to another process."""


class AbortError(Exception):
    """Raised when the loop notices its signal was aborted (named as in the original, so callers can
    tell an abort from a failure by the class name)."""


def throw_if_aborted(signal: AbortSignal | None) -> None:
    if signal is not None and signal.aborted:
        raise AbortError("Operation aborted")


async def until_aborted(
    work: Awaitable[T], signal: AbortSignal | None, *, interval: float = ABORT_POLL_INTERVAL
) -> T:
    """``work``'s result, unless the signal is aborted first: then ``work`` is cancelled, its clean-up
    (a killed command's process group) awaited, and :class:`AbortError` raised.  The signal has no
    callback, only a live property, so it is read every ``interval`` seconds while ``work`` runs; work
    that ends within the first interval costs no read at all."""
    if signal is None:
        return await work
    task = asyncio.ensure_future(work)
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=interval)
            if done:
                return task.result()
            if signal.aborted:
                break
    except BaseException:  # the caller was cancelled, or reading the signal failed: stop the work too
        await _cancel(task)
        raise
    await _cancel(task)
    raise AbortError("Operation aborted")


async def _cancel(task: asyncio.Future[T]) -> None:
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
