"""``python -m synapse_ref`` starts the interactive REPL."""

from synapse_ref.repl.app import main

raise SystemExit(main())
