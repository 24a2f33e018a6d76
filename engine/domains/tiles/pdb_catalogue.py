"""The pattern databases on disk, built ahead of time, and the small API the CLI and the app use to see and build
them.

Every table lives in the one store (``engine.serving.store``: ``$PUZZLE_DATA_DIR``, the app's instance folder, or
``~/.cache/puzzle-playground``), so the CLI, the app and its workers share one copy. A solve never builds a table
(engine/domains/tiles/pdb.py ``resolve`` falls back and says which heuristic it used); tables are built by
``python -m engine tables build``, by ``build()`` below, or by a job of kind ``tables-build``.

Names are ``<grouping>/<goal>``: ``pdb-663/blank-first``, ``pdb-663/blank-last``, ``pdb-78/…``, ``pdb-6666/…``
(5×5), ``pdb-5555555/…`` (6×6). Each database is built once, for the blank-first goal (``STORED_GOAL``); the
blank-last table is that file read through the half-turn (``pdb.HalfTurned``), so both names are built by one build.
``build()`` builds in that order, the quick 6-6-3 first (seconds) so that ``pdb`` has a database long before the 7-8
(minutes) is done, and the bigger boards' last. ``FIFTEEN_PUZZLE`` names the 4×4 tables: what a plain
``python -m engine tables build`` builds (``--all`` builds every table, as the app's start-up job does).

API (plain data, JSON-ready):

* ``status() -> list[dict]``: one entry per table: ``name``, ``label``, ``grouping``, ``goal`` (convention name),
  ``served_by`` (the name whose file it reads), ``built`` (bool), ``bytes`` (of that file, 0 if missing),
  ``expected_bytes``, ``build_seconds``, ``peak_bytes`` and ``built_at`` (from the build, None if unknown),
  ``building`` (True while a process on this machine builds it: a build leaves ``<table file>.building`` in the
  store with its process id, so the web process sees a build that a worker process runs), ``build_started`` (when
  that build began, else None).
* ``missing(names=None) -> list[str]``: the names (of ``names``, default all) that are not built.
* ``build(names=None, progress=None, cancel=None) -> list[dict]``: builds the missing ones of ``names`` one after
  another, each on every core; ``progress(fraction, info)`` gets the overall fraction and ``info["text"]``, a line
  for people, plus ``info["table"]``; ``cancel`` is a ``threading.Event`` or a callable returning True to stop
  (raises PuzzleError "… cancelled", the finished tables stay). Returns ``status()`` of ``names``. Unknown names
  raise PuzzleError.
* job kind ``tables-build`` (lane ``long``; registered through ``engine.core.registry``): params ``{"names": [...]}``
  (optional; checked at submit time by ``check_build``) → ``{"built": [names built now], "tables": status()}``.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.core.errors import PuzzleError
from engine.domains.tiles import pdb
from engine.domains.tiles.board import Board, goal_board
from engine.serving import store
from engine.serving.jobs import LONG, JobView, job_kind

GOALS = ("blank-first", "blank-last")
#: The goal each database is built for; the other goal reads it through the half-turn (``pdb.HalfTurned``): one build
#: serves both, half the time and the disk.
STORED_GOAL = "blank-first"
#: Build order: quick tables first, the 5×5 and 6×6 databases (minutes each, 1.3 GB while they build) last.
ORDER = ("pdb-663", "pdb-78", "pdb-6666", "pdb-5555555")


@dataclass(frozen=True)
class TableSpec:
    name: str
    grouping: str
    goal_name: str

    @property
    def goal(self) -> Board:
        return goal_board(*pdb.SHAPES[self.grouping], self.goal_name)

    @property
    def stored_goal(self) -> Board:
        return goal_board(*pdb.SHAPES[self.grouping], STORED_GOAL)

    @property
    def label(self) -> str:
        return f"{pdb.LABELS[self.grouping]}, goal {self.goal_name}"

    @property
    def expected_bytes(self) -> int:
        return sum(math.perm(self.goal.size, len(g)) for g in pdb.groups_of(self.grouping, self.goal))

    @property
    def artefact(self) -> str:
        """The file that serves this table: the stored goal's (the other goal reads it through the half-turn)."""
        return pdb.artefact(self.grouping, self.stored_goal)


TABLES = tuple(TableSpec(f"{grouping}/{goal}", grouping, goal) for grouping in ORDER for goal in GOALS)
#: The 15-puzzle's tables (``pdb.built_by_default``): a few minutes' build that every 4×4 solve with ``pdb`` uses; the
#: 5×5 and 6×6 databases (only ``near-optimal`` and an optimal solve of a 24-puzzle use them) double that, so the
#: command line builds them when asked (``tables build --all``).
FIFTEEN_PUZZLE = tuple(spec.name for spec in TABLES if pdb.built_by_default(spec.grouping))
_BY_NAME = {spec.name: spec for spec in TABLES}


def _marker(spec: TableSpec):
    return store.path_of(spec.artefact).with_suffix(".building")


def _build_started(spec: TableSpec) -> float | None:
    """When a live process began building ``spec``, or None (a marker left by a dead process is ignored)."""
    try:
        mark = json.loads(_marker(spec).read_text())
        os.kill(int(mark["pid"]), 0)
        return float(mark["started"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _specs(names) -> list[TableSpec]:
    if names is None:
        return list(TABLES)
    unknown = [n for n in names if n not in _BY_NAME]
    if unknown:
        raise PuzzleError(f"unknown table {unknown[0]!r}: choose from {', '.join(_BY_NAME)}")
    return [spec for spec in TABLES if spec.name in names]


def status(names=None) -> list[dict]:
    rows = []
    for spec in _specs(names):
        path = store.path_of(spec.artefact)
        built = path.exists()
        meta = store.meta(spec.artefact) if built else {}
        started = None if built else _build_started(spec)
        rows.append({"name": spec.name, "label": spec.label, "grouping": spec.grouping, "goal": spec.goal_name,
                     "served_by": f"{spec.grouping}/{STORED_GOAL}",
                     "built": built, "bytes": path.stat().st_size if built else 0,
                     "expected_bytes": spec.expected_bytes, "build_seconds": meta.get("build_seconds"),
                     "peak_bytes": meta.get("peak_bytes"), "built_at": meta.get("built"),
                     "building": started is not None, "build_started": started, "path": str(path)})
    return rows


def missing(names=None) -> list[str]:
    return [spec.name for spec in _specs(names) if not pdb.is_built(spec.grouping, spec.goal)]


def build(names=None, progress: Callable[[float | None, dict], None] | None = None, cancel=None) -> list[dict]:
    from engine.domains.tiles.pdb_build import build_database  # the compiled build: listing the tables needs no numba

    # one build per database: the other goal's table is the same file, read through the half-turn
    specs = list({spec.artefact: spec for spec in _specs(names) if spec.name in missing(names)}.values())
    cancelled = cancel.is_set if hasattr(cancel, "is_set") else cancel
    weights = [spec.expected_bytes for spec in specs]
    done = 0
    for spec, weight in zip(specs, weights, strict=True):
        def report(fraction, info, spec=spec, done=done, weight=weight):
            if progress is not None:
                progress((done + (fraction or 0.0) * weight) / sum(weights),
                         {**info, "table": spec.name, "text": _named(spec.grouping, info.get("text", ""))})

        _marker(spec).write_text(json.dumps({"pid": os.getpid(), "started": time.time()}))
        try:
            build_database(spec.grouping, spec.stored_goal, report, cancelled)
        finally:
            _marker(spec).unlink(missing_ok=True)
        done += weight
    return status(names)


def check_build(params: dict) -> dict:
    """A tables-build job's parameters: ``names``, a list of table names, or absent for every table."""
    names = params.get("names")
    if names is None:
        return {}
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise PuzzleError('"names" must be a list of table names, e.g. ["pdb-78/blank-first"]')
    _specs(names)
    return {"names": names}


@job_kind("tables-build", check=check_build, lane=LONG, view=JobView("Building the pattern databases", None),
          max_seconds=12 * 3600)  # the 6×6 databases alone take hours of one core
def tables_build_job(params: dict, report, cancel) -> dict:
    """Build the missing tables of ``params["names"]`` (default: every table) in the background."""
    names = params.get("names")
    before = set(missing(names))
    tables = build(names, report, cancel)
    return {"built": [row["name"] for row in tables if row["name"] in before and row["built"]], "tables": tables}


def _named(grouping: str, text: str) -> str:
    """A build's progress line, its table named once (the group builds name it themselves)."""
    return text if text.startswith(f"{grouping}: ") else f"{grouping}: {text}"
