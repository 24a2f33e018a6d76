"""What the readable searches share: the trace callback's type, the memory estimate and the results of a search
that stopped."""

from __future__ import annotations

from collections.abc import Callable

from engine.core.result import SolveResult, Watch
from engine.core.status import Status

Trace = Callable[[str, dict], None]
Path = tuple


#: Bytes a readable search holds per state it keeps (its reached set or best-g entry, and its frontier entry with the
#: path): measured with tracemalloc on 4×4 boards (about 300 per node generated). An estimate, so the memory budget
#: is honoured without measuring the heap at every step.
STATE_BYTES = 250


def stopped(watch: Watch, reason: Status, expanded: int, generated: int, peak: int, solver: str) -> SolveResult:
    return SolveResult(reason, nodes_expanded=expanded, nodes_generated=generated, peak_frontier=peak,
                       seconds=watch.elapsed, solver=solver, message=watch.stop_message(reason, expanded))


def unreachable(expanded: int, generated: int, peak: int, watch: Watch, solver: str) -> SolveResult:
    return SolveResult(Status.UNSOLVABLE, nodes_expanded=expanded, nodes_generated=generated, peak_frontier=peak,
                       seconds=watch.elapsed, solver=solver, message="the goal is not reachable")



class Stop(Exception):
    """Raised inside a depth-first search when its budget runs out (its ``reason``)."""

    def __init__(self, reason: Status):
        self.reason = reason
