"""Errors of the HTTP model clients, named as in the original so callers can tell them apart by class.

Every error says which provider answered and, for an HTTP status, the message of the API's error body,
so a user sees "invalid x-api-key" rather than a bare status code.  No error ever carries the API key.
"""

from __future__ import annotations


class ProviderError(Exception):
    """Any failure of a model provider (``ChatProviderError`` in the original)."""


class MissingAPIKeyError(ProviderError):
    """No API key was configured for a provider that needs one."""


class UnknownProviderError(ProviderError):
    """``make_llm_client`` was asked for a provider it does not know."""


class APIConnectionError(ProviderError):
    """The provider could not be reached, or the connection broke while the answer was streaming."""


class APITimeoutError(APIConnectionError):
    """The provider did not answer within the client's timeout (a kind of connection error, as in the
    providers' SDKs, so ``except APIConnectionError`` catches it too)."""


class APIEmptyResponseError(ProviderError):
    """The provider answered without text and without tool calls."""

    def __init__(self, message: str = "API returned an empty response") -> None:
        super().__init__(message)


class APIStatusError(ProviderError):
    """The provider answered with an HTTP error status; ``message`` comes from the API's error body."""

    def __init__(self, provider: str, status_code: int, message: str) -> None:
        super().__init__(f"{provider} API error {status_code}: {message}")
        self.provider = provider
        self.status_code = status_code
        self.message = message


class AuthenticationError(APIStatusError):
    """401 or 403: the key is missing, wrong or not allowed to use the model."""


class BadRequestError(APIStatusError):
    """400 (and other 4xx the client does not retry): the request itself was refused."""


class RateLimitError(APIStatusError):
    """429 after every retry was used."""
