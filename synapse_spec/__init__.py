"""The Synapse executable specification harness: the contract, the pytest plugin and the reports."""
