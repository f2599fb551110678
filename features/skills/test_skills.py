"""Binds the skill-import feature files in this directory."""

from pytest_bdd import scenarios

scenarios(".")
