"""The Synapse executable specification harness: the contract, the pytest plugin and the reports."""

from synapse_spec.version import PROTOCOL_VERSION, SPEC_VERSION

__version__ = SPEC_VERSION
__all__ = ["PROTOCOL_VERSION", "SPEC_VERSION", "__version__"]
