"""Binds the REPL feature files (slash commands and display)."""

from pytest_bdd import scenarios

scenarios(".")
