"""Many boards solved at once over a Dask cluster's workers (or this machine's threads): Korf's 100 and any list.

Each board's answer is the one ``solve_board`` gives (IDA* with a heuristic that has the whole-search kernel runs it
through ``kernel_drivers.WholeSearch``, set up once per chunk: one compiled call per board instead of Python's setup
and a call per bound, which two threads would take turns at under the GIL); what is spread is the list. A batch of
small solves (Korf's 100 with the 7-8 database: 3 ms each on average) is dominated by what a Dask task costs (some
milliseconds of CPU in the scheduler, the client and the worker), so the boards go out in a few chunks, not one task
each: each chunk holds ``1 / (GUIDE × slots)`` of the boards not yet dealt (guided self-scheduling: large chunks first,
single boards at the end, about 2·slots·ln(boards / slots) tasks in all), but never fewer boards than take as long to
solve, by the solves measured so far, as a task costs the pool (``least_chunk``: on Dask, chunks of 3 or more for
Korf's 100), and a slot (a worker thread) is sent its next chunk when one of its two finishes, so it never waits for
this process and a slow chunk holds up no other slot.
The boards are dealt in the order given: per-instance times of Korf's 100 (bench/korf100.py) show no cheap estimate
(the heuristic's start value) ordering them better than that.

The chunks run where ``parallel_ida.pool_here`` says: inside a job, on the long lane's workers through the job's
worker client (the job's thread secedes while it waits, so its worker takes chunks too); with ``PUZZLE_SCHEDULER`` on
that cluster; else on this process's threads (the kernels release the GIL). A cancel sets the pool's stop flag, which
every running chunk reads between boards and each solve between its kernel's slices; the chunks not started are
cancelled.
"""

from __future__ import annotations

import math
import os
import time
import uuid
from dataclasses import dataclass

from engine.core.result import Budget, SolveResult, Watch
from engine.core.status import Status
from engine.domains.tiles.board import Board
from engine.search.domain_solve import load_once

#: Each chunk holds this fraction of the boards left, divided by the slots.
GUIDE = 2
#: Chunks a slot holds at once: the one it runs and the next, so that it starts that one without a round trip here.
AHEAD = 2
#: Seconds between two progress reports while chunks run.
REPORT_EVERY = 0.25
#: Seconds between two looks at the stop flag inside a chunk: a Dask event is a round trip to the scheduler, CPU there
#: and in the worker, which a chunk of five-millisecond solves should not pay often.
STOP_POLL = 0.5


@dataclass(frozen=True)
class BatchSpec:
    """What a chunk needs to solve its boards in any process."""
    rows: int
    cols: int
    goal: tuple[int, ...]
    solver: str
    heuristic: str | None
    budget: Budget  # each board's
    data_dir: str | None  # the store the tables are read from


def chunk_size(left: int, slots: int, least: int = 1) -> int:
    """The next chunk's size: ``1 / (GUIDE × slots)`` of the ``left`` boards not yet dealt, at least ``least``."""
    return min(left, max(least, -(-left // (GUIDE * max(1, slots)))))


def chunk_sizes(boards: int, slots: int, least: int = 1) -> list[int]:
    """The chunks' sizes, in the order they are dealt, each ``chunk_size`` of what is left."""
    sizes, left = [], boards
    while left:
        sizes.append(chunk_size(left, slots, least))
        left -= sizes[-1]
    return sizes


def least_chunk(task_seconds: float, cpu: float, solved: int) -> int:
    """The fewest boards a chunk holds once ``solved`` boards have taken ``cpu`` seconds: as many as make a chunk's
    solves last at least what a task costs the pool (``task_seconds``): Korf's 100 with the 7-8 database, 3 ms a
    board, go out in chunks of at least 3 on Dask (a task: about 10 ms of CPU in the scheduler, the client and the
    worker), where single boards at the end would cost more than they balance; 1 on threads, or for longer solves."""
    if not solved or task_seconds <= 0:
        return 1
    return max(1, math.ceil(task_seconds / max(cpu / solved, 1e-6)))


class _Stop:
    """The pool's stop flag as a solve's ``cancel`` (``is_set``)."""

    def __init__(self, stopped):
        self.is_set = stopped


def _chunk_stop(stop):
    """Whether the batch was stopped: a Dask event is first asked ``STOP_POLL`` seconds into the chunk (a chunk that
    was waiting when the batch stopped is cancelled by the coordinator, so a short chunk never asks), then every
    ``STOP_POLL`` seconds."""
    import threading

    from engine.domains.tiles.parallel_ida import stop_check

    check = stop_check(stop, STOP_POLL)
    if isinstance(stop, threading.Event):
        return check
    began = time.monotonic()
    return lambda: time.monotonic() - began >= STOP_POLL and check()


#: The whole searches this process has loaded (``_WholeSolves``).
_loaded: set[tuple] = set()


class _WholeSolves:
    """A chunk's IDA* solves by ``kernel_drivers.WholeSearch``: the heuristic resolved, its arrays made and its
    kernel loaded once for the chunk, each board then one compiled call (a few while its search lasts past a slice),
    its answer what ``solve_board`` gives (``solve`` through the kind's ``idastar``: the fallback's note, the moves
    as actions and their cost, ``settle``) but for the cells along its path (``solve_chunk`` leaves them out).
    ``make`` gives None where ``solve_board`` runs each board instead: another solver, or a heuristic without the
    whole kernel."""

    def __init__(self, spec: BatchSpec, goal: Board, asked: str, proven: bool, search, note: str):
        self.spec, self.goal, self.asked, self.proven, self.search, self.note = spec, goal, asked, proven, search, note
        near = goal.move(goal.legal_moves()[0])
        #: loading (on a fresh install compiling) the kernel, reported by the chunk's first answer as a solve's is
        self.load_seconds = load_once(_loaded, (search.name, goal), lambda: search.solve(near, Watch(Budget(10_000))))

    @classmethod
    def make(cls, spec: BatchSpec, goal: Board) -> _WholeSolves | None:
        from engine.domains.tiles.heuristics import heuristic
        from engine.domains.tiles.kernel_drivers import WholeSearch
        from engine.domains.tiles.solving import check_request

        if spec.solver != "idastar":
            return None
        info, asked = check_request(goal, spec.solver, spec.heuristic)
        used, loaded, note = heuristic(asked).inputs(goal, {})
        if not WholeSearch.applies(used):
            return None
        return cls(spec, goal, asked, info.proves(asked), WholeSearch(goal, used, loaded), note)

    def solve(self, board: Board, cancel) -> SolveResult:
        from engine.domains.tiles.solvers import noted
        from engine.domains.tiles.solving import with_path
        from engine.search.domain_solve import settle

        watch = Watch(self.spec.budget, cancel)
        result = with_path(board, noted(self.search.solve(board, watch), self.note), cells=False)
        load_seconds, self.load_seconds = self.load_seconds, 0.0
        return settle(result, watch, self.spec.solver, self.asked, load_seconds, self.proven)


def solve_chunk(spec: BatchSpec, boards: list[tuple[int, ...]], stop) -> list[dict | None]:
    """One task: each board solved in turn (its answer as ``SolveResult.to_dict``, with ``cpu``: the seconds of CPU
    its solve took in this thread, and without ``extra["path"]``, the cells of every board along the answer, which
    its tiles and moves give: nine tenths of the bytes a worker sends back); None for each board not started because
    the batch was stopped. IDA* with a heuristic that has the whole kernel solves each board in one compiled call
    (``_WholeSolves``), so that two threads seldom wait for each other's Python; an unsolvable board, another solver
    or heuristic: ``solve_board``."""
    from engine.domains.tiles.solvability import check_solvable
    from engine.domains.tiles.solving import solve_board
    from engine.serving import store

    if spec.data_dir and os.path.isdir(spec.data_dir) and str(store.data_dir()) != spec.data_dir:
        store.set_data_dir(spec.data_dir)
    stopped = _chunk_stop(stop)
    goal = Board(spec.rows, spec.cols, spec.goal)
    whole = _WholeSolves.make(spec, goal)
    out: list[dict | None] = []
    for cells in boards:
        if stopped():
            out.append(None)
            continue
        began = time.thread_time()
        board = Board(spec.rows, spec.cols, cells)
        if whole is not None and check_solvable(board, goal).solvable:
            result = whole.solve(board, _Stop(stopped))
        else:
            result = solve_board(board, goal, spec.solver, spec.heuristic, spec.budget, cancel=_Stop(stopped))
        result.extra.pop("path", None)  # the cells along the answer: its tiles and moves give them
        out.append({"tiles": list(cells), **result.to_dict(), "cpu": time.thread_time() - began})
    return out


def solve_boards(boards: list[Board], goal: Board, solver: str, heuristic: str | None, budget: Budget, pool,
                 watch: Watch | None = None) -> dict:
    """Every board solved towards ``goal`` by ``solver`` with ``heuristic`` within ``budget`` each, in chunks on
    ``pool`` (``parallel_ida.DaskPool`` or ``ThreadPool``; the caller closes it). Returns ``results`` (one per board,
    in order: the solve's answer with its ``tiles`` and ``cpu``, or ``{"status": "cancelled"}`` for a board not
    started), ``tasks`` (the chunks sent), ``slots`` and ``seconds`` (from the first chunk sent to the last answer)."""
    from engine.serving import store

    watch = watch or Watch()
    spec = BatchSpec(goal.rows, goal.cols, goal.cells, solver, heuristic, budget, str(store.data_dir()))
    slots = pool.slots()
    task_seconds = getattr(pool, "task_seconds", 0.0)
    results: list[dict | None] = [None] * len(boards)
    stop = pool.new_stop()
    run = uuid.uuid4().hex[:8]
    began = time.perf_counter()
    pending: dict = {}  # future -> (slot, first board, end)
    dealt = done = at = 0
    cpu = 0.0  # the solves' CPU so far

    def deal(slot) -> None:
        nonlocal dealt, at
        if at < len(boards) and not stopped_now():
            end = at + chunk_size(len(boards) - at, len(slots), least_chunk(task_seconds, cpu, done))
            future = pool.call(f"batch-{run}-{dealt}", slot, solve_chunk, spec,
                               [board.cells for board in boards[at:end]], stop)
            pending[future] = (slot, at, end)
            dealt, at = dealt + 1, end

    def stopped_now() -> bool:
        return watch.cancel is not None and watch.cancel.is_set()

    try:
        for _ in range(AHEAD):
            for slot in slots:
                deal(slot)
        while pending:
            for future in pool.wait(list(pending), REPORT_EVERY):
                slot, first, end = pending.pop(future)
                results[first:end] = future.result()
                done += end - first
                cpu += sum(answer["cpu"] for answer in results[first:end] if answer is not None)
                deal(slot)
            watch.report(done / max(1, len(boards)),
                         {"boards": done, "of": len(boards), "text": f"{done} of {len(boards)} boards solved on "
                                                                      f"{len(slots)} workers"})
            if stopped_now() and pending:
                # the chunks running end their solve and skip the boards left; their answers, as those of the
                # chunks waiting, are not waited for (a cancelled batch reports the boards it had back)
                pool.set_stop(stop)
                for future in pending:
                    future.cancel()
                pending.clear()
    finally:
        if pending:  # an error: the others stop too
            pool.set_stop(stop)
            for future in pending:
                future.cancel()
    seconds = time.perf_counter() - began
    answers = [result if result is not None else {"status": Status.CANCELLED, "tiles": list(board.cells)}
               for result, board in zip(results, boards, strict=True)]
    return {"results": answers, "tasks": dealt, "slots": len(slots), "seconds": seconds}
