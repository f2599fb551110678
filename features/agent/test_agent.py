"""Binds the agent-layer feature files (runner, sandbox permissions, sanitizer)."""

from pytest_bdd import scenarios

scenarios(".")
