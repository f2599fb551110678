"""The strategic compact measures the transcript in characters: the port reads the file as text and
takes its length (``readFileSync(path, "utf8").length``) where the original takes its size in bytes
(``statSync(path).size``), so a transcript of Chinese text, three bytes a character, is measured at a
third of its size and the suggestion comes far too late.

Pattern: counting characters where bytes are meant; the example transcripts are made of one-byte
characters, where both measures agree.
"""

from __future__ import annotations

import os
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import DEFAULT_THRESHOLD_BYTES, Delegate, env_megabytes

AREAS = ("workflow",)
PATTERN = "characters counted where bytes are meant"


def threshold(options: Any) -> int:
    chosen = (options or {}).get("thresholdBytes")
    if isinstance(chosen, int) and not isinstance(chosen, bool):
        return chosen
    megabytes = env_megabytes()
    return round(megabytes * 1_000_000) if megabytes is not None else DEFAULT_THRESHOLD_BYTES


class Workflow(Delegate):
    def should_suggest_compact(self, **arguments: Any) -> Any:
        verdict = self._inner.should_suggest_compact(**arguments)
        path = arguments.get("transcript_path")
        if not verdict.get("suggest") or not path:
            return verdict
        try:
            with open(os.fspath(path), "rb") as handle:
                characters = len(handle.read().decode("utf-8", errors="replace"))
        except OSError:
            return verdict
        limit = threshold(arguments.get("options"))
        if characters <= limit:
            return {"suggest": False}
        size, bound = self._inner.format_size(characters), self._inner.format_size(limit)
        return {**verdict, "transcriptSize": characters, "reason": f"transcript 大小 {size} 超過閾值 {bound}"}


class Mutant(ReferenceImplementation):
    name = "semantic-sb_wf_transcript_chars"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
