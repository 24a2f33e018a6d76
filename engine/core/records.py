"""Figures measured once and shown on the pages until a job recomputes them: JSON files in the measuring subject's
``recorded/`` folder (``engine/subjects/<subject>/recorded/<name>.json``), written by the command that computes them
(its ``--record`` flag), never by hand. Each file holds the command's own output plus ``command`` (what to run again)
and ``measured`` (a line: when, how long, the machine and its load: figures on a shared machine mean little without it).
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from pathlib import Path

from engine.core.machine import machine

ROOT = Path(__file__).resolve().parents[1] / "subjects"  # engine/subjects/<subject>/recorded/


def record_path(subject: str, name: str) -> Path:
    return ROOT / subject / "recorded" / f"{name}.json"


def load_record(subject: str, name: str) -> dict | None:
    try:
        return json.loads(record_path(subject, name).read_text())
    except (OSError, ValueError):
        return None


def _this_command() -> list[str]:
    """How this process was started, as a person would type it again from the repository."""
    script = Path(sys.argv[0]).resolve()
    if script.name == "__main__.py":
        return ["python", "-m", script.parent.name, *sys.argv[1:]]
    try:
        script = script.relative_to(ROOT.parents[1])
    except ValueError:
        pass
    return ["python", str(script), *sys.argv[1:]]


class Measurement:
    """The conditions of one measurement: started when made, written with the figures by ``write``."""

    def __init__(self, command: list[str] | None = None):
        self.command = shlex.join(command if command is not None else _this_command())
        self.started = time.time()
        self.load_before = os.getloadavg()[0]

    def write(self, subject: str, name: str, figures: dict) -> Path:
        finished = time.time()
        measured = (f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(self.started))}, "
                    f"{finished - self.started:,.0f} s wall, load average {self.load_before:.1f} at the start and "
                    f"{os.getloadavg()[0]:.1f} at the end, {machine()}")
        path = record_path(subject, name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({**figures, "command": self.command, "measured": measured}, indent=1) + "\n")
        return path


def shape(value):
    """The structure of a JSON value without its figures: dicts by key, lists by their first item, every leaf alike
    (so a test can hold a stored file to what its command prints now)."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [shape(value[0])] if value else []
    return "leaf"
