"""ARCHITECTURE.md's worked example, "adding a compiled heuristic", done here: a compiled misplaced-tiles heuristic
(its hooks, its inputs, its h of a whole board, one ``KernelHeuristic``), one registration, and the test that the
compiled IDA* and the compiled A* run it node for node as the readable IDA* and A* run its plain function. Nothing else
in the engine is touched."""

from typing import NamedTuple

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba.extending import register_jitable

from engine.core.result import Watch
from engine.domains.tiles import goal_board, scramble
from engine.domains.tiles import heuristics as registry
from engine.domains.tiles.astar import astar_fast, supports
from engine.domains.tiles.heuristics import Heuristic, misplaced_tiles
from engine.domains.tiles.ida_kernels import KernelHeuristic, ida_kernel, nothing_cut, nothing_enter, nothing_leave
from engine.domains.tiles.problem import SlidingTileProblem
from engine.domains.tiles.solving import solve_board, solvers
from engine.search import astar_search, idastar_search


class MisplacedArrays(NamedTuple):
    goal_cell: np.ndarray  # per tile: its goal cell
    count: np.ndarray  # per depth: the tiles off their goal cell


@register_jitable
def _misplaced_h(aux, cells, depth, blank, target, tile, md, bound, least):
    # ``tile`` moves from ``target`` to ``blank``: only its own standing can change
    h = aux.count[depth] - (aux.goal_cell[tile] != target) + (aux.goal_cell[tile] != blank)
    aux.count[depth + 1] = h
    return h


def _misplaced_inputs(board, goal, loaded, stack):
    goal_cell = np.zeros(goal.size, dtype=np.int64)
    for cell, tile in enumerate(goal.cells):
        goal_cell[tile] = cell
    count = np.zeros(stack, dtype=np.int64)
    count[0] = misplaced_tiles(board, goal)
    return MisplacedArrays(goal_cell, count), int(count[0])


@register_jitable
def _misplaced_board_h(aux, cells, md):
    count = 0
    for cell in range(cells.shape[0]):
        if cells[cell] != 0 and aux.goal_cell[cells[cell]] != cell:
            count += 1
    return count


MISPLACED = KernelHeuristic(ida_kernel(_misplaced_h, nothing_cut, nothing_enter, nothing_leave), _misplaced_inputs,
                            _misplaced_board_h)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_a_new_compiled_heuristic_takes_one_module_one_registration_one_test(seed):
    record = Heuristic("misplaced-compiled", "misplaced tiles (compiled)", "The tiles off their goal cell.", True,
                       lambda goal, options: lambda board: misplaced_tiles(board, goal),
                       kernel=f"{__name__}:MISPLACED")
    registry.register_heuristic(record)
    try:
        goal = goal_board(3, 3)
        board, _ = scramble(goal, 14, seed)
        compiled = solve_board(board, goal, "idastar", "misplaced-compiled")
        readable = idastar_search(SlidingTileProblem(board, goal, "misplaced-compiled"))
        assert compiled.status == "solved" and board.apply(compiled.moves) == goal and compiled.optimal
        assert compiled.moves == readable.moves
        assert (compiled.nodes_expanded, compiled.nodes_generated) == (readable.nodes_expanded,
                                                                       readable.nodes_generated)
        # A* takes it too: the solver offers it, and the compiled A* expands what the readable one does
        assert "misplaced-compiled" in solvers()["astar"].heuristics and supports(goal, "misplaced-compiled")
        compiled = astar_fast(board, goal, "misplaced-compiled", Watch())
        readable = astar_search(SlidingTileProblem(board, goal, "misplaced-compiled"))
        assert compiled.status == "solved" and compiled.moves == readable.moves
        assert (compiled.nodes_expanded, compiled.nodes_generated, compiled.peak_frontier) == (
            readable.nodes_expanded, readable.nodes_generated, readable.peak_frontier)
    finally:
        registry.HEURISTICS.forget(record.name)
