"""``python -m synapse_spec.protocol table [--write]``: print (or write into PROTOCOL.md) the member table."""

from __future__ import annotations

import argparse
import sys

from synapse_spec.protocol import PROTOCOL_VERSION, table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m synapse_spec.protocol")
    parser.add_argument("--version", action="version", version=f"Synapse wire protocol {PROTOCOL_VERSION}")
    sub = parser.add_subparsers(dest="command", required=True)
    table_parser = sub.add_parser("table", help="the contract's members as they travel (Appendix A)")
    table_parser.add_argument("--write", action="store_true", help="rewrite Appendix A of PROTOCOL.md")
    options = parser.parse_args(argv)
    if options.write:
        changed = table.update()
        print(f"{table.PROTOCOL_MD}: {'updated' if changed else 'already current'}")
    else:
        sys.stdout.write(table.render())
    return 0


if __name__ == "__main__":
    sys.exit(main())
