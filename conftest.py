"""Loads the spec harness and every step-definition module under ``steps/``."""

from pathlib import Path

pytest_plugins = [
    "pytester",
    "synapse_spec.plugin",
    *(f"steps.{path.stem}" for path in sorted((Path(__file__).parent / "steps").glob("*.py")) if path.stem != "__init__"),
]
