"""Binds the ConversationReader feature files in this directory."""

from pytest_bdd import scenarios

scenarios(".")
