"""Choosing a model client by provider name, with keys and base URLs from the environment.

``make_llm_client(provider, model, env=os.environ)`` gives the client a REPL or any other caller talks to:

* ``anthropic``: key ``ANTHROPIC_API_KEY`` (required); base URL ``ANTHROPIC_BASE_URL`` (default
  ``https://api.anthropic.com``); max tokens when a caller sets none ``SYNAPSE_ANTHROPIC_MAX_TOKENS``,
  else ``SYNAPSE_MAX_TOKENS``, else 4096.
* ``openai`` (and any OpenAI-compatible server): key ``OPENAI_API_KEY`` (required); base URL
  ``OPENAI_BASE_URL`` (default ``https://api.openai.com/v1``); max tokens ``SYNAPSE_OPENAI_MAX_TOKENS``,
  else 4096.
* ``echo``: no key, no network; the offline model that repeats the user's message.

These are the variables the original reads (its settings file defaults the key to ``ANTHROPIC_API_KEY``;
the providers' SDKs read the base URLs).  A blank model means the original's default,
``claude-sonnet-4-5``, for Anthropic; OpenAI-compatible servers have no common default, so one must be
named.  Keys are never logged nor shown in errors or ``repr``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Protocol

import httpx

from synapse_ref.llm.anthropic import AnthropicWire
from synapse_ref.llm.errors import MissingAPIKeyError, ProviderError, UnknownProviderError
from synapse_ref.llm.http_client import DEFAULT_TIMEOUT, HttpLLMClient, Sleep
from synapse_ref.llm.openai import OpenAIWire
from synapse_ref.llm.ports import LLMClient
from synapse_ref.llm.wire import WireFormat

PROVIDERS = ("anthropic", "openai", "echo")
DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-4-5"
DEFAULT_MAX_TOKENS = 4096


class ModelClient(LLMClient, Protocol):
    """What every client ``make_llm_client`` returns offers: the model port, with ``with_model`` always."""

    def with_model(self, model: str) -> ModelClient: ...


_SETTINGS: dict[str, tuple[str, str, str, tuple[str, ...]]] = {
    # provider: (key variable, base URL variable, default base URL, max-token variables in order)
    "anthropic": (
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
        "https://api.anthropic.com",
        ("SYNAPSE_ANTHROPIC_MAX_TOKENS", "SYNAPSE_MAX_TOKENS"),
    ),
    "openai": (
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "https://api.openai.com/v1",
        ("SYNAPSE_OPENAI_MAX_TOKENS",),
    ),
}


def make_llm_client(
    provider: str,
    model: str,
    *,
    env: Mapping[str, str] | None = None,
    stream: bool = True,
    timeout: float = DEFAULT_TIMEOUT,
    sleep: Sleep | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> ModelClient:
    """The client for ``provider`` (``anthropic``, ``openai`` or ``echo``) and ``model``.

    Raises :class:`UnknownProviderError` for another name, :class:`MissingAPIKeyError` when the
    provider's key variable is unset or blank, and :class:`ProviderError` for an OpenAI client without a
    model.  ``env`` defaults to ``os.environ``."""
    environ = os.environ if env is None else env
    name = provider.strip().lower()
    if name == "echo":
        from synapse_ref.repl.app import ECHO_MODEL, EchoLLM

        return EchoLLM(model.strip() or ECHO_MODEL)
    if name not in _SETTINGS:
        raise UnknownProviderError(f"unknown provider {provider!r}; choose one of {', '.join(PROVIDERS)}")
    key_var, url_var, default_url, _ = _SETTINGS[name]
    api_key = environ.get(key_var, "").strip()
    if not api_key:
        raise MissingAPIKeyError(f"{key_var} is not set: export it to use the {name} provider")
    model_name = model.strip() or (DEFAULT_ANTHROPIC_MODEL if name == "anthropic" else "")
    if not model_name:
        raise ProviderError(f"the {name} provider needs a model name (--model)")
    return http_llm_client(
        name,
        base_url=environ.get(url_var, "").strip() or default_url,
        model=model_name,
        api_key=api_key,
        env=environ,
        stream=stream,
        timeout=timeout,
        sleep=sleep,
        transport=transport,
    )


def http_llm_client(
    provider: str,
    *,
    base_url: str,
    model: str,
    api_key: str,
    env: Mapping[str, str] | None = None,
    stream: bool = True,
    timeout: float = DEFAULT_TIMEOUT,
    sleep: Sleep | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> HttpLLMClient:
    """An HTTP client for ``anthropic`` or ``openai`` at an explicit base URL (no key look-up)."""
    name = provider.strip().lower()
    if name not in _SETTINGS:
        raise UnknownProviderError(f"unknown HTTP provider {provider!r}; choose anthropic or openai")
    wire: WireFormat = AnthropicWire() if name == "anthropic" else OpenAIWire()
    return HttpLLMClient(
        wire,
        model=model,
        api_key=api_key,
        base_url=base_url,
        stream=stream,
        default_max_tokens=_max_tokens(os.environ if env is None else env, _SETTINGS[name][3]),
        timeout=timeout,
        sleep=sleep,
        transport=transport,
    )


def _max_tokens(env: Mapping[str, str], names: tuple[str, ...]) -> int:
    """The first of ``names`` holding a positive integer; anything else falls back to the default."""
    for name in names:
        value = env.get(name, "").strip()
        if value.isascii() and value.isdigit() and int(value) > 0:
            return int(value)
    return DEFAULT_MAX_TOKENS


__all__ = ["PROVIDERS", "MissingAPIKeyError", "ModelClient", "http_llm_client", "make_llm_client"]
