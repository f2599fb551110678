"""The skill importer behind ``skill:import``: local skills copied into the skills directory.

A skill is a directory holding ``SKILL.md``. The source is such a directory, a directory of them, or a
wrapper holding one ``skills/`` directory (the original's layouts). For each source skill, in order:

1. an installed skill of the same name is a **conflict** (never overwritten: rename in the source);
2. ``--continue=<name>`` imports it without asking whether it resembles an installed skill;
3. ``--merge=<name>:<target>`` asks the model to merge it into the installed ``target`` (the first pair
   naming the skill); the target's current files are kept as a version (``versions/YYYY-MM-DD-NNN``)
   before its ``SKILL.md`` is replaced;
4. otherwise the model is asked whether it resembles an installed skill; a resemblance is reported as
   **similar** (with the reason) and the skill is not imported, so the user decides with ``--continue`` or
   ``--merge``;
5. else it is copied and listed as **imported**; a copy that fails is **skipped** (and logged).

The similarity answer is JSON (``{"similar": [{"name", "reason"}]}``; the original's own field names
``target`` and ``similarity`` win when present, even empty); an answer that is not, or a failing
model, counts as "no similar skill" with a warning, as in the original, so an import is never blocked by
the model. Remote sources (URLs) need ``git`` and the network, which the reference does not use: they are
refused with a clear error.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Coroutine, Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar

from synapse_ref.context.settings import parse_env_positive_int
from synapse_ref.js_text import json_parse, trim
from synapse_ref.llm.ports import LLMClient
from synapse_ref.skills.skill_file import strip_wrapping_quotes

logger = logging.getLogger("synapse.skills.importer")

SKILL_FILE = "SKILL.md"
VERSIONS_DIR = "versions"
MERGING_FILE = f".{SKILL_FILE}.merging"  # the merged SKILL.md before it replaces the old one
_LINE_BREAK = re.compile(r"\r?\n")
SNAPSHOT_SUFFIX = ".snapshot"  # a version being copied, hidden until it is whole
STAGING_NAME_BYTES = 200
MAX_VERSIONS_DEFAULT = 20
"""Versions kept per skill (``SYNAPSE_SKILL_MAX_VERSIONS``); older ones are removed after a merge."""

SIMILARITY_SYSTEM_PROMPT = "You compare agent skills. Answer with JSON only."
MERGE_SYSTEM_PROMPT = (
    "You merge two agent skill definitions (SKILL.md files) into one. Answer with the merged SKILL.md only."
)

T = TypeVar("T")


class ImportSourceError(ValueError):
    """The source cannot be imported from at all (missing, not a directory, remote)."""


def _run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to completion from synchronous code, also when the caller's thread already runs an
    event loop (the REPL): it gets a loop of its own in a worker thread."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


def _text_of(message: Mapping[str, Any]) -> str:
    return "".join(
        str(part.get("text", ""))
        for part in message.get("content", [])
        if isinstance(part, dict) and part.get("type") == "text"
    )


def _user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


def _description(skill_md: str) -> str:
    """The first ``description:`` line's value.  Lines end at ``\n`` (or ``\r\n``) only, as the original
    splits them: ``str.splitlines`` would also end one at U+2028, a form feed or U+0085 inside the text."""
    for line in _LINE_BREAK.split(skill_md):
        key, sep, value = line.partition(":")
        if sep and trim(key).strip("*").lower() == "description":
            return strip_wrapping_quotes(value)
    return ""


def _first_given(item: Mapping[str, Any], name: str, alias: str) -> Any:
    """``item[name] ?? item[alias]``, the original's reading of its field aliases: only a missing (or null)
    field gives way to its alias; an empty one stays, and then names nothing."""
    value = item.get(name)
    return value if value is not None else item.get(alias)


def staging_name(name: str) -> str:
    """The hidden sibling a skill is copied into: ``.<name>.importing`` with at most
    ``STAGING_NAME_BYTES`` bytes of the name, cut at a character, so it stays within ``NAME_MAX`` (255
    bytes, not characters: 84 CJK characters already fill 252) for every name a directory can have."""
    kept = name
    while len(os.fsencode(kept)) > STAGING_NAME_BYTES:
        kept = kept[:-1]
    return f".{kept}.importing"


def _max_versions(env: Mapping[str, str]) -> int:
    """Parsed like the original's ``parseEnvPositiveInt`` (``'1.5'`` is 1); not positive: the default."""
    return parse_env_positive_int(env.get("SYNAPSE_SKILL_MAX_VERSIONS"), MAX_VERSIONS_DEFAULT)


class SkillImporter:
    """Implements the ``SkillImportManager`` port of ``skill:import`` on a skills directory."""

    def __init__(
        self,
        skills_dir: Path,
        llm: LLMClient,
        *,
        now: Callable[[], datetime] | None = None,
    ) -> None:
        self._skills_dir = Path(skills_dir)
        self._llm = llm
        self._now = now if now is not None else (lambda: datetime.now(timezone.utc))

    def import_skills(
        self,
        source: str,
        *,
        continue_skills: Sequence[str] = (),
        merge_into: Sequence[tuple[str, str]] = (),
    ) -> dict[str, Any]:
        return _run_sync(self.import_skills_async(source, continue_skills, merge_into))

    async def import_skills_async(
        self,
        source: str,
        continue_skills: Sequence[str] = (),
        merge_into: Sequence[tuple[str, str]] = (),
    ) -> dict[str, Any]:
        candidates = self._candidates(source)
        self._skills_dir.mkdir(parents=True, exist_ok=True)
        merges: dict[str, str] = {}
        for source_name, target_name in merge_into:
            merges.setdefault(source_name, target_name)  # the first pair wins, as the original's find()
        result: dict[str, Any] = {"imported": [], "skipped": [], "conflicts": [], "similar": []}
        for name, path in candidates:
            target = self._skills_dir / name
            if target.exists():
                result["conflicts"].append({"name": name, "existingPath": str(target), "newPath": str(path)})
            elif name in continue_skills:
                self._copy(name, path, target, result)
            elif name in merges:
                await self._merge(name, path, merges[name], result)
            else:
                similar = await self._similar_to(path)
                if similar is not None:
                    result["similar"].append({"name": name, "similarTo": similar[0], "reason": similar[1]})
                else:
                    self._copy(name, path, target, result)
        return result

    # -- the source ----------------------------------------------------------------------------------------
    def _candidates(self, source: str) -> list[tuple[str, Path]]:
        if "://" in source:
            raise ImportSourceError(f"Remote import sources are not supported here: {source}")
        root = Path(source).expanduser()
        if not root.exists():
            raise ImportSourceError(f"Import source not found: {source}")
        if not root.is_dir():
            raise ImportSourceError(f"Import source is not a directory: {source}")
        if (root / SKILL_FILE).is_file():
            return [(root.resolve().name, root)]
        visible = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
        if [p.name for p in visible] == ["skills"]:
            nested = self._skills_in(root / "skills")
            if nested:
                return nested
        return self._skills_in(root)

    @staticmethod
    def _skills_in(directory: Path) -> list[tuple[str, Path]]:
        return [
            (p.name, p)
            for p in sorted(directory.iterdir())
            if p.is_dir() and not p.name.startswith(".") and (p / SKILL_FILE).is_file()
        ]

    # -- the three ways in -------------------------------------------------------------------------------
    def _copy(self, name: str, source: Path, target: Path, result: dict[str, Any]) -> None:
        """Copy into a hidden sibling first (see :func:`staging_name`), so a failed or killed copy leaves
        no half-installed skill; a leftover of an interrupted import is cleared first."""
        staging = target.with_name(staging_name(name))
        try:
            shutil.rmtree(staging, ignore_errors=True)
            shutil.copytree(source, staging, ignore=shutil.ignore_patterns(VERSIONS_DIR), symlinks=True)
            staging.rename(target)
        except OSError as error:
            shutil.rmtree(staging, ignore_errors=True)
            logger.error("Failed to import skill %s: %s", name, error)
            result["skipped"].append(name)
            return
        result["imported"].append(name)

    async def _merge(self, name: str, source: Path, target_name: str, result: dict[str, Any]) -> None:
        target = self._skills_dir / target_name
        if not (target / SKILL_FILE).is_file():
            logger.warning("Cannot merge %s into %s: no installed skill %s", name, target_name, target_name)
            result["skipped"].append(name)
            return
        current = (target / SKILL_FILE).read_text(encoding="utf-8", errors="replace")
        incoming = (source / SKILL_FILE).read_text(encoding="utf-8", errors="replace")
        prompt = (
            f'Merge the new skill "{name}" into the existing skill "{target_name}".\n\n'
            "Requirements:\n1. Preserve all useful capabilities from both sides.\n"
            "2. Remove duplicated or conflicting instructions.\n"
            "3. Keep output as a coherent, maintainable skill definition.\n\n"
            f"Existing skill ({target_name}/SKILL.md):\n{current}\n\nNew skill ({name}/SKILL.md):\n{incoming}"
        )
        try:
            reply = await self._llm.generate(MERGE_SYSTEM_PROMPT, [_user(prompt)])
        except Exception as error:
            logger.warning("Merging %s into %s failed: %s", name, target_name, error)
            result["skipped"].append(name)
            return
        merged = trim(_text_of(reply.message))  # JavaScript's white space: a lone BOM is no text either
        if not merged:
            logger.warning("Merging %s into %s failed: the model returned no text", name, target_name)
            result["skipped"].append(name)
            return
        temporary = target / MERGING_FILE
        try:
            self._keep_version(target)
            temporary.write_text(merged + "\n", encoding="utf-8")
            os.replace(temporary, target / SKILL_FILE)
        except OSError as error:
            temporary.unlink(missing_ok=True)
            logger.error("Merging %s into %s failed: %s", name, target_name, error)
            result["skipped"].append(name)
            return
        result["imported"].append(f"{name} → {target_name}")

    def _installed(self) -> list[tuple[str, str]]:
        """The installed skills the similarity check offers the model, each with its description."""
        return [
            (name, _description((path / SKILL_FILE).read_text(encoding="utf-8", errors="replace")))
            for name, path in self._skills_in(self._skills_dir)
        ]

    async def _similar_to(self, source: Path) -> tuple[str, str] | None:
        installed = self._installed()
        if not installed:
            return None
        content = (source / SKILL_FILE).read_text(encoding="utf-8", errors="replace")
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
            reply = await self._llm.generate(SIMILARITY_SYSTEM_PROMPT, [_user(prompt)])
            answer = json_parse(_text_of(reply.message))  # as JSON.parse: NaN or Infinity is no JSON
        except Exception as error:
            logger.warning("Similarity detection failed, importing without it: %s", error)
            return None
        names = {name for name, _ in installed}
        items = answer.get("similar") if isinstance(answer, dict) else None
        for item in items if isinstance(items, list) else []:
            if not isinstance(item, dict):
                continue
            target, reason = _first_given(item, "target", "name"), _first_given(item, "similarity", "reason")
            if isinstance(target, str) and isinstance(reason, str) and target in names and reason:
                return target, reason
        return None

    # -- versions ----------------------------------------------------------------------------------------
    def _keep_version(self, skill: Path) -> None:
        """Snapshot the skill's files (without ``versions/``) as ``YYYY-MM-DD-NNN``; keep the newest N.

        The snapshot is copied into a hidden sibling and renamed into place, so a version is whole or
        absent: a process killed during the copy leaves only a hidden leftover, which no listing counts
        and the next snapshot removes (or, when it cannot be removed, leaves aside)."""
        versions = skill / VERSIONS_DIR
        versions.mkdir(exist_ok=True)
        for leftover in versions.glob(f".*{SNAPSHOT_SUFFIX}"):
            shutil.rmtree(leftover, ignore_errors=True)
        today = self._now().strftime("%Y-%m-%d")
        taken = [p.name[len(today) + 1 :] for p in versions.iterdir() if p.name.startswith(f"{today}-")]
        sequence = max((int(n) for n in taken if n.isascii() and n.isdigit()), default=0) + 1
        version = f"{today}-{sequence:03d}"
        # A name of its own, not the version's: a leftover that could not be removed keeps its name.
        staging = Path(tempfile.mkdtemp(prefix=f".{version}", suffix=SNAPSHOT_SUFFIX, dir=versions))
        try:
            shutil.copytree(
                skill,
                staging,
                ignore=shutil.ignore_patterns(VERSIONS_DIR, MERGING_FILE),
                symlinks=True,
                dirs_exist_ok=True,
            )
            staging.rename(versions / version)
        except OSError:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        kept = sorted(
            (p for p in versions.iterdir() if p.is_dir() and not p.name.startswith(".")),
            key=lambda p: p.name,
            reverse=True,
        )
        for stale in kept[_max_versions(os.environ) :]:
            # Housekeeping: a version that cannot be removed must not undo the merge, but is reported.
            try:
                shutil.rmtree(stale)
            except OSError as error:
                logger.warning("Could not remove the old version %s of %s: %s", stale.name, skill.name, error)
