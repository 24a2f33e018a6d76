"""Record a search as a tree and a list of steps, for the step-through teaching view.

The events come from the algorithms in ``engine.search.algorithms`` (the same code the tests compare with the numba
solvers), through their ``trace`` callback. A tree node is identified by its side (bidirectional search grows a
second tree from the goal) and its path from that side's root (a tuple of actions), so the iterations of IDS and
IDA* revisit the same nodes of one tree instead of drawing it again. Each step says what
happened to which node; the browser replays the steps forward and backward and draws the frontier and the tree.
"""

from __future__ import annotations

from collections.abc import Hashable

from engine.errors import PuzzleError
from engine.result import Budget
from engine.search.algorithms import (
    astar_search,
    bidirectional_search,
    breadth_first_search,
    depth_first_search,
    greedy_best_first_search,
    idastar_search,
    iterative_deepening_search,
    uniform_cost_search,
)
from engine.search.problem import Problem
from engine.status import Status

ALGORITHMS = {
    "bfs": "Breadth-first search",
    "dfs": "Depth-first search (depth-limited)",
    "ids": "Iterative deepening",
    "ucs": "Uniform-cost search",
    "greedy": "Greedy best-first search",
    "astar": "A*",
    "idastar": "IDA*",
    "bidirectional": "Bidirectional breadth-first search",
}
#: Frontier discipline, for the view: a FIFO queue, a priority queue, the recursion stack, or two queues.
FRONTIER_KIND = {"bfs": "queue", "dfs": "stack", "ids": "stack", "ucs": "priority", "greedy": "priority",
                 "astar": "priority", "idastar": "stack", "bidirectional": "two-queues"}
#: What a priority queue is ordered by.
PRIORITY = {"ucs": "g", "greedy": "h", "astar": "f"}
MAX_EXPANSIONS = 2000  # enough for any 8-puzzle teaching example; the view says when the recording stopped

_DLS = [
    ("function DLS(node, limit):", None),
    ("  if node is a goal: return its path", "goal"),
    ("  if depth(node) = limit: cut off, return", "prune"),
    ("  expand node: for each child (never undoing the last move):", "expand"),
    ("    result ← DLS(child, limit)", None),
    ("    if result is a path: return it", None),
    ("  return failure", None),
]
_BEST_FIRST = [
    ("frontier ← priority queue on {key}, holding start", "start"),
    ("while frontier is not empty:", None),
    ("  node ← pop the node with the least {key}", None),
    ("  if node is a goal: return its path", "goal"),
    ("  expand node: for each child of node:", "expand"),
    ("    if child's state was reached with g ≤ child.g: skip it", "duplicate"),
    ("    else: push child with {key} = {formula}", "generate"),
    ("return failure", None),
]
_FORMULA = {"g": "g", "h": "h(child)", "f": "g + h(child)"}
#: Each algorithm's pseudocode as (line, event shown on it). A step highlights the line of its event; "start" is the
#: line shown before the first step. Line numbers are positions in this list, so the view needs no other mapping.
PSEUDOCODE = {
    "bfs": [
        ("if start is a goal: return it", None),
        ("frontier ← FIFO queue holding start; reached ← {start}", "start"),
        ("while frontier is not empty:", None),
        ("  node ← pop the front of frontier; expand it:", "expand"),
        ("  for each child of node:", None),
        ("    if child's state is in reached: skip it", "duplicate"),
        ("    if child is a goal: return its path", "goal"),
        ("    add child to reached and to the back of frontier", "generate"),
        ("return failure", None),
    ],
    "dfs": [("return DLS(start, limit)", "start")] + _DLS,
    "ids": [
        ("for limit ← 0, 1, 2, …:", "bound"),
        ("  result ← DLS(start, limit)", "start"),
        ("  if result is a path: return it", None),
    ] + _DLS,
    **{name: [(line.format(key=key, formula=_FORMULA[key]), event) for line, event in _BEST_FIRST]
       for name, key in PRIORITY.items()},
    "idastar": [
        ("bound ← h(start)", "start"),
        ("loop: t ← SEARCH(start, 0, bound)", "bound"),
        ("  if t = FOUND: return the path; else bound ← t (least f cut off)", None),
        ("function SEARCH(node, g, bound):", None),
        ("  if node is a goal: return FOUND", "goal"),
        ("  expand node: for each child (never undoing the last move):", "expand"),
        ("    f ← g + 1 + h(child); if f > bound: cut off, min ← min(min, f)", "prune"),
        ("    else: t ← SEARCH(child, g + 1, bound); if FOUND return it; min ← min(min, t)", None),
        ("  return min", None),
    ],
    "bidirectional": [
        ("forward frontier ← [start]; backward frontier ← [goal]", "start"),
        ("while both frontiers are non-empty:", None),
        ("  take the smaller frontier; for each node of its whole layer:", None),
        ("    pop node; expand it:", "expand"),
        ("    for each neighbour: if this side reached it already: skip", "duplicate"),
        ("      else add it to this side's frontier", "generate"),
        ("  if the sides met in this layer: return the shortest joined path", "goal"),
        ("return failure", None),
    ],
}


class _Recorder:
    def __init__(self, encode, lines: dict[str, int]):
        self.encode = encode
        self.lines = lines
        self.ids: dict[tuple, int] = {}
        self.nodes: list[dict] = []
        self.steps: list[dict] = []
        self.cut = 0  # cut-offs since the last bound, for saying why the next bound is what it is
        self.solution_length: int | None = None

    def node(self, side: str, path: tuple, state: Hashable, h: int | None) -> int:
        key = (side, path)
        if key not in self.ids:
            self.ids[key] = len(self.nodes)
            parent = self.ids.get((side, path[:-1])) if path else None
            self.nodes.append({"id": len(self.nodes), "parent": parent, "action": path[-1] if path else None,
                               "g": len(path), "h": h, "state": self.encode(state), "side": side})
        node = self.nodes[self.ids[key]]
        if h is not None and node["h"] is None:
            node["h"] = h
        return node["id"]

    def __call__(self, event: str, data: dict) -> None:
        step = {"event": event, "line": self.lines.get(event)}
        step.update((k, data[k]) for k in ("expanded", "generated", "frontier") if k in data)
        if event == "bound":
            step.update(bound=data["bound"], previous=data["previous"], cut=self.cut)
            self.cut = 0
        else:
            side = data.get("side", "forward")
            step["node"] = self.node(side, data["path"], data["state"], data.get("h"))
            self.cut += event == "prune"
            if event == "goal":
                self.solution_length = len(data["path"]) + len(data.get("other", ()))
                if "other" in data:
                    other = "backward" if side == "forward" else "forward"
                    step["meets"] = self.node(other, data["other"], data["state"], None)
        self.steps.append(step)


def trace_search(problem: Problem, algorithm: str, encode=lambda state: state, depth_limit: int = 12,
                 max_expansions: int = MAX_EXPANSIONS) -> dict:
    """Run one algorithm on ``problem`` and record it. ``encode`` turns a state into JSON (a board into its cells)."""
    if algorithm not in ALGORITHMS:
        raise PuzzleError(f"unknown algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}")
    pseudocode = PSEUDOCODE[algorithm]
    lines = {event: i for i, (_, event) in enumerate(pseudocode) if event}
    record = _Recorder(encode, lines)
    budget = Budget(max_nodes=max_expansions, max_seconds=5)  # a web request: bounded well under 10 s
    run = {
        "bfs": lambda: breadth_first_search(problem, budget, trace=record),
        "dfs": lambda: depth_first_search(problem, depth_limit, budget, trace=record),
        "ids": lambda: iterative_deepening_search(problem, budget, trace=record),
        "ucs": lambda: uniform_cost_search(problem, budget, trace=record),
        "greedy": lambda: greedy_best_first_search(problem, budget, trace=record),
        "astar": lambda: astar_search(problem, budget, trace=record),
        "idastar": lambda: idastar_search(problem, budget, trace=record),
        "bidirectional": lambda: bidirectional_search(problem, budget, trace=record),
    }[algorithm]
    result = run()
    record.node("forward", (), problem.initial, problem.h(problem.initial))  # the root, even when it is the goal
    if algorithm == "bidirectional":
        record.node("backward", (), problem.goal, problem.h(problem.goal))
    answer = result.to_dict()
    if record.solution_length is not None:
        answer["length"] = record.solution_length  # a graph's move string lists nodes, not one letter per move
    return {"algorithm": algorithm, "title": ALGORITHMS[algorithm], "frontier_kind": FRONTIER_KIND[algorithm],
            "priority": PRIORITY.get(algorithm), "heuristic": getattr(problem, "heuristic_name", ""),
            "pseudocode": [line for line, _ in pseudocode], "start_line": lines.get("start", 0),
            "nodes": record.nodes, "steps": record.steps, "result": answer,
            "recording_stopped": result.status == Status.BUDGET_EXHAUSTED}
