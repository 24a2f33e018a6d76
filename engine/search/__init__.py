"""Textbook searches over a small interface, ``Domain`` (the domain contract, ``engine.search.domain``), readable
first, one module each in ``engine.search.algorithms``; they emit trace events for teaching views. This package is
their public name: ``from engine.search import astar_search``. The problems themselves live with their domains
(``engine.domains.tiles.problem``, ``engine.domains.graph``, ``engine.domains.grid``)."""

from engine.search.algorithms.astar import astar_search
from engine.search.algorithms.bfs import breadth_first_search
from engine.search.algorithms.bidirectional import bidirectional_search
from engine.search.algorithms.dfs import depth_first_search, depth_limited_search
from engine.search.algorithms.greedy import greedy_best_first_search
from engine.search.algorithms.idastar import idastar_search
from engine.search.algorithms.ids import iterative_deepening_search
from engine.search.algorithms.ucs import uniform_cost_search
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
