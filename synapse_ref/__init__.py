"""Synapse reference implementation: the context and session layer of an LLM coding agent.

Organised by domain (``context``, ``session``, ``agent``, ``llm``, ``skills``, ``repl``, ``workflow``);
``synapse_ref.adapter`` exposes it to the executable spec through ``synapse_spec.contract``.
"""

__version__ = "0.1.0"
