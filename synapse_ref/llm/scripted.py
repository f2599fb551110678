"""The kit's scripted model, which the reference's REPL also talks to (its echo model scripts it)."""

from synapse_spec.scripted_llm import LLMCall, Message, Reply, ScriptedLLM, ScriptExhausted

__all__ = ["LLMCall", "Message", "Reply", "ScriptExhausted", "ScriptedLLM"]
