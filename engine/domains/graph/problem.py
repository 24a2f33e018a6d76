"""A graph given as data, as a problem of the domain contract (``engine.search.domain``).

States are node names; a move is the name of the neighbour to go to, in the order the edges were given. A move's
inverse is the way back, when the graph has it (always, undirected). The scene is the graph as drawn and the
verdict on its h; a state's picture is its node's name (``GraphDrawing``).
"""

from __future__ import annotations

import functools

from engine.core.errors import PuzzleError
from engine.domains.graph.model import Graph, parse_graph, verdict
from engine.search.domain import Domain
from engine.search.view import Drawing


class GraphDomain(Domain):
    name = "graph"

    def __init__(self, graph: Graph, heuristic: str | None = None):
        """``heuristic``: "given", "straight-line" or "zero" (``Graph.heuristics``); None picks the first of them."""
        offered = graph.heuristics()
        heuristic = heuristic or offered[0]
        if heuristic not in offered:
            raise PuzzleError(f"this graph offers the heuristics {', '.join(offered)} (not {heuristic!r}): "
                              "straight-line needs every node's x and y, given needs every node's h")
        self.graph = graph
        self.initial, self.goal = graph.start, graph.goal
        self.heuristic_name = heuristic
        self._h = graph.heuristic(heuristic)
        self._out = {a: dict(moves) for a, moves in graph.out.items()}
        self.unit_costs = all(cost == 1 for _, _, cost in graph.edges())
        self.reversible = not graph.directed

    def actions(self, state: str) -> tuple[str, ...]:
        return tuple(self._out[state])

    def result(self, state: str, action: str) -> str:
        return action

    def is_goal(self, state: str) -> bool:
        return state == self.goal

    def h(self, state: str) -> float:
        return self._h[state]

    def cost(self, state: str, action: str) -> float:
        return self._out[state][action]

    def inverse(self, state: str, action: str) -> str | None:
        return state if state in self._out[action] else None

    def format_path(self, path: tuple) -> str:
        return " ".join(map(str, path))

    @functools.cached_property
    def verdict(self) -> dict:
        """Whether its h is admissible and consistent, checked exactly (``model.verdict``)."""
        return verdict(self.graph, self._h)

    @property
    def admissible(self) -> bool:
        return self.verdict["admissible"]



class GraphDrawing(Drawing):
    """A graph's page: the graph as drawn with its h and the verdict on it, and a state's node by its name."""

    problem: GraphDomain

    def picture(self, state: str) -> dict:
        return {"node": state}

    def scene(self) -> dict:
        problem = self.problem
        return {"graph": problem.graph.to_json(), "h": problem.graph.heuristic(problem.heuristic_name),
                "heuristics": list(problem.graph.heuristics()), "verdict": problem.verdict}


def numbered_graph(adjacency, start: int, goal: int, positions=(), straight_line: bool = True,
                   costs: dict | None = None) -> GraphDomain:
    """The graph the step-through's drawing sends (its ``numbered-graph`` view: ``app/numbered_graph.py`` says why that
    is a view of its own), nodes numbered 0 … n−1 by their place in ``adjacency`` (their neighbours in its order),
    undirected, each edge costing ``costs[(smaller, larger)]`` or 1; h the straight-line distance from
    ``positions`` unless ``straight_line`` is False or there are none (then zero)."""
    costs = costs or {}

    def cost(a: int, b: int):
        return costs.get((min(a, b), max(a, b)), 1)

    nodes = tuple(range(len(adjacency)))
    given = tuple((a, b, cost(a, b)) for a in nodes for b in adjacency[a] if a < b)
    graph = Graph(nodes, {a: tuple((b, cost(a, b)) for b in adjacency[a]) for a in nodes},
                  {n: tuple(p) for n, p in zip(nodes, positions, strict=True)} if positions else {}, {}, start, goal,
                  False, given)
    return GraphDomain(graph, "straight-line" if straight_line and positions else "zero")


def graph_problem(data: dict) -> GraphDomain:
    """The problem a request names: ``{"graph": G, "heuristic": name}``, G a graph's JSON or the name of a built-in
    example ("romania"); the heuristic is optional."""
    from engine.domains.graph import example

    heuristic, graph = data.get("heuristic"), data.get("graph")
    return GraphDomain(parse_graph(example(graph) if isinstance(graph, str) else graph),
                       heuristic if isinstance(heuristic, str) and heuristic else None)
