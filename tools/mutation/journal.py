"""A run's outcomes written as they come, so that a run stopped part way loses nothing.

A full run takes hours on a small machine; until now its results existed only once it ended, so a
closed terminal, a crash or Ctrl-C threw everything away.  With ``--json PATH`` every outcome is
appended to ``PATH.journal.jsonl`` the moment its mutant is done, and ``--resume`` continues that run:
the mutants the journal already has are not run again.  A journal belongs to one tree and one set of
options (its first line records their fingerprint); resuming on a changed reference, spec or option is
refused, since the old outcomes would not be those of the new tree.  The journal is removed once the
JSON holds every outcome (kept while a ``--time-budget`` left mutants unrun).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

from tools.mutation.operators import Mutant
from tools.mutation.runner import COPIED, NOT_RUN, Outcome

JOURNAL_VERSION = 1
_CACHES = frozenset({"__pycache__", ".pytest_cache"})
"""Left out of the fingerprint as the workers' copies leave them out (``Workspace``)."""
MUTANT_FIELDS = ("module", "line", "col", "operator", "index", "description", "original", "mutated")


class JournalError(Exception):
    """The journal cannot be resumed (missing, unreadable, or written for another tree or options)."""


def journal_path(json_path: Path) -> Path:
    return json_path.with_name(json_path.name + ".journal.jsonl")


def fingerprint(root: Path, options: dict[str, Any]) -> str:
    """A digest of the run's options and of every file a mutant's outcome depends on, the files the
    workers copy (the reference, its other modules too, the spec and its kit; caches left out)."""
    digest = hashlib.sha256(json.dumps(options, sort_keys=True).encode())
    for top in COPIED:
        start = root / top
        files = sorted(start.rglob("*")) if start.is_dir() else [start] if start.is_file() else []
        for path in files:
            if path.is_file() and not _CACHES.intersection(path.parts) and path.suffix != ".pyc":
                digest.update(path.relative_to(root).as_posix().encode() + b"\0")
                digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def outcome_to_json(outcome: Outcome) -> dict[str, Any]:
    return {
        "id": outcome.mutant.id,
        **{name: getattr(outcome.mutant, name) for name in MUTANT_FIELDS},
        "status": outcome.status,
        "seconds": round(outcome.seconds, 3),
        "scenarios": outcome.tests,
        "detail": outcome.detail,
    }


def outcome_from_json(raw: dict[str, Any], status: str | None = None) -> Outcome:
    """An outcome read back from a journal or a results JSON (``status`` overrides the recorded one).
    Only the mutant's texts and place are kept, so its span is its first line."""
    mutant = Mutant(
        **{name: raw[name] for name in MUTANT_FIELDS}, end_line=raw["line"], stmt_line=raw["line"]
    )
    return Outcome(
        mutant,
        status or raw["status"],
        raw.get("seconds", 0.0),
        raw.get("scenarios", 0),
        raw.get("detail", ""),
    )


def is_journal(path: Path) -> bool:
    """Whether ``path`` starts as a journal does (``--rescore`` reads both a journal and a results JSON)."""
    try:
        with path.open(encoding="utf-8") as handle:
            header = json.loads(handle.readline())
    except (OSError, ValueError):
        return False
    return isinstance(header, dict) and header.get("journal") == JOURNAL_VERSION


def read_journal(path: Path, expected: str | None) -> list[Outcome]:
    """The outcomes of the run ``path`` journals; refused unless its fingerprint is ``expected`` (None
    to read it whatever tree it was written for, as a rescore of a run still going does).
    A last line cut short by a crash is dropped (that mutant runs again)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise JournalError(f"cannot resume: no journal to read at {path} ({exc.strerror or exc})") from exc
    try:
        header = json.loads(lines[0]) if lines else None
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("journal") != JOURNAL_VERSION:
        raise JournalError(f"cannot resume: {path} is not a mutation journal (version {JOURNAL_VERSION})")
    if expected is not None and header.get("fingerprint") != expected:
        raise JournalError(
            f"cannot resume: {path} was written for another tree or other options (the reference, the spec "
            "or the kit changed, or --timeout-factor, --import-time or --spec differ); its outcomes would "
            "not be this tree's. Run without --resume to start again."
        )
    outcomes: list[Outcome] = []
    for number, line in enumerate(lines[1:], start=2):
        try:
            outcomes.append(outcome_from_json(json.loads(line)))
        except (ValueError, KeyError, TypeError) as exc:
            if number == len(lines):
                break  # the line being written when the run stopped
            raise JournalError(f"cannot resume: {path}:{number} is damaged ({exc!r})") from exc
    return outcomes


def split_done(ready: Sequence[Any], done: Iterable[Outcome]) -> tuple[list[Outcome], list[Any]]:
    """The journal's outcomes of the mutants in ``ready`` (items with a ``mutant``), and the items
    still to run. A mutant counts as done when its id and both texts match a journaled one."""
    known = {(o.mutant.id, o.mutant.original, o.mutant.mutated): o for o in done if o.status != NOT_RUN}
    kept: list[Outcome] = []
    remaining: list[Any] = []
    for item in ready:
        found = known.get((item.mutant.id, item.mutant.original, item.mutant.mutated))
        if found is None:
            remaining.append(item)
        else:
            kept.append(found)
    return kept, remaining


def _drop_cut_line(path: Path) -> None:
    """Cut a last line the stopped run left without its newline, so that appending starts a new line."""
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with path.open("r+b") as handle:
            handle.truncate(data.rfind(b"\n") + 1)


class Journal:
    """Appends outcomes to the journal file, one JSON line each, flushed at once."""

    def __init__(self, path: Path, fingerprint_: str, *, resume: bool) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        if resume:
            _drop_cut_line(path)
        self._handle: TextIO = path.open("a" if resume else "w", encoding="utf-8")
        if not resume:
            self._write({"journal": JOURNAL_VERSION, "fingerprint": fingerprint_})

    def record(self, outcome: Outcome) -> None:
        if outcome.status != NOT_RUN:
            self._write(outcome_to_json(outcome))

    def _write(self, value: dict[str, Any]) -> None:
        self._handle.write(json.dumps(value, ensure_ascii=False) + "\n")
        self._handle.flush()

    def close(self, *, remove: bool) -> None:
        self._handle.close()
        if remove:
            self.path.unlink(missing_ok=True)
