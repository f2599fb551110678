"""Values on the wire (PROTOCOL.md §5), shared by the kit's client and the reference server.

A :class:`Codec` turns Python values into JSON by their contract shape and back.  What an object becomes
depends on which end holds it: each end subclasses the codec and says how its own objects become
``$handle`` / ``$port`` references and how the other end's references become proxies.  Standard library
only: a server may import it.
"""

from __future__ import annotations

import builtins
import dataclasses
import datetime as dt
import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from synapse_spec.protocol.shapes import ANY, Shape, protocol_info

Json = Any
SPECIAL_KEYS = frozenset({"$handle", "$port", "$float", "$set", "$error", "$object", "$datetime"})


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(word[:1].upper() + word[1:] for word in rest)


class Record:
    """A record received by value: attribute access by the contract's property names.

    Equal to another record of the same type with the same fields; ``repr`` names the type and fields.
    """

    __slots__ = ("_fields", "_type")

    def __init__(self, type_name: str, fields: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_type", type_name)
        object.__setattr__(self, "_fields", dict(fields))

    def __getattr__(self, name: str) -> Any:
        fields = object.__getattribute__(self, "_fields")
        try:
            return fields[name]
        except KeyError:
            raise AttributeError(f"{self._type} record has no field {name!r}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        self._fields[name] = value

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Record):
            return bool(self._type == other._type and self._fields == other._fields)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._type, tuple(self._fields)))

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self._fields.items())
        return f"{self._type}({inner})"

    def __dir__(self) -> Iterable[str]:
        return list(self._fields)


class RemoteError(Exception):
    """An error raised on the other end of the wire; the class is named after the remote error's name."""

    remote_name = "Error"


_error_classes: dict[str, type[BaseException]] = {}


def error_class(name: str) -> type[BaseException]:
    """An exception class named ``name``: a subclass of :class:`RemoteError` (and of the built-in exception
    of that name, when there is one), so the same name always gives the same class."""
    cls = _error_classes.get(name)
    if cls is None:
        builtin = getattr(builtins, name, None)
        bases: tuple[type, ...] = (RemoteError,)
        if isinstance(builtin, type) and issubclass(builtin, Exception):
            bases = (RemoteError, builtin)
        try:
            cls = type(name, bases, {"remote_name": name})
        except TypeError:  # a built-in whose layout cannot be combined
            cls = type(name, (RemoteError,), {"remote_name": name})
        _error_classes[name] = cls
    return cls


def make_error(name: str, message: str) -> BaseException:
    error = error_class(name)(message)
    return error


def error_json(error: BaseException) -> dict[str, str]:
    name = getattr(type(error), "remote_name", None) or type(error).__name__
    return {"name": name, "message": str(error)}


def _extra_fields(value: Any, members: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """Fields of a record beyond its contract properties: an implementation may need them again when the
    record comes back (a turn's raw content), so they travel with it and the other end keeps them."""
    if isinstance(value, Record):
        fields = object.__getattribute__(value, "_fields")
        return [(k, v) for k, v in fields.items() if k not in members]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        names: Iterable[str] = (f.name for f in dataclasses.fields(value))
    else:
        # msgspec structs (and anything else declaring its fields the same way) carry them by name
        names = getattr(type(value), "__struct_fields__", ())
    return [(n, getattr(value, n)) for n in names if n not in members and not n.startswith("_")]


class CodecError(TypeError):
    """A value that the wire cannot carry in that place."""


class Codec:
    """Encoding and decoding by shape; each end says what its objects become on the wire."""

    # -- to JSON -----------------------------------------------------------------------------------------
    def encode(self, value: Any, shape: Shape = ANY) -> Json:
        kind = shape.kind
        if value is None:
            return None
        if kind in ("data", "any", "none"):
            return self.encode_any(value)
        if kind == "path":
            return str(value) if isinstance(value, (str, Path)) else self.encode_any(value)
        if kind == "record":
            return self.encode_record(value, shape)
        if kind in ("object", "callable"):
            return self.encode_object(value, shape)
        if kind == "list":
            if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
                return self.encode_any(value)
            return [self.encode(item, shape.items[0]) for item in value]
        if kind == "set":
            return self.encode_any(value)
        if kind == "error":
            return (
                {"$error": error_json(value)} if isinstance(value, BaseException) else self.encode_any(value)
            )
        if kind == "union":
            return self.encode(value, self.pick(value, shape))
        return self.encode_any(value)

    def pick(self, value: Any, shape: Shape) -> Shape:
        """The alternative of a union that fits a Python value."""
        options = [item for item in shape.items if item.kind != "none"]
        for item in options:
            if item.kind == "path" and isinstance(value, Path):
                return item
            if item.kind == "set" and isinstance(value, (set, frozenset)):
                return item
            if item.kind == "callable" and callable(value) and not self.is_reference(value):
                return item
        return options[0] if options else ANY

    def is_reference(self, value: Any) -> bool:
        """True for a proxy of the other end's object."""
        return False

    def encode_any(self, value: Any) -> Json:
        if value is None or isinstance(value, (bool, str)):
            return value
        if isinstance(value, int):
            return int(value)
        if isinstance(value, float):
            if math.isfinite(value):
                return value
            return {"$float": "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")}
        if isinstance(value, Path):
            return str(value)
        if isinstance(value, Mapping):
            encoded = {str(k): self.encode_any(v) for k, v in value.items()}
            if any(k.startswith("$") for k in encoded):
                return {"$object": encoded}
            return encoded
        if isinstance(value, (set, frozenset)):
            return {"$set": [self.encode_any(v) for v in value]}
        if isinstance(value, (list, tuple)):
            return [self.encode_any(v) for v in value]
        if isinstance(value, BaseException):
            return {"$error": error_json(value)}
        if isinstance(value, dt.datetime):
            return {"$datetime": value.isoformat()}
        if isinstance(value, Record):
            return self.encode_any(dict(object.__getattribute__(value, "_fields")))
        return self.encode_object(value, ANY)

    def encode_record(self, value: Any, shape: Shape) -> Json:
        if self.is_reference(value):
            return self.encode_object(value, shape)
        assert shape.proto is not None
        members = protocol_info(shape.proto).members
        out: dict[str, Json] = {}
        for name, member in members.items():
            if isinstance(value, Mapping):
                field = value.get(name, value.get(camel(name)))
            else:
                field = getattr(value, name)
            out[name] = self.encode(field, member.result)
        for name, field in _extra_fields(value, members):
            out[name] = self.encode_any(field)
        return out

    def encode_object(self, value: Any, shape: Shape) -> Json:
        raise CodecError(f"cannot send {value!r} over the wire")

    # -- from JSON ---------------------------------------------------------------------------------------
    def decode(self, value: Json, shape: Shape = ANY) -> Any:
        if value is None:
            return None
        if isinstance(value, dict) and ("$handle" in value or "$port" in value):
            return self.decode_ref(value, shape)
        kind = shape.kind
        if kind == "path" and isinstance(value, str):
            return Path(value)
        if kind == "record" and isinstance(value, dict) and not (value.keys() & SPECIAL_KEYS):
            return self.decode_record(value, shape)
        if kind == "list" and isinstance(value, list):
            return [self.decode(item, shape.items[0]) for item in value]
        if kind == "union":
            return self.decode(value, self.pick_json(value, shape))
        return self.decode_any(value)

    def pick_json(self, value: Json, shape: Shape) -> Shape:
        options = [item for item in shape.items if item.kind != "none"]
        for item in options:
            if item.kind == "path" and isinstance(value, str):
                return item
            if item.kind == "record" and isinstance(value, dict):
                return item
            if item.kind == "list" and isinstance(value, list):
                return item
        return options[0] if options else ANY

    def decode_any(self, value: Json) -> Any:
        if isinstance(value, list):
            return [self.decode_any(v) for v in value]
        if not isinstance(value, dict):
            return value
        if len(value) == 1:
            (key, inner), *_ = value.items()
            if key == "$float":
                return float({"NaN": "nan", "Infinity": "inf", "-Infinity": "-inf"}[inner])
            if key == "$set":
                return {self._hashable(self.decode_any(v)) for v in inner}
            if key == "$error":
                return make_error(str(inner.get("name", "Error")), str(inner.get("message", "")))
            if key == "$object":
                return {k: self.decode_any(v) for k, v in inner.items()}
            if key == "$datetime":
                return dt.datetime.fromisoformat(inner)
        if "$handle" in value or "$port" in value:
            return self.decode_ref(value, ANY)
        return {k: self.decode_any(v) for k, v in value.items()}

    @staticmethod
    def _hashable(value: Any) -> Any:
        if isinstance(value, list):
            return tuple(Codec._hashable(v) for v in value)
        return value

    def decode_record(self, value: dict[str, Json], shape: Shape) -> Any:
        assert shape.proto is not None
        members = protocol_info(shape.proto).members
        fields = {}
        for name, member in members.items():
            raw = value.get(name, value.get(camel(name)))
            fields[name] = self.decode(raw, member.result)
        known = set(members) | {camel(name) for name in members}
        for key, raw in value.items():
            if key not in known:
                fields[key] = self.decode_any(raw)
        return Record(shape.proto.__name__, fields)

    def decode_ref(self, value: dict[str, Json], shape: Shape) -> Any:
        raise CodecError(f"unexpected reference {value!r}")
