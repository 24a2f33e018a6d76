import functools
import math
import threading
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.core.result
from engine.core.errors import PuzzleError
from engine.core.result import Budget
from engine.domains.tiles import Board, goal_board, random_solvable, scramble
from engine.domains.tiles.kernel_drivers import bfs_distances, goal_distance_table
from engine.domains.tiles.solving import solve_board, solvers

SEED_004 = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))
KORF_1 = Board(4, 4, (14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3))  # 57 moves: far beyond these budgets
GOAL_3x3 = goal_board(3, 3, "blank-last")


def test_8_puzzle_full_bfs():
    """Seed 004: 181,440 solvable positions, diameter 31, exactly two positions at distance 31."""
    distance, counts = bfs_distances(GOAL_3x3)
    reached = distance[distance != 255]
    assert reached.size == 181_440
    assert int(reached.max()) == 31 == counts["depth"]
    assert int((reached == 31).sum()) == 2


@pytest.mark.parametrize("rows, cols, diameter", [(2, 2, 6), (2, 3, 21), (2, 4, 36), (2, 5, 55)])
def test_2xn_diameters_match_seed_000_table_1(rows, cols, diameter):
    distance, counts = bfs_distances(goal_board(rows, cols, "blank-first"))
    assert counts["depth"] == diameter
    assert int(distance[distance != 255].max()) == diameter


# every optimal solver with every heuristic it offers for the 8-puzzle, from the registry: a new one is tested here
SOLVERS = [(info.name, heuristic) for info in solvers().values() if info.optimal and info.supports(GOAL_3x3)
           for heuristic in info.heuristics_for(GOAL_3x3)]


def test_the_registry_offers_the_known_optimal_8_puzzle_solvers():
    assert {("bfs", ""), ("astar", "manhattan"), ("astar", "linear-conflict"), ("idastar", "manhattan"),
            ("idastar", "linear-conflict"), ("table", "perfect")} <= set(SOLVERS)


@pytest.mark.parametrize("solver, heuristic", SOLVERS)
def test_seed_004_needs_31_moves(solver, heuristic):
    result = solve_board(SEED_004, GOAL_3x3, solver, heuristic)
    assert result.status == "solved" and result.optimal
    assert result.length == 31
    assert SEED_004.apply(result.moves) == GOAL_3x3


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**9), convention=st.sampled_from(["blank-first", "blank-last"]))
def test_every_optimal_solver_agrees_with_bfs_on_random_8_puzzles(seed, convention):
    goal = goal_board(3, 3, convention)
    board = random_solvable(goal, seed)
    distance = goal_distance_table(goal)  # one full BFS from the goal: the true distances
    from engine.domains.tiles.ranking_kernels import board_rank

    optimum = int(distance[board_rank(board.cells)])
    for solver, heuristic in SOLVERS:
        result = solve_board(board, goal, solver, heuristic)
        assert result.length == optimum, (solver, heuristic)
        assert board.apply(result.moves) == goal


# 2×4, tiles 1 and 2 swapped in the blank-last goal: a goal of the other parity, out of reach of the standard goal
CUSTOM_2x4 = (2, 1, 3, 4, 5, 6, 7, 0)
BLANK_STEP = {"U": -4, "D": 4, "L": -1, "R": 1}  # the blank's step along the 2×4 board's cells, row-major


def blank_moves(cells: tuple) -> dict:
    """The positions one move from ``cells`` on the 2×4 board, by the letter of the blank's move."""
    blank = cells.index(0)
    row, col = divmod(blank, 4)
    legal = {"U": row == 1, "D": row == 0, "L": col > 0, "R": col < 3}
    after = {}
    for move, step in BLANK_STEP.items():
        if legal[move]:
            swapped = list(cells)
            swapped[blank], swapped[blank + step] = swapped[blank + step], 0
            after[move] = tuple(swapped)
    return after


@functools.cache
def distances_to_custom_2x4() -> dict:
    """Every position's fewest moves to ``CUSTOM_2x4``, by a plain breadth-first search written here."""
    distance, layer = {CUSTOM_2x4: 0}, [CUSTOM_2x4]
    while layer:
        following = []
        for cells in layer:
            for child in blank_moves(cells).values():
                if child not in distance:
                    distance[child] = distance[cells] + 1
                    following.append(child)
        layer = following
    return distance


def test_the_custom_2x4_goal_is_of_the_other_parity():
    reached = distances_to_custom_2x4()
    assert len(reached) == 20_160 == math.factorial(8) // 2
    assert goal_board(2, 4, "blank-last").cells not in reached


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_2x4_with_custom_goal(seed):
    goal = Board(2, 4, CUSTOM_2x4)
    board = random_solvable(goal, seed)
    shortest = distances_to_custom_2x4()[board.cells]
    for solver, heuristic in [("bfs", ""), ("idastar", "linear-conflict"), ("astar", "manhattan")]:
        result = solve_board(board, goal, solver, heuristic)
        cells = board.cells
        for move in result.moves:
            cells = blank_moves(cells)[move]
        assert cells == CUSTOM_2x4, solver
        assert result.length == len(result.moves) == shortest, solver


def test_unsolvable_is_reported_without_searching():
    board = Board(3, 3, (2, 1, 3, 4, 5, 6, 7, 8, 0))
    for solver, heuristic in SOLVERS:
        result = solve_board(board, GOAL_3x3, solver, heuristic)
        assert result.status == "unsolvable"
        assert result.nodes_expanded == 0
        assert "odd" in result.message


def test_node_budget_stops_the_search():
    result = solve_board(KORF_1, goal_board(4, 4, "blank-first"), "idastar", "manhattan", Budget(max_nodes=3_000_000))
    assert result.status == "budget_exhausted"
    assert 3_000_000 <= result.nodes_expanded < 6_000_000
    assert "node budget" in result.message and result.extra["budget"] == "nodes"


@pytest.mark.parametrize("solver", ["astar", "idastar"])
def test_time_budget_stops_the_search_at_its_first_look_past_it(monkeypatch, solver):
    # The search's clock is its own progress, 0.2 s per report, so the machine's speed cannot change where it stops:
    # past the 0.5 s budget after the third report, and at the first check after that.
    reports = []
    monkeypatch.setattr(engine.core.result, "time", SimpleNamespace(perf_counter=lambda: 0.2 * len(reports)))
    result = solve_board(KORF_1, goal_board(4, 4, "blank-first"), solver, "manhattan", Budget(max_seconds=0.5),
                   progress=lambda fraction, info: reports.append(info["nodes"]))
    assert result.status == "budget_exhausted" and "0.5 s" in result.message and result.extra["budget"] == "seconds"
    assert len(reports) == 3 and 0 < reports[0] < reports[1] < reports[2] <= result.nodes_expanded


@pytest.mark.parametrize("solver, board, goal", [
    ("astar", KORF_1, goal_board(4, 4, "blank-first")),  # the compiled A*: its arrays
    ("astar", random_solvable(goal_board(5, 5), 1), goal_board(5, 5)),  # the readable one
    ("bfs", random_solvable(goal_board(3, 4), 1), goal_board(3, 4)),  # a byte per position: 479 MB
])
def test_memory_budget_stops_the_search_and_says_so(solver, board, goal):
    budget = Budget(max_seconds=600, max_bytes=8 * 2**20)
    result = solve_board(board, goal, solver, "manhattan", budget)
    assert result.status == "budget_exhausted" and result.extra["budget"] == "memory"
    assert "memory budget (8 MB)" in result.message
    assert result.extra.get("table_megabytes", 0) <= 8


@pytest.mark.parametrize("solver", ["astar", "idastar"])
def test_cancel_stops_the_search_mid_way(solver):
    cancel = threading.Event()
    reports = []

    def progress(fraction, info):  # cancelled from outside while the search runs, as the job's cancel button does
        reports.append(info["nodes"])
        if len(reports) == 2:
            cancel.set()

    result = solve_board(KORF_1, goal_board(4, 4, "blank-first"), solver, "manhattan", progress=progress, cancel=cancel)
    assert result.status == "cancelled" and result.message == "cancelled"
    assert len(reports) == 2 and 0 < reports[0] < reports[1] <= result.nodes_expanded


def test_bad_solver_requests():
    with pytest.raises(PuzzleError, match="unknown solver"):
        solve_board(SEED_004, GOAL_3x3, "magic")
    with pytest.raises(PuzzleError, match="at most 12 cells"):
        solve_board(goal_board(4, 4), goal_board(4, 4), "bfs")
    with pytest.raises(PuzzleError, match="4x4 puzzle only"):
        solve_board(SEED_004, GOAL_3x3, "idastar", "pdb")
    with pytest.raises(PuzzleError, match="heuristics"):
        solve_board(SEED_004, GOAL_3x3, "idastar", "hamming")


def test_scrambled_15_puzzle_solutions_replay():
    goal = goal_board(4, 4, "blank-last")
    board, path = scramble(goal, 30, seed=7)
    result = solve_board(board, goal, "idastar", "linear-conflict")
    assert result.status == "solved" and result.length <= 30
    assert board.apply(result.moves) == goal


def test_larger_boards_solve():
    goal = goal_board(5, 5, "blank-last")
    board, _ = scramble(goal, 25, seed=3)
    result = solve_board(board, goal, "idastar", "linear-conflict")
    assert board.apply(result.moves) == goal and result.length <= 25


@pytest.mark.parametrize("size", ["2x2", "2x3", "3x2", "2x6", "6x2", "3x3", "3x4", "4x4", "2x12", "4x5", "5x5", "3x6",
                                  "5x6", "6x5", "6x6"])
@pytest.mark.parametrize("convention", ["blank-first", "blank-last"])
def test_fast_answers_random_boards_of_every_offered_size(size, convention):
    from engine.core.result import Watch
    from engine.domains.tiles import parse_size
    from engine.domains.tiles.reduction import reduction_moves

    goal = goal_board(*parse_size(size), convention)
    for seed in range(3):
        board = random_solvable(goal, seed)
        result = solve_board(board, goal, "fast", None)
        assert result.status == "solved" and board.apply(result.moves) == goal
        assert result.extra["lower_bound"] <= result.length
        if result.extra["method"].startswith("IDA*"):  # close to home: optimal
            assert result.optimal and "optimal" in result.message
        else:
            assert str(result.extra["lower_bound"]) in result.message
            assert result.optimal == (result.length == result.extra["lower_bound"])
        assert board.apply(reduction_moves(board, goal, Watch())) == goal  # the reduction itself, on every size


def test_fast_with_a_goal_whose_blank_is_in_the_middle():
    goal = Board(5, 5, tuple(range(1, 13)) + (0,) + tuple(range(13, 25)))
    board = random_solvable(goal, 4)
    result = solve_board(board, goal, "fast", None)
    assert result.status == "solved" and board.apply(result.moves) == goal


def test_fast_on_an_unsolvable_board_a_solved_one_and_one_close_to_home():
    from engine.core.result import Watch
    from engine.domains.tiles.reduction import reduction_moves

    assert solve_board(Board(3, 3, (2, 1, 3, 4, 5, 6, 7, 8, 0)), GOAL_3x3, "fast", None).status == "unsolvable"
    result = solve_board(GOAL_3x3, GOAL_3x3, "fast", None)
    assert result.status == "solved" and result.length == 0 and result.optimal
    goal = goal_board(6, 6, "blank-last")
    board = goal.apply("UULDRD")
    result = solve_board(board, goal, "fast", None)
    assert result.optimal and board.apply(result.moves) == goal and result.length <= 6
    assert reduction_moves(goal.apply("L"), goal, Watch()) == "R"  # placed lines are left alone


def test_loading_the_fast_solvers_kernels_goes_through_its_line_placing_search(monkeypatch):
    # what a solve loads before its clock starts must be what it runs: the fast solver places lines by a compiled
    # search, which a position close to the goal would otherwise never reach (its compilation counted as search)
    from engine.domains.tiles import reduction
    from engine.domains.tiles import solving as registry_of_solvers

    calls = []
    place_group = reduction.place_group
    monkeypatch.setattr(reduction, "place_group", lambda *args: calls.append(1) or place_group(*args))
    monkeypatch.setattr(registry_of_solvers, "_loaded", set())
    info = solvers()["fast"]
    registry_of_solvers.load_kernels(info, "", goal_board(4, 4), {})
    assert calls


def test_a_results_dict_is_a_copy_down_to_its_numbers():
    """``to_dict`` copies as ``dataclasses.asdict`` does: a change to the dict (a path's cell, a dataclass in
    ``extra``, now a dict) leaves the result as it was."""
    from engine.core.result import SolveResult
    from engine.core.status import Status

    result = SolveResult(Status.SOLVED, "R", True, extra={"path": [[1, 0], [0, 1]], "budget": Budget(5, 1.0, 7),
                                                           "pair": (1, [2])})
    data = result.to_dict()
    data["extra"]["path"][0][0] = 9
    data["extra"]["pair"][1].append(3)
    assert result.extra["path"] == [[1, 0], [0, 1]] and result.extra["pair"] == (1, [2])
    assert data["extra"]["budget"] == {"max_nodes": 5, "max_seconds": 1.0, "max_bytes": 7}
    assert data["status"] == "solved" and data["length"] == 1 and "actions" not in data
