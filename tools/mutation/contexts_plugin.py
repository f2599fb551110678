"""A pytest plugin for the coverage mapping run: records which test executed each line.

Coverage's own ``dynamic_context = test_function`` names a test by its function, which every example of
a scenario outline shares; switching the context to the pytest node id keeps examples apart, and the node
id is exactly what the per-mutant run passes back to pytest. Lines run at import time keep the empty
context.
"""

from __future__ import annotations

from collections.abc import Iterator

import coverage
import pytest


def _switch(context: str) -> None:
    current = coverage.Coverage.current()
    if current is not None:
        current.switch_context(context)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    _switch(item.nodeid)
    yield
    _switch("")
