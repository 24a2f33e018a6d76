"""The 6-6-3 additive pattern database: admissible, exact at the goal, and optimal on Korf's instances."""

import pytest

from engine.search import SlidingTileProblem, idastar_search
from engine.solvers import solve
from engine.tiles import Board, goal_board, scramble
from engine.tiles.heuristics import manhattan_distance
from engine.tiles.pdb import partition, pattern_database

GOAL = goal_board(4, 4, "blank-first")


@pytest.fixture(scope="module")
def database():
    return pattern_database(GOAL)


def test_partition_is_disjoint_and_mirror_symmetric():
    groups = partition(GOAL)
    assert sorted(len(g) for g in groups) == [3, 6, 6]
    assert sorted(t for g in groups for t in g) == list(range(1, 16))
    transpose = {t: (t % 4) * 4 + t // 4 for t in range(16)}  # blank-first: tile t sits at cell t
    assert {tuple(sorted(transpose[t] for t in g)) for g in groups} == {tuple(sorted(g)) for g in groups}


def test_goal_has_value_zero_and_one_move_has_value_one(database):
    assert database.value(GOAL) == 0
    assert database.value(GOAL.move("R")) == 1
    assert database.value(GOAL.move("D")) == 1


@pytest.mark.parametrize("seed", range(8))
def test_admissible_and_at_least_manhattan_on_scrambles(database, seed):
    board, _ = scramble(GOAL, 24, seed)
    optimum = solve(board, GOAL, "idastar", "linear-conflict").length
    assert manhattan_distance(board, GOAL) <= solve(board, GOAL, "idastar", "pdb").length == optimum
    assert database.value(board) <= optimum


def test_kernel_pdb_agrees_with_reference_search(database):
    board, _ = scramble(GOAL, 26, seed=11)
    fast = solve(board, GOAL, "idastar", "pdb")
    reference = idastar_search(SlidingTileProblem(board, GOAL, "pdb"))
    assert fast.moves == reference.moves
    assert fast.nodes_expanded == reference.nodes_expanded


# The ten of Korf's instances that this solver finishes with the fewest nodes (see bench/korf100.py).
QUICKEST = (9, 2, 6, 4, 8, 5, 7, 1, 10, 3)


@pytest.mark.slow
def test_korf_quickest_ten_are_optimal(database, korf):
    by_number = {number: (optimum, cells) for number, optimum, cells in korf}
    for number in QUICKEST:
        optimum, cells = by_number[number]
        board = Board(4, 4, cells)
        result = solve(board, GOAL, "idastar", "pdb")
        assert result.length == optimum, number
        assert board.apply(result.moves) == GOAL
