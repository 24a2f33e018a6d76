"""Textbook searches over a small interface, ``Domain`` (the domain contract, ``engine.search.domain``), readable
first; they emit trace events for teaching views. The problems themselves live with their domains
(``engine.domains.tiles.problem``, ``engine.domains.graph``, ``engine.domains.grid``)."""

from engine.search.algorithms import (
    astar_search,
    bidirectional_search,
    breadth_first_search,
    depth_first_search,
    depth_limited_search,
    greedy_best_first_search,
    idastar_search,
    iterative_deepening_search,
    uniform_cost_search,
)
from engine.search.domain import Domain

__all__ = [
    "Domain",
    "astar_search",
    "bidirectional_search",
    "breadth_first_search",
    "depth_first_search",
    "depth_limited_search",
    "greedy_best_first_search",
    "idastar_search",
    "iterative_deepening_search",
    "uniform_cost_search",
]
