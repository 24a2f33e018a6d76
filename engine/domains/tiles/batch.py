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

One dealing (``solve_boards``), two ways to send a chunk. On threads (``ThreadPool``) each chunk is a task of its
own (``_Tasks``), which costs nothing there. On Dask a task costs about 9 ms of CPU in the scheduler, the client and
the worker, as much as three of Korf's boards with the 7-8 database: there the batch starts one long-lived task per
slot, a crew member (``crew_member``), which takes the chunks from a Dask queue this process fills and puts each
chunk's answers on another (``_Crew``): about 4.5 ms of CPU a chunk (``QUEUED_CHUNK_SECONDS``), so chunks of 2
boards at the end of Korf's 100 instead of 3 or more.

Where it runs is ``pools.pool_here``'s choice: inside a job, on the long lane's workers through the job's
worker client (the job's thread secedes while it waits, so its own worker runs a crew member too); with
``PUZZLE_SCHEDULER`` on that cluster; else on this process's threads (the kernels release the GIL). A cancel sets the
pool's stop flag, which a member reads between chunks and each chunk between boards and each solve between its
kernel's slices; the chunks not started are dropped (cancelled tasks, or taken off the queue), and the batch returns
without waiting for the running ones. A chunk that raises fails the batch with its error; so does a crew member's
worker leaving the cluster.
"""

from __future__ import annotations

import contextlib
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


def _chunk_stop(stop):
    """Whether the batch was stopped: a Dask event is first asked ``STOP_POLL`` seconds into the chunk (a chunk that
    was waiting when the batch stopped is cancelled by the coordinator, so a short chunk never asks), then every
    ``STOP_POLL`` seconds."""
    import threading

    from engine.domains.tiles.pools import stop_check

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
    stopped = _chunk_stop(stop)
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


def _on_loop(queue, coroutine):
    """``coroutine`` (one of ``queue``'s) run on its client's event loop: a concurrent future."""
    import asyncio

    return asyncio.run_coroutine_threadsafe(coroutine, queue.client.loop.asyncio_loop)


class _Taker:
    """Takes the items of a Dask queue one by one, waiting here at most a given time for each: a take the scheduler
    timed out would log an error there, so each take waits on the scheduler without a time limit (started on the
    client's event loop) and a wait that ends first leaves it to the next. Whoever fills the queue ends a take left
    waiting when it is done (``_Crew`` puts a None for each member and an end for itself)."""

    def __init__(self, queue):
        self.queue, self.taking = queue, None

    def start(self) -> None:
        """Ask for the next item now (``take`` waits for it)."""
        if self.taking is None:
            self.taking = _on_loop(self.queue, self.queue._get())

    def take(self, timeout: float):
        """The next item; ``TimeoutError`` when none came within ``timeout`` seconds."""
        import concurrent.futures

        self.start()
        try:
            item = self.taking.result(timeout)
        except concurrent.futures.TimeoutError:
            raise TimeoutError from None
        self.taking = None
        return item

    def waiting(self) -> bool:
        return self.taking is not None


def crew_member(spec: BatchSpec, work: str, answers: str, stop, member: int) -> int:
    """One member of a batch's crew on a Dask worker (``_Crew``): takes chunks ``(index, boards)`` from the queue
    ``work`` in turn, solves each by ``solve_chunk`` and puts ``("answers", index, its answers)`` on the queue
    ``answers``, until it takes None or the batch is stopped, and ``("nodes", index, count)`` while a chunk runs (at
    most every ``STOP_POLL`` seconds). It asks for its next chunk as it starts one and does not wait for its
    answers' put, so neither round trip stands between two chunks. A chunk that raises is put back
    as ``("failed", index, the error)`` and fails the task. Returns the chunks it solved."""
    from distributed import Queue

    # first asked STOP_POLL seconds in, not before the first chunk: a member started after its batch ended (its
    # queues released, so taking them makes them anew, empty) waits that long for a chunk, reads the stop and ends
    stopped = _chunk_stop(stop)
    inbox, outbox = Queue(work), Queue(answers)
    taker = _Taker(inbox)
    sending = []  # the answers on their way: each chunk's is put while the next is solved
    solved = 0
    try:
        while True:
            try:
                chunk = taker.take(STOP_POLL)
            except TimeoutError:
                if stopped():
                    break
                continue
            if chunk is None or stopped():
                break
            taker.start()  # the next chunk comes while this one is solved
            index, boards = chunk
            told = [time.monotonic()]

            def tell(nodes: int, index: int = index, told: list = told, sending: list = sending) -> None:
                if time.monotonic() - told[0] >= STOP_POLL:  # a put costs the scheduler: twice a second at most
                    told[0] = time.monotonic()
                    sending.append(_on_loop(outbox, outbox._put(("nodes", index, nodes))))

            try:
                out = solve_chunk(spec, [tuple(cells) for cells in boards], stop, tell)  # a queue gives lists
            except Exception as error:
                outbox.put(("failed", index, error))
                raise
            sending = [put for put in sending if not put.done()] + [_on_loop(outbox, outbox._put(("answers", index,
                                                                                                 out)))]
            solved += 1
    finally:
        for put in sending:
            put.result()  # before the hold on the queue is given up
        inbox.close()
        outbox.close()
    return solved


class _Tasks:
    """Each chunk a task of its own on ``pool`` (a ``ThreadPool``: a thread takes it at once, and costs nothing)."""

    def __init__(self, pool, spec: BatchSpec, stop, run: str):
        self.pool, self.spec, self.stop_flag, self.run = pool, spec, stop, run
        self.slots = pool.slots()
        self.chunk_seconds = getattr(pool, "task_seconds", 0.0)
        self.pending: dict = {}  # future -> chunk index
        self.running: dict[int, int] = {}  # chunk index -> the nodes it has expanded so far

    def send(self, index: int, boards: list[tuple[int, ...]]) -> None:
        future = self.pool.call(f"batch-{self.run}-{index}", self.slots[index % len(self.slots)], solve_chunk,
                                self.spec, boards, self.stop_flag, lambda nodes: self.running.__setitem__(index, nodes))
        self.pending[future] = index

    def all_sent(self) -> None:
        pass

    def finished(self, timeout: float) -> list[tuple[int, list]]:
        ended = [(self.pending.pop(future), future.result()) for future in self.pool.wait(list(self.pending), timeout)]
        for index, _ in ended:
            self.running.pop(index, None)
        return ended

    def stop(self) -> set[int]:
        """The chunks running end their solve and skip the boards left; those waiting never start: their indices."""
        self.pool.set_stop(self.stop_flag)
        dropped = {index for future, index in self.pending.items() if future.cancel()}
        self.pending = {future: index for future, index in self.pending.items() if index not in dropped}
        return dropped

    def end(self, stopped: bool) -> None:
        if stopped:
            self.stop()
        self.pending.clear()


#: What a chunk costs on the crew's queues besides its work (``least_chunk``): the chunk put here and taken by a
#: member, its answers put there and taken here, and the chunk's setup, about 4.5 ms of CPU in the scheduler, the
#: client and the worker (bench/korf100.py --workers 1 2 on the 2-core machine, nearly idle: what is not a solve,
#: less the idle tick and the crew's two tasks, over the 14 chunks), where a task of its own costs 9 ms.
QUEUED_CHUNK_SECONDS = 0.0045
#: Seconds between two looks, while no answer comes, at whether the crew's workers are still in the cluster.
LOOK_EVERY = 2.0
#: Seconds a finished batch waits for its crew to take its None and release the queues.
CREW_END = 2.0
#: Seconds a stopped batch waits for the answers of the chunks running (each ends its solve at its next slice, a
#: crew member reads the stop within ``STOP_POLL``): what they solved is kept.
STOP_WAIT = 3.0


class _Crew:
    """The chunks through Dask queues to one long-lived task per slot of a ``DaskPool`` (``crew_member``): a chunk
    costs a put and a take on each queue instead of a task's scheduling. The members take the chunks in the order
    they were put, whichever member is free (a member whose worker is busy elsewhere leaves its share to the
    others). A member that fails fails the batch with its error; a member whose worker dies fails it too, as soon as
    the scheduler gives up on its task (``KilledWorker``) or, if it would run it again on a worker of that address,
    once this process sees the worker gone (within ``LOOK_EVERY`` seconds).

    The queues live while someone holds them (``distributed.Queue``: each holder adds one to the scheduler's count
    and takes it away when it closes): this process, and each member between its start and its end. ``end`` closes
    this process's hold, and that of each member whose worker left (it never will; if it had not taken its hold yet,
    the queues go early, which ends the other members of that failing batch sooner); a member started after its batch
    ended finds its queues empty, reads the batch's stop (set at every end but a clean one) and gives its hold up."""

    chunk_seconds = QUEUED_CHUNK_SECONDS

    def __init__(self, pool, spec: BatchSpec, stop, run: str):
        from distributed import Queue

        self.pool, self.stop_flag = pool, stop
        self.stopped: set[int] | None = None  # once stopped: the chunks taken back
        self.work = Queue(f"puzzle-batch-{run}-work", client=pool.client)
        self.answers = Queue(f"puzzle-batch-{run}-answers", client=pool.client)
        self.members = {pool.call(f"batch-{run}-crew-{member}", slot, crew_member, spec, self.work.name,
                                  self.answers.name, stop, member): (member, slot)
                        for member, slot in enumerate(pool.slots())}
        self.taker = _Taker(self.answers)
        self.running: dict[int, int] = {}  # chunk index -> the nodes it has expanded so far
        self.answered: set[int] = set()
        self.gone: set[int] = set()  # members whose worker left the cluster
        self.looked = time.monotonic()

    def send(self, index: int, boards: list[tuple[int, ...]]) -> None:
        self.work.put((index, boards))

    def all_sent(self) -> None:
        for _ in self.members:
            self.work.put(None)

    def finished(self, timeout: float) -> list[tuple[int, list]]:
        self._check_members()  # while the others answer too: a lost chunk's answers never come
        try:
            message = self.taker.take(timeout)
        except TimeoutError:
            return []
        if message[0] == "failed":
            raise message[2]
        if message[0] == "nodes":
            if message[1] not in self.answered:  # a count put before the answers may come after them
                self.running[message[1]] = message[2]
            return []
        self.running.pop(message[1], None)
        self.answered.add(message[1])
        return [(message[1], message[2])]

    def _check_members(self) -> None:
        """Raise what ended a member early: its error, its cancel, or its worker's leaving the cluster."""
        from engine.core.errors import PuzzleError
        from engine.serving.lanes import cluster_workers

        for future in self.members:
            if future.status in ("error", "cancelled"):
                future.result()
        if time.monotonic() - self.looked < LOOK_EVERY:
            return
        self.looked = time.monotonic()
        present = cluster_workers(self.pool.client)
        for future, (member, slot) in self.members.items():
            if slot not in present and not future.done():
                self.gone.add(member)
                raise PuzzleError(f"the worker {slot} left the cluster during the batch, with the chunk it was "
                                  "solving")

    def stop(self) -> set[int]:
        """The members end the chunk they run (its solve under way at its next slice, the boards left skipped) and
        take no other: the chunks no member took, taken back, their indices."""
        if self.stopped is None:
            self.pool.set_stop(self.stop_flag)
            self.stopped = {item[0] for item in self.work.get(batch=True) if item is not None}
            self.all_sent()
        return self.stopped

    def end(self, stopped: bool) -> None:
        from distributed import KilledWorker

        if stopped:
            self.stop()
        else:
            waiting, deadline = set(self.members), time.monotonic() + CREW_END
            while waiting and time.monotonic() < deadline:
                waiting -= self.pool.wait(list(waiting), deadline - time.monotonic())
            if waiting:  # a member not started yet: if it starts, it gives its hold up at the stop
                self.pool.set_stop(self.stop_flag)
        for future in self.members:
            if not future.done():
                future.cancel()
        if self.taker.waiting():
            self.answers.put(("end",))
        killed = {member for future, (member, _) in self.members.items()
                  if future.status == "error" and isinstance(future.exception(), KilledWorker)}
        for _ in self.gone | killed:  # its hold, if it took one (one too many ends the failing batch's others sooner)
            self.work.close()
            self.answers.close()
        self.work.close()
        self.answers.close()


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
    transport = (_Crew if isinstance(pool, DaskPool) else _Tasks)(pool, spec, stop, run)
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
