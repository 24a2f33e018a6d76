"""The whole-search kernel a batch runs (``kernel_drivers.WholeSearch``, ``ida_kernels.whole_kernel``) against the
per-bound driver every single solve runs (``kernel_drivers.idastar``, itself held to the readable IDA*): node for node
(moves, nodes expanded and generated, the nodes after each bound), with every heuristic that has the kernel, on both
goals, one set of arrays reused board after board; each heuristic's ``reset`` against the ``inputs`` it stands in
for; a node budget ends both at the same node."""

import numpy as np
import pytest

from engine.core.result import Budget, Watch
from engine.domains.tiles import Board, goal_board, pdb, scramble
from engine.domains.tiles.board import half_turn
from engine.domains.tiles.heuristics import heuristic
from engine.domains.tiles.ida_kernels import MANHATTAN, KernelHeuristic, whole_kernel
from engine.domains.tiles.kernel_drivers import WholeSearch, idastar

FIRST = goal_board(4, 4, "blank-first")
LAST = goal_board(4, 4, "blank-last")


def same_search(one, other) -> None:
    assert (one.status, one.moves, one.nodes_expanded, one.nodes_generated, one.peak_frontier, one.extra,
            one.message) == (other.status, other.moves, other.nodes_expanded, other.nodes_generated,
                             other.peak_frontier, other.extra, other.message)


@pytest.mark.parametrize("name", ["manhattan", "linear-conflict"])
@pytest.mark.parametrize("size", [(3, 3), (4, 4), (3, 5)])
def test_the_whole_kernel_searches_as_the_per_bound_driver(name, size):
    goal = goal_board(*size, "blank-last")
    boards = [scramble(goal, moves, seed=seed)[0] for seed, moves in enumerate((0, 1, 14, 30, 40, 60))]
    search = WholeSearch(goal, name)  # one for all the boards: each starts from its own root
    for board in boards:
        whole, driven = search.solve(board, Watch()), idastar(board, goal, name, Watch())
        same_search(whole, driven)
        assert board.apply(whole.moves) == goal
    assert search.solve(goal, Watch()).moves == "" and search.solve(goal, Watch()).nodes_expanded == 0


@pytest.mark.parametrize("goal", [FIRST, LAST], ids=["blank-first", "blank-last"])
def test_the_whole_kernel_with_the_database_searches_as_the_per_bound_driver(db663, korf, goal):
    """Korf's instances 1 to 4 (their published lengths; half-turned for blank-last, which reads the blank-first
    tables through the half-turn) and two scrambles."""
    loaded = pdb.kernel_inputs(pdb.load("pdb-663", goal))
    boards = [Board(4, 4, cells) if goal == FIRST else half_turn(Board(4, 4, cells)) for _, _, cells in korf[:4]]
    boards += [scramble(goal, 30, seed=seed)[0] for seed in (1, 2)]
    search = WholeSearch(goal, "pdb-663", loaded)
    for number, board in enumerate(boards):
        whole, driven = search.solve(board, Watch()), idastar(board, goal, "pdb-663", Watch(), loaded)
        same_search(whole, driven)
        assert board.apply(whole.moves) == goal
        if number < 4:
            assert whole.length == korf[number][1]


def test_each_reset_writes_the_root_its_inputs_would(db663, korf):
    """``reset`` in arrays built for another board gives the h and the root entries ``inputs`` builds for this one
    (the database's groups' cells, ranks and values, direct and mirrored; linear conflict's count)."""
    from numba import njit

    loaded = pdb.kernel_inputs(db663)
    for name, goal, boards in (("pdb-663", FIRST, [Board(4, 4, cells) for _, _, cells in korf[:5]]),
                               ("linear-conflict", LAST, [scramble(LAST, 50, seed=seed)[0] for seed in range(5)])):
        compiled = heuristic(name).compiled()
        reset = njit(lambda aux, cells, md, reset=compiled.reset: reset(aux, cells, md))
        aux, _ = compiled.inputs(goal, goal, loaded, 8)
        for board in boards:
            fresh, h = compiled.inputs(board, goal, loaded, 8)
            md = sum(abs(c // 4 - goal.cells.index(t) // 4) + abs(c % 4 - goal.cells.index(t) % 4)
                     for c, t in enumerate(board.cells) if t)
            assert reset(aux, np.array(board.cells, dtype=np.int64), md) == h
            if name == "pdb-663":
                for field in ("where", "ref_where"):
                    assert np.array_equal(getattr(aux, field), getattr(fresh, field))
                for field in ("ranks", "values"):
                    assert np.array_equal(getattr(aux, field)[0], getattr(fresh, field)[0])
                assert h == db663.value(board)
            else:
                assert aux.lc_stack[0] == fresh.lc_stack[0]


@pytest.mark.parametrize("max_nodes", [1, 7, 500, 3_000])
def test_a_node_budget_stops_both_at_the_same_node(max_nodes):
    goal = goal_board(4, 4, "blank-last")
    board = scramble(goal, 60, seed=5)[0]
    whole = WholeSearch(goal, "manhattan").solve(board, Watch(Budget(max_nodes=max_nodes)))
    driven = idastar(board, goal, "manhattan", Watch(Budget(max_nodes=max_nodes)))
    assert whole.status == "budget_exhausted"
    same_search(whole, driven)


def test_a_bound_past_the_largest_is_no_solution():
    goal = goal_board(4, 4, "blank-last")
    board = scramble(goal, 60, seed=5)[0]
    whole = WholeSearch(goal, "manhattan", max_bound=6).solve(board, Watch())
    same_search(whole, idastar(board, goal, "manhattan", Watch(), max_bound=6))
    assert whole.message == "no solution within 6 moves"


def test_only_heuristics_with_reset_have_the_whole_kernel():
    assert WholeSearch.applies("pdb-78") and WholeSearch.applies("manhattan")
    without = KernelHeuristic(MANHATTAN.run, MANHATTAN.inputs, MANHATTAN.board_h)
    with pytest.raises(ValueError, match="reset"):
        whole_kernel(without)
