"""The context layer: offloading tool results, compaction and the per-step orchestration."""

from synapse_ref.context.compactor import ContextCompactor
from synapse_ref.context.context_manager import OFFLOAD_REFERENCE_PREFIX, ContextManager
from synapse_ref.context.offload_storage import OffloadStorage, OffloadStorageError
from synapse_ref.context.orchestrator import ContextOrchestrator
from synapse_ref.context.records import CompactResult, OffloadResult, OrchestratorResult
from synapse_ref.context.settings import ContextSettings
from synapse_ref.context.token_counter import count_message_tokens, default_token_counter

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
