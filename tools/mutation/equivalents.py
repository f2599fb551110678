"""The documented equivalent mutants (``equivalent/*.toml``), the messages whose wording the contract
leaves free (``free_wording.toml``), the modules out of the score's scope (``scope.toml``), and matching
entries to the current mutants.

An entry names the module, line, operator and the original and mutated text as ``--list`` prints them,
plus the reason the mutant cannot change behaviour. Entries are matched on module, operator and both
texts, so they survive edits elsewhere in the module; when several mutants share the texts, the one
nearest to the recorded line is meant. An entry that matches nothing is reported as stale.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tools.mutation.operators import Mutant

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - pytest depends on tomli below 3.11
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]


@dataclass(frozen=True)
class Equivalent:
    module: str
    line: int
    operator: str
    original: str
    mutant: str
    reason: str


class EquivalentsError(Exception):
    """equivalent.toml is malformed."""


@dataclass(frozen=True)
class Excluded:
    module: str
    reason: str


def load_equivalents(path: Path) -> list[Equivalent]:
    """The entries of one TOML file, or of every ``*.toml`` file in a directory."""
    if path.is_dir():
        return [entry for file in sorted(path.glob("*.toml")) for entry in load_equivalents(file)]
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    entries: list[Equivalent] = []
    for number, raw in enumerate(data.get("mutant", []), start=1):
        try:
            entry = Equivalent(
                module=str(raw["module"]),
                line=int(raw["line"]),
                operator=str(raw["operator"]),
                original=str(raw["original"]).strip(),
                mutant=str(raw["mutant"]).strip(),
                reason=str(raw["reason"]).strip(),
            )
        except KeyError as exc:
            raise EquivalentsError(f"{path}: [[mutant]] entry {number} lacks {exc}") from None
        if not entry.reason:
            raise EquivalentsError(f"{path}: [[mutant]] entry {number} gives no reason")
        entries.append(entry)
    return entries


@dataclass(frozen=True)
class FreeWording:
    """A message whose words no source fixes: the scenarios check what it names, never its wording.

    Wrapping one of its string pieces in ``XX`` keeps everything it names, so such a mutant is still a
    conforming implementation; it is reported apart from the survivors, and both scores are printed."""

    module: str
    text: str
    reason: str


STRING_MUTATION = "string -> XX string XX"


def load_free_wording(path: Path) -> list[FreeWording]:
    """The ``[[message]]`` entries of ``free_wording.toml``, each naming a piece of its line's text."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    entries: list[FreeWording] = []
    for number, raw in enumerate(data.get("message", []), start=1):
        fields = [str(raw.get(key, "")).strip() for key in ("module", "text", "reason")]
        if not all(fields):
            raise EquivalentsError(f"{path}: [[message]] entry {number} needs a module, a text and a reason")
        entries.append(FreeWording(*fields))
    return entries


def match_free_wording(
    mutants: Sequence[Mutant], entries: Sequence[FreeWording]
) -> tuple[dict[str, FreeWording], list[FreeWording]]:
    """The string mutants of the entries' messages (by id), and the entries that name none.

    Only ``XX`` wrapping of a string piece counts: any other mutant of the same line (a bound, an
    operator, a dropped call) changes more than the words and stays in the score."""
    matched: dict[str, FreeWording] = {}
    used: set[FreeWording] = set()
    for mutant in mutants:
        if mutant.description != STRING_MUTATION:
            continue
        for entry in entries:
            if mutant.module == entry.module and entry.text in mutant.original:
                matched[mutant.id] = entry
                used.add(entry)
                break
    return matched, [e for e in entries if e not in used]


def load_scope(path: Path) -> list[Excluded]:
    """The ``[[excluded]]`` modules of ``scope.toml``, each with its reason."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    excluded: list[Excluded] = []
    for number, raw in enumerate(data.get("excluded", []), start=1):
        module, reason = str(raw.get("module", "")).strip(), str(raw.get("reason", "")).strip()
        if not module or not reason:
            raise EquivalentsError(f"{path}: [[excluded]] entry {number} needs a module and a reason")
        excluded.append(Excluded(module, reason))
    return excluded


def match_equivalents(
    mutants: Sequence[Mutant], entries: Sequence[Equivalent]
) -> tuple[set[str], list[Equivalent]]:
    """The ids of the mutants the entries name, and the entries that name none."""
    matched: set[str] = set()
    stale: list[Equivalent] = []
    for entry in entries:
        candidates = [
            m
            for m in mutants
            if m.id not in matched
            and m.module == entry.module
            and m.operator == entry.operator
            and m.original == entry.original
            and m.mutated == entry.mutant
        ]
        if not candidates:
            stale.append(entry)
            continue
        matched.add(min(candidates, key=lambda m: (abs(m.line - entry.line), m.line, m.col, m.index)).id)
    return matched, stale
