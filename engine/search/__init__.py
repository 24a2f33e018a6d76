"""Textbook searches over a small ``Problem`` interface, readable first; they emit trace events for teaching views."""

from engine.search.problem import Problem, SlidingTileProblem
from engine.search.algorithms import (
    astar_search,
    breadth_first_search,
    depth_first_search,
    depth_limited_search,
    idastar_search,
    iterative_deepening_search,
)

__all__ = [
    "Problem",
    "SlidingTileProblem",
    "astar_search",
    "breadth_first_search",
    "depth_first_search",
    "depth_limited_search",
    "idastar_search",
    "iterative_deepening_search",
]
