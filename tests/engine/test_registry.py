"""The registries: every subject's solvers, heuristics and job kinds are found from any entry point, and the lists
the pages and the CLI show are read from them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.core.errors import PuzzleError
from engine.domains.tiles import goal_board
from engine.domains.tiles.heuristics import heuristic, heuristic_function, heuristics, search_heuristics
from engine.domains.tiles.solving import check_request, solvers

ROOT = Path(__file__).resolve().parents[2]


def test_a_notebook_that_imports_one_module_finds_every_subjects_entries():
    """No load_all() call: the lookups load the subjects themselves (DPSO from engine.subjects.meta, learned from
    engine.subjects.learned), in a fresh interpreter, without compiling a kernel."""
    script = ("import sys\n"
              "from engine.domains.tiles.solving import check_request\n"
              "from engine.domains.tiles import goal_board\n"
              "from engine.domains.tiles.heuristics import heuristic\n"
              "info, _ = check_request(goal_board(4, 4), 'ga', None)\n"
              "print(info.label, heuristic('learned').admissible, 'numba' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          check=True)
    assert done.stdout.split() == ["Genetic", "algorithm", "False", "False"]


def test_each_heuristic_record_says_what_the_solvers_need():
    records = heuristics()
    assert list(records)[0] == "manhattan"  # the default every menu opens on
    assert {"manhattan", "linear-conflict", "pdb", "pdb-78", "pdb-663", "pdb-6666", "learned"} <= set(
        search_heuristics())
    assert set(search_heuristics()) == {name for name, h in records.items() if h.kernel is not None}
    assert not records["learned"].admissible  # its values may overestimate (seed 002)
    assert all(records[name].admissible for name in ("manhattan", "linear-conflict", "misplaced", "pdb-663"))
    assert {name for name, h in records.items() if h.shape == (4, 4)} == {"pdb", "pdb-78", "pdb-663", "learned"}
    assert records["pdb-6666"].shape == (5, 5)
    assert records["misplaced"].kernel is None and "misplaced" not in solvers()["astar"].heuristics


def test_the_python_functions_come_from_the_records():
    goal = goal_board(3, 3, "blank-last")
    board = goal.apply("ULUL")  # four moves: tiles 6, 5, 2 and 1 each one cell off
    assert [heuristic_function(name, goal)(board) for name in ("manhattan", "misplaced", "zero")] == [4, 4, 0]
    assert heuristic_function("linear-conflict", goal)(board) >= 4


def test_an_unknown_heuristic_or_a_wrong_board_is_a_clear_error():
    with pytest.raises(PuzzleError, match="unknown heuristic 'euclid': choose one of manhattan, linear-conflict"):
        heuristic("euclid")
    with pytest.raises(PuzzleError, match="the learned table heuristic is made for the 4x4 puzzle only"):
        check_request(goal_board(3, 3), "idastar", "learned")
    with pytest.raises(PuzzleError, match="IDA\\* takes the heuristics manhattan, linear-conflict, pdb"):
        check_request(goal_board(3, 3), "idastar", "misplaced")


def test_the_offered_heuristics_follow_the_board_and_what_is_available():
    idastar = solvers()["idastar"]
    three = idastar.heuristics_for(goal_board(3, 3))
    assert three[0] == "manhattan" and "linear-conflict" in three
    assert not {"pdb", "pdb-78", "pdb-663", "pdb-6666", "learned"} & set(three)  # made for other shapes
    four = idastar.heuristics_for(goal_board(4, 4))
    assert {"manhattan", "linear-conflict", "pdb", "pdb-78", "pdb-663"} <= set(four) and "pdb-6666" not in four
    assert ("learned" in four) == heuristic("learned").available(goal_board(4, 4))


def test_every_registered_solver_reaches_the_goal_from_two_moves_away():
    """Each solver with each heuristic it offers for 3×3, whoever registered it (a new one is checked here too)."""
    from engine.core.result import Budget
    from engine.domains.tiles.solving import solve_board

    goal = goal_board(3, 3, "blank-last")
    board = goal.apply("UL")
    tried = []
    for info in solvers().values():
        for name in info.heuristics_for(board):
            result = solve_board(board, goal, info.name, name, Budget(max_seconds=60))
            assert result.status == "solved" and board.apply(result.moves) == goal, (info.name, name)
            assert result.length == 2 or not result.optimal, (info.name, name)  # what is called optimal is
            tried.append(info.name)
    assert {"bfs", "astar", "idastar", "table", "fast", "dpso", "ga"} <= set(tried)


def test_each_registry_refuses_a_second_entry_of_a_name():
    """A second registration under a taken name would silently replace the first: every registry refuses it."""
    from engine.domains.tiles.heuristics import register_heuristic
    from engine.domains.tiles.solving import register_solver
    from engine.search.record import ALGORITHMS, register
    from engine.serving.jobs import job_kind, job_kinds

    taken_solver, taken_heuristic = solvers()["idastar"], heuristics()["manhattan"]
    with pytest.raises(ValueError, match="solver 'idastar' is registered twice"):
        register_solver(taken_solver)
    with pytest.raises(ValueError, match="heuristic 'manhattan' is registered twice"):
        register_heuristic(taken_heuristic)
    with pytest.raises(ValueError, match="job kind 'solve' is registered twice"):
        job_kind("solve")(lambda params, report, cancel: {})
    with pytest.raises(ValueError, match="algorithm 'bfs' is registered twice"):
        register(ALGORITHMS["bfs"])
    assert solvers()["idastar"] is taken_solver and heuristics()["manhattan"] is taken_heuristic
    assert job_kinds()["solve"].run.__module__ == "engine.search.jobs"
