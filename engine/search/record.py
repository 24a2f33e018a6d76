"""One record per readable search: what the step-through needs to know about it, declared beside the search itself.

A search in ``engine.search.algorithms`` registers an ``Algorithm``; the trace recorder (``engine.search.trace``), the
step-through page and its script read these fields instead of keeping tables of their own, so registering a new
search is all it takes for it to appear in the step-through with its pseudocode.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.core.registry import Registry

#: How the frontier is kept, for the view: a FIFO queue, a priority queue, the recursion stack, or two queues.
FRONTIER_KINDS = ("queue", "priority", "stack", "two-queues")


@dataclass(frozen=True)
class Algorithm:
    """``search(problem, watch, trace, depth_limit)`` runs it (``watch``: budget, cancel, progress); ``pseudocode``
    is a list of (line, event shown on it): a step highlights the line of its event, and "start" marks the line
    shown before the first step.

    ``priority`` is what a priority queue is ordered by ("g", "h" or "f"); ``cutoff`` says what stops a branch
    ("depth" for a depth limit, "f" for IDA*'s bound, None if nothing does); ``optimal`` whether a path it returns
    always has the fewest actions when every action costs 1, ``cheapest`` whether it is also the cheapest path when
    actions cost different amounts; ``uses_h`` whether h decides anything (the view then shows h and f).
    """

    name: str
    title: str
    search: Callable
    pseudocode: tuple[tuple[str, str | None], ...]
    frontier: str
    optimal: bool
    priority: str | None = None
    cutoff: str | None = None
    uses_h: bool = False
    cheapest: bool = False
    #: where it stands in the menus and lists (the textbook's order: BFS 10 … bidirectional 80)
    place: int = 100

    def __post_init__(self):
        if self.frontier not in FRONTIER_KINDS:
            raise ValueError(f"{self.name}: frontier must be one of {FRONTIER_KINDS}")
        if (self.frontier == "priority") != (self.priority is not None):
            raise ValueError(f"{self.name}: a priority queue needs a priority, and only a priority queue has one")

    @property
    def lines(self) -> dict[str, int]:
        """Each event's line number (its position in the pseudocode)."""
        return {event: i for i, (_, event) in enumerate(self.pseudocode) if event}


#: every algorithm is in engine.search.algorithms, which the package imports first: no subject to load; kept in the
#: order of their places, whatever order their modules were imported in
ALGORITHMS: Registry[Algorithm] = Registry("algorithm", loads=False, order=lambda algorithm: algorithm.place)
register = ALGORITHMS.add


def algorithm(name: str) -> Algorithm:
    return ALGORITHMS[name]
