"""The one result type every solver returns, and the budget every search takes."""

from __future__ import annotations

import copy
import os
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields, is_dataclass

from engine.core.status import Status

#: progress(fraction, info): fraction in [0, 1] or None when unknown (IDA* cannot know); info holds numbers such as
#: ``nodes`` and a ``text`` line for people.
Progress = Callable[[float | None, dict], None]


#: The memory a search may hold in its own tables when nobody says otherwise (``PUZZLE_SEARCH_MEGABYTES``).
DEFAULT_MAX_BYTES = 2**30


def default_max_bytes() -> int:
    value = os.environ.get("PUZZLE_SEARCH_MEGABYTES", "").strip()
    return int(value) * 2**20 if value.isdigit() and int(value) > 0 else DEFAULT_MAX_BYTES


@dataclass(frozen=True)
class Budget:
    """Limits for one search. Nodes count expansions; seconds count wall-clock time; bytes count what the search
    holds in its own growing tables (frontier and reached set), measured or estimated by the search itself."""

    max_nodes: int = 200_000_000
    max_seconds: float = 60.0
    max_bytes: int = field(default_factory=default_max_bytes)


#: What ended a search that ran out of budget: its result's ``extra["budget"]``.
NODES, SECONDS, MEMORY = "nodes", "seconds", "memory"


@dataclass
class SolveResult:
    status: Status
    moves: str = ""
    optimal: bool = False
    nodes_expanded: int = 0
    nodes_generated: int = 0
    peak_frontier: int = 0
    seconds: float = 0.0
    solver: str = ""
    heuristic: str = ""
    message: str = ""
    extra: dict = field(default_factory=dict)
    #: seconds spent before the search loading (on a fresh install, compiling) what it runs: not in ``seconds``
    load_seconds: float = 0.0
    #: the path as the problem's own actions, start to goal, when the search has them (a readable search, a domain's
    #: compiled one); ``moves`` is their text. Not part of the JSON: an action need not be a JSON value.
    actions: tuple = ()

    @property
    def length(self) -> int:
        """How many moves: one per action (a graph's move text names nodes), else one per letter of ``moves``."""
        return len(self.actions) if self.actions else len(self.moves)

    def to_dict(self) -> dict:
        data = {f.name: _copied(getattr(self, f.name)) for f in fields(self) if f.name != "actions"}
        data["length"] = self.length if self.status == Status.SOLVED else None
        data["seconds"] = round(self.seconds, 6)
        data["load_seconds"] = round(self.load_seconds, 6)
        return data


#: Values ``_copied`` shares rather than copies.
_ATOMS = frozenset((int, float, str, bool, type(None)))


def _copied(value):
    """A copy of a result's value as ``dataclasses.asdict`` makes one (every container copied, a dataclass as a
    dict), without its ``copy.deepcopy`` of every number: a solve's path of cells, thousands of numbers, took a
    third of a 7-8 solve's time to copy that way."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is list:
        return [item if type(item) in _ATOMS else _copied(item) for item in value]
    if kind is dict:
        return {key: item if type(item) in _ATOMS else _copied(item) for key, item in value.items()}
    if kind is tuple:
        return tuple(item if type(item) in _ATOMS else _copied(item) for item in value)
    if isinstance(value, (str, int, float)):  # a status, another enum: immutable
        return value
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    return copy.deepcopy(value)


class Watch:
    """Budget, cancel and progress bookkeeping shared by all searches."""

    def __init__(self, budget: Budget | None = None, cancel: threading.Event | None = None,
                 progress: Progress | None = None):
        self.budget = budget or Budget()
        self.cancel = cancel
        self.progress = progress
        self.start = time.perf_counter()
        #: which limit ended the search (``NODES``, ``SECONDS``, ``MEMORY``), once one has
        self.exhausted: str | None = None

    @classmethod
    def cancel_only(cls, cancel: threading.Event | None, progress: Progress | None = None) -> Watch:
        """No budget, only cancel: for work whose size was checked when it was submitted (a research table)."""
        return cls(Budget(max_nodes=2**62, max_seconds=float("inf"), max_bytes=2**62), cancel, progress)

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def stop_reason(self, nodes: int, held_bytes: int = 0) -> Status | None:
        """CANCELLED or BUDGET_EXHAUSTED if the search must stop now, else None; ``held_bytes``: what the search
        holds now. Which limit ended it is kept in ``exhausted`` (``NODES``, ``SECONDS`` or ``MEMORY``)."""
        if self.cancel is not None and self.cancel.is_set():
            return Status.CANCELLED
        if nodes >= self.budget.max_nodes:
            return self.exhaust(NODES)
        if self.elapsed >= self.budget.max_seconds:
            return self.exhaust(SECONDS)
        if held_bytes > self.budget.max_bytes:
            return self.exhaust(MEMORY)
        return None

    def exhaust(self, limit: str) -> Status:
        """Record that ``limit`` ended the search; returns BUDGET_EXHAUSTED."""
        self.exhausted = limit
        return Status.BUDGET_EXHAUSTED

    def stop_message(self, reason: str, nodes: int) -> str:
        if reason == Status.CANCELLED:
            return "cancelled"
        limit = {NODES: f"its node budget ({self.budget.max_nodes:,} nodes)",
                 SECONDS: f"its time budget ({self.budget.max_seconds:g} s)",
                 MEMORY: f"its memory budget ({self.budget.max_bytes / 2**20:,.0f} MB)"}.get(self.exhausted or "",
                                                                                          "its budget")
        return f"stopped by {limit} after {nodes:,} nodes and {self.elapsed:.1f} s"

    def report(self, fraction: float | None, info: dict) -> None:
        if self.progress is not None:
            self.progress(fraction, info)

    def carry(self, **fields) -> None:
        """Every report from here on carries ``fields`` too, and one goes out now: what a search decided before it
        began (the heuristic a solve fell back to) is shown beside its counts from the start, not only in its
        result."""
        if self.progress is None:
            return
        report = self.progress
        self.progress = lambda fraction, info: report(fraction, {**info, **fields})
        self.report(None, {})


class Slices:
    """How much work a kernel does per call: sized from the rate measured so each call takes about ``seconds``,
    whatever the kernel's speed or the machine's load, so cancel, progress and the time budget are looked at
    between calls at least that often. ``quota`` for the next call; ``ran(done, took)`` after it."""

    def __init__(self, first: int = 20_000, seconds: float = 0.2, least: int = 1_000):
        self.quota, self.seconds, self.least = first, seconds, least

    def ran(self, done: int, took: float) -> None:
        if done > 0 and took > 0:
            self.quota = int(min(max(self.least, done / took * self.seconds), 4 * self.quota))
