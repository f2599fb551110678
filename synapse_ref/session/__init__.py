"""Session layer: JSONL history, the ``sessions.json`` index, token usage and cost."""
