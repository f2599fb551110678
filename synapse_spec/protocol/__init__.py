"""The Synapse wire protocol (PROTOCOL.md): shapes read from the contract, value encoding, JSON-RPC plumbing.

Standard library only, so a server written in Python (the reference's ``python -m synapse_ref.server``)
may import it without the spec's test machinery.
"""

from synapse_spec.protocol.rpc import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION"]
