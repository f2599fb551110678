"""Loads the spec harness and every step-definition module under ``steps/`` (shared helpers first)."""

from pathlib import Path

_STEPS = sorted(p.stem for p in (Path(__file__).parent / "steps").glob("*.py") if not p.stem.startswith("_"))
_STEPS.remove("support")

pytest_plugins = ["pytester", "synapse_spec.plugin", "steps.support", *(f"steps.{name}" for name in _STEPS)]
