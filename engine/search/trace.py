"""Record a search as a tree and a list of steps, for the step-through teaching view.

The events come from the algorithms in ``engine.search.algorithms`` (the same code the tests compare with the numba
solvers), through their ``trace`` callback. A tree node is identified by its path from the root (a string of actions),
so the iterations of IDS and IDA* revisit the same nodes of one tree instead of drawing it again. Each step says what
happened to which node; the browser replays the steps forward and backward and draws the frontier and the tree.
"""

from __future__ import annotations

from typing import Hashable

from engine.errors import PuzzleError
from engine.result import Budget
from engine.search.algorithms import (
    astar_search,
    breadth_first_search,
    depth_first_search,
    idastar_search,
    iterative_deepening_search,
)
from engine.search.problem import Problem

ALGORITHMS = {
    "bfs": "Breadth-first search",
    "dfs": "Depth-first search (depth-limited)",
    "ids": "Iterative deepening",
    "astar": "A*",
    "idastar": "IDA*",
}
#: Frontier discipline, for the view: a FIFO queue, a priority queue on f, or the recursion stack.
FRONTIER_KIND = {"bfs": "queue", "astar": "priority", "dfs": "stack", "ids": "stack", "idastar": "stack"}
MAX_EXPANSIONS = 2000  # enough for any 8-puzzle teaching example; the view says when the recording stopped


class _Recorder:
    def __init__(self, encode):
        self.encode = encode
        self.ids: dict[str, int] = {}
        self.nodes: list[dict] = []
        self.steps: list[dict] = []

    def node(self, path: str, state: Hashable, g: int, h: int | None) -> int:
        if path not in self.ids:
            self.ids[path] = len(self.nodes)
            self.nodes.append({"id": len(self.nodes), "parent": self.ids.get(path[:-1]) if path else None,
                               "action": path[-1:] or None, "g": g, "h": h, "state": self.encode(state)})
        node = self.nodes[self.ids[path]]
        if h is not None and node["h"] is None:
            node["h"] = h
        return node["id"]

    def __call__(self, event: str, data: dict) -> None:
        if event == "bound":
            self.steps.append({"event": "bound", "bound": data["bound"]})
            return
        path = data.get("path", "")
        g = data.get("g", len(path))
        node = self.node(path, data["state"], g, data.get("h"))
        step = {"event": event, "node": node}
        if event == "expand" and "frontier" in data:
            step["frontier"] = data["frontier"]
        self.steps.append(step)


def trace_search(problem: Problem, algorithm: str, encode=lambda state: state, depth_limit: int = 12,
                 max_expansions: int = MAX_EXPANSIONS) -> dict:
    """Run one algorithm on ``problem`` and record it. ``encode`` turns a state into JSON (a board into its cells)."""
    if algorithm not in ALGORITHMS:
        raise PuzzleError(f"unknown algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}")
    record = _Recorder(encode)
    budget = Budget(max_nodes=max_expansions, max_seconds=5)  # a web request: bounded well under 10 s
    if algorithm == "bfs":
        result = breadth_first_search(problem, budget, trace=record)
    elif algorithm == "dfs":
        result = depth_first_search(problem, depth_limit, budget, trace=record)
    elif algorithm == "ids":
        result = iterative_deepening_search(problem, budget, trace=record)
    elif algorithm == "astar":
        result = astar_search(problem, budget, trace=record)
    else:
        result = idastar_search(problem, budget, trace=record)
    record.node("", problem.initial, 0, problem.h(problem.initial))  # the root, even when the start is the goal
    return {"algorithm": algorithm, "title": ALGORITHMS[algorithm], "frontier_kind": FRONTIER_KIND[algorithm],
            "nodes": record.nodes, "steps": record.steps, "result": result.to_dict(),
            "recording_stopped": result.status == "budget_exhausted"}
