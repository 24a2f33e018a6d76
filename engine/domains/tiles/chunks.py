"""Work dealt to a pool (``pools``) in chunks, and the chunks' answers gathered: ``deal`` does it for any list and
any chunk solver (the batch's ``batch.solve_boards`` deals boards with it).

The dealing is guided self-scheduling: each chunk holds ``1 / (GUIDE × slots)`` of the items not yet dealt (large
chunks first, single items at the end, about 2·slots·ln(items / slots) chunks in all), but never fewer items than
take as long to solve, by the solves measured so far, as a chunk costs to send and answer (``least_chunk``); and
``AHEAD`` chunks per slot are out at a time, so a slot that ends one starts the next without a round trip here and a
slow chunk holds up no other slot. A cancel drops the chunks not started and waits a few seconds (``STOP_WAIT``) for
the answers of those running: what they solved is kept.

A chunk travels one of two ways: on threads each chunk a task of its own (``Tasks``), which costs nothing there; on
Dask, where a task costs about 9 ms of CPU in the scheduler, the client and the worker, one long-lived task per slot
(a crew member, ``crew_member``) takes the chunks from a Dask queue this process fills and puts each chunk's answers
on another (``Crew``): about 4.5 ms of CPU a chunk (``QUEUED_CHUNK_SECONDS``).

Both answer a chunk by a function ``solve(items, stop, tell)`` (``stop``: the pool's stop flag; ``tell(count,
done)``: how far the chunk has got, for progress, a count of its work and the items it has answered; it returns one
answer per item, a dict with the ``cpu`` seconds its solve took, or None for an item skipped because the work was
stopped) and offer ``deal`` the same calls: ``send(index, items)``, ``all_sent()``, ``finished(timeout)`` (the chunks
answered meanwhile), ``running`` (each running chunk's last ``(count, done)``), ``stop()`` (the chunks not started
never will: their indices; those running end soon) and ``end(stopped)``.
"""

from __future__ import annotations

import contextlib
import math
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass

#: Each chunk holds this fraction of the items left, divided by the slots.
GUIDE = 2
#: Chunks a slot holds at once: the one it runs and the next, so that it starts that one without a round trip here.
AHEAD = 2
#: Seconds between two progress reports while chunks run.
REPORT_EVERY = 0.25
#: Seconds between two looks at the stop flag inside a chunk: a Dask event is a round trip to the scheduler, CPU there
#: and in the worker, which a chunk of five-millisecond solves should not pay often.
STOP_POLL = 0.5


def chunk_stop(stop):
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


def chunk_size(left: int, slots: int, least: int = 1) -> int:
    """The next chunk's size: ``1 / (GUIDE × slots)`` of the ``left`` items not yet dealt, at least ``least``."""
    return min(left, max(least, -(-left // (GUIDE * max(1, slots)))))


def chunk_sizes(items: int, slots: int, least: int = 1) -> list[int]:
    """The chunks' sizes, in the order they are dealt, each ``chunk_size`` of what is left."""
    sizes, left = [], items
    while left:
        sizes.append(chunk_size(left, slots, least))
        left -= sizes[-1]
    return sizes


def least_chunk(chunk_seconds: float, cpu: float, solved: int) -> int:
    """The fewest items a chunk holds once ``solved`` items have taken ``cpu`` seconds: as many as make a chunk's
    solves last at least what sending and answering a chunk costs (``chunk_seconds``): with a task per chunk on Dask
    (about 10 ms of CPU in the scheduler, the client and the worker) Korf's 100 with the 7-8 database, 3 ms a board,
    would go out in chunks of at least 3, where single boards at the end would cost more than they balance; through
    a crew's queues (4.5 ms) in chunks of at least 2; 1 on threads, or for longer solves."""
    if not solved or chunk_seconds <= 0:
        return 1
    return max(1, math.ceil(chunk_seconds / max(cpu / solved, 1e-6)))


@dataclass(frozen=True)
class Dealt:
    """What ``deal`` gives back."""
    answers: list  # one per item, in order: its answer, or None for an item never started (the work was stopped)
    chunks: int  # the chunks dealt
    slots: int  # the pool's slots
    seconds: float  # from the first chunk sent to the last answer


def deal(items: Sequence, solve: Callable, pool, cancelled: Callable[[], bool],
         report: Callable[[list, int, int], None]) -> Dealt:
    """Every item answered by ``solve(chunk, stop, tell)`` in guided chunks on ``pool`` (``pools.DaskPool``: through a
    crew, ``ThreadPool``: a task per chunk; the caller closes it). ``cancelled()`` stops the dealing: the chunks not
    started never are, the answers of those running are waited for ``STOP_WAIT`` seconds. ``report(came, count, done)``
    every ``REPORT_EVERY`` seconds or sooner: the answers that came since the last report (those of items never
    started left out) and the sums of what the running chunks told (their count, their items answered). A chunk that
    raises ends the dealing with it."""
    from engine.domains.tiles.pools import DaskPool

    slots = len(pool.slots())
    answers: list = [None] * len(items)
    transport = (Crew if isinstance(pool, DaskPool) else Tasks)(pool, solve, pool.new_stop(), uuid.uuid4().hex[:8])
    chunks: list[tuple[int, int]] = []  # each chunk's first item and its end
    awaited: set[int] = set()  # the chunks sent and not answered yet
    dealt = solved = 0
    cpu = 0.0  # the solves' CPU so far

    def send_next() -> None:
        nonlocal dealt
        if dealt < len(items) and not cancelled():
            end = dealt + chunk_size(len(items) - dealt, slots, least_chunk(transport.chunk_seconds, cpu, solved))
            chunks.append((dealt, end))
            awaited.add(len(chunks) - 1)
            transport.send(len(chunks) - 1, list(items[dealt:end]))
            dealt = end
            if dealt == len(items):
                transport.all_sent()

    began = time.perf_counter()
    waiting_until = None  # once cancelled: how long the chunks running are waited for
    try:
        for _ in range(AHEAD * slots):
            send_next()
        while awaited and (waiting_until is None or time.monotonic() < waiting_until):
            came = []
            for index, chunk_answers in transport.finished(REPORT_EVERY):
                awaited.discard(index)
                first, end = chunks[index]
                answers[first:end] = chunk_answers
                solved += end - first
                came += [answer for answer in chunk_answers if answer is not None]
                cpu += sum(answer["cpu"] for answer in chunk_answers if answer is not None)
                send_next()
            told = list(transport.running.values())
            report(came, sum(count for count, _ in told), sum(done for _, done in told))
            if cancelled() and waiting_until is None:
                awaited -= transport.stop()
                waiting_until = time.monotonic() + STOP_WAIT
    except BaseException:
        with contextlib.suppress(Exception):  # the error is what the caller reports
            transport.end(stopped=True)
        raise
    seconds = time.perf_counter() - began
    transport.end(stopped=dealt < len(items) or bool(awaited) or waiting_until is not None)
    return Dealt(answers, len(chunks), slots, seconds)


def _on_loop(queue, coroutine):
    """``coroutine`` (one of ``queue``'s) run on its client's event loop: a concurrent future."""
    import asyncio

    return asyncio.run_coroutine_threadsafe(coroutine, queue.client.loop.asyncio_loop)


class _Taker:
    """Takes the items of a Dask queue one by one, waiting here at most a given time for each: a take the scheduler
    timed out would log an error there, so each take waits on the scheduler without a time limit (started on the
    client's event loop) and a wait that ends first leaves it to the next. Whoever fills the queue ends a take left
    waiting when it is done (``Crew`` puts a None for each member and an end for itself)."""

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


def crew_member(solve, work: str, answers: str, stop, member: int) -> int:
    """One member of a crew on a Dask worker (``Crew``): takes chunks ``(index, items)`` from the queue ``work`` in
    turn, answers each by ``solve(items, stop, tell)`` and puts ``("answers", index, its answers)`` on the queue
    ``answers``, until it takes None or the batch is stopped, and ``("told", index, (count, done))`` while a chunk
    runs (at most every ``STOP_POLL`` seconds). It asks for its next chunk as it starts one and does not wait for its
    answers' put, so neither round trip stands between two chunks. A chunk that raises is put back
    as ``("failed", index, the error)`` and fails the task. Returns the chunks it solved."""
    from distributed import Queue

    # first asked STOP_POLL seconds in, not before the first chunk: a member started after its batch ended (its
    # queues released, so taking them makes them anew, empty) waits that long for a chunk, reads the stop and ends
    stopped = chunk_stop(stop)
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

            def tell(count: int, done: int, index: int = index, told: list = told, sending: list = sending) -> None:
                if time.monotonic() - told[0] >= STOP_POLL:  # a put costs the scheduler: twice a second at most
                    told[0] = time.monotonic()
                    sending.append(_on_loop(outbox, outbox._put(("told", index, (count, done)))))

            try:
                out = solve([tuple(cells) for cells in boards], stop, tell)  # a queue gives lists
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


class Tasks:
    """Each chunk a task of its own on ``pool`` (a ``ThreadPool``: a thread takes it at once, and costs nothing),
    answered by ``solve(items, stop, tell)``."""

    def __init__(self, pool, solve, stop, run: str):
        self.pool, self.solve, self.stop_flag, self.run = pool, solve, stop, run
        self.slots = pool.slots()
        self.chunk_seconds = getattr(pool, "task_seconds", 0.0)
        self.pending: dict = {}  # future -> chunk index
        self.running: dict[int, tuple[int, int]] = {}  # chunk index -> what it told last: (count, done)

    def send(self, index: int, boards: list[tuple[int, ...]]) -> None:
        future = self.pool.call(f"batch-{self.run}-{index}", self.slots[index % len(self.slots)], self.solve, boards,
                                self.stop_flag, lambda count, done: self.running.__setitem__(index, (count, done)))
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


class Crew:
    """The chunks through Dask queues to one long-lived task per slot of a ``DaskPool`` (``crew_member``, answering
    each by ``solve(items, stop, tell)``): a chunk
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

    def __init__(self, pool, solve, stop, run: str):
        from distributed import Queue

        self.pool, self.stop_flag = pool, stop
        self.stopped: set[int] | None = None  # once stopped: the chunks taken back
        self.work = Queue(f"puzzle-batch-{run}-work", client=pool.client)
        self.answers = Queue(f"puzzle-batch-{run}-answers", client=pool.client)
        self.members = {pool.call(f"batch-{run}-crew-{member}", slot, crew_member, solve, self.work.name,
                                  self.answers.name, stop, member): (member, slot)
                        for member, slot in enumerate(pool.slots())}
        self.taker = _Taker(self.answers)
        self.running: dict[int, tuple[int, int]] = {}  # chunk index -> what it told last: (count, done)
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
        if message[0] == "told":
            if message[1] not in self.answered:  # a count put before the answers may come after them
                self.running[message[1]] = tuple(message[2])
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
