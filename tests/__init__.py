"""Tests of the harness, the command-line programs, and the adapters used to check the spec."""
