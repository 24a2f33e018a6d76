"""The numba kernels agree with the readable references beside them."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.search import SlidingTileProblem, idastar_search
from engine.solvers import solve
from engine.tiles import Board, goal_board, random_solvable, scramble
from engine.tiles.heuristics import linear_conflicts, manhattan_distance
from engine.tiles.kernels import linear_conflict_sum, manhattan_sum, permutation_rank, permutation_unrank
from engine.tiles.tables import goal_tables

SHAPES = [(3, 3), (4, 4), (2, 5), (3, 5), (5, 5), (2, 2)]


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 10**9), shape=st.sampled_from(SHAPES),
       convention=st.sampled_from(["blank-first", "blank-last"]))
def test_heuristic_kernels_match_references(seed, shape, convention):
    goal = goal_board(*shape, convention)
    board = random_solvable(goal, seed)
    tables = goal_tables(goal)
    cells = np.array(board.cells, dtype=np.int64)
    assert manhattan_sum(cells, tables.manhattan) == manhattan_distance(board, goal)
    assert linear_conflict_sum(cells, goal.rows, goal.cols, tables.goal_row, tables.goal_col) == \
        linear_conflicts(board, goal)


def test_linear_conflict_hand_checked():
    goal = goal_board(3, 3, "blank-last")
    # Row 0 holds 3 2 1: all three in their goal row, longest ordered run is 1, so two must leave the row.
    board = Board(3, 3, (3, 2, 1, 4, 5, 6, 7, 8, 0))
    assert linear_conflicts(board, goal) == 2
    assert manhattan_distance(board, goal) == 4


@settings(max_examples=50, deadline=None)
@given(rank=st.integers(0, 362_879))
def test_rank_unrank_round_trip(rank):
    out = np.empty(9, dtype=np.int64)
    permutation_unrank(rank, 9, out)
    assert sorted(out) == list(range(9))
    assert permutation_rank(out) == rank


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**9), heuristic=st.sampled_from(["manhattan", "linear-conflict"]),
       shape=st.sampled_from([(3, 3), (2, 4), (3, 4)]))
def test_idastar_kernel_matches_reference_node_for_node(seed, heuristic, shape):
    goal = goal_board(*shape, "blank-last")
    board, _ = scramble(goal, 22, seed)
    fast = solve(board, goal, "idastar", heuristic)
    reference = idastar_search(SlidingTileProblem(board, goal, heuristic))
    assert fast.moves == reference.moves
    assert (fast.nodes_expanded, fast.nodes_generated) == (reference.nodes_expanded, reference.nodes_generated)
