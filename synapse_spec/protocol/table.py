"""Appendix A of PROTOCOL.md: every contract member's wire shape, generated from ``synapse_spec.contract``."""

from __future__ import annotations

from pathlib import Path

from synapse_spec.protocol.shapes import (
    LIVE_PORTS,
    Member,
    Param,
    contract_protocols,
    implementation_protocols,
    protocol_info,
)

PROTOCOL_MD = Path(__file__).with_name("PROTOCOL.md")
BEGIN = "<!-- BEGIN GENERATED MEMBER TABLE: python -m synapse_spec.protocol table -->"
END = "<!-- END GENERATED MEMBER TABLE -->"


def _param(param: Param) -> str:
    optional = "" if param.required else "?"
    return f"`{param.name}{optional}`: {param.shape.describe()}"


def _row(member: Member) -> str:
    positional = "<br>".join(_param(p) for p in member.positional) or "–"
    keywords = "<br>".join(_param(p) for p in member.keywords.values()) or "–"
    if member.kind == "property":
        positional = keywords = "–"
    return f"| `{member.name}` | {member.kind} | {positional} | {keywords} | {member.result.describe()} |"


def render() -> str:
    """The member table as Markdown: objects (handles and ports) first, then records."""
    protocols = contract_protocols()
    objects = [p for p in protocols.values() if not protocol_info(p).record or p.__name__ in LIVE_PORTS]
    records = [p for p in protocols.values() if protocol_info(p).record and p.__name__ not in LIVE_PORTS]
    lines = [
        "Objects travel as `$handle` (server objects) or `$port` (kit objects). *kind*: `property` (read "
        "with "
        "`get` / `port.get`), `sync` or `async` (called with `call` / `port.call`). Positional parameters "
        "travel in `args`, keyword-only ones in `kwargs`; `?` marks a parameter the caller may leave out. "
        "*data*: JSON as it is; *path*: a string; *record X*: a JSON object of X's fields (below); "
        "*object X*: a handle or port typed X; *callable*: a function handle or port.",
        "",
    ]
    for proto in objects:
        info = protocol_info(proto)
        note = " (handle 0)" if info.name == "Implementation" else ""
        if proto in implementation_protocols()[1:]:
            note = " (more members of handle 0, for a server that declares their capability)"
        if info.name in LIVE_PORTS:
            note = " (a port whose properties are read live, not a record)"
        lines += [
            f"### {info.name}{note}",
            "",
            "| member | kind | `args` | `kwargs` | result |",
            "|---|---|---|---|---|",
            *(_row(m) for m in info.members.values()),
            "",
        ]
    lines += ["### Records", "", "| record | fields |", "|---|---|"]
    for proto in records:
        info = protocol_info(proto)
        fields = ", ".join(f"`{m.name}`: {m.result.describe()}" for m in info.members.values())
        lines.append(f"| {info.name} | {fields} |")
    return "\n".join(lines) + "\n"


def document_with_table(text: str) -> str:
    """PROTOCOL.md's text with its Appendix A replaced by the current table."""
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n\n{render()}\n{END}{tail}"


def update(path: Path = PROTOCOL_MD) -> bool:
    """Rewrite Appendix A; True when it changed."""
    text = path.read_text(encoding="utf-8")
    new = document_with_table(text)
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text
