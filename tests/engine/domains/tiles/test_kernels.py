"""The numba kernels agree with the readable references beside them."""

import itertools
import math

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.domains.tiles import Board, goal_board, random_solvable, scramble
from engine.domains.tiles.goal_arrays import goal_tables
from engine.domains.tiles.heuristic_kernels import linear_conflict_sum, manhattan_sum
from engine.domains.tiles.heuristics import linear_conflicts, manhattan_distance
from engine.domains.tiles.problem import SlidingTileProblem
from engine.domains.tiles.ranking import lexicographic_radix, partial_rank
from engine.domains.tiles.ranking_kernels import rank_of_positions, unrank_positions
from engine.domains.tiles.solving import solve_board
from engine.search import idastar_search
from tests.support.ida import one_iteration

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


@settings(max_examples=80, deadline=None)
@given(data=st.data(), n=st.sampled_from([4, 9, 12, 16, 400]), m=st.integers(1, 12))
def test_rank_and_unrank_are_inverse_and_agree_with_the_reference(data, n, m):
    m = min(m, n)
    assume(math.perm(n, m) < 2**63)  # every table this indexes is far smaller
    where = data.draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m, unique=True))
    radix = lexicographic_radix(m, n)
    rank = rank_of_positions(np.array(where, dtype=np.int64), radix)
    assert rank == partial_rank(where, n) < math.perm(n, m)
    out = np.empty(m, dtype=np.int64)
    unrank_positions(rank, radix, out)
    assert out.tolist() == where


def test_whole_boards_are_ranked_in_lexicographic_order():
    radix = lexicographic_radix(5, 5)
    ranks = [rank_of_positions(np.array(p, dtype=np.int64), radix) for p in itertools.permutations(range(5))]
    assert ranks == list(range(120))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**9), heuristic=st.sampled_from(["manhattan", "linear-conflict"]),
       shape=st.sampled_from([(3, 3), (2, 4), (3, 4)]))
def test_idastar_kernel_matches_reference_node_for_node(seed, heuristic, shape):
    goal = goal_board(*shape, "blank-last")
    board, _ = scramble(goal, 22, seed)
    fast = solve_board(board, goal, "idastar", heuristic)
    reference = idastar_search(SlidingTileProblem(board, goal, heuristic))
    assert fast.moves == reference.moves
    assert (fast.nodes_expanded, fast.nodes_generated) == (reference.nodes_expanded, reference.nodes_generated)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**9), quota=st.sampled_from([7, 1000, 10**9]),
       heuristic=st.sampled_from(["manhattan", "linear-conflict"]), shape=st.sampled_from([(4, 4), (3, 5)]))
def test_the_generated_kernels_are_the_reference_kernel_node_for_node(seed, quota, heuristic, shape):
    goal = goal_board(*shape, "blank-first")
    board, _ = scramble(goal, 30, seed)
    h = manhattan_distance(board, goal)
    for bound in (h, h + 2, h + 4):
        assert one_iteration("compiled", heuristic, board, goal, bound, quota) == one_iteration(
            "reference", heuristic, board, goal, bound, quota)


def test_every_compiled_heuristic_is_a_record_and_an_unknown_one_is_refused():
    import pytest

    from engine.core.errors import PuzzleError
    from engine.core.result import Watch
    from engine.domains.tiles.heuristics import heuristics, search_heuristics
    from engine.domains.tiles.ida_kernels import KernelHeuristic
    from engine.domains.tiles.kernel_drivers import idastar

    for name in search_heuristics():
        assert isinstance(heuristics()[name].compiled(), KernelHeuristic), name
    goal = goal_board(3, 3)
    with pytest.raises(PuzzleError, match="unknown heuristic"):
        idastar(goal.apply("UL"), goal, "no-such-heuristic", Watch())
    with pytest.raises(PuzzleError, match="no compiled search"):
        idastar(goal.apply("UL"), goal, "misplaced", Watch())


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**9), heuristic=st.sampled_from(["manhattan", "linear-conflict"]),
       shape=st.sampled_from([(3, 3), (2, 4), (3, 4), (4, 4), (2, 6)]),
       convention=st.sampled_from(["blank-first", "blank-last"]))
def test_compiled_astar_equals_the_readable_astar_node_for_node(seed, heuristic, shape, convention):
    from engine.core.result import Watch
    from engine.domains.tiles.astar import astar_fast
    from engine.search import astar_search

    goal = goal_board(*shape, convention)
    board = random_solvable(goal, seed) if shape[0] * shape[1] <= 9 else scramble(goal, 36, seed)[0]
    fast = astar_fast(board, goal, heuristic, Watch())
    reference = astar_search(SlidingTileProblem(board, goal, heuristic))
    assert fast.moves == reference.moves
    assert (fast.nodes_expanded, fast.nodes_generated, fast.peak_frontier) == (
        reference.nodes_expanded, reference.nodes_generated, reference.peak_frontier)


def test_compiled_astar_grows_its_arrays_and_keeps_its_budget():
    from engine.core.result import Budget, Watch
    from engine.domains.tiles.astar import astar_fast

    goal = goal_board(4, 4, "blank-first")
    board = Board(4, 4, (14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3))  # Korf #1: far beyond the budget
    result = astar_fast(board, goal, "manhattan", Watch(Budget(max_nodes=50_000)))
    assert result.status == "budget_exhausted" and result.nodes_expanded == 50_000
    assert result.peak_frontier > 4096  # past the first arrays' size


def test_compiled_astar_hashes_over_the_whole_table():
    # A table past 2**24 slots is used whole: were the slots of 10,000 positions all in its first 2**24, a search
    # holding more than that many positions would probe one ever longer run of full slots.
    from engine.domains.tiles.astar import _slot

    table = np.full(1 << 25, -1, dtype=np.int32)
    keys = np.zeros(1, dtype=np.uint64)
    slots = [_slot(table, keys, np.uint64(key)) for key in range(1, 10_001)]
    assert sum(slot >= 1 << 24 for slot in slots) > 4_000


def test_the_astar_solver_is_the_compiled_one_where_it_applies(monkeypatch):
    """Both A*s expand the same nodes (the test above), so counts cannot tell which one ran: the calls are recorded."""
    import engine.domains.tiles.astar
    import engine.domains.tiles.solvers
    from engine.domains.tiles.astar import supports

    ran = []
    compiled, readable = engine.domains.tiles.astar.astar_fast, engine.domains.tiles.solvers.astar_search

    def run_compiled(board, *args, **kwargs):
        ran.append(("compiled", board))
        return compiled(board, *args, **kwargs)

    def run_readable(problem, **kwargs):
        ran.append(("readable", problem.initial))
        return readable(problem, **kwargs)

    monkeypatch.setattr(engine.domains.tiles.astar, "astar_fast", run_compiled)
    monkeypatch.setattr(engine.domains.tiles.solvers, "astar_search", run_readable)
    goal = goal_board(3, 3)
    assert supports(goal, "manhattan") and supports(goal, "linear-conflict")
    assert not supports(goal_board(4, 5), "manhattan") and not supports(goal_board(4, 4), "pdb-663")
    hardest = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))  # one of the two 8-puzzle positions 31 moves from the goal
    assert solve_board(hardest, goal, "astar", "manhattan").length == 31
    wide = goal_board(4, 5)
    near = wide.apply("ULU")
    assert solve_board(near, wide, "astar", "manhattan").length == 3
    assert [name for name, board in ran if board in (hardest, near)] == ["compiled", "readable"]
