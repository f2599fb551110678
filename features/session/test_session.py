"""Binds the session and stop-hook feature files in this directory."""

from pytest_bdd import scenarios

scenarios(".")
