"""Binds the staged-workflow feature files (seed 002)."""

from pytest_bdd import scenarios

scenarios(".")
