"""Binds every ``.feature`` file under ``features/`` to pytest; the steps live in ``steps/``."""

from pytest_bdd import scenarios

scenarios(".")
