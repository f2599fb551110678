"""The model port of the reference implementation: its scripted fake and the HTTP provider clients.

``make_llm_client(provider, model, env=...)`` (``anthropic``, ``openai`` or ``echo``) is how a program
picks a real model; see :mod:`synapse_ref.llm.providers` for the environment variables it reads.
"""

from synapse_ref.llm.providers import PROVIDERS, ModelClient, http_llm_client, make_llm_client
from synapse_ref.llm.scripted import LLMCall, Reply, ScriptedLLM, ScriptExhausted

__all__ = [
    "PROVIDERS",
    "LLMCall",
    "ModelClient",
    "Reply",
    "ScriptExhausted",
    "ScriptedLLM",
    "http_llm_client",
    "make_llm_client",
]
