"""``python -m synapse_spec``: the ``synapse-spec`` command."""

import sys

from synapse_spec.cli import main

sys.exit(main())
