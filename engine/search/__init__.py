"""Textbook searches over a small ``Problem`` interface, readable first; they emit trace events for teaching views."""

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
from engine.search.problem import GraphProblem, Problem, SlidingTileProblem

__all__ = [
    "GraphProblem",
    "Problem",
    "SlidingTileProblem",
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
