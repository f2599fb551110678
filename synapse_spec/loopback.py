"""``--synapse-llm=loopback:anthropic|loopback:openai``: scenarios reach their scripted model over HTTP.

By default (``in-process``) a component is handed the scenario's scripted model itself.  In loopback mode
the ``synapse`` fixture wraps the implementation: every scripted model it makes is served by a
:class:`~synapse_spec.model_server.ModelServer` on 127.0.0.1, and wherever a scenario passes that model to
a factory, the component gets the implementation's *own* HTTP client instead
(``http_llm_client(provider, base_url, model, api_key)``, see ``contract.HttpLLMClientFactory``) pointed at
it.  The scenario still scripts and inspects the scripted model, whose call record is now the record of
the HTTP requests; so the same scenarios check the implementation's real provider client end to end.

An implementation that does not declare the ``llm-http`` capability has every scenario that makes a
scripted model reported *not applicable* in this mode.  The server stops when the scenario ends.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import Any, cast

import pytest

from synapse_spec.contract import LLM_HTTP, HttpLLMClientFactory, Implementation, LLMClient
from synapse_spec.model_server import PROVIDERS, ModelServer

OPTION = "--synapse-llm"
IN_PROCESS = "in-process"
API_KEY = "loopback-key"
_NOT_APPLICABLE = "not applicable: "  # the plugin's prefix for scenarios an implementation cannot run


def parse_mode(value: str) -> str:
    """``in-process`` or ``loopback:<provider>``; anything else is a usage error."""
    if value == IN_PROCESS or (value.startswith("loopback:") and value.partition(":")[2] in PROVIDERS):
        return value
    choices = ", ".join([IN_PROCESS, *(f"loopback:{p}" for p in PROVIDERS)])
    raise argparse.ArgumentTypeError(f"{value!r} is not one of {choices}")


def add_option(group: pytest.OptionGroup) -> None:
    group.addoption(
        OPTION,
        default=os.environ.get("SYNAPSE_LLM", IN_PROCESS),
        type=parse_mode,
        metavar="MODE",
        help="how components reach the scenario's scripted model: in-process (default), or "
        "loopback:anthropic / loopback:openai, over HTTP through the implementation's own client "
        "(env SYNAPSE_LLM)",
    )


def wrap(request: pytest.FixtureRequest, impl: Implementation) -> Implementation:
    """The implementation as scenarios should see it in the selected mode."""
    mode = request.config.getoption(OPTION)
    if mode == IN_PROCESS:
        return impl
    return cast(Implementation, LoopbackImplementation(impl, mode.partition(":")[2], request.addfinalizer))


class LoopbackImplementation:
    """Delegates to the implementation, swapping served scripted models for HTTP clients in arguments."""

    def __init__(
        self, impl: Implementation, provider: str, finalizer: Callable[[Callable[[], None]], None]
    ) -> None:
        self._impl = impl
        self._provider = provider
        self._finalizer = finalizer
        self._server: ModelServer | None = None
        self._clients: dict[int, tuple[LLMClient, LLMClient]] = {}

    def scripted_llm(self, model: str) -> Any:
        if LLM_HTTP not in self._impl.capabilities or not isinstance(self._impl, HttpLLMClientFactory):
            pytest.skip(
                f"{_NOT_APPLICABLE}{self._impl.name} does not offer {LLM_HTTP} (an http_llm_client factory), "
                f"which {OPTION}=loopback:{self._provider} needs"
            )
        scripted = self._impl.scripted_llm(model)
        if self._server is None:
            self._server = ModelServer()
            self._finalizer(self._server.close)
        base_url = ModelServer.base_url(self._server.serve(scripted), self._provider)
        client = self._impl.http_llm_client(self._provider, base_url, scripted.model_name, API_KEY)
        self._clients[id(scripted)] = (scripted, client)
        return scripted

    def _swap(self, value: Any) -> Any:
        entry = self._clients.get(id(value))
        return entry[1] if entry is not None and entry[0] is value else value

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._impl, name)
        if not callable(attr) or isinstance(attr, type):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            return attr(*(self._swap(a) for a in args), **{k: self._swap(v) for k, v in kwargs.items()})

        return call
