"""The skill-enhancement progress line is highlighted only when a streamed chunk *is* that text
(``text == "Analyzing skill enhancement..."``); the original highlights any chunk containing it.

Pattern: an input carrying two things; a chunk with the progress text and the newlines or other text
around it (as the stop hook emits it) is only caught by an example that has both.
"""

from __future__ import annotations

from synapse_ref.adapter import ReferenceImplementation

AREAS = ("repl",)
PATTERN = "input carrying two things rendered by different rules"
PROGRESS = "Analyzing skill enhancement..."


class Mutant(ReferenceImplementation):
    name = "semantic-repl_highlight_exact_only"

    def format_stream_text(self, text: str, *, is_tty: bool) -> str:
        if text.strip() != PROGRESS:
            return text
        return super().format_stream_text(text, is_tty=is_tty)


implementation = Mutant
