"""The reference implementation seen through the spec's contract (``synapse_spec.contract``).

Every component is imported where it is built, not at the top: a process that only counts tokens or
reads a transcript should not pay for the HTTP clients (``httpx`` alone is a tenth of a second).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import synapse_ref

if TYPE_CHECKING:
    from synapse_ref.llm.scripted import ScriptedLLM
    from synapse_spec import contract


class ReferenceImplementation:
    """Builds reference components with the collaborators a scenario injects."""

    name = "synapse-ref"
    version = synapse_ref.__version__
    capabilities = frozenset(
        {
            "reader",
            "skills",
            "skill-import",
            "context",
            "session",
            "session-delete",
            "usage",
            "stop-hooks",
            "sanitizer",
            "runner",
            "bash-tool",
            "repl",
            "workflow",
            "llm-http",
        }
    )

    def scripted_llm(self, model: str) -> ScriptedLLM:
        from synapse_ref.llm.scripted import ScriptedLLM

        return ScriptedLLM(model)

    def http_llm_client(self, provider: str, base_url: str, model: str, api_key: str) -> contract.LLMClient:
        from synapse_ref.llm.providers import http_llm_client

        return http_llm_client(provider, base_url=base_url, model=model, api_key=api_key)

    # -- seed 003: ConversationReader and skill-import feedback ------------------------------------------
    # (reader factories)
    def conversation_reader(self) -> contract.ConversationReader:
        from synapse_ref.skills.conversation_reader import ConversationReader

        return ConversationReader()

    def skill_command_handler(self, manager: contract.SkillImportManager) -> contract.SkillCommandHandler:
        from synapse_ref.skills.import_command import SkillCommandHandler

        return SkillCommandHandler(manager)

    def skill_importer(self, skills_dir: Path, llm: contract.LLMClient) -> contract.SkillImportManager:
        from synapse_ref.skills.importer import SkillImporter

        return SkillImporter(skills_dir, llm)

    # -- context layer -----------------------------------------------------------------------------------
    # (context factories)
    def offload_storage(self, session_dir: contract.SessionDir) -> contract.OffloadStorage:
        from synapse_ref.context.offload_storage import OffloadStorage

        return OffloadStorage(session_dir)

    def context_manager(
        self,
        storage: contract.OffloadStorage,
        *,
        offload_threshold: int,
        scan_ratio: float,
        min_chars: int,
        token_counter: contract.TokenCounter | None = None,
    ) -> contract.ContextManager:
        from synapse_ref.context.context_manager import ContextManager

        return ContextManager(
            storage,
            offload_threshold=offload_threshold,
            scan_ratio=scan_ratio,
            min_chars=min_chars,
            token_counter=token_counter,
        )

    def context_compactor(
        self,
        storage: contract.OffloadStorage,
        llm: contract.LLMClient,
        *,
        token_counter: contract.TokenCounter | None = None,
        preserve_count: int = 5,
        target_tokens: int = 8000,
        retry_count: int = 3,
        model: str | None = None,
        sleep: contract.Sleep | None = None,
    ) -> contract.ContextCompactor:
        from synapse_ref.context.compactor import ContextCompactor

        return ContextCompactor(
            storage,
            llm,
            token_counter=token_counter,
            preserve_count=preserve_count,
            target_tokens=target_tokens,
            retry_count=retry_count,
            model=model,
            sleep=sleep,
        )

    def context_orchestrator(
        self,
        llm: contract.LLMClient,
        *,
        token_counter: contract.TokenCounter | None = None,
        sleep: contract.Sleep | None = None,
        context_manager: contract.OffloadPort | None = None,
        compactor: contract.CompactPort | None = None,
        offload_threshold: int | None = None,
        compact_trigger_threshold: int | None = None,
        compact_cooldown_steps: int | None = None,
    ) -> contract.ContextOrchestrator:
        import dataclasses
        from typing import Any, cast

        from synapse_ref.context import orchestrator as orch
        from synapse_ref.context.settings import ContextSettings

        overrides: dict[str, Any] = {
            "offload_threshold": offload_threshold,
            "compact_trigger_threshold": compact_trigger_threshold,
            "compact_cooldown_steps": compact_cooldown_steps,
        }
        settings = dataclasses.replace(
            ContextSettings.from_env(), **{k: v for k, v in overrides.items() if v is not None}
        )
        # Doubles are duck-typed: the orchestrator only reads the result fields the contract names.
        return orch.ContextOrchestrator(
            llm,
            settings=settings,
            token_counter=token_counter,
            sleep=sleep,
            context_manager=cast("orch.OffloadPort | None", context_manager),
            compactor=cast("orch.CompactPort | None", compactor),
        )

    # -- session layer -----------------------------------------------------------------------------------
    # (session factories)
    def create_session(
        self,
        sessions_dir: contract.SessionsDir,
        *,
        session_id: str | None = None,
        model: str | None = None,
        pricing: contract.PricingTable | None = None,
    ) -> contract.Session:
        from synapse_ref.session.session import Session

        return Session.create(sessions_dir, session_id=session_id, model=model, pricing=pricing)

    def find_session(
        self,
        session_id: str,
        sessions_dir: contract.SessionsDir,
        *,
        model: str | None = None,
        pricing: contract.PricingTable | None = None,
    ) -> contract.Session | None:
        from synapse_ref.session.session import Session

        return Session.find(session_id, sessions_dir, model=model, pricing=pricing)

    def list_sessions(self, sessions_dir: contract.SessionsDir) -> list[contract.SessionIndexEntry]:
        from synapse_ref.session.session import Session

        return Session.list(sessions_dir)

    def continue_session(self, sessions_dir: contract.SessionsDir) -> contract.Session | None:
        from synapse_ref.session.session import Session

        return Session.continue_(sessions_dir)

    # (session-delete factories)
    def delete_session(self, sessions_dir: contract.SessionsDir, session_id: str) -> bool:
        from synapse_ref.session.session import Session

        return Session.delete_by_id(sessions_dir, session_id)

    def create_empty_usage(self, model: str) -> contract.SessionUsageRecord:
        from synapse_ref.session.usage import create_empty_usage

        return create_empty_usage(model)

    def accumulate_usage(
        self,
        usage: contract.SessionUsageRecord,
        round_usage: contract.TokenUsage,
        pricing: contract.PricingTable | None = None,
    ) -> contract.SessionUsageRecord:
        from synapse_ref.session.usage import accumulate_usage

        return accumulate_usage(usage, round_usage, pricing)

    def format_cost_output(self, usage: contract.SessionUsageRecord) -> str:
        from synapse_ref.session.usage import format_cost_output

        return format_cost_output(usage)

    @property
    def stop_hook_marker(self) -> str:
        from synapse_ref.agent.stop_hooks import STOP_HOOK_MARKER

        return STOP_HOOK_MARKER

    def stop_hook_registry(self) -> contract.StopHookRegistry:
        from synapse_ref.agent.stop_hooks import StopHookRegistry

        return StopHookRegistry()

    def stop_hook_executor(
        self,
        *,
        enabled: bool,
        registry: contract.StopHookRegistry,
        on_message_part: contract.MessagePartCallback | None = None,
        loader: contract.StopHookLoader | None = None,
    ) -> contract.StopHookExecutor:
        from typing import cast

        from synapse_ref.agent.stop_hooks import StopHookExecutor, StopHookRegistry

        # The registry comes from stop_hook_registry() of this same implementation.
        return StopHookExecutor(
            enabled=enabled,
            registry=cast(StopHookRegistry, registry),
            on_message_part=on_message_part,
            loader=loader,
        )

    # -- agent layer and REPL ----------------------------------------------------------------------------
    # (agent factories)
    def agent_runner(
        self,
        llm: contract.LLMClient,
        toolset: contract.Toolset,
        *,
        session: contract.Session | None = None,
        stop_hooks: contract.StopHookExecutor | None = None,
        cwd: str | None = None,
        max_iterations: int | None = None,
        max_consecutive_tool_failures: int | None = None,
        token_counter: contract.TokenCounter | None = None,
        sleep: contract.Sleep | None = None,
    ) -> contract.AgentRunner:
        from typing import cast

        from synapse_ref.agent import runner as agent_runner
        from synapse_ref.context.orchestrator import ContextOrchestrator
        from synapse_ref.llm.ports import LLMClient

        # Ports are duck-typed: the runner only uses what the contract's port protocols name.
        return agent_runner.AgentRunner(
            cast("LLMClient", llm),
            toolset,
            session=cast("agent_runner.SessionLike | None", session),
            orchestrator=ContextOrchestrator(llm, token_counter=token_counter, sleep=sleep),
            stop_hooks=stop_hooks,
            cwd=cwd,
            max_iterations=max_iterations,
            max_consecutive_tool_failures=max_consecutive_tool_failures,
        )

    def bash_toolset(self, cwd: str) -> contract.Toolset:
        from synapse_ref.agent.bash_tool import BashToolset

        return BashToolset(cwd)

    def sanitize_tool_protocol_history(self, messages: list[contract.Message]) -> contract.SanitizeResult:
        from synapse_ref.context.sanitizer import sanitize_tool_protocol_history

        return sanitize_tool_protocol_history(messages)

    def repl_commands(
        self,
        *,
        runner: contract.CompactingRunner | None = None,
        synapse_home: contract.SynapseHome | None = None,
        tool_catalog: contract.ToolCatalog | None = None,
    ) -> contract.ReplCommands:
        from synapse_ref.repl.commands import ReplCommands, ReplContext

        return ReplCommands(ReplContext(runner=runner, synapse_home=synapse_home, tool_catalog=tool_catalog))

    def format_stream_text(self, text: str, *, is_tty: bool) -> str:
        from synapse_ref.repl.commands import format_stream_text

        return format_stream_text(text, is_tty=is_tty)

    # -- staged workflow ---------------------------------------------------------------------------------
    # (workflow factories)
    def staged_workflow(
        self, root: contract.WorkflowRoot, *, clock: contract.WorkflowClock
    ) -> contract.StagedWorkflow:
        from synapse_ref.workflow import StagedWorkflow

        return StagedWorkflow(root, clock=clock)


def implementation() -> ReferenceImplementation:
    """A fresh reference implementation (the default of ``--synapse-impl``)."""
    return ReferenceImplementation()


if TYPE_CHECKING:
    _conforms: contract.Implementation = ReferenceImplementation()
