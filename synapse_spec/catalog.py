"""The spec's table of contents, read from the feature files: features, scenarios, their IDs and examples.

Used by ``synapse-spec list``, and by the plugin to tell a baseline entry that names no scenario of the spec
from one that names a scenario this run did not select.  Where the spec lives (a checkout or the installed
package) is decided by :func:`spec_root`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

SCENARIO_ID = re.compile(r"^[A-Z][A-Z0-9]*-\d{3}$")
EXAMPLE_ID = re.compile(r"^(?P<id>[A-Z][A-Z0-9]*-\d{3})(?:#(?P<index>[1-9]\d*))?$")
"""A scenario ID (``CTX-002``, the whole outline) or one example of an outline (``CTX-002#2``, 1-based)."""

_PACKAGED = Path(__file__).resolve().parent / "_spec"
_CHECKOUT = Path(__file__).resolve().parent.parent


class SpecNotFound(RuntimeError):
    """Neither the installed package nor a checkout holds the feature files."""


def spec_root() -> Path:
    """The directory holding ``features/``, ``steps/``, ``fixtures/`` and the ``conftest.py`` that loads
    them: inside the installed package (the wheel carries them under ``synapse_spec/_spec``), or the
    checkout this module was imported from."""
    for root in (_PACKAGED, _CHECKOUT):
        if (root / "features").is_dir() and (root / "conftest.py").is_file():
            return root
    raise SpecNotFound(
        f"the feature files are missing: looked in {_PACKAGED} and {_CHECKOUT} (reinstall synapse-spec)"
    )


def example_id(scenario_id: str, index: int | None) -> str:
    """``CTX-002`` for a plain scenario, ``CTX-002#2`` for the second example of an outline."""
    return scenario_id if index is None else f"{scenario_id}#{index}"


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    line: int
    tags: tuple[str, ...]
    examples: tuple[dict[str, str], ...]
    """The rows of an outline's Examples, in order (empty for a plain scenario)."""

    @property
    def example_ids(self) -> list[str]:
        if not self.examples:
            return [self.id]
        return [example_id(self.id, n) for n in range(1, len(self.examples) + 1)]


@dataclass(frozen=True)
class Feature:
    path: str
    """Relative to the features directory: ``context/offload_triggers.feature``."""
    name: str
    tags: tuple[str, ...]
    description: str
    scenarios: tuple[Scenario, ...]

    @property
    def area(self) -> str:
        return self.path.split("/")[0] if "/" in self.path else ""

    @property
    def seeds(self) -> list[str]:
        return sorted(t for t in self.tags if t.startswith("seed-") or t == "beyond-seed")

    @property
    def english(self) -> str:
        return english_description(self.description)


def is_mostly_cjk(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    wide = [ch for ch in letters if unicodedata.east_asian_width(ch) in "WF"]
    return len(wide) * 5 > len(letters)


def english_description(description: str) -> str:
    """The paragraphs of a feature's description written in English (the scenarios themselves are in
    Chinese, the seeds' language); every feature file has at least one."""
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", description) if p.strip()]
    return "\n\n".join(p for p in paragraphs if not is_mostly_cjk(p))


def read_features(features_dir: Path) -> list[Feature]:
    from pytest_bdd.parser import FeatureParser

    features = []
    for path in sorted(features_dir.rglob("*.feature")):
        relative = path.relative_to(features_dir).as_posix()
        parsed = FeatureParser(str(features_dir), relative).parse()
        scenarios = []
        for template in parsed.scenarios.values():
            ids = sorted(t for t in template.tags if SCENARIO_ID.match(t))
            rows = tuple(context for block in template.examples for context in block.as_contexts())
            scenarios.append(
                Scenario(
                    id=ids[0] if len(ids) == 1 else "",
                    title=template.name,
                    line=template.line_number,
                    tags=tuple(sorted(template.tags)),
                    examples=rows,
                )
            )
        features.append(
            Feature(
                path=relative,
                name=parsed.name or relative,
                tags=tuple(sorted(parsed.tags)),
                description=parsed.description or "",
                scenarios=tuple(sorted(scenarios, key=lambda s: s.line)),
            )
        )
    return features


def known_ids(features: list[Feature]) -> set[str]:
    """Every name a baseline may use: each scenario ID and each example ID of an outline."""
    names: set[str] = set()
    for feature in features:
        for scenario in feature.scenarios:
            names.add(scenario.id)
            names.update(scenario.example_ids)
    names.discard("")
    return names
