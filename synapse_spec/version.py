"""The versions a report carries: the spec's and the wire protocol's.

``SPEC_VERSION`` is the version of the scenarios and of the kit that runs them (one release, one wheel).
It changes whenever a scenario's meaning changes (see ``CHANGELOG.md``); scenario IDs are never reused.
``PROTOCOL_VERSION`` is the wire protocol's (``synapse_spec/protocol/PROTOCOL.md``), ``MAJOR.MINOR``.
"""

SPEC_VERSION = "0.2.19"
PROTOCOL_VERSION = "1.2"
