"""Result records of the context layer, shaped like the original's result objects."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Message = dict[str, Any]


@dataclass
class OffloadResult:
    """What one offload pass did; ``freed_tokens`` is ``previous_tokens - current_tokens``."""

    messages: list[Message]
    offloaded_count: int
    previous_tokens: int
    current_tokens: int
    freed_tokens: int
    still_exceeds_threshold: bool


@dataclass
class CompactResult:
    """What one compaction did; on failure ``messages`` is the original history and nothing is freed."""

    messages: list[Message]
    previous_tokens: int
    current_tokens: int
    freed_tokens: int
    preserved_count: int
    deleted_files: list[str]
    success: bool


@dataclass
class OrchestratorResult:
    """The history to continue with, plus the offload/compaction that produced it (None when nothing
    was offloaded, or when no compaction succeeded)."""

    messages: list[Message]
    offload_result: OffloadResult | None
    compact_result: CompactResult | None
