"""The similarity check lists hidden directories as installed skills: the port collects "every directory
of the skills directory that has a ``SKILL.md``" and forgets the ``!entry.name.startsWith('.')`` of the
original's ``listInstalledSkillsForSimilarity``.  The staging copy an interrupted import leaves
(``.<name>.importing``) or a skill parked by hand as ``.old-skill`` is then offered to the model as an
existing skill: a first import into an otherwise empty skills directory asks the model at all, and a new
skill can be reported as similar to a skill that ``/skills`` does not list and ``--merge`` cannot reach.

Pattern: a rule applied in one place only; no example skills directory holds a hidden directory.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills.importer import (
    SIMILARITY_SYSTEM_PROMPT,
    SKILL_FILE,
    _description,
    _first_given,
    _text_of,
    _user,
)
from tools.mutation.semantic._support import Delegate

AREAS = ("skills",)
PATTERN = "a rule applied in one place only"
logger = logging.getLogger("synapse.skills.importer")


class Importer(Delegate):
    def import_skills(
        self,
        source: str,
        *,
        continue_skills: Sequence[str] = (),
        merge_into: Sequence[tuple[str, str]] = (),
    ) -> Any:
        inner = self._inner
        skills_dir: Path = inner._skills_dir
        llm = inner._llm

        async def similar_to(path: Path) -> tuple[str, str] | None:
            installed = [
                (p.name, _description((p / SKILL_FILE).read_text(encoding="utf-8", errors="replace")))
                for p in sorted(skills_dir.iterdir())
                if p.is_dir() and (p / SKILL_FILE).is_file()
            ]
            if not installed:
                return None
            content = (path / SKILL_FILE).read_text(encoding="utf-8", errors="replace")
            existing = "\n".join(
                f"- {name}: {description or 'No description'}" for name, description in installed
            )
            prompt = (
                "Analyze whether the new skill is semantically similar to any existing skill.\n\n"
                f"New skill content:\n{content}\n\nExisting skills:\n{existing}\n\n"
                "Return JSON only:\n"
                '{"similar":[{"name":"existing-skill-name","reason":"why they are similar"}]}\n\n'
                'If none:\n{"similar":[]}'
            )
            try:
                reply = await llm.generate(SIMILARITY_SYSTEM_PROMPT, [_user(prompt)])
                answer = json.loads(_text_of(reply.message))
            except Exception as error:
                logger.warning("Similarity detection failed, importing without it: %s", error)
                return None
            names = {name for name, _ in installed}
            items = answer.get("similar") if isinstance(answer, dict) else None
            for item in items if isinstance(items, list) else []:
                if not isinstance(item, dict):
                    continue
                target = _first_given(item, "target", "name")
                reason = _first_given(item, "similarity", "reason")
                if isinstance(target, str) and isinstance(reason, str) and target in names and reason:
                    return target, reason
            return None

        inner._similar_to = similar_to
        try:
            return inner.import_skills(source, continue_skills=continue_skills, merge_into=merge_into)
        finally:
            del inner._similar_to


class Mutant(ReferenceImplementation):
    name = "semantic-sk_skl_similar_lists_hidden"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return Importer(super().skill_importer(skills_dir, llm))


implementation = Mutant
