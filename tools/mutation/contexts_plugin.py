"""A pytest plugin for the coverage mapping run: records which test executed each line, and how long each
test took.

Coverage's own ``dynamic_context = test_function`` names a test by its function, which every example of
a scenario outline shares; switching the context to the pytest node id keeps examples apart, and the node
id is exactly what the per-mutant run passes back to pytest. Lines run at import time keep the empty
context. Caches of ``functools`` in ``synapse_ref`` are emptied before each test: a loader cached per
process (the tokenizer's) would otherwise be mapped to whichever test ran it first, and a mutant of it
run only with that test, although each mutant run is a fresh process where the scenario that pins it
(CTX-063) runs the loader itself. The durations (written as JSON to ``$MUTATION_DURATIONS_FILE``) size
each mutant's timeout.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import time
from collections.abc import Iterator

import coverage
import pytest

_durations: dict[str, float] = {}


def _switch(context: str) -> None:
    current = coverage.Coverage.current()
    if current is not None:
        current.switch_context(context)


def _clear_caches(package: str = "synapse_ref") -> None:
    for name, module in list(sys.modules.items()):
        if module is None or not (name == package or name.startswith(package + ".")):
            continue
        for value in list(vars(module).values()):
            if isinstance(value, functools._lru_cache_wrapper):
                value.cache_clear()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    _clear_caches()
    _switch(item.nodeid)
    start = time.perf_counter()
    yield
    _durations[item.nodeid] = time.perf_counter() - start
    _switch("")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    path = os.environ.get("MUTATION_DURATIONS_FILE")
    if path:
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(_durations, handle)
