"""Graphs given as data: named nodes, any positive costs, directed or not, an h table or straight-line distance.

``model``: the JSON form, its checks and bounds, the exact verdict on an h; ``problem``: the graph as a problem of
the domain contract; ``examples/``: built-in graphs (AIMA's Romania).
"""

import json
from pathlib import Path

from engine.core.errors import PuzzleError
from engine.domains.graph.model import Graph, parse_graph, verdict
from engine.domains.graph.problem import GraphDomain, graph_problem, numbered_graph
from engine.search.domain import DomainKind, register_domain

EXAMPLES = Path(__file__).parent / "examples"


def example(name: str) -> dict:
    """A built-in graph's JSON by name (``romania``)."""
    if name not in examples():
        raise PuzzleError(f"no built-in graph is named {name!r}; there are {', '.join(examples())}")
    return json.loads((EXAMPLES / f"{name}.json").read_text())


def examples() -> list[str]:
    return sorted(path.stem for path in EXAMPLES.glob("*.json"))


KIND = register_domain(DomainKind("graph", "A graph given as data", graph_problem, ("given", "straight-line", "zero")))

__all__ = ["KIND", "Graph", "GraphDomain", "example", "examples", "graph_problem", "numbered_graph", "parse_graph",
           "verdict"]
