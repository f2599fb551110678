"""Binds the context-layer features: offload, compaction triggers, restore safety, retry and cleanup."""

from pytest_bdd import scenarios

scenarios(".")
