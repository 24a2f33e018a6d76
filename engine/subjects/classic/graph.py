"""Path search on a small undirected graph (seed 004): every simple path from start to goal.

Unlike ``engine.search`` (which finds one shortest path in a state space), these list *all* paths that never revisit
a node, in the order each strategy meets them, and record every step (the stack or queue after it) for the
step-through view:

* depth-first: recursive, neighbours in list order; paths come out in depth-first order;
* breadth-first: a queue of partial paths; paths come out shortest first;
* iterative deepening: depth-first search limited to paths of ``limit`` nodes, for limit = 1, 2, …, number of nodes;
  as in the seed, a path is reported when it has exactly ``limit`` nodes and ends at the goal.
"""

from __future__ import annotations

import collections
import itertools
from dataclasses import dataclass, field

from engine.core.errors import PuzzleError
from engine.core.params import integer, number

MAX_NODES = 60  # the drawing page stops adding nodes here; the step-through names nodes by number, so any count works
MAX_STEPS = 20_000  # events recorded for one run; a dense hand-drawn graph can have very many simple paths
#: Partial paths one run may hold in its stack or queue. Breadth-first on a dense graph grows its queue about ten
#: times faster than it consumes it; past this the run stops, as it does past MAX_STEPS.
MAX_PENDING = 50_000
#: How much of the stack or queue a step records: the end the search takes from next. A step that copied the whole
#: queue made one breadth-first run on a complete graph of 12 nodes grow the server by gigabytes.
PENDING_SHOWN = 14
#: Node numbers one run's answer may hold (paths found, and each step's path and the part of the pending shown), so
#: the answer is bounded as the request is: about 1.5 MB of JSON. A complete graph of 60 nodes, under the step cap
#: alone, answered 49.6 MB after 4.5 s of the web process's time.
MAX_NUMBERS = 400_000


MAX_COST = 99  # an edge's cost is a whole number from 1 to this: small enough to read on the drawing


@dataclass(frozen=True)
class Graph:
    adjacency: tuple[tuple[int, ...], ...]
    positions: tuple[tuple[float, float], ...] = ()  # for drawing, in a 0..100 box
    #: each edge's cost, keyed by (smaller node, larger node); empty: every edge costs 1. The path listings here
    #: ignore costs; the step-through's uniform-cost search, greedy search and A* use them.
    costs: dict = field(default_factory=dict, hash=False, compare=False)

    @property
    def size(self) -> int:
        return len(self.adjacency)

    def cost(self, a: int, b: int) -> int:
        return self.costs.get((min(a, b), max(a, b)), 1)

    def edges(self) -> list[tuple[int, int]]:
        return sorted({(min(a, b), max(a, b)) for a in range(self.size) for b in self.adjacency[a]})


#: The seed's graph:   1 --- 3 --- 5
#:                   / |     |
#:                  0  |     |
#:                   \ |     |
#:                     2 --- 4 --- 6
#: Its costs make the fewest edges (0 2 4 6, cost 16) dearer than a longer way round (0 1 3 4 6, cost 12), so
#: uniform-cost search and A* part from breadth-first search on it.
SEED_GRAPH = Graph(((1, 2), (0, 2, 3), (0, 1, 4), (1, 4, 5), (2, 3, 6), (3,), (4,)),
                   ((8, 50), (30, 18), (30, 82), (62, 18), (62, 82), (92, 18), (92, 82)),
                   {(0, 1): 4, (0, 2): 4, (1, 2): 6, (1, 3): 3, (2, 4): 9, (3, 4): 2, (3, 5): 3, (4, 6): 3})


def graph_from(nodes: object, edges: object, positions: object = None, costs: object = None) -> Graph:
    """Build a graph from a node count and an edge list (as sent by the drawing page), validating both; ``costs``,
    if given, is each edge's cost in the edge list's order."""
    count = integer({"nodes": nodes}, "nodes", 1, MAX_NODES)
    if not isinstance(edges, list) or len(edges) > MAX_NODES * (MAX_NODES - 1) // 2:
        raise PuzzleError("edges must be a list of [a, b] pairs")
    neighbours: list[list[int]] = [[] for _ in range(count)]
    for edge in edges:
        if not (isinstance(edge, (list, tuple)) and len(edge) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in edge)):
            raise PuzzleError("an edge must be a pair of node numbers, such as [0, 1]")
        a, b = edge
        if not (0 <= a < count and 0 <= b < count):
            raise PuzzleError(f"edge {a}–{b} names a node that does not exist (nodes are 0 to {count - 1})")
        if a == b:
            raise PuzzleError(f"edge {a}–{b} joins a node to itself")
        if b not in neighbours[a]:
            neighbours[a].append(b)
            neighbours[b].append(a)
    drawn: tuple = ()
    if isinstance(positions, list) and len(positions) == count:
        if not all(isinstance(p, list) and len(p) == 2 for p in positions):
            raise PuzzleError("node positions must be [x, y] pairs")
        drawn = tuple((number({"x": x}, "x", -1e6, 1e6), number({"y": y}, "y", -1e6, 1e6)) for x, y in positions)
    weights: dict = {}
    if costs is not None:
        if not isinstance(costs, list) or len(costs) != len(edges):
            raise PuzzleError("costs must list one cost for each edge")
        for (a, b), cost in zip(edges, costs, strict=True):
            weights[(min(a, b), max(a, b))] = integer({"cost": cost}, "cost", 1, MAX_COST)
    return Graph(tuple(tuple(sorted(n)) for n in neighbours), drawn, weights)


def graph_from_request(data: dict) -> Graph:
    """The graph a page's JSON request names: the one it drew (``nodes``, ``edges``, ``positions``), else the seed's."""
    if "nodes" not in data and "edges" not in data:
        return SEED_GRAPH
    return graph_from(data.get("nodes"), data.get("edges"), data.get("positions"), data.get("costs"))


def _check_ends(graph: Graph, start: int, goal: int) -> None:
    for name, node in (("start", start), ("goal", goal)):
        if not isinstance(node, int) or not 0 <= node < graph.size:
            raise PuzzleError(f"the {name} must be a node from 0 to {graph.size - 1}")


class _Recorder:
    """Collects the steps of one run: what happened, the path in hand, the stack or queue, paths found so far."""

    def __init__(self, takes_from_front: bool):
        self.steps: list[dict] = []
        self.paths: list[list[int]] = []
        self.takes_from_front = takes_from_front
        self.numbers = 0  # node numbers recorded so far

    def __call__(self, event: str, path: list[int], pending: list[list[int]], **extra) -> None:
        if len(self.steps) >= MAX_STEPS or len(pending) > MAX_PENDING or self.numbers > MAX_NUMBERS:
            raise _Full
        if event == "found":
            self.paths.append(list(path))
            self.numbers += len(path)
        shown = [list(p) for p in (itertools.islice(pending, PENDING_SHOWN) if self.takes_from_front
                                   else pending[-PENDING_SHOWN:])]
        self.numbers += len(path) + sum(len(p) for p in shown)
        self.steps.append({"event": event, "path": list(path), "pending": shown, "pending_total": len(pending),
                           **extra})


class _Full(Exception):
    pass


def depth_first_paths(graph: Graph, start: int, goal: int, record: _Recorder) -> None:
    stack = [[start]]  # the recursion, made visible: the paths still to be extended, top last
    while stack:
        path = stack.pop()
        record("visit", path, stack)
        if path[-1] == goal:
            record("found", path, stack)
            continue
        children = [path + [q] for q in graph.adjacency[path[-1]] if q not in path]
        stack.extend(reversed(children))  # reversed, so the first neighbour is extended first, as recursion does
        record("push", path, stack, added=len(children))


def breadth_first_paths(graph: Graph, start: int, goal: int, record: _Recorder) -> None:
    queue = collections.deque([[start]])
    while queue:
        path = queue.popleft()
        record("visit", path, queue)
        if path[-1] == goal:
            record("found", path, queue)
            continue
        children = [path + [q] for q in graph.adjacency[path[-1]] if q not in path]
        queue.extend(children)
        record("push", path, queue, added=len(children))


def iterative_deepening_paths(graph: Graph, start: int, goal: int, record: _Recorder) -> None:
    for limit in range(1, graph.size + 1):
        record("limit", [start], [], limit=limit)
        stack = [[start]]
        while stack:
            path = stack.pop()
            record("visit", path, stack, limit=limit)
            if len(path) == limit:
                if path[-1] == goal:
                    record("found", path, stack, limit=limit)
                continue
            children = [path + [q] for q in graph.adjacency[path[-1]] if q not in path]
            stack.extend(reversed(children))
            record("push", path, stack, added=len(children), limit=limit)


STRATEGIES = {"dfs": depth_first_paths, "bfs": breadth_first_paths, "ids": iterative_deepening_paths}


def search_paths(graph: Graph, start: int, goal: int, strategy: str) -> dict:
    """Run one strategy; return the paths in the order found and every step."""
    if not isinstance(strategy, str) or strategy not in STRATEGIES:
        raise PuzzleError(f"unknown strategy: choose one of {', '.join(STRATEGIES)}")
    _check_ends(graph, start, goal)
    record = _Recorder(takes_from_front=strategy == "bfs")
    complete = True
    try:
        STRATEGIES[strategy](graph, start, goal, record)
    except _Full:
        complete = False
    result = {"strategy": strategy, "start": start, "goal": goal, "paths": record.paths, "steps": record.steps,
              "complete": complete}
    if not record.paths and complete:
        result["message"] = f"there is no path from {start} to {goal}: they are not connected"
    elif not complete:
        result["message"] = (f"stopped after {len(record.steps):,} steps (at most {MAX_STEPS:,} steps, "
                             f"{MAX_PENDING:,} paths waiting and {MAX_NUMBERS:,} node numbers in the answer); the "
                             "graph has more paths than are listed")
    return result
