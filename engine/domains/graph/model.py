"""A graph given as data: its JSON form (below), checked and bounded, and what is exactly true of it.

    {"nodes": [{"name": "Arad", "x": 91, "y": 108, "h": 366}, ...],
     "edges": [{"from": "Arad", "to": "Zerind", "cost": 75}, ...],
     "start": "Arad", "goal": "Bucharest", "directed": false}

Names are non-empty strings; x and y (drawing coordinates, y growing downward as on a screen) and h are optional;
a cost is any positive finite number, decimals too. Undirected edges go both ways at the same cost. Two edges
between the same nodes in the same direction are refused (which one would a search take?).

h: the given table when the nodes give one (then every node must); else, when every node has coordinates, the
straight-line distance to the goal times ``scale``, the least cost per unit of drawn length over all edges (every
path costs at least scale × its drawn length ≥ scale × the straight line, so it is admissible, and consistent by
the triangle inequality), rounded down when every cost is a whole number (every path then costs a whole number, so
the floor is still a lower bound, and floor(x) ≤ c + floor(y) whenever x ≤ c + y and c is whole: still
consistent; and a whole number reads better in a step); else zero. ``verdict`` checks a given h exactly against the
true costs to the goal (Dijkstra from the goal over the reversed edges).
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

from engine.core.errors import PuzzleError
from engine.core.params import flag, number, text

MAX_NODES = 500
MAX_EDGES = 5_000
MAX_NAME = 40
MAX_VALUE = 1e9  # costs, coordinates and h: large enough for any map, small enough that sums stay exact to 1e-6
#: a given h may exceed a true cost by this much (relative) and still count as admissible: decimal costs add up
#: with rounding errors of about 1e-16 per edge
TOLERANCE = 1e-9


@dataclass(frozen=True)
class Graph:
    names: tuple[str, ...]
    #: out[node]: (neighbour, cost) pairs in the order the edges were given
    out: dict[str, tuple[tuple[str, float], ...]]
    coordinates: dict[str, tuple[float, float]]  # empty, or every node's
    given_h: dict[str, float]  # empty, or every node's
    start: str
    goal: str
    directed: bool
    given: tuple[tuple[str, str, float], ...] = ()  # the edges as given: (from, to, cost), in their order

    def edges(self) -> list[tuple[str, str, float]]:
        """Each edge once, as it was given (an undirected one in the direction it was written)."""
        return list(self.given)

    def reversed_out(self) -> dict[str, list[tuple[str, float]]]:
        into: dict[str, list[tuple[str, float]]] = {name: [] for name in self.names}
        for a in self.names:
            for b, cost in self.out[a]:
                into[b].append((a, cost))
        return into

    def scale(self) -> float:
        """The least cost per unit of straight-line length over the edges (0 when no edge has a length)."""
        rates = [cost / length for a, b, cost in self.edges()
                 if (length := math.dist(self.coordinates[a], self.coordinates[b])) > 0]
        return min(rates, default=0.0)

    def heuristic(self, name: str) -> dict[str, float]:
        """h of every node: ``given`` (the table), ``straight-line`` (scaled, from coordinates) or ``zero``."""
        if name == "given":
            return dict(self.given_h)
        if name == "straight-line":
            scale, goal = self.scale(), self.coordinates[self.goal]
            h = {n: scale * math.dist(self.coordinates[n], goal) for n in self.names}
            if all(float(cost).is_integer() for _, _, cost in self.given):
                # 1e-9: a product that should be whole may come out a hair below it
                h = {n: math.floor(value + 1e-9) for n, value in h.items()}
            return h
        return dict.fromkeys(self.names, 0.0)

    def heuristics(self) -> tuple[str, ...]:
        """The heuristics this graph can have, the best first."""
        return (("given",) if self.given_h else ()) + (("straight-line",) if self.coordinates else ()) + ("zero",)

    def to_json(self) -> dict:
        nodes = []
        for name in self.names:
            node: dict = {"name": name}
            if self.coordinates:
                node["x"], node["y"] = self.coordinates[name]
            if self.given_h:
                node["h"] = self.given_h[name]
            nodes.append(node)
        return {"nodes": nodes, "edges": [{"from": a, "to": b, "cost": c} for a, b, c in self.edges()],
                "start": self.start, "goal": self.goal, "directed": self.directed}


def _name(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise PuzzleError(f"{what} must be a non-empty name")
    return text({what: value.strip()}, what, MAX_NAME)


def parse_graph(data: object) -> Graph:
    """A graph from its JSON form, or a PuzzleError saying what is wrong with it."""
    if not isinstance(data, dict):
        raise PuzzleError("the graph must be a JSON object with nodes, edges, start and goal")
    nodes, edges = data.get("nodes"), data.get("edges")
    if not isinstance(nodes, list) or not 1 <= len(nodes) <= MAX_NODES:
        raise PuzzleError(f"nodes must be a list of 1 to {MAX_NODES} nodes")
    if not isinstance(edges, list) or len(edges) > MAX_EDGES:
        raise PuzzleError(f"edges must be a list of at most {MAX_EDGES:,} edges")
    names: list[str] = []
    coordinates: dict[str, tuple[float, float]] = {}
    given_h: dict[str, float] = {}
    for node in nodes:
        if not isinstance(node, dict):
            raise PuzzleError('each node must be an object such as {"name": "Arad", "x": 91, "y": 108, "h": 366}')
        name = _name(node.get("name"), "a node's name")
        if name in coordinates or name in names:
            raise PuzzleError(f"two nodes are named {name!r}")
        names.append(name)
        if node.get("x") is not None or node.get("y") is not None:
            coordinates[name] = (number(node, "x", -MAX_VALUE, MAX_VALUE), number(node, "y", -MAX_VALUE, MAX_VALUE))
        if node.get("h") is not None:
            given_h[name] = number({f"h of {name}": node["h"]}, f"h of {name}", 0, MAX_VALUE)
    for table, what in ((coordinates, "coordinates (x and y)"), (given_h, "an h value")):
        if table and len(table) != len(names):
            missing = next(n for n in names if n not in table)
            raise PuzzleError(f"some nodes have {what} and {missing!r} has none: give every node one, or none")
    directed = flag(data, "directed", False)
    known = set(names)
    out: dict[str, list[tuple[str, float]]] = {name: [] for name in names}
    given: list[tuple[str, str, float]] = []
    for edge in edges:
        if not isinstance(edge, dict):
            raise PuzzleError('each edge must be an object such as {"from": "Arad", "to": "Zerind", "cost": 75}')
        a, b = _name(edge.get("from"), "an edge's from"), _name(edge.get("to"), "an edge's to")
        for end in (a, b):
            if end not in known:
                raise PuzzleError(f"the edge {a} → {b} names {end!r}, which is not a node")
        if a == b:
            raise PuzzleError(f"the edge {a} → {b} joins a node to itself")
        cost = number({f"the cost of {a} → {b}": edge.get("cost", 1)}, f"the cost of {a} → {b}", 0, MAX_VALUE)
        if cost <= 0:
            raise PuzzleError(f"the cost of {a} → {b} must be more than 0 (got {cost:g})")
        pairs = ((a, b),) if directed else ((a, b), (b, a))
        for x, y in pairs:
            if any(n == y for n, _ in out[x]):
                raise PuzzleError(f"the edge {a} → {b} is given twice")
            out[x].append((y, cost))
        given.append((a, b, cost))
    start, goal = (_name(data.get(end), f"the {end}") for end in ("start", "goal"))
    for end, node in (("start", start), ("goal", goal)):
        if node not in known:
            raise PuzzleError(f"the {end} {node!r} is not a node")
    return Graph(tuple(names), {n: tuple(v) for n, v in out.items()}, coordinates, given_h, start, goal, directed,
                 tuple(given))


def costs_to_goal(graph: Graph) -> dict[str, float]:
    """The cheapest cost from every node to the goal (inf where the goal cannot be reached): Dijkstra's algorithm
    from the goal over the edges reversed."""
    into = graph.reversed_out()
    best = {graph.goal: 0.0}
    done: set[str] = set()
    queue = [(0.0, graph.goal)]
    while queue:
        cost, node = heapq.heappop(queue)
        if node in done:
            continue
        done.add(node)
        for before, step in into[node]:
            if cost + step < best.get(before, math.inf):
                best[before] = cost + step
                heapq.heappush(queue, (cost + step, before))
    return {name: best.get(name, math.inf) for name in graph.names}


def _above(value: float, limit: float) -> bool:
    return value > limit + TOLERANCE * max(1.0, abs(limit))


def verdict(graph: Graph, h: dict[str, float]) -> dict:
    """Whether ``h`` is admissible (never above the cheapest cost to the goal) and consistent (h(a) ≤ cost(a, b) +
    h(b) on every edge, and 0 at the goal), each with the first counterexample in the nodes' or edges' order."""
    exact = costs_to_goal(graph)
    over = next((n for n in graph.names if _above(h[n], exact[n])), None)
    broken = next(((a, b, c) for a in graph.names for b, c in graph.out[a] if _above(h[a], c + h[b])), None)
    answer = {"admissible": over is None, "consistent": broken is None and h[graph.goal] == 0}
    if over is not None:
        answer["overestimate"] = {"node": over, "h": h[over], "cost": exact[over]}
    if broken is not None:
        a, b, c = broken
        answer["inconsistent_edge"] = {"from": a, "to": b, "cost": c, "h_from": h[a], "h_to": h[b]}
    elif h[graph.goal] != 0:
        answer["inconsistent_edge"] = {"goal": graph.goal, "h": h[graph.goal]}
    return answer
