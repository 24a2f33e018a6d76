"""Searches and jobs stopped by their cancel and continued from what they answered (``"resume"``, through JSON, as a
job's parameters carry it to another worker): the same answer as one uninterrupted run, its counts included, and its
length the optimal one known from outside (breadth-first search; Korf's published lengths). The IDA* driver pauses
every 500 nodes here (``Fixed``) so that where the cancels fall is the same on any machine."""

import json
import threading

import pytest

from engine.core.result import Slices, Watch
from engine.core.status import Status
from engine.domains.tiles import Board, goal_board, pdb
from engine.domains.tiles import kernel_drivers as drivers
from engine.domains.tiles.jobs import batch_job, check_batch, check_compare, check_solve, compare_job, solve_job
from engine.domains.tiles.kernel_drivers import bfs_fast, idastar
from engine.domains.tiles.parallel_ida import spread_idastar
from engine.domains.tiles.pools import ThreadPool
from engine.domains.tiles.random import scramble

LAST = goal_board(3, 3, "blank-last")
#: seed 004's position: 31 moves, the 8-puzzle's largest distance
HARDEST = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))


class Fixed(Slices):
    """Kernel calls of 500 nodes each, whatever the machine's speed."""

    def __init__(self, *args, **kwargs):
        super().__init__(500)

    def ran(self, done, took):
        pass


@pytest.fixture(autouse=True)
def fixed_slices(monkeypatch):
    monkeypatch.setattr(drivers, "Slices", Fixed)


def stopping(every: int):
    """A cancel and a progress function that sets it at every ``every``-th report."""
    cancel, seen = threading.Event(), [0]

    def progress(fraction, info):
        seen[0] += 1
        if seen[0] % every == 0:
            cancel.set()
    return cancel, progress


def resumed(search, every: int, most: int = 10**6):
    """``search(watch, resume)`` stopped at every ``every``-th report (``most`` times at most) and continued from
    what it answered, until it ends: its last answer and how many times it was stopped."""
    resume, stops = None, 0
    while True:
        cancel, progress = stopping(every) if stops < most else (threading.Event(), None)
        result = search(Watch(cancel=cancel, progress=progress), resume)
        if "resume" not in result.extra:
            return result, stops
        assert result.status == Status.CANCELLED
        stops += 1
        resume = json.loads(json.dumps(result.extra["resume"]))


def same(one, other) -> None:
    assert (one.status, one.moves, one.nodes_expanded, one.nodes_generated, one.extra) == (
        other.status, other.moves, other.nodes_expanded, other.nodes_generated, other.extra)


@pytest.mark.parametrize("name", ["manhattan", "linear-conflict"])
@pytest.mark.parametrize("every", [1, 3, 7])
def test_a_search_stopped_again_and_again_ends_as_the_uninterrupted_one(name, every):
    whole = idastar(HARDEST, LAST, name, Watch())
    result, stops = resumed(lambda watch, resume: idastar(HARDEST, LAST, name, watch, resume=resume), every)
    assert stops >= 2
    same(result, whole)
    assert result.length == len(bfs_fast(HARDEST, LAST, Watch()).moves) == 31
    assert LAST == HARDEST.apply(result.moves)


def test_its_progress_never_goes_back_and_its_seconds_carry_on():
    counts, resume, seconds = [], None, 0.0
    while True:
        cancel, every = threading.Event(), [0]

        def progress(fraction, info, cancel=cancel, every=every):
            counts.append(info["nodes"])
            every[0] += 1
            if every[0] == 4:
                cancel.set()
        result = idastar(HARDEST, LAST, "manhattan", Watch(cancel=cancel, progress=progress), resume=resume)
        if "resume" not in result.extra:
            break
        resume = json.loads(json.dumps(result.extra["resume"]))
        assert resume["seconds"] > seconds  # what each attempt searched is added
        seconds = resume["seconds"]
    assert counts == sorted(counts) and counts[-1] == result.nodes_expanded
    assert result.seconds > seconds


@pytest.mark.parametrize("number", [2, 4])
def test_the_ordered_kernel_of_a_pattern_database_resumes_as_it_runs(db663, korf, number):
    """The database's kernel sorts a node's children by h before it enters them: the siblings left are taken in
    that order. Korf's instances 2 and 4, 55 and 56 moves in Korf (1985)."""
    goal = goal_board(4, 4, "blank-first")
    loaded = pdb.kernel_inputs(db663)
    _, length, cells = korf[number - 1]
    board = Board(4, 4, cells)
    whole = idastar(board, goal, "pdb-663", Watch(), loaded)
    result, stops = resumed(lambda watch, resume: idastar(board, goal, "pdb-663", watch, loaded, resume=resume), 5)
    assert stops >= 2
    same(result, whole)
    assert result.length == length == {2: 55, 4: 56}[number]


def test_the_spread_search_resumed_counts_each_bound_as_the_serial_search():
    goal = goal_board(4, 4, "blank-first")
    board, _ = scramble(goal, 45, seed=1)
    serial = idastar(board, goal, "manhattan", Watch())
    pool = ThreadPool(2)
    try:
        # tasks running at a stop start again: stopped too often, a search of long tasks would never end
        result, stops = resumed(lambda watch, resume: spread_idastar(board, goal, "manhattan", watch, pool,
                                                                     resume=resume), 4, most=3)
    finally:
        pool.close()
    assert stops >= 1 and result.status == Status.SOLVED and goal == board.apply(result.moves)
    assert result.length == serial.length
    assert result.extra["bounds"][:-1] == serial.extra["bounds"][:-1]


def run_job(job, params: dict, every: int) -> tuple[dict, int]:
    """A job function stopped at every ``every``-th report and run again with its ``resume`` merged into its
    parameters, as the runner does, until it ends."""
    stops = 0
    while True:
        cancel, progress = stopping(every)
        out = job(params, progress, cancel)
        if "resume" not in out:
            return out, stops
        stops += 1
        params = {**params, **json.loads(json.dumps(out["resume"]))}


def test_the_solve_job_resumed_answers_as_one_run():
    params = check_solve({"size": "3x3", "tiles": list(HARDEST.cells), "solver": "idastar",
                          "heuristic": "manhattan"})
    whole = solve_job(params, lambda *_: None, threading.Event())
    out, stops = run_job(solve_job, params, 3)
    assert stops >= 2
    for key in ("moves", "length", "nodes_expanded", "nodes_generated", "status"):
        assert out[key] == whole[key]
    assert out["length"] == 31


def test_a_stopped_solve_does_not_take_where_it_stood_from_the_request():
    params = check_solve({"size": "3x3", "tiles": list(HARDEST.cells), "solver": "idastar",
                          "resume_from": {"bound": 99}})
    assert "resume_from" not in params


def test_the_compare_job_resumed_keeps_the_answers_it_had():
    params = check_compare({"size": "3x3", "tiles": list(HARDEST.cells),
                            "solvers": ["idastar:manhattan", "idastar:linear-conflict"]})
    whole = compare_job(params, lambda *_: None, threading.Event())
    out, stops = run_job(compare_job, params, 4)
    assert stops >= 2
    assert [(r["length"], r["nodes_expanded"]) for r in out["results"]] == [
        (r["length"], r["nodes_expanded"]) for r in whole["results"]] == [(31, 14195), (31, 7593)]


def test_a_batch_stopped_keeps_what_it_solved_and_solves_only_the_rest(monkeypatch):
    """Ten positions one at a time on one thread: stopped after each report, each attempt answers the positions
    solved before it and solves at least one more."""
    import engine.domains.tiles.chunks as chunks
    import engine.domains.tiles.pools as pools

    monkeypatch.setattr(pools, "ThreadPool", lambda: ThreadPool(1))
    monkeypatch.setattr(chunks, "GUIDE", 10**6)  # chunks of one board
    monkeypatch.setattr(chunks, "AHEAD", 1)
    boards = [HARDEST.cells, *(scramble(LAST, 24, seed=seed)[0].cells for seed in range(9))]
    params = check_batch({"size": "3x3", "boards": [list(cells) for cells in boards], "solver": "idastar",
                          "heuristic": "manhattan"})
    solved_before, stops, attempt = 0, 0, params
    while True:
        cancel, progress = stopping(1)
        out = batch_job(attempt, progress, cancel)
        assert out["solved"] > solved_before or "resume" not in out
        assert [r["tiles"] for r in out["results"]] == [list(cells) for cells in boards]
        if "resume" not in out:
            break
        stops += 1
        solved_before = out["solved"]
        attempt = {**params, **json.loads(json.dumps(out["resume"]))}
    assert stops >= 2 and out["solved"] == 10
    lengths = [len(bfs_fast(Board(3, 3, cells), LAST, Watch()).moves) for cells in boards]
    assert [r["length"] for r in out["results"]] == lengths
    assert out["moves"] == sum(lengths)


def test_a_batch_that_goes_on_counts_on_from_the_nodes_its_progress_had_shown():
    """Korf's instance 88 (65 moves: minutes of Manhattan IDA*) stopped after its third count, then run again and
    stopped at its first: the nodes the stopped solve expanded stay counted, so the count shown never falls, and no
    report counts the stopped solve as a position solved."""
    korf_88 = [15, 2, 12, 11, 14, 13, 9, 5, 1, 3, 8, 7, 0, 10, 6, 4]
    params = check_batch({"size": "4x4", "goal": "blank-first", "boards": [korf_88], "solver": "idastar",
                          "heuristic": "manhattan"})

    boards: list[int] = []  # the positions each report says are solved

    def stopped_after(counted: int):
        cancel, counts = threading.Event(), []

        def progress(fraction, info):
            counts.append(info.get("nodes", 0))
            boards.append(info.get("boards", 0))
            if sum(count > 0 for count in counts) >= counted:
                cancel.set()
        return cancel, progress, counts

    cancel, progress, first_counts = stopped_after(3)
    first = batch_job(params, progress, cancel)
    assert first["solved"] == 0 and "resume" in first
    cancel, progress, then_counts = stopped_after(1)
    batch_job({**params, **json.loads(json.dumps(first["resume"]))}, progress, cancel)
    assert max(first_counts) > 0 and min(then_counts) >= max(first_counts)
    assert set(boards) == {0}  # the solve stopped by the cancel is not counted as a position solved


def test_a_chunks_solved_positions_are_counted_while_it_runs(monkeypatch):
    """Four easy positions and Korf's instance 88 in one chunk on one thread: while instance 88 searches, the
    progress says the four are solved (it said 0 until the whole chunk ended, minutes later)."""
    import engine.domains.tiles.chunks as chunks
    import engine.domains.tiles.pools as pools

    monkeypatch.setattr(pools, "ThreadPool", lambda: ThreadPool(1))
    monkeypatch.setattr(chunks, "GUIDE", 1)  # every board in the first chunk
    first = list(range(16))
    easy = [first, [1, 0, *range(2, 16)], [1, 2, 0, *range(3, 16)], [4, 1, 2, 3, 8, 5, 6, 7, 0, *range(9, 16)]]
    korf_88 = [15, 2, 12, 11, 14, 13, 9, 5, 1, 3, 8, 7, 0, 10, 6, 4]
    params = check_batch({"size": "4x4", "goal": "blank-first", "boards": [*easy, korf_88], "solver": "idastar",
                          "heuristic": "manhattan"})
    cancel, seen, when_cancelled = threading.Event(), [], []

    def progress(fraction, info):
        seen.append(info.get("boards", 0))
        if not cancel.is_set() and (seen[-1] >= 4 or len(seen) >= 40):  # the four, or ten seconds without them
            when_cancelled.append(seen[-1])
            cancel.set()

    out = batch_job(params, progress, cancel)
    assert when_cancelled == [4] and max(seen) == 4 and out["solved"] == 4
    assert [result["length"] for result in out["results"][:4]] == [0, 1, 2, 2]

