"""The model port of the reference implementation and its scripted fake."""

from synapse_ref.llm.scripted import LLMCall, Reply, ScriptedLLM, ScriptExhausted

__all__ = ["LLMCall", "Reply", "ScriptExhausted", "ScriptedLLM"]
