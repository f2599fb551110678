"""What travels how: the wire shape of every contract member, read from the annotations of the contract.

The contract's ``typing.Protocol`` classes already say everything the wire needs: which members are
properties, synchronous methods or coroutines, which parameters are positional or keyword-only, and
whether a value is JSON data, a *record* (a Protocol with only properties, sent by value), a *path*, an
*object* (a Protocol with methods: a server handle or a kit port) or a *callable*.  Both ends of the wire
(the kit's client and the reference server) and the generated member table (Appendix A of PROTOCOL.md)
read it from here, so they cannot disagree.  Standard library only: a server may import it.
"""

from __future__ import annotations

import collections.abc
import inspect
import types
import typing
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Protocol, Union

from synapse_spec import contract

LIVE_PORTS = frozenset({"AbortSignal"})
"""Property-only Protocols that travel as ports, not records: the implementation reads them while it works
(a scenario aborts the signal while the runner is busy), so each read must reach the kit."""


# --------------------------------------------------------------------------------------------------------
# Shapes of values
# --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shape:
    """How one annotated value travels.

    ``kind`` is one of ``any`` (decided by the value), ``data`` (JSON as it is), ``none``, ``path``,
    ``error``, ``record`` (by value, keyed by property names), ``object`` (a handle or a port), ``callable``
    (a port or handle of a function), ``list``, ``set`` or ``union``.
    """

    kind: str
    proto: type | None = None
    items: tuple[Shape, ...] = ()
    call: str = ""  # callables: "sync", "async" or "either"
    params: tuple[Shape, ...] = ()

    def describe(self) -> str:
        """The shape as the member table writes it."""
        if self.kind in ("record", "object"):
            assert self.proto is not None
            return f"{self.kind} {self.proto.__name__}"
        if self.kind == "list":
            return f"list of {self.items[0].describe()}"
        if self.kind == "set":
            return "set"
        if self.kind == "union":
            return " or ".join(dict.fromkeys(item.describe() for item in self.items))
        if self.kind == "callable":
            args = ", ".join(p.describe() for p in self.params)
            result = self.items[0].describe() if self.items else "any"
            return f"{self.call} callable ({args}) → {result}"
        return self.kind

    @property
    def is_data(self) -> bool:
        return self.kind in ("data", "none") or (
            self.kind in ("list", "union") and all(i.is_data for i in self.items)
        )


ANY = Shape("any")
DATA = Shape("data")
NONE = Shape("none")
PATH = Shape("path")
ERROR = Shape("error")

_DATA_TYPES = (str, int, float, bool, bytes)


def _is_protocol(tp: Any) -> bool:
    # Python 3.10 takes ``list[int]`` for a type, and issubclass() then raises: ask the class itself.
    return isinstance(tp, type) and getattr(tp, "_is_protocol", False) is True and tp is not Protocol


def shape_of(tp: Any) -> Shape:
    """The wire shape of one (resolved) annotation."""
    if isinstance(tp, (str, typing.ForwardRef)):  # Python 3.10 leaves names in Callable[[...], ...] as text
        tp = vars(contract).get(tp if isinstance(tp, str) else tp.__forward_arg__, Any)
    if tp is Any or tp is object:
        return ANY
    if tp is None or tp is type(None):
        return NONE
    if isinstance(tp, type) and issubclass(tp, Path):
        return PATH
    if isinstance(tp, type) and issubclass(tp, BaseException):
        return ERROR
    if tp in _DATA_TYPES:
        return DATA
    if _is_protocol(tp):
        if tp.__name__ not in LIVE_PORTS and is_record(tp):
            return Shape("record", proto=tp)
        return Shape("object", proto=tp)
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is Union or origin is types.UnionType:
        items = tuple(shape_of(a) for a in args)
        non_none = [i for i in items if i.kind != "none"]
        if all(i.is_data for i in items):
            return DATA
        if len(non_none) == 1 and len(items) == 2:
            return Shape("union", items=(non_none[0], NONE))
        return Shape("union", items=items)
    if origin is collections.abc.Callable:
        params = tuple(shape_of(a) for a in args[0]) if args and isinstance(args[0], list) else ()
        result = args[-1] if args else Any
        call, result_shape = _callable_result(result)
        return Shape("callable", items=(result_shape,), call=call, params=params)
    if origin in (set, frozenset, collections.abc.Set):
        return Shape("set", items=(shape_of(args[0]) if args else ANY,))
    if origin in (list, tuple, collections.abc.Sequence):
        if origin is tuple:
            return DATA if all(shape_of(a).is_data for a in args if a is not Ellipsis) else ANY
        item = shape_of(args[0]) if args else ANY
        return DATA if item.is_data else Shape("list", items=(item,))
    if origin in (dict, collections.abc.Mapping):
        value = shape_of(args[1]) if len(args) == 2 else ANY
        return DATA if value.is_data or value.kind == "any" else ANY
    if tp in (dict, list):
        return DATA
    return ANY


def _callable_result(result: Any) -> tuple[str, Shape]:
    """(``sync``/``async``/``either``, the shape of the awaited result) of a Callable's result type."""
    origin = typing.get_origin(result)
    if origin is collections.abc.Awaitable:
        return "async", shape_of(typing.get_args(result)[0])
    if origin is Union or origin is types.UnionType:
        args = typing.get_args(result)
        awaitables = [a for a in args if typing.get_origin(a) is collections.abc.Awaitable]
        if awaitables:
            return "either", shape_of(typing.get_args(awaitables[0])[0])
    return "sync", shape_of(result)


# --------------------------------------------------------------------------------------------------------
# Members of a Protocol
# --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Param:
    name: str
    shape: Shape
    keyword_only: bool
    required: bool


@dataclass(frozen=True)
class Member:
    """One member of a contract Protocol: ``kind`` is ``property``, ``sync`` or ``async``."""

    name: str
    kind: str
    params: tuple[Param, ...] = ()
    result: Shape = ANY
    owner: str = ""

    @property
    def positional(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if not p.keyword_only)

    @property
    def keywords(self) -> dict[str, Param]:
        return {p.name: p for p in self.params if p.keyword_only}


@dataclass(frozen=True)
class ProtocolInfo:
    name: str
    proto: type
    members: dict[str, Member] = field(default_factory=dict)

    @property
    def record(self) -> bool:
        return bool(self.members) and all(m.kind == "property" for m in self.members.values())


def _hints(func: Any) -> dict[str, Any]:
    return typing.get_type_hints(func, vars(contract))


_SKIP = frozenset(dir(Protocol)) | {"__init__", "__class_getitem__", "__init_subclass__"}


@cache
def protocol_info(proto: type) -> ProtocolInfo:
    """The members of a contract Protocol (inherited ones included), in declaration order."""
    members: dict[str, Member] = {}
    for klass in reversed(proto.__mro__):
        if not _is_protocol(klass):
            continue
        for name, attr in vars(klass).items():
            if name.startswith("_") or name in _SKIP:
                continue
            members[name] = _member(name, attr, klass.__name__)
    return ProtocolInfo(proto.__name__, proto, members)


def _member(name: str, attr: Any, owner: str) -> Member:
    if isinstance(attr, property):
        result = _hints(attr.fget).get("return", Any)
        return Member(name, "property", result=shape_of(result), owner=owner)
    func = attr
    hints = _hints(func)
    params = []
    for param in list(inspect.signature(func).parameters.values())[1:]:
        params.append(
            Param(
                param.name,
                shape_of(hints.get(param.name, Any)),
                param.kind is inspect.Parameter.KEYWORD_ONLY,
                param.default is inspect.Parameter.empty,
            )
        )
    kind = "async" if inspect.iscoroutinefunction(func) else "sync"
    return Member(name, kind, tuple(params), shape_of(hints.get("return", Any)), owner)


def is_record(proto: type) -> bool:
    """Only properties (decided without resolving annotations, which may refer back to ``proto``)."""
    kinds = [
        isinstance(attr, property)
        for klass in proto.__mro__
        if _is_protocol(klass)
        for name, attr in vars(klass).items()
        if not name.startswith("_") and name not in _SKIP
    ]
    return bool(kinds) and all(kinds)


@cache
def contract_protocols() -> dict[str, type]:
    """Every Protocol of the contract by name."""
    return {
        name: value
        for name, value in vars(contract).items()
        if _is_protocol(value) and getattr(value, "__module__", "") == contract.__name__
    }


def protocol_named(name: str) -> type | None:
    return contract_protocols().get(name)


def implementation_member(name: str) -> Member | None:
    """A member of handle 0: of ``Implementation``, or of a Protocol an implementation offers with a
    capability (``HttpLLMClientFactory.http_llm_client`` for ``llm-http``)."""
    for proto in implementation_protocols():
        member = protocol_info(proto).members.get(name)
        if member is not None:
            return member
    return None


@cache
def implementation_protocols() -> tuple[type, ...]:
    extra = [
        p
        for p in contract_protocols().values()
        if p is not contract.Implementation and set(protocol_info(p).members) & _capability_members()
    ]
    return (contract.Implementation, *extra)


def _capability_members() -> set[str]:
    factories = getattr(contract, "CAPABILITY_FACTORIES", {})
    return {str(member) for members in factories.values() for member in members}


def member_kind(proto: type, name: str) -> str | None:
    member = protocol_info(proto).members.get(name)
    return member.kind if member else None
