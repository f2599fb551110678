"""The Synapse executable specification harness: the contract, the pytest plugin and the reports."""

__version__ = "0.1.0"
