"""``tables``: the pattern databases on disk (list them, build the missing ones)."""

from __future__ import annotations

import argparse
import sys

from engine.cli.output import emit, progress_to_stderr


def cmd_tables(args: argparse.Namespace) -> int:
    """``tables list``: what exists, sizes, build times; ``tables build``: build what is missing of the 15-puzzle's
    tables (``--all``: of every table; ``--only``: of the names given), with a progress line on stderr (rewritten
    in place at a terminal, one line every few seconds in a log)."""
    import time

    from engine.domains.tiles import pdb_catalogue

    if args.what == "build":
        live = sys.stderr.isatty()
        last = [0.0]

        def progress(fraction: float | None, info: dict) -> None:
            if live:
                progress_to_stderr(fraction, info)
            elif time.monotonic() - last[0] >= 5:
                last[0] = time.monotonic()
                print(f"{fraction or 0:6.1%} {info.get('text', '')}", file=sys.stderr, flush=True)

        names = args.only or (None if args.all else list(pdb_catalogue.FIFTEEN_PUZZLE))
        todo = pdb_catalogue.missing(names)
        print(f"building {len(todo)} table(s): {', '.join(todo) or 'none missing'}", file=sys.stderr)
        pdb_catalogue.build(names, progress)
        if live:
            print(file=sys.stderr)
        rows = pdb_catalogue.status(names)
    else:
        rows = pdb_catalogue.status(args.only or None)
    lines = [f"{'table':<25}{'built':>7}{'MB':>9}{'build s':>9}{'peak GB':>9}  label"]
    for row in rows:
        peak = f"{row['peak_bytes'] / 1e9:.2f}" if row["peak_bytes"] else "-"
        lines.append(f"{row['name']:<25}{'yes' if row['built'] else 'no':>7}"
                     f"{(row['bytes'] or row['expected_bytes']) / 1e6:>9.1f}{row['build_seconds'] or '-':>9}"
                     f"{peak:>9}  {row['label']}")
    lines.append(f"store: {rows[0]['path'].rsplit('/', 1)[0] if rows else ''}")
    emit({"tables": rows}, args.json, "\n".join(lines))
    return 0


def add_commands(sub) -> None:
    p = sub.add_parser("tables", help="large tables (pattern databases): list them, or build the missing ones")
    p.add_argument("what", choices=("list", "build"))
    p.add_argument("--only", action="append", metavar="NAME",
                   help="a table name, e.g. pdb-663/blank-first (repeatable; default: build the 15-puzzle's "
                        "tables, list every table)")
    p.add_argument("--all", action="store_true",
                   help="build every table: the 5x5 and 6x6 databases too (minutes more)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_tables)
