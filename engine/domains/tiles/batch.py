"""Many boards solved at once over a Dask cluster's workers (or this machine's threads): Korf's 100 and any list.

Each board's answer is the one ``solve_board`` gives (IDA* with a heuristic that has the whole-search kernel runs it
through ``kernel_drivers.WholeSearch``, set up once per chunk: one compiled call per board instead of Python's setup
and a call per bound, which two threads would take turns at under the GIL); what is spread is the list, in chunks:
each chunk holds ``1 / (GUIDE × slots)`` of the boards not yet dealt (guided self-scheduling: large chunks first,
single boards at the end, about 2·slots·ln(boards / slots) chunks in all), but never fewer boards than take as long to
solve, by the solves measured so far, as a chunk costs to send and answer (``least_chunk``), and ``AHEAD`` chunks per
slot are out at a time, so a slot that ends one starts the next without a round trip here and a slow chunk holds up
no other slot. The boards are dealt in the order given: per-instance times of Korf's 100 (bench/korf100.py) show no
cheap estimate (the heuristic's start value) ordering them better than that.

One dealing (``solve_boards``), two ways to send a chunk (``chunks``): on threads (``ThreadPool``) each chunk a
task of its own (``chunks.Tasks``); on Dask, where a task costs about 9 ms of CPU (three of Korf's boards with the 7-8
database), one long-lived task per slot (``chunks.crew_member``) taking the chunks from a Dask queue
(``chunks.Crew``): about 4.5 ms a chunk, so chunks of 2 boards at the end of Korf's 100 instead of 3 or more.

Where it runs is ``pools.pool_here``'s choice: inside a job, on the long lane's workers through the job's
worker client (the job's thread secedes while it waits, so its own worker runs a crew member too); with
``PUZZLE_SCHEDULER`` on that cluster; else on this process's threads (the kernels release the GIL). A cancel sets the
pool's stop flag, which a member reads between chunks and each chunk between boards and each solve between its
kernel's slices; the chunks not started are dropped (cancelled tasks, or taken off the queue), and the answers of
those running are waited for a few seconds (``chunks.STOP_WAIT``): a cancelled batch keeps every board it solved. A
chunk that raises fails the batch with its error; so does a crew member's worker leaving the cluster.
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import time
import uuid
from dataclasses import dataclass

from engine.core.result import Budget, SolveResult, Watch
from engine.core.status import Status
from engine.domains.tiles.board import Board
from engine.domains.tiles.chunks import STOP_WAIT, Crew, Tasks, chunk_stop
from engine.search.domain_solve import load_once

#: Each chunk holds this fraction of the boards left, divided by the slots.
GUIDE = 2
#: Chunks a slot holds at once: the one it runs and the next, so that it starts that one without a round trip here.
AHEAD = 2
#: Seconds between two progress reports while chunks run.
REPORT_EVERY = 0.25


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
    solves last at least what sending and answering a chunk costs (``task_seconds``): with a task per chunk on Dask
    (about 10 ms of CPU in the scheduler, the client and the worker) Korf's 100 with the 7-8 database, 3 ms a board,
    would go out in chunks of at least 3, where single boards at the end would cost more than they balance; through
    a crew's queues (4.5 ms) in chunks of at least 2; 1 on threads, or for longer solves."""
    if not solved or task_seconds <= 0:
        return 1
    return max(1, math.ceil(task_seconds / max(cpu / solved, 1e-6)))


class _Stop:
    """The pool's stop flag as a solve's ``cancel`` (``is_set``)."""

    def __init__(self, stopped):
        self.is_set = stopped


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

    def solve(self, board: Board, cancel, progress=None) -> SolveResult:
        from engine.domains.tiles.solvers import noted
        from engine.domains.tiles.solving import with_path
        from engine.search.domain_solve import settle

        watch = Watch(self.spec.budget, cancel, progress)
        result = with_path(board, noted(self.search.solve(board, watch), self.note), cells=False)
        load_seconds, self.load_seconds = self.load_seconds, 0.0
        return settle(result, watch, self.spec.solver, self.asked, load_seconds, self.proven)


def solve_chunk(spec: BatchSpec, boards: list[tuple[int, ...]], stop, tell=None) -> list[dict | None]:
    """One task: each board solved in turn (its answer as ``SolveResult.to_dict``, with ``cpu``: the seconds of CPU
    its solve took in this thread, and without ``extra["path"]``, the cells of every board along the answer, which
    its tiles and moves give: nine tenths of the bytes a worker sends back); None for each board not started because
    the batch was stopped. ``tell(nodes)``, as the solves go: the nodes the chunk has expanded so far (a board of
    linear conflict may search for minutes, and the batch's page shows them meanwhile). IDA* with a heuristic that
    has the whole kernel solves each board in one compiled call (``_WholeSolves``), so that two threads seldom wait
    for each other's Python; an unsolvable board, another solver or heuristic: ``solve_board``."""
    from engine.domains.tiles.solvability import check_solvable
    from engine.domains.tiles.solving import solve_board
    from engine.serving import store

    if spec.data_dir and os.path.isdir(spec.data_dir) and str(store.data_dir()) != spec.data_dir:
        store.set_data_dir(spec.data_dir)
    stopped = chunk_stop(stop)
    goal = Board(spec.rows, spec.cols, spec.goal)
    whole = _WholeSolves.make(spec, goal)
    out: list[dict | None] = []
    answered = 0  # the nodes of the boards answered

    def progress(fraction, info) -> None:
        if tell is not None and "nodes" in info:
            tell(answered + info["nodes"])

    for cells in boards:
        if stopped():
            out.append(None)
            continue
        began = time.thread_time()
        board = Board(spec.rows, spec.cols, cells)
        if whole is not None and check_solvable(board, goal).solvable:
            result = whole.solve(board, _Stop(stopped), progress)
        else:
            result = solve_board(board, goal, spec.solver, spec.heuristic, spec.budget, progress, _Stop(stopped))
        answered += result.nodes_expanded
        result.extra.pop("path", None)  # the cells along the answer: its tiles and moves give them
        out.append({"tiles": list(cells), **result.to_dict(), "cpu": time.thread_time() - began})
    return out


def solve_boards(boards: list[Board], goal: Board, solver: str, heuristic: str | None, budget: Budget, pool,
                 watch: Watch | None = None, earlier: list[dict] = ()) -> dict:
    """Every board solved towards ``goal`` by ``solver`` with ``heuristic`` within ``budget`` each, in chunks on
    ``pool`` (``pools.DaskPool``: through a crew, ``ThreadPool``: a task per chunk; the caller closes it).
    Returns ``results`` (one per board, in order: the solve's answer with its ``tiles`` and ``cpu``, or
    ``{"status": "cancelled"}`` for a board not started), ``tasks`` (the chunks dealt), ``slots`` and ``seconds``
    (from the first chunk sent to the last answer). ``earlier``: the answers of the same batch's earlier attempt,
    counted in its progress (boards and nodes) before these."""
    from engine.domains.tiles.pools import DaskPool
    from engine.serving import store

    watch = watch or Watch()
    spec = BatchSpec(goal.rows, goal.cols, goal.cells, solver, heuristic, budget, str(store.data_dir()))
    slots = len(pool.slots())
    results: list[dict | None] = [None] * len(boards)
    stop = pool.new_stop()
    run = uuid.uuid4().hex[:8]
    began = time.perf_counter()
    transport = (Crew if isinstance(pool, DaskPool) else Tasks)(pool, functools.partial(solve_chunk, spec), stop, run)
    chunks: dict[int, tuple[int, int]] = {}  # chunk index -> its first board, its end
    done = at = 0
    cpu = 0.0  # the solves' CPU so far
    nodes = sum(answer.get("nodes_expanded", 0) for answer in earlier)  # expanded by the boards answered
    total = len(earlier) + len(boards)

    def stopped_now() -> bool:
        return watch.cancel is not None and watch.cancel.is_set()

    awaited: set[int] = set()  # the chunks sent and not answered yet

    def deal() -> None:
        nonlocal at
        if at < len(boards) and not stopped_now():
            end = at + chunk_size(len(boards) - at, slots, least_chunk(transport.chunk_seconds, cpu, done))
            chunks[len(chunks)] = (at, end)
            awaited.add(len(chunks) - 1)
            transport.send(len(chunks) - 1, [board.cells for board in boards[at:end]])
            at = end
            if at == len(boards):
                transport.all_sent()

    waiting_until = None  # once stopped: how long the chunks running are waited for
    try:
        for _ in range(AHEAD * slots):
            deal()
        while awaited and (waiting_until is None or time.monotonic() < waiting_until):
            for index, answers in transport.finished(REPORT_EVERY):
                awaited.discard(index)
                first, end = chunks[index]
                results[first:end] = answers
                done += end - first
                cpu += sum(answer["cpu"] for answer in answers if answer is not None)
                nodes += sum(answer.get("nodes_expanded", 0) for answer in answers if answer is not None)
                deal()
            solved, counted = len(earlier) + done, nodes + sum(transport.running.values())
            watch.report(solved / max(1, total),
                         {"boards": solved, "of": total, "nodes": counted,
                          "text": f"{solved} of {total} boards solved on {slots} workers, {counted:,} nodes expanded"})
            if stopped_now() and waiting_until is None:
                # the chunks not started never will; those running end the solve under way at its next slice and
                # skip the boards left, and their answers are waited for (a while): a cancelled batch keeps them
                awaited -= transport.stop()
                waiting_until = time.monotonic() + STOP_WAIT
    except BaseException:
        with contextlib.suppress(Exception):  # the error is what the batch reports
            transport.end(stopped=True)
        raise
    seconds = time.perf_counter() - began
    transport.end(stopped=at < len(boards) or bool(awaited) or waiting_until is not None)
    answers = [result if result is not None else {"status": Status.CANCELLED, "tiles": list(board.cells)}
               for result, board in zip(results, boards, strict=True)]
    return {"results": answers, "tasks": len(chunks), "slots": slots, "seconds": seconds}
