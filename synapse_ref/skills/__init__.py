"""Skill-enhancement inputs: reading session transcripts and the ``skill:import`` command."""

from synapse_ref.skills.conversation_reader import (
    ConversationReader,
    ConversationSummary,
    ConversationTurn,
    ToolCall,
    ToolResult,
)
from synapse_ref.skills.import_command import CommandResult, SkillCommandHandler

__all__ = [
    "CommandResult",
    "ConversationReader",
    "ConversationSummary",
    "ConversationTurn",
    "SkillCommandHandler",
    "ToolCall",
    "ToolResult",
]
