"""The near-optimal solver: the beam kernel against its plain-Python reference (each heuristic), the half-turn that
lets one database serve both goals, the 6-6-6-6 grouping and its build on a 25-cell board, Korf & Taylor's data, and
the solver's answers and fallbacks.

The 6-6-6-6 database itself takes minutes to build, so no test builds it: the kernel's database mode is checked with
the 6-6-3 database on 4×4 (the same code, another board), and the build with small groups on 5×5.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import PuzzleError
from engine.core.result import Budget, Watch
from engine.domains.tiles import Board, goal_board, pdb, pdb_build, scramble
from engine.domains.tiles.beam_kernels import H_LINEAR_CONFLICT, H_MANHATTAN, H_PDB, beam_reference
from engine.domains.tiles.board import half_turn, half_turn_moves
from engine.domains.tiles.heuristics import linear_conflict_distance, manhattan_distance
from engine.domains.tiles.kernel_drivers import bfs_distances
from engine.domains.tiles.near_optimal import PATIENCE, WIDTHS, beam_search, depth_limit
from engine.domains.tiles.random import random_solvable
from engine.domains.tiles.ranking_kernels import board_rank
from engine.domains.tiles.solvability import check_solvable
from engine.domains.tiles.solving import solve_board
from tests.support.korf import korf_taylor_instances

FIRST5 = goal_board(5, 5, "blank-first")
LAST5 = goal_board(5, 5, "blank-last")


@pytest.mark.parametrize("rows, cols, mode, width", [(3, 3, H_MANHATTAN, 2), (4, 4, H_MANHATTAN, 16),
                                                     (4, 4, H_LINEAR_CONFLICT, 8), (3, 4, H_LINEAR_CONFLICT, 4)])
def test_the_beam_kernel_equals_the_reference(rows, cols, mode, width):
    goal = goal_board(rows, cols)
    h = manhattan_distance if mode == H_MANHATTAN else linear_conflict_distance
    for seed in range(4):
        board = random_solvable(goal, seed)
        moves, _, reached, _ = beam_search(board, goal, width, mode, None, Watch(Budget(10**9, 60)))
        expected = beam_reference(list(board.cells), list(goal.cells), cols, width,
                                  lambda cells: h(Board(rows, cols, cells), goal), depth_limit(board, goal),
                                  PATIENCE * board.size)
        if expected is None:
            assert not reached
        else:
            assert reached and moves == expected and board.apply(moves) == goal


def beam_key(database, cells):
    """The beam's rank of a position with a database: its direct sum plus its mirrored sum."""
    direct, mirrored = database.group_values(Board(4, 4, cells))
    return sum(direct) + sum(mirrored or [])


def test_the_beam_kernel_reads_a_pattern_database_as_the_reference_does(db663):
    goal = db663.goal
    for seed in range(3):
        board = random_solvable(goal, seed)
        moves, _, reached, _ = beam_search(board, goal, 32, H_PDB, db663, Watch(Budget(10**9, 60)))
        expected = beam_reference(list(board.cells), list(goal.cells), 4, 32, lambda cells: beam_key(db663, cells),
                                  depth_limit(board, goal), PATIENCE * 16)
        assert reached and moves == expected and board.apply(moves) == goal


@settings(max_examples=30, deadline=None)
@given(cells=st.permutations(range(9)))
def test_the_half_turn_keeps_distances(cells):
    board, goal = Board(3, 3, tuple(cells)), goal_board(3, 3, "blank-last")
    assert half_turn(goal_board(3, 3, "blank-first")) == goal and half_turn(half_turn(board)) == board
    if not check_solvable(board, goal).solvable:
        return
    turned = half_turn(board)
    result = solve_board(turned, half_turn(goal), "idastar", "manhattan")
    assert board.apply(half_turn_moves(result.moves)) == goal
    distance, _ = bfs_distances(goal)
    assert result.length == distance[board_rank(board.cells)]


@pytest.mark.parametrize("grouping", ["pdb-6666", "pdb-5555555"])
def test_a_corner_split_for_the_blank_last_goal_is_the_half_turn_of_the_blank_first_one(grouping):
    """(tests/engine/domains/tiles/test_pdb.py checks that each split covers the tiles and that its mirror is
    another.)"""
    first, last = (goal_board(*pdb.SHAPES[grouping], name) for name in ("blank-first", "blank-last"))
    turned = {tuple(sorted(first.size - t for t in g)) for g in pdb.groups_of(grouping, first)}
    assert turned == {tuple(sorted(g)) for g in pdb.groups_of(grouping, last)}
    with pytest.raises(PuzzleError, match=f"{first.rows}x{first.cols}"):
        pdb.groups_of(grouping, goal_board(4, 4))
    with pytest.raises(PuzzleError, match="corner"):
        pdb.groups_of(grouping, goal_board(*pdb.SHAPES[grouping], "blank-first").move("R"))


@pytest.mark.parametrize("group", [(1, 7), (6, 12, 18)])
def test_the_build_on_25_cells_equals_the_plain_search(group):
    built = pdb_build.build_group_table(FIRST5, group)
    assert np.array_equal(built, pdb_build.group_table_reference(FIRST5, group))
    assert built.max() < pdb_build.UNSEEN


def test_korf_and_taylor_instances_are_solvable_and_their_lengths_have_the_right_parity():
    instances = korf_taylor_instances()
    assert [n for n, _, _ in instances] == list(range(1, 11))
    assert sorted(o for _, o, _ in instances) == [95, 96, 97, 98, 100, 101, 104, 108, 113, 114]
    for _, optimum, cells in instances:
        board = Board(5, 5, cells)
        assert check_solvable(board, FIRST5).solvable
        assert (optimum - manhattan_distance(board, FIRST5)) % 2 == 0 and optimum >= manhattan_distance(board, FIRST5)


@pytest.mark.parametrize("size", [5, 6])
def test_near_optimal_answers_big_boards_and_says_which_heuristic(size):
    goal = goal_board(size, size)
    board = random_solvable(goal, 7)
    result = solve_board(board, goal, "near-optimal", None)
    assert result.status == "solved" and board.apply(result.moves) == goal and not result.optimal
    assert result.solver == "near-optimal" and result.length >= result.extra["lower_bound"]
    assert result.extra["beams"] and result.extra["beams"][0]["width"] == WIDTHS[0]
    assert result.length <= solve_board(board, goal, "fast", None).length  # the reduction's answer is the worst kept
    if result.heuristic:  # a beam's answer; else the reduction's, and the message says so
        assert result.heuristic == "linear-conflict"  # no big board's database in this run's data directory
        label = pdb.LABELS["pdb-6666" if size == 5 else "pdb-5555555"]
        assert f"the {label} is not built yet (python -m engine tables build --all)" in result.message
    else:
        assert "fast solver's answer" in result.message


def test_near_optimal_on_a_solved_and_a_close_board():
    goal = goal_board(5, 5)
    assert solve_board(goal, goal, "near-optimal", None).length == 0
    board = goal.apply("ULUL")
    result = solve_board(board, goal, "near-optimal", None)
    assert result.length == 4 and result.optimal


def test_the_database_kernel_on_25_cells_equals_the_readable_search():
    """The IDA* database kernel on a 5×5 board, with a database of small groups built here (the 6-6-6-6 one takes
    minutes): the same nodes as the readable IDA* with ``PatternDatabase.value``, and the optimal length."""
    import math

    from engine.domains.tiles.kernel_drivers import idastar
    from engine.domains.tiles.pdb_kernel import child_order
    from engine.domains.tiles.problem import SlidingTileProblem
    from engine.search import idastar_search

    goal = FIRST5
    groups = tuple((t, t + 1) for t in range(1, 25, 2))
    tables = np.concatenate([pdb_build.build_group_table(goal, g) for g in groups])
    tables.setflags(write=False)
    sizes = [math.perm(25, 2)] * len(groups)
    database = pdb.PatternDatabase(goal, "pdb-6666", groups, tables, np.cumsum([0] + sizes[:-1]).astype(np.int64))
    for seed in range(2):
        board, _ = scramble(goal, 12, seed)
        problem = SlidingTileProblem(board, goal, "manhattan")
        problem._h = lambda b: max(manhattan_distance(b, goal), database.value(b))
        reference = idastar_search(problem, order_by=child_order(goal))
        compiled = idastar(board, goal, "pdb-6666", Watch(Budget(10**9, 60)), {"database": database},
                           pruning="parent")  # the readable IDA* never undoes the last move, and prunes no more
        assert compiled.moves == reference.moves and board.apply(compiled.moves) == goal
        assert (compiled.nodes_expanded, compiled.nodes_generated) == (reference.nodes_expanded,
                                                                         reference.nodes_generated)


def test_loading_near_optimal_loads_the_beam_kernels_before_any_beam_is_timed(monkeypatch):
    """The width of the second beam is chosen from the first one's time: loading the kernels (and reading the
    database's pages) belongs to ``load_kernels``, whose tiny solve one move from the goal must reach it."""
    from engine.domains.tiles import near_optimal
    from engine.domains.tiles import solving as solvers

    calls = []
    monkeypatch.setattr(near_optimal, "_ready", set())
    monkeypatch.setattr(solvers, "_loaded", set())
    real = near_optimal.beam_search
    monkeypatch.setattr(near_optimal, "beam_search", lambda *args: calls.append(args[2]) or real(*args))
    goal = goal_board(6, 6)
    solvers.load_kernels(solvers.solvers()["near-optimal"], "", goal, {})
    assert calls == [4] and id(None) in near_optimal._ready  # no 6×6 database in this run's data directory
    board = random_solvable(goal, 2)
    result = solve_board(board, goal, "near-optimal", None)
    assert calls[1] == WIDTHS[0] and 4 not in calls[1:]  # the timed beams only: the tiny one ran once
    assert result.status == "solved" and board.apply(result.moves) == goal
