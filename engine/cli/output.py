"""What every command prints: its answer on stdout (text, or one JSON object with --json) and progress on stderr."""

from __future__ import annotations

import json
import sys


def emit(data: dict, as_json: bool, text: str) -> None:
    print(json.dumps(data) if as_json else text)


def progress_to_stderr(fraction: float | None, info: dict) -> None:
    """Long research runs print one progress line on stderr, rewritten in place, so stdout stays clean for --json."""
    share = f"{fraction:6.1%} " if fraction is not None else ""
    print(f"\r{share}{info.get('text', '')}"[:120].ljust(120), end="", file=sys.stderr, flush=True)
