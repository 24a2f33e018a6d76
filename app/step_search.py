"""The searches a step-through request records: the problem it names (a registered domain's, through the kind's view,
or the numbered graph drawn on the Graph page) and one trace per algorithm (``engine.search.trace``)."""

from __future__ import annotations

from app.numbered_graph import NUMBERED_GRAPH, is_numbered_request
from app.step_view import view_codec
from engine.core.errors import PuzzleError
from engine.core.params import integer
from engine.domains.graph import numbered_graph
from engine.search.domain import Domain, DomainKind, requested_kind
from engine.search.trace import DEPTH_LIMIT, trace_search
from engine.subjects.classic import graph


def step_problem(data: dict) -> tuple[Domain, graph.Graph | None]:
    """The problem named by a step-through request, and the numbered graph it was drawn as (if it was)."""
    if is_numbered_request(data):
        g = graph.graph_from_request(data)
        start, goal = data.get("start", 0), data.get("goal", g.size - 1)
        for name, node in (("start", start), ("goal", goal)):
            if not isinstance(node, int) or not 0 <= node < g.size:
                raise PuzzleError(f"the {name} must be a node from 0 to {g.size - 1}")
        straight_line = data.get("heuristic", "straight-line") != "zero"
        return numbered_graph(g.adjacency, start, goal, g.positions, straight_line, g.costs), g
    return view_codec(requested_kind(data)).problem(data), None


def view_name(data: dict) -> str:
    """The view a step-through request is of: the numbered graph's, else its kind's name."""
    return NUMBERED_GRAPH if is_numbered_request(data) else requested_kind(data).name


def _with_heuristic(data: dict, problem, name: str):
    """"astar:misplaced" runs A* with its own h, so two panels can compare heuristics on one position."""
    heuristic = name.partition(":")[2]
    if not heuristic:
        return problem
    kind: DomainKind | None = None if is_numbered_request(data) else requested_kind(data)
    if kind is None or heuristic not in view_codec(kind).heuristics():
        raise PuzzleError(f"unknown heuristic {heuristic!r} for this problem")
    codec = view_codec(kind)  # the same position (a scramble's, as it came out), another h
    resolved = codec.resolved(data, problem)  # a request's resolved data is its fields
    return codec.problem({**data, **(resolved if isinstance(resolved, dict) else {}), "heuristic": heuristic})


def step_traces(data: dict) -> tuple[Domain, graph.Graph | None, list[dict]]:
    """The problem a step-through request names, its graph (if it is one) and one recorded trace per algorithm."""
    names = data["algorithms"] if "algorithms" in data else [data.get("algorithm", "bfs")]
    if not isinstance(names, list) or not 1 <= len(names) <= 2 or not all(isinstance(n, str) for n in names):
        raise PuzzleError("algorithms must name one or two algorithms")
    problem, g = step_problem(data)
    limit = integer(data, "depth_limit", 1, 40, DEPTH_LIMIT)
    return problem, g, [trace_search(_with_heuristic(data, problem, name), name.partition(":")[0], depth_limit=limit)
                        for name in names]
