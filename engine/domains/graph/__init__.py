"""Graphs given as data: named nodes, any positive costs, directed or not, an h table or straight-line distance.

``model``: the JSON form, its checks and bounds, the exact verdict on an h; ``problem``: the graph as a problem of
the domain contract; ``examples/``: built-in graphs (AIMA's Romania).
"""

import json
from pathlib import Path

from engine.core.errors import PuzzleError
from engine.domains.graph.model import Graph, parse_graph, verdict
from engine.domains.graph.problem import GraphDomain, GraphDrawing, graph_problem, numbered_graph
from engine.search.domain import DomainKind, register_domain
from engine.search.view import JsonView

EXAMPLES = Path(__file__).parent / "examples"


def example(name: str) -> dict:
    """A built-in graph's JSON by name (``romania``)."""
    if name not in examples():
        raise PuzzleError(f"no built-in graph is named {name!r}; there are {', '.join(examples())}")
    return json.loads((EXAMPLES / f"{name}.json").read_text())


def examples() -> list[str]:
    return sorted(path.stem for path in EXAMPLES.glob("*.json"))


#: Romania under each heuristic it offers, and a directed graph with decimal costs whose one-way edge is the way
EXAMPLE_REQUESTS = (
    {"graph": "romania"}, {"graph": "romania", "heuristic": "straight-line"}, {"graph": "romania", "heuristic": "zero"},
    {"graph": {"nodes": [{"name": "S", "h": 2}, {"name": "A", "h": 1.5}, {"name": "G", "h": 0}], "directed": True,
               "edges": [{"from": "S", "to": "A", "cost": 0.5}, {"from": "A", "to": "G", "cost": 1.75},
                         {"from": "S", "to": "G", "cost": 2.5}, {"from": "G", "to": "S", "cost": 0.25}],
               "start": "S", "goal": "G"}},
)
HEURISTIC_LABELS = {"given": "the given h", "straight-line": "straight line × the least cost per unit of length",
                    "zero": "none (h = 0)"}
#: typed as data in the step-through, its nodes and edges edited as tables (js/step/graph.js binds the editor)
VIEW = JsonView("graph", "Graph typed as data (Romania, or your own)", "step/graph_editor.html")
KIND = register_domain(DomainKind("graph", "A graph given as data", graph_problem, tuple(HEURISTIC_LABELS),
                                  EXAMPLE_REQUESTS, HEURISTIC_LABELS, view=VIEW, drawing=GraphDrawing))

__all__ = ["KIND", "Graph", "GraphDomain", "example", "examples", "graph_problem", "numbered_graph", "parse_graph",
           "verdict"]
