"""The context layer: offloading tool results, compaction and the per-step orchestration.

The names are loaded when first used, so a process that only counts tokens or offloads does not pay for
importing the compactor and the orchestrator (asyncio among them) at start-up.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from synapse_ref.context.compactor import ContextCompactor
    from synapse_ref.context.context_manager import OFFLOAD_REFERENCE_PREFIX, ContextManager
    from synapse_ref.context.offload_storage import OffloadStorage, OffloadStorageError
    from synapse_ref.context.orchestrator import ContextOrchestrator
    from synapse_ref.context.records import CompactResult, OffloadResult, OrchestratorResult
    from synapse_ref.context.settings import ContextSettings
    from synapse_ref.context.token_counter import count_message_tokens, default_token_counter

_MODULES = {
    "OFFLOAD_REFERENCE_PREFIX": "context_manager",
    "CompactResult": "records",
    "ContextCompactor": "compactor",
    "ContextManager": "context_manager",
    "ContextOrchestrator": "orchestrator",
    "ContextSettings": "settings",
    "OffloadResult": "records",
    "OffloadStorage": "offload_storage",
    "OffloadStorageError": "offload_storage",
    "OrchestratorResult": "records",
    "count_message_tokens": "token_counter",
    "default_token_counter": "token_counter",
}

__all__ = [
    "OFFLOAD_REFERENCE_PREFIX",
    "CompactResult",
    "ContextCompactor",
    "ContextManager",
    "ContextOrchestrator",
    "ContextSettings",
    "OffloadResult",
    "OffloadStorage",
    "OffloadStorageError",
    "OrchestratorResult",
    "count_message_tokens",
    "default_token_counter",
]


def __getattr__(name: str) -> Any:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
