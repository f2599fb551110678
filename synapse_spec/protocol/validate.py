"""``--synapse-wire-validate``: every message checked against the JSON Schemas in ``schemas/``.

Needs the ``jsonschema`` package (a test dependency of the kit; servers never import this module).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

SCHEMAS = Path(__file__).with_name("schemas")
BASE = "urn:synapse-wire:"
RESULT_SCHEMAS = frozenset({"hello", "configure", "reset", "release"})


@cache
def _validators() -> dict[str, Any]:
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    resources = []
    for path in sorted(SCHEMAS.glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resources.append((schema["$id"], Resource.from_contents(schema)))
    registry: Registry[Any] = Registry().with_resources(resources)
    validators = {}
    for uri, resource in resources:
        name = uri.removeprefix(BASE)
        validators[name] = Draft202012Validator(resource.contents, registry=registry)
        if name in RESULT_SCHEMAS:
            validators[f"{name}#result"] = Draft202012Validator(
                {"$ref": f"{uri}#/$defs/result"}, registry=registry
            )
    return validators


_SEEN_LIMIT = 512


def _cached(problem: Callable[[Any, Any], str | None]) -> Callable[[Any, Any], str | None]:
    """Remember the verdict on recent messages: a scenario that repeats one call thousands of times sends
    the same message each time (only its id differs), and jsonschema is slow on large nested values."""
    seen: dict[tuple[int, str], str | None] = {}
    lock = threading.Lock()

    def check(validator: Any, instance: Any) -> str | None:
        body = {k: v for k, v in instance.items() if k != "id"} if isinstance(instance, dict) else instance
        try:
            key = (id(validator), json.dumps(body, sort_keys=True, allow_nan=True))
        except (TypeError, ValueError):
            return problem(validator, instance)
        with lock:
            if key in seen:
                return seen[key]
        verdict = problem(validator, instance)
        with lock:
            if len(seen) >= _SEEN_LIMIT:
                seen.pop(next(iter(seen)))
            seen[key] = verdict
        return verdict

    return check


@_cached
def _problem(validator: Any, instance: Any) -> str | None:
    from jsonschema.exceptions import best_match

    error = best_match(validator.iter_errors(instance))
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path) or "(the message)"
    rule = "/".join(str(p) for p in error.absolute_schema_path)
    return f"at {where}: {error.message} (rule {rule})"


def message_validator() -> Callable[[str, dict[str, Any]], str | None]:
    """A checker of one message given its direction (``kit>server``, ``kit>fd3``, ``server>kit``); it
    returns the first problem found, naming the schema and rule, or None."""
    validators = _validators()
    methods: dict[tuple[str, Any], str] = {}
    lock = threading.Lock()

    def check(direction: str, message: dict[str, Any]) -> str | None:
        sender = "server" if direction.startswith("server") else "kit"
        if not isinstance(message, dict) or not message:
            return "not a JSON-RPC object"
        method = message.get("method")
        if method is not None:
            validator = validators.get(str(method))
            if validator is None:
                return f"unknown method {method!r}"
            if "id" in message:
                with lock:
                    methods[(sender, message["id"])] = str(method)
            problem = _problem(validator, message)
            return f"{method}.schema.json {problem}" if problem else None
        problem = _problem(validators["response"], message)
        if problem:
            return f"response.schema.json {problem}"
        requester = "kit" if sender == "server" else "server"
        with lock:
            answered = methods.pop((requester, message.get("id")), None)
        if answered in RESULT_SCHEMAS and "result" in message:
            problem = _problem(validators[f"{answered}#result"], message["result"])
            return f"{answered}.schema.json result {problem}" if problem else None
        return None

    return check
