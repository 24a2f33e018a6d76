"""IDA* spread over the session's Dask cluster (engine/domains/tiles/parallel_ida.py) against the serial kernel: the
same nodes expanded after every bound that ends without a goal, the same bounds, an answer of the same length that
replays to the goal; a cancel stops the tasks running on the workers."""

import json
import threading

import pytest
from distributed import Client, get_task_stream

from engine.core.result import Watch
from engine.core.status import Status
from engine.domains.tiles.board import Board, goal_board, half_turn
from engine.domains.tiles.parallel_ida import spread_idastar
from engine.domains.tiles.pools import DaskPool, ThreadPool
from engine.domains.tiles.random import scramble
from engine.domains.tiles.solving import solve_board
from engine.serving.lanes import lane_workers


@pytest.fixture(scope="module")
def cluster(scheduler_address):
    with Client(scheduler_address, set_as_default=False) as client:
        pool = DaskPool(client, lane_workers(client, "long"))
        yield client, pool
        pool.close()


def assert_same_search(spread, serial, board, goal):
    assert spread.status == serial.status == Status.SOLVED and goal == board.apply(spread.moves)
    assert spread.length == serial.length and spread.optimal
    # every bound but the last (where the goal stops the tasks wherever they are) expands the serial search's nodes
    assert [b["bound"] for b in spread.extra["bounds"]] == [b["bound"] for b in serial.extra["bounds"]]
    assert spread.extra["bounds"][:-1] == serial.extra["bounds"][:-1]


@pytest.mark.parametrize(("size", "heuristic", "seed", "moves"), [
    (4, "manhattan", 1, 45), (4, "linear-conflict", 1, 45), (4, "manhattan", 3, 45), (4, "linear-conflict", 3, 45),
    (5, "linear-conflict", 1, 40)])
def test_spread_over_dask_equals_the_serial_kernel_bound_by_bound(cluster, size, heuristic, seed, moves):
    client, pool = cluster
    goal = goal_board(size, size)
    board, _ = scramble(goal, moves, seed=seed)
    serial = solve_board(board, goal, "idastar", heuristic)
    with get_task_stream(client=client) as stream:
        spread = spread_idastar(board, goal, heuristic, Watch(), pool)
    assert_same_search(spread, serial, board, goal)
    ran = [task for task in stream.data if task["key"].startswith("ida-")]
    assert ran and {task["worker"] for task in ran} <= set(pool.addresses)  # the tasks ran on the long lane


@pytest.mark.parametrize("goal_name", ["blank-first", "blank-last"])
def test_spread_with_a_pattern_database_solves_korf_instances_as_the_serial_search(cluster, db663, korf, goal_name):
    """Korf's instances 2 and 4 (55 and 56 moves, tens of thousands of nodes); the blank-last goal reads the
    blank-first database through the half-turn, in the workers as here."""
    _, pool = cluster
    goal = goal_board(4, 4, goal_name)
    for number, optimum, cells in (korf[1], korf[3]):
        board = Board(4, 4, cells) if goal_name == "blank-first" else half_turn(Board(4, 4, cells))
        serial = solve_board(board, goal, "idastar", "pdb-663")
        spread = spread_idastar(board, goal, "pdb-663", Watch(), pool)
        assert spread.length == optimum, number
        assert_same_search(spread, serial, board, goal)
        assert any(spread.extra["tasks"])


def test_spread_on_threads_equals_the_serial_kernel():
    goal = goal_board(4, 4, "blank-last")
    board, _ = scramble(goal, 40, seed=7)
    serial = solve_board(board, goal, "idastar", "linear-conflict")
    spread = spread_idastar(board, goal, "linear-conflict", Watch(), pool := ThreadPool(2))
    pool.close()
    assert_same_search(spread, serial, board, goal)


def test_a_cancel_stops_the_tasks_on_the_workers(cluster, korf):
    """Korf's instance 1 with Manhattan distance takes minutes; cancelled once the tasks of bound 51 run."""
    client, pool = cluster
    goal = goal_board(4, 4, "blank-first")
    board = Board(4, 4, korf[0][2])
    cancel = threading.Event()

    def progress(fraction, info):
        if info.get("bound", 0) >= 51 and "tasks" in info:
            cancel.set()

    result = spread_idastar(board, goal, "manhattan", Watch(cancel=cancel, progress=progress), pool)
    assert result.status == Status.CANCELLED and not result.moves
    assert result.extra["stopped_tasks"] > 0  # running tasks read the stop flag and ended early
    assert all(b["bound"] < 51 for b in result.extra["bounds"])  # the cancelled bound is not reported as complete
    processing = client.processing()
    assert not [key for keys in processing.values() for key in keys if str(key).startswith("ida-")]


def test_the_cli_solves_with_the_spread_search(capsys, monkeypatch):
    """``python -m engine solve --solver idastar-spread`` without a cluster named: this machine's threads."""
    from engine.cli import main

    monkeypatch.delenv("PUZZLE_SCHEDULER", raising=False)
    goal = goal_board(4, 4, "blank-first")
    board, _ = scramble(goal, 40, seed=2)
    assert main(["solve", "--size", "4x4", "--goal", "blank-first", "--solver", "idastar-spread", "--heuristic",
                 "linear-conflict", "--json", " ".join(map(str, board.cells))]) == 0
    printed = json.loads(capsys.readouterr().out)
    serial = solve_board(board, goal, "idastar", "linear-conflict")
    assert printed["solver"] == "idastar-spread" and printed["length"] == serial.length
    assert goal == board.apply(printed["moves"]) and printed["extra"]["bounds"][:-1] == serial.extra["bounds"][:-1]
