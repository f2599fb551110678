"""Crash testing of the session layer's write paths: ``python -m tools.crash`` (see ``__main__``)."""
