"""The spec against a server process: the options ``--synapse-server`` and ``--synapse-wire-*``.

With ``--synapse-server="<command>"`` (env ``SYNAPSE_SERVER``) the ``synapse`` fixture hands the steps the
server's implementation (``synapse_spec.remote``) instead of an in-process one.  Scenarios tagged
``@in-process`` check something only a Python object in the test process shows; over the wire they are
reported *not applicable* with that reason, never passed.  Scenarios tagged ``@live-settings`` change a
setting of a component that already exists; they are not applicable to a server whose settings are fixed
when a component is built (``"settings": "build"``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from synapse_spec.remote import RemoteClient

NOT_APPLICABLE = "not applicable: "
IN_PROCESS = "in-process"
LIVE_SETTINGS = "live-settings"

_client_key = pytest.StashKey["RemoteClient"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("synapse", "Synapse executable spec")
    group.addoption(
        "--synapse-server",
        default=os.environ.get("SYNAPSE_SERVER"),
        metavar="COMMAND",
        help="check an implementation served by COMMAND over the wire protocol "
        "(synapse_spec/protocol/PROTOCOL.md) instead of --synapse-impl (env SYNAPSE_SERVER)",
    )
    group.addoption(
        "--synapse-wire-validate",
        action="store_true",
        default=False,
        help="check every wire message against the protocol's JSON Schemas; a scenario fails at the first "
        "invalid message",
    )
    group.addoption(
        "--synapse-wire-log",
        default=None,
        metavar="FILE",
        help="append every wire message, with its direction, to FILE",
    )


def server_command(config: pytest.Config) -> str | None:
    command = config.getoption("--synapse-server", default=None)
    return str(command) if command else None


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    """Put the server behind the plugin's implementation seam (the loader the ``synapse`` fixture calls)."""
    command = server_command(config)
    if command is None:
        return
    from synapse_spec import plugin
    from synapse_spec.protocol import PROTOCOL_VERSION
    from synapse_spec.remote import RemoteClient

    validator = None
    if config.getoption("--synapse-wire-validate"):
        from synapse_spec.protocol.validate import message_validator

        validator = message_validator()
    client = RemoteClient(command, log_path=config.getoption("--synapse-wire-log"), validator=validator)
    config.stash[_client_key] = client
    # What the report names as the selection.
    config.option.synapse_impl = f"server: {command} (wire protocol {PROTOCOL_VERSION})"

    def load() -> Any:
        scenario = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]
        return client.implementation(scenario)

    config.stash[plugin._loader_key] = load


def pytest_unconfigure(config: pytest.Config) -> None:
    client = config.stash.get(_client_key, None)
    if client is not None:
        client.close()


def wire_client(config: pytest.Config) -> RemoteClient | None:
    """The run's client of the server, or None when the spec runs in process."""
    return config.stash.get(_client_key, None)


def pytest_runtest_setup(item: pytest.Item) -> None:
    client = wire_client(item.config)
    if client is None:
        return
    markers = {m.name: m for m in item.iter_markers()}
    if IN_PROCESS in markers:
        reason = _tag_reason(item, IN_PROCESS)
        pytest.skip(
            f"{NOT_APPLICABLE}checks something only an implementation in the test process shows{reason}"
        )
    if LIVE_SETTINGS in markers and client.process().hello.get("settings") == "build":
        pytest.skip(
            f"{NOT_APPLICABLE}changes a setting of a component that already exists; the server reads "
            "settings when a component is built"
        )


def _tag_reason(item: pytest.Item, tag: str) -> str:
    """A scenario may say why with a comment line ``# in-process: <reason>`` above its tags."""
    from synapse_spec.plugin import _scenario_of

    scenario = _scenario_of(item)
    if scenario is None:
        return ""
    path = scenario.feature.filename
    try:
        lines = open(path, encoding="utf-8").read().splitlines()  # noqa: SIM115
    except OSError:
        return ""
    for line in reversed(lines[: max(scenario.line_number - 1, 0)]):
        stripped = line.strip()
        if stripped.startswith(f"# {tag}:"):
            return f" ({stripped.split(':', 1)[1].strip()})"
        if stripped and not stripped.startswith(("@", "#")):
            break
    return ""


@pytest.fixture(autouse=True)
def _synapse_wire_scenario(request: pytest.FixtureRequest) -> Iterator[None]:
    """Ends a scenario on the wire: extra server processes close, protocol problems fail it."""
    yield
    client = wire_client(request.config)
    if client is None:
        return
    problems = client.end_scenario()
    if problems:
        pytest.fail("invalid wire messages:\n  " + "\n  ".join(problems), pytrace=False)
