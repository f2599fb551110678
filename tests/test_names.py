"""The name mapping is complete for what the feature files mention, and points at the contract."""

from __future__ import annotations

import re
from pathlib import Path

from synapse_spec import contract
from synapse_spec.names import API_NAMES, CONSTANTS, JSON_KEYS

ROOT = Path(__file__).resolve().parent.parent
FILE_NAME = re.compile(r"[\w.-]+\.(?:md|json|jsonl)\b")
CAMEL = re.compile(r"\b(?:[A-Z][a-z]+[A-Z]\w*\.)?[a-z]+[A-Z][A-Za-z]*\b|\b[A-Z][A-Z_]{3,}[A-Z]\b")


def mentioned_names() -> set[str]:
    names: set[str] = set()
    for path in (ROOT / "features").rglob("*.feature"):
        for quoted in re.findall(r"`([^`]*)`", path.read_text(encoding="utf-8")):
            names.update(CAMEL.findall(FILE_NAME.sub("", quoted)))
    return names - {n for n in names if n.startswith("SYNAPSE_")}


def test_every_camel_case_name_in_the_features_is_mapped() -> None:
    unmapped = sorted(mentioned_names() - set(API_NAMES) - set(CONSTANTS) - JSON_KEYS)
    assert not unmapped, f"add these to synapse_spec/names.py: {unmapped}"


def test_every_mapped_name_exists_in_the_contract() -> None:
    source = Path(contract.__file__).read_text(encoding="utf-8")
    missing = sorted({snake for snake in API_NAMES.values() if not re.search(rf"\b{snake}\b", source)})
    assert not missing, f"names.py maps to names the contract does not define: {missing}"


def test_the_mapping_is_snake_case() -> None:
    assert all(re.fullmatch(r"[a-z][a-z0-9_]*", snake) for snake in API_NAMES.values())
