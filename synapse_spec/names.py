"""The spec's camelCase names and the Python names the contract gives them, written down once.

The seeds name the original TypeScript API (``offloadIfNeeded``); the contract (``synapse_spec.contract``)
uses snake_case (``offload_if_needed``).  ``API_NAMES`` maps one to the other; ``tests/test_names.py``
checks that every camelCase name a feature file mentions is listed here and that every target exists in
the contract.  Keys of JSON data (messages, usage, index entries, timeline events, hook output) keep their
camelCase spelling because they are the on-disk format: they are listed in ``JSON_KEYS``.
"""

from __future__ import annotations

API_NAMES: dict[str, str] = {
    # context layer
    "offloadIfNeeded": "offload_if_needed",
    "ContextOrchestrator.offloadIfNeeded": "offload_if_needed",
    "ContextOrchestrator.forceCompact": "force_compact",
    "ContextManager.offloadThreshold": "offload_threshold",
    "offloadThreshold": "offload_threshold",
    "scanRatio": "scan_ratio",
    "minChars": "min_chars",
    "offloadedCount": "offloaded_count",
    "stillExceedsThreshold": "still_exceeds_threshold",
    "freedTokens": "freed_tokens",
    "previousTokens": "previous_tokens",
    "currentTokens": "current_tokens",
    "preservedCount": "preserved_count",
    "deletedFiles": "deleted_files",
    "compactTriggerThreshold": "compact_trigger_threshold",
    "compactCooldownSteps": "compact_cooldown_steps",
    "preserveCount": "preserve_count",
    "targetTokens": "target_tokens",
    "offloadResult": "offload_result",
    "compactResult": "compact_result",
    "retryCount": "retry_count",
    "withModel": "with_model",
    "maxTokens": "max_tokens",
    "ContextCompactor.compact": "compact",
    "cleanupOffloadedFiles": "cleanup_offloaded_files",
    "retainedFiles": "retained",
    "offloadDir": "offload_dir",
    "sanitizeToolProtocolHistory": "sanitize_tool_protocol_history",
    # session layer
    "sessionsDir": "sessions_dir",
    "rewriteHistory": "rewrite_history",
    "loadHistory": "load_history",
    "resetUsage": "reset_usage",
    "getUsage": "get_usage",
    "accumulateUsage": "accumulate_usage",
    "formatCostOutput": "format_cost_output",
    "Session.find": "find_session",
    "Session.list": "list_sessions",
    "Session.continue": "continue_session",
    "sessionId": "session_id",
    # stop hooks
    "StopHookExecutor.enabled": "enabled",
    "stopHookExecutor": "stop_hook_executor",
    "stopHookRegistry": "stop_hook_registry",
    "shouldExecute": "should_execute",
    "executeAndAppend": "execute_and_append",
    "executeAll": "execute_all",
    "emitProgress": "emit_progress",
    "onMessagePart": "on_message_part",
    "finalResponse": "final_response",
    "STOP_HOOK_MARKER": "stop_hook_marker",
    # agent layer and REPL
    "agentRunner": "agent_runner",
    "forceCompact": "force_compact",
    "runWithPotentialPermission": "run",
    "resolveSandboxPermission": "resolve_sandbox_permission",
    "bashTool": "get_tool",
    "getTool": "get_tool",
    "executeUnsandboxed": "execute_unsandboxed",
    "allowSession": "allow_session",
    "allowPermanent": "allow_permanent",
    "maxIterations": "max_iterations",
    "maxConsecutiveToolFailures": "max_consecutive_tool_failures",
    "userMessage": "user_message",
    "McpInstaller.formatSearchResult": "format_search_result",
    "formatStreamText": "format_stream_text",
    "isTTY": "is_tty",
    # ConversationReader and skill import
    "ConversationReader.read": "read",
    "readTruncated": "read_truncated",
    "maxChars": "max_chars",
    "filePath": "file_path",
    "extractToolSequence": "extract_tool_sequence",
    "toolCalls": "tool_calls",
    "toolResults": "tool_results",
    "toolUseId": "tool_use_id",
    "userTurns": "user_turns",
    "assistantTurns": "assistant_turns",
    "totalTurns": "total_turns",
    "uniqueTools": "unique_tools",
    "estimatedTokens": "estimated_tokens",
    "continueSkills": "continue_skills",
    "mergeInto": "merge_into",
    "exitCode": "exit_code",
    # staged workflow
    "shouldSuggestCompact": "should_suggest_compact",
    "transcriptPath": "transcript_path",
    "formatSize": "format_size",
    "timelineEvents": "timeline_events",
}

CONSTANTS: dict[str, str] = {
    "MAX_ROUNDS_KEPT": "the SYNAPSE_MAX_ROUNDS_KEPT setting (default 50), read when used",
    "SKILL_ENHANCE_PROGRESS_TEXT": "the text 'Analyzing skill enhancement...'",
}
"""Constants of the original that are settings or fixed texts here."""

JSON_KEYS: frozenset[str] = frozenset(
    {
        "toolCallId",
        "failureCategory",
        "inputOther",
        "inputCacheRead",
        "inputCacheCreation",
        "totalInputOther",
        "totalOutput",
        "totalCacheRead",
        "totalCacheCreation",
        "totalCost",
        "messageCount",
        "createdAt",
        "updatedAt",
        "similarTo",
        "existingPath",
        "newPath",
        "transcriptSize",
        "thresholdBytes",
        "minStagesSinceCompact",
        "deletedFileCount",
        "activeAgents",
        "currentStage",
        "agent_type",
        "transcript_path",
        "session_id",
    }
)
"""JSON keys that keep their spelling (options of ``should_suggest_compact`` are given as a mapping too)."""
