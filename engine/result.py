"""The one result type every solver returns, and the budget every search takes."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from engine.status import Status

#: progress(fraction, info): fraction in [0, 1] or None when unknown (IDA* cannot know); info holds numbers such as
#: ``nodes`` and a ``text`` line for people.
Progress = Callable[[float | None, dict], None]


@dataclass(frozen=True)
class Budget:
    """Limits for one search. Nodes count expansions; seconds count wall-clock time."""

    max_nodes: int = 200_000_000
    max_seconds: float = 60.0


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

    @property
    def length(self) -> int:
        return len(self.moves)

    def to_dict(self) -> dict:
        data = asdict(self)
        data["length"] = self.length if self.status == Status.SOLVED else None
        data["seconds"] = round(self.seconds, 6)
        data["load_seconds"] = round(self.load_seconds, 6)
        return data


class Watch:
    """Budget, cancel and progress bookkeeping shared by all searches."""

    def __init__(self, budget: Budget | None = None, cancel: threading.Event | None = None,
                 progress: Progress | None = None):
        self.budget = budget or Budget()
        self.cancel = cancel
        self.progress = progress
        self.start = time.perf_counter()

    @classmethod
    def cancel_only(cls, cancel: threading.Event | None, progress: Progress | None = None) -> Watch:
        """No budget, only cancel: for work whose size was checked when it was submitted (a research table)."""
        return cls(Budget(max_nodes=2**62, max_seconds=float("inf")), cancel, progress)

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def stop_reason(self, nodes: int) -> Status | None:
        """CANCELLED or BUDGET_EXHAUSTED if the search must stop now, else None."""
        if self.cancel is not None and self.cancel.is_set():
            return Status.CANCELLED
        if nodes >= self.budget.max_nodes or self.elapsed >= self.budget.max_seconds:
            return Status.BUDGET_EXHAUSTED
        return None

    def stop_message(self, reason: str, nodes: int) -> str:
        if reason == Status.CANCELLED:
            return "cancelled"
        return (f"stopped after {nodes:,} nodes and {self.elapsed:.1f} s "
                f"(budget: {self.budget.max_nodes:,} nodes, {self.budget.max_seconds:g} s)")

    def report(self, fraction: float | None, info: dict) -> None:
        if self.progress is not None:
            self.progress(fraction, info)
