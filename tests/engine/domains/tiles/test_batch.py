"""Many boards spread over workers (engine/domains/tiles/batch.py) against one solve per board: the same answers
(length, moves, nodes) on one worker and on two, on threads and on the session's Dask cluster; Korf's published
lengths; a cancel ends the batch; the job checks its parameters."""

import threading

import pytest
from distributed import Client

from engine.core.errors import PuzzleError
from engine.core.result import Budget, Watch
from engine.core.status import Status
from engine.domains.tiles.batch import solve_boards
from engine.domains.tiles.board import Board, goal_board, half_turn
from engine.domains.tiles.chunks import chunk_sizes, least_chunk
from engine.domains.tiles.jobs import MAX_BATCH, check_batch
from engine.domains.tiles.pools import DaskPool, ThreadPool
from engine.domains.tiles.random import scramble
from engine.domains.tiles.solving import solve_board
from engine.serving.lanes import lane_workers
from tests.support.waiting import wait_until

FIRST = goal_board(4, 4, "blank-first")


def answer(result: dict) -> tuple:
    return result["status"], result["length"], result["moves"], result["nodes_expanded"], result["nodes_generated"]


def queues(client) -> int:
    """The Dask queues the scheduler holds (a batch's crew takes its chunks from one and answers on another)."""
    return client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.extensions["queues"].queues))


def whole(result: dict) -> dict:
    """A board's answer but for what differs between two runs of the same search (its times) and the cells along
    its path, which a batch leaves to its tiles and moves."""
    extra = {key: value for key, value in result["extra"].items() if key != "path"}
    return {key: value for key, value in result.items() if key not in ("seconds", "load_seconds", "cpu", "tiles")
            } | {"extra": extra}


def test_chunks_are_guided_large_first_and_cover_every_board():
    # by hand: each chunk is a quarter (two slots, GUIDE 2) of the boards left, rounded up: 100 → 25, 75 → 19, ...
    assert chunk_sizes(100, 2) == [25, 19, 14, 11, 8, 6, 5, 3, 3, 2, 1, 1, 1, 1]
    assert chunk_sizes(100, 1) == [50, 25, 13, 6, 3, 2, 1]
    assert chunk_sizes(3, 8) == [1, 1, 1] and chunk_sizes(0, 2) == []
    assert chunk_sizes(100, 2, least=4) == [25, 19, 14, 11, 8, 6, 5, 4, 4, 4]  # the last: what is left


def test_a_chunk_lasts_at_least_what_a_task_costs():
    # 30 boards solved in 0.1 s: 3.3 ms each; a 10 ms task → chunks of 3 (10 / 3.3 rounded up)
    assert least_chunk(0.01, 0.1, 30) == 3
    assert least_chunk(0.01, 12.0, 4) == 1  # seconds a board: single boards
    assert least_chunk(0.0, 0.1, 30) == 1 and least_chunk(0.01, 0.0, 0) == 1  # threads; nothing measured yet


@pytest.fixture(scope="module")
def korf_boards(db663, korf):
    """Korf's instances 2, 4 and 6 (tens of thousands of nodes with 6-6-3) and three seeded 40-move scrambles."""
    boards = [Board(4, 4, cells) for _, _, cells in (korf[1], korf[3], korf[5])]
    boards += [scramble(FIRST, 40, seed=seed)[0] for seed in (1, 2, 3)]
    serial = [solve_board(board, FIRST, "idastar", "pdb-663").to_dict() for board in boards]
    return boards, serial


def test_one_and_two_threads_give_each_board_its_own_solve(korf_boards, korf):
    boards, serial = korf_boards
    for workers in (1, 2):
        pool = ThreadPool(workers)
        try:
            out = solve_boards(boards, FIRST, "idastar", "pdb-663", Budget(), pool)
        finally:
            pool.close()
        assert [whole(r) for r in out["results"]] == [whole(r) for r in serial]
        assert [r["tiles"] for r in out["results"]] == [list(board.cells) for board in boards]
        assert out["slots"] == workers and out["tasks"] == len(chunk_sizes(len(boards), workers))
    assert [r["length"] for r in serial[:3]] == [korf[1][1], korf[3][1], korf[5][1]]  # Korf's published optima


@pytest.mark.parametrize("lane", ["long", "interactive"])
def test_on_the_dask_cluster_each_board_gets_its_own_solve(korf_boards, scheduler_address, lane):
    """The session's cluster: its one long-lane worker (one slot), and its interactive worker (two threads: two
    slots on one address)."""
    boards, serial = korf_boards
    with Client(scheduler_address, set_as_default=False) as client:
        before = queues(client)
        pool = DaskPool(client, lane_workers(client, lane))
        try:
            out = solve_boards(boards, FIRST, "idastar", "pdb-663", Budget(), pool)
        finally:
            pool.close()
        wait_until(lambda: queues(client) == before, what="the crew's queues released")
    assert [answer(r) for r in out["results"]] == [answer(r) for r in serial]
    assert out["slots"] == (1 if lane == "long" else 2)
    assert out["tasks"] == len(chunk_sizes(len(boards), out["slots"]))  # boards of 4 ms or more: no least size


@pytest.mark.parametrize("goal_name", ["blank-first", "blank-last"])
def test_each_answer_is_the_one_solve_board_gives(db663, korf, goal_name):
    """The 7-8 database asked for where only the 6-6-3 is built (each answer says it fell back), on both goals
    (blank-last through the half-turn); then Manhattan distance's, whose node budget some boards run out of; among
    the boards the goal itself and an unsolvable board (answered, as for any other solver, by ``solve_board``)."""
    goal = goal_board(4, 4, goal_name)
    boards = [Board(4, 4, cells) if goal == FIRST else half_turn(Board(4, 4, cells)) for _, _, cells in korf[:4]]
    swapped = Board(4, 4, (goal.cells[0], goal.cells[2], goal.cells[1], *goal.cells[3:]))  # two tiles: unsolvable
    boards += [goal, scramble(goal, 30, seed=4)[0], swapped]
    results = {}
    for heuristic, budget in (("pdb-78", Budget()), ("manhattan", Budget(max_nodes=20_000))):
        pool = ThreadPool(2)
        try:
            results[heuristic] = solve_boards(boards, goal, "idastar", heuristic, budget, pool)["results"]
        finally:
            pool.close()
        single = [solve_board(board, goal, "idastar", heuristic, budget).to_dict() for board in boards]
        assert [whole(r) for r in results[heuristic]] == [whole(r) for r in single]
    database = results["pdb-78"]
    assert all("path" not in r["extra"] for r in database)  # the tiles and moves give it:
    assert all(Board(4, 4, tuple(r["tiles"])).apply(r["moves"]) == goal for r in database[:6])
    assert [r["length"] for r in database[:4]] == [optimum for _, optimum, _ in korf[:4]]
    assert all(r["heuristic"] == "pdb-663" and "used pdb-663" in r["message"] for r in database[:6])
    statuses = [r["status"] for r in results["manhattan"]]
    assert Status.BUDGET_EXHAUSTED in statuses and statuses[-3:] == [Status.SOLVED] * 2 + [Status.UNSOLVABLE]


@pytest.mark.parametrize("where", ["threads", "cluster"])
def test_a_cancel_ends_the_batch_and_says_which_boards_were_left(korf, scheduler_address, where):
    """Four easy boards, then Korf's first instance by Manhattan distance (seconds each): cancelled once the first
    chunk (the four easy ones: half of eight on one slot) is in. On the cluster the crew member solving Korf's
    instance when the cancel comes reads the stop, ends, and the queues go."""
    easy = [scramble(FIRST, 12, seed=seed)[0] for seed in range(4)]
    boards = easy + [Board(4, 4, korf[0][2])] * 4
    cancel = threading.Event()

    def progress(fraction, info):
        if info["boards"] >= 4:
            cancel.set()

    def batch(pool):
        try:
            return solve_boards(boards, FIRST, "idastar", "manhattan", Budget(), pool,
                                Watch(cancel=cancel, progress=progress))
        finally:
            pool.close()

    if where == "threads":
        out = batch(ThreadPool(1))
    else:
        with Client(scheduler_address, set_as_default=False) as client:
            before = queues(client)
            out = batch(DaskPool(client, lane_workers(client, "long")))
            wait_until(lambda: queues(client) == before, timeout=120, what="the crew's queues released")
    assert [r["status"] for r in out["results"]] == [Status.SOLVED] * 4 + [Status.CANCELLED] * 4
    assert [r["length"] for r in out["results"][:4]] == [solve_board(b, FIRST, "idastar", "manhattan").length
                                                          for b in easy]


def test_a_failed_chunk_on_the_cluster_fails_the_batch_with_its_error(scheduler_address):
    """A solver the workers do not know: the first chunk raises, the crew member puts its error back, and the batch
    raises it here; the queues go, and the next batch on the same workers runs."""
    boards = [scramble(FIRST, 10, seed=seed)[0] for seed in range(3)]
    with Client(scheduler_address, set_as_default=False) as client:
        before = queues(client)
        pool = DaskPool(client, lane_workers(client, "long"))
        try:
            with pytest.raises(PuzzleError, match="unknown solver 'no-such-solver'"):
                solve_boards(boards, FIRST, "no-such-solver", None, Budget(), pool)
            out = solve_boards(boards, FIRST, "idastar", "manhattan", Budget(), pool)
        finally:
            pool.close()
        wait_until(lambda: queues(client) == before, timeout=120, what="the crew's queues released")
    assert [r["length"] for r in out["results"]] == [solve_board(b, FIRST, "idastar", "manhattan").length
                                                     for b in boards]


def test_a_stopped_chunk_on_the_cluster_stops_though_its_pool_was_closed_at_once(korf, scheduler_address):
    """A stopped batch does not wait for its running chunks, and closes its pool at once; the chunk still reads the
    stop (first half a second into the chunk) and skips the boards it has left, where it used to run all four of
    Korf's first instance by Manhattan distance (seconds each), and the job behind it waited for its worker."""
    from engine.domains.tiles.batch import BatchSpec, solve_chunk

    spec = BatchSpec(4, 4, FIRST.cells, "idastar", "manhattan", Budget(), None)
    with Client(scheduler_address, set_as_default=False) as client:
        pool = DaskPool(client, lane_workers(client, "long"))
        stop = pool.new_stop()
        chunk = pool.call("stopped-chunk", pool.slots()[0], solve_chunk, spec, [korf[0][2]] * 4, stop)
        pool.set_stop(stop)
        pool.close()
        out = chunk.result(timeout=120)
    assert out[0]["status"] == Status.CANCELLED and out[1:] == [None] * 3


def test_the_batch_job_refuses_what_it_cannot_run():
    base = {"size": "3x3", "goal": "blank-last"}
    with pytest.raises(PuzzleError, match="list of 1 to"):
        check_batch({**base, "boards": []})
    with pytest.raises(PuzzleError, match="list of 1 to"):
        check_batch({**base, "boards": [[1, 2, 3, 4, 5, 6, 7, 8, 0]] * (MAX_BATCH + 1)})
    with pytest.raises(PuzzleError, match="position 2 of the batch"):  # two tiles swapped: the other parity
        check_batch({**base, "boards": ["1 2 3 4 5 6 7 8 0", "2 1 3 4 5 6 7 8 0"]})
    with pytest.raises(PuzzleError, match="position 1 of the batch"):
        check_batch({**base, "boards": ["1 2 3 4"]})
    with pytest.raises(PuzzleError, match="spreads"):
        check_batch({**base, "boards": ["1 2 3 4 5 6 7 8 0"], "solver": "idastar-spread"})
    clean = check_batch({**base, "boards": ["8 6 7/2 5 4/3 0 1"], "heuristic": "linear-conflict"})
    assert clean["boards"] == [[8, 6, 7, 2, 5, 4, 3, 0, 1]] and clean["solver"] == "idastar"
