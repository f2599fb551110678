"""The staged workflow: state, timeline, the strategic compact suggestion and the SubagentStop hook."""

from synapse_ref.workflow.api import StagedWorkflow
from synapse_ref.workflow.compact_suggestion import should_suggest_compact
from synapse_ref.workflow.format import format_size

__all__ = ["StagedWorkflow", "format_size", "should_suggest_compact"]
