"""Where spread work runs: a pool of this process's threads (``ThreadPool``) or of a Dask cluster's long-lane workers
(``DaskPool``), with a stop flag its tasks read (``new_stop``, ``set_stop``, ``stop_check``), and ``pool_here``,
which picks one for the process it runs in. The spread IDA* (``parallel_ida``) sends each bound's tasks to a pool
(``submit``); the batch (``batch``) its chunks (``call`` on one of its ``slots``).

Inside a job (a Dask task itself) the client is ``distributed.worker_client``: the job's thread secedes from its
worker's pool while it waits, so its own worker runs tasks too (a lane resource would not be given back by seceding:
the tasks ask for none and are restricted to the lane's workers by address instead). ``ThreadPool`` runs the same
tasks on this process's threads (the kernels release the GIL): the CLI and a notebook without a cluster.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor
from concurrent.futures import wait as wait_threads

from engine.core.errors import PuzzleError
from engine.serving.lanes import cluster_workers, lane_workers

#: Seconds between two looks at the stop flag inside a task (a Dask event is a round trip to the scheduler).
STOP_POLL = 0.1


def stop_check(stop, every: float = STOP_POLL) -> Callable[[], bool]:
    """A function telling whether the search was stopped: ``stop`` is a ``threading.Event`` in this process or the
    name of a Dask ``Event``, read at most every ``every`` seconds."""
    if isinstance(stop, threading.Event):
        return stop.is_set
    from distributed import Event

    event = Event(stop)
    seen = [False, 0.0]

    def stopped() -> bool:
        now = time.monotonic()
        if not seen[0] and now - seen[1] >= every:
            seen[0], seen[1] = event.is_set(), now
        return seen[0]
    return stopped


class ThreadPool:
    """The tasks on this process's threads."""

    #: the CPU a task costs besides its work (``chunks.least_chunk``): next to nothing here
    task_seconds = 0.0

    def __init__(self, workers: int | None = None):
        self.workers = workers or os.cpu_count() or 2
        self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="ida-task")

    def new_stop(self):
        return threading.Event()

    def set_stop(self, stop) -> None:
        stop.set()

    def submit(self, key: str, *args):
        """A spread search's task (``parallel_ida.run_task``) on any thread."""
        from engine.domains.tiles.parallel_ida import run_task

        return self._executor.submit(run_task, *args)

    def slots(self) -> list:
        """One entry per thread: where ``call`` may send a task (any thread takes any)."""
        return list(range(self.workers))

    def call(self, key: str, slot, function, *args):
        """``function(*args)`` as a task of its own (``slot``: one of ``slots()``)."""
        return self._executor.submit(function, *args)

    def wait(self, futures: list, timeout: float) -> set:
        return wait_threads(futures, timeout=timeout, return_when=FIRST_COMPLETED).done

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)


class DaskPool:
    """The tasks on a Dask cluster, each restricted to ``addresses`` (the long lane's workers)."""

    #: the CPU a task costs besides its work: the scheduler's, the client's and the worker's (bench/korf100.py
    #: --workers: about 10 ms on the 2-core machine, idle); a batch sends its chunks through a crew of long-lived
    #: tasks instead (``chunks.Crew``)
    task_seconds = 0.01

    def __init__(self, client, addresses: list[str]):
        if not addresses:
            raise PuzzleError("no worker of the cluster serves the long lane, so the search has nowhere to spread: "
                              "start one (dask worker <scheduler> --resources long=1 --preload engine.serving.worker)")
        self.client, self.addresses = client, addresses
        known = cluster_workers(client)
        self.threads = {address: max(1, known[address].get("nthreads", 1)) for address in addresses}
        self.workers = sum(self.threads.values())
        self._stops: list = []
        self._set: set[str] = set()  # the stops set: tasks may still be about to read them
        self._changed = threading.Event()  # set as any task ends

    def new_stop(self) -> str:
        from distributed import Event

        name = f"puzzle-ida-stop-{uuid.uuid4().hex[:12]}"
        self._stops.append(Event(name, client=self.client))
        return name

    def set_stop(self, stop: str) -> None:
        from distributed import Event

        Event(stop, client=self.client).set()
        self._set.add(stop)

    def submit(self, key: str, *args):
        """A spread search's task (``parallel_ida.run_task``) on any of the lane's workers."""
        from engine.domains.tiles.parallel_ida import run_task

        future = self.client.submit(run_task, *args, key=key, pure=False, workers=self.addresses,
                                    allow_other_workers=False)
        future.add_done_callback(lambda _: self._changed.set())
        return future

    def slots(self) -> list[str]:
        """Each worker's address once per thread: where ``call`` may send a task."""
        return [address for address in self.addresses for _ in range(self.threads[address])]

    def call(self, key: str, slot: str, function, *args):
        """``function(*args)`` as a task on the worker ``slot`` (one of ``slots()``)."""
        future = self.client.submit(function, *args, key=key, pure=False, workers=[slot], allow_other_workers=False)
        future.add_done_callback(lambda _: self._changed.set())
        return future

    def wait(self, futures: list, timeout: float) -> set:
        # distributed.wait would look for a default client, which a pool given its client may lack
        done = {future for future in futures if future.done()}
        if not done:
            self._changed.wait(timeout)
            self._changed.clear()
            done = {future for future in futures if future.done()}
        return done

    #: Seconds a stop that was set stays set after the pool closes. The tasks it stops read it every ``STOP_POLL``
    #: (a batch's chunks every ``chunks.STOP_POLL``) and go on, cancelled futures or not, until they do: cleared at
    #: once, a running task never saw it and ran to its end, and the job that waited for its worker's thread with it.
    LINGER = 30.0

    def close(self) -> None:
        unset = [event for event in self._stops if event.name not in self._set]
        stopped = [event for event in self._stops if event.name in self._set]
        _clear(unset)  # an event is forgotten by the scheduler once cleared and unreferenced
        if stopped:
            timer = threading.Timer(self.LINGER, _clear, args=(stopped,))
            timer.daemon = True
            timer.start()


def _clear(events: list) -> None:
    for event in events:
        try:
            event.clear()
        except Exception:  # the cluster went away meanwhile: nothing is left to clear
            pass


def pool_here(lane: str = "long"):
    """Where this process spreads its tasks: the cluster of the Dask worker it runs in (a job), else the cluster
    named by ``PUZZLE_SCHEDULER``, else this machine's threads. Returns a context manager giving the pool."""
    import contextlib

    @contextlib.contextmanager
    def pool():
        try:
            from distributed import get_worker, worker_client

            get_worker()
        except (ImportError, ValueError):
            address = os.environ.get("PUZZLE_SCHEDULER", "").strip()
            if address:
                from distributed import Client

                with Client(address, timeout="10s", set_as_default=False) as client:
                    spread = DaskPool(client, lane_workers(client, lane))
                    try:
                        yield spread
                    finally:
                        spread.close()
                return
            threads = ThreadPool()
            try:
                yield threads
            finally:
                threads.close()
            return
        with worker_client() as client:  # this thread secedes while it waits: its worker runs tasks too
            spread = DaskPool(client, lane_workers(client, lane))
            try:
                yield spread
            finally:
                spread.close()
    return pool()


