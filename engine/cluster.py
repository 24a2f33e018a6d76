"""Running jobs on Dask worker processes, from the web process: submit, follow, cancel, limit.

Where the work runs: a local cluster started here (the embedded default: a scheduler in this process and worker
processes sized to the machine), or an existing Dask cluster named by its scheduler's address. Workers advertise a
lane as a Dask resource (``interactive=1`` or ``long=1``); a job asks for its lane's resource, so long work can never
take the workers that answer solves. A cluster whose workers advertise no lane at all still runs every job (in
priority order), which is what a bare ``dask worker`` gives.

What crosses the process boundary: the task (``engine.worker.run_job``) and its result; progress and the worker's
address as Dask events on one topic; cancel as a Dask ``Event`` per job. A job that ignores cancel for
``KILL_AFTER`` seconds loses its worker process (its nanny starts a fresh one; other workers carry on).

The rows live in SQLite (``engine.jobs.JobStore``); what a row does not say yet (live progress between writes) is
kept here in memory.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from engine.errors import PuzzleError
from engine.jobs import INTERACTIVE, LANES, LONG, JobStore, checked
from engine.status import FINISHED, Status
from engine.worker import TOPIC, MemoryLimitExceeded, cancel_event_name, run_job

log = logging.getLogger(__name__)

#: Seconds a running job has to honour a cancel before its worker process is replaced.
KILL_AFTER = 10.0
#: Seconds between SQLite writes of one job's progress (the live value is served from memory meanwhile).
WRITE_INTERVAL = 0.5


class QuotaExceeded(PuzzleError):
    """Too many jobs: the app answers 429."""


class NotOwner(PuzzleError):
    """Only the browser that submitted a job may cancel it: the app answers 403."""


@dataclass(frozen=True)
class Limits:
    per_owner: int = 4  # queued + running jobs one browser may have
    queued: int = 64  # queued jobs overall, every browser together
    memory: int = 4 * 2**30  # bytes one job may grow its worker by


@dataclass(frozen=True)
class LocalWorkers:
    """The embedded cluster's shape: long-lane worker processes (one thread each) and interactive ones."""

    long: int = max(1, os.cpu_count() or 2)
    interactive: int = 1
    interactive_threads: int = 2


def start_local_cluster(shape: LocalWorkers, memory_limit: int, env: dict | None = None):
    """A scheduler in this process and worker processes on 127.0.0.1, each with its lane as a resource."""
    import dask
    from distributed import Nanny, Scheduler, SpecCluster

    # A worker that dies under a job (out of memory, killed after ignoring cancel) fails that job at once: retrying
    # it elsewhere would kill the next worker too.
    dask.config.set({"distributed.scheduler.allowed-failures": 0,
                     "distributed.worker.daemon": False,
                     "distributed.admin.tick.limit": "30s"})
    nanny_memory = memory_limit + 2**30  # the nanny's own limit is the backstop behind the job's watch

    def worker(lane: str, threads: int) -> dict:
        return {"cls": Nanny, "options": {"nthreads": threads, "resources": {lane: 1}, "memory_limit": nanny_memory,
                                          "preload": ["engine.worker"], "env": env or {},
                                          "host": "127.0.0.1", "dashboard": False, "silence_logs": logging.WARNING}}

    workers = {f"long-{i}": worker(LONG, 1) for i in range(shape.long)}
    workers.update({f"interactive-{i}": worker(INTERACTIVE, shape.interactive_threads)
                    for i in range(shape.interactive)})
    scheduler = {"cls": Scheduler, "options": {"host": "127.0.0.1", "port": 0, "dashboard": False,
                                               "dashboard_address": "127.0.0.1:0"}}  # its health route only
    return SpecCluster(workers=workers, scheduler=scheduler, silence_logs=logging.WARNING, name="puzzle-playground")


class JobRunner:
    """Submit jobs to Dask and keep their rows up to date."""

    def __init__(self, db_path: str, scheduler: str | None = None, workers: LocalWorkers | None = None,
                 limits: Limits | None = None, data_dir: str | None = None):
        from distributed import Client

        self.store = JobStore(db_path)
        self.store.interrupt_unfinished()
        self.limits = limits or Limits()
        self.data_dir = data_dir
        self._lock = threading.Lock()
        self._futures: dict = {}
        self._ended: dict[str, threading.Event] = {}  # set once a followed job's final row is written
        # Rows are written here, never on Dask's event loop (a write there would stall every message of the cluster)
        # nor on Dask's one shared callback thread (which would queue every job's ending behind the last one's).
        self._writer = ThreadPoolExecutor(max_workers=4, thread_name_prefix="job-rows")
        self._live: dict[str, dict] = {}
        self._cancel_asked: dict[str, float] = {}
        self._memory_failed: set[str] = set()
        self._lanes_checked = (0.0, False)
        self.cluster = None
        if scheduler:
            self.client = Client(scheduler, timeout="10s", set_as_default=False)
        else:
            env = {"PUZZLE_DATA_DIR": data_dir} if data_dir else None
            self.cluster = start_local_cluster(workers or LocalWorkers(), self.limits.memory, env)
            self.client = Client(self.cluster, set_as_default=False)
        self.client.subscribe_topic(TOPIC, self._on_event)
        self._closed = False

    @property
    def scheduler_address(self) -> str:
        return self.client.scheduler.address

    # ---- submitting ---------------------------------------------------------------------------------------------

    def submit(self, kind: str, params: dict, owner: str = "") -> tuple[str, bool]:
        """Queue a job; returns (job id, reattached). A job of the same owner, kind and parameters that is still
        queued or running is returned instead of a duplicate. Raises PuzzleError (400) for bad parameters and
        QuotaExceeded (429) past the limits."""
        job, params = checked(kind, params)
        lane = job.lane_for(params)
        resources = self._resources(lane)
        # The lock guards the rows and the maps, never a call to Dask: the client's calls run on Dask's event loop,
        # whose handlers (``_on_event``) take this lock too, so holding it across one would deadlock.
        with self._lock:
            same = self.store.active(owner=owner, kind=kind, params=params)
            if same:
                return same[0]["id"], True
            if len(self.store.active(owner=owner)) >= self.limits.per_owner:
                raise QuotaExceeded(f"you already have {self.limits.per_owner} jobs queued or running: wait for one "
                                    "to finish or cancel one, then try again")
            if self.store.count_queued() >= self.limits.queued:
                raise QuotaExceeded("the server's job queue is full; try again in a minute")
            job_id = uuid.uuid4().hex[:12]
            self.store.create(job_id, kind, params, owner, lane)
            self._ended[job_id] = threading.Event()
            self._live[job_id] = {"fraction": 0.0, "info": {}, "written": 0.0}
        future = self.client.submit(run_job, job_id, kind, params, self.limits.memory, self.data_dir,
                                    key=f"job-{kind}-{job_id}", pure=False, resources=resources,
                                    priority=10 if lane == INTERACTIVE else 0)
        with self._lock:
            self._futures[job_id] = future
        future.add_done_callback(lambda f, job_id=job_id: self._on_done(job_id, f))
        return job_id, False

    def _resources(self, lane: str) -> dict | None:
        """The lane's resource, if any worker offers lanes (a bare cluster runs every job on any worker)."""
        checked_at, offered = self._lanes_checked
        if time.monotonic() - checked_at > 5.0:
            workers = self.client.scheduler_info(n_workers=-1).get("workers", {}).values()
            offered = any(set(w.get("resources", {})) & set(LANES) for w in workers)
            self._lanes_checked = (time.monotonic(), offered)
        return {lane: 1} if offered else None

    # ---- following --------------------------------------------------------------------------------------------

    def _on_event(self, event) -> None:
        _, message = event
        job_id = message.get("job")
        with self._lock:
            live = self._live.get(job_id)
        if live is None:
            return  # another web process's job (several apps may share one cluster)
        kind = message.get("event")
        if kind == "started":
            live["worker"] = message["worker"]
            self._writer.submit(self.store.started, job_id, message["worker"], message["time"])
        elif kind == "progress":
            live["fraction"], live["info"] = message["fraction"], message["info"]
            now = time.monotonic()
            if now - live["written"] >= WRITE_INTERVAL:
                live["written"] = now
                self._writer.submit(self.store.progress, job_id, message["fraction"], message["info"])
        elif kind == "memory":
            self._memory_failed.add(job_id)

    def _on_done(self, job_id: str, future) -> None:
        if not self._closed:  # after shutdown the rows were already marked interrupted
            self._writer.submit(self._end, job_id, future)

    def _end(self, job_id: str, future) -> None:
        try:
            self._record_end(job_id, future)
        finally:
            with self._lock:
                ended = self._ended.pop(job_id, None)
            if ended is not None:
                ended.set()

    def _record_end(self, job_id: str, future) -> None:
        with self._lock:
            live = self._live.pop(job_id, {})
            self._futures.pop(job_id, None)
            cancel_asked = self._cancel_asked.pop(job_id, None) is not None
        info = live.get("info") or None
        if future.status == "finished":
            result = future.result()
            status = Status.CANCELLED if cancel_asked or result.get("status") == Status.CANCELLED else Status.DONE
            self.store.finish(job_id, status, result, None, info)
        elif cancel_asked or future.status == "cancelled":
            self.store.finish(job_id, Status.CANCELLED, None, "cancelled", info)
        else:
            self.store.finish(job_id, Status.FAILED, None, self._failure_message(job_id, future.exception()), info)
        self._memory_failed.discard(job_id)

    def _failure_message(self, job_id: str, error: BaseException | None) -> str:
        if isinstance(error, (PuzzleError, MemoryLimitExceeded)):
            return str(error)
        if job_id in self._memory_failed:
            return (f"this job went over its memory limit ({self.limits.memory / 2**30:.1f} GB) and was stopped; "
                    "its worker was replaced")
        name = type(error).__name__
        if name == "KilledWorker":
            return "the worker running this job stopped (it was restarted); the job did not finish"
        log.error("job %s failed: %r", job_id, error)
        return f"internal error: {name}: {error}"

    def get(self, job_id: str) -> dict | None:
        job = self.store.get(job_id)
        if job is None:
            return None
        with self._lock:
            live = self._live.get(job_id)
            if live is not None and job["status"] not in FINISHED:
                job["fraction"], job["info"] = live["fraction"], live["info"]
                if live.get("worker") and job["status"] == Status.QUEUED:  # its row is being written
                    job["status"], job["worker"] = Status.RUNNING, live["worker"]
            if job_id in self._cancel_asked and job["status"] not in FINISHED:
                job["info"] = {**job["info"], "text": "cancelling…"}
        return job

    def mine(self, owner: str, limit: int = 50) -> list[dict]:
        return [self.get(job["id"]) or job for job in self.store.select("owner = ?", (owner,), limit=limit)]

    def wait(self, job_id: str, timeout: float = 60.0) -> dict | None:
        """Block until the job has ended or ``timeout`` passes; returns the row as it then is."""
        with self._lock:
            ended = self._ended.get(job_id)
        if ended is not None:  # a job this runner follows: sleep until its row is written, no polling
            ended.wait(timeout)
            return self.get(job_id)
        deadline = time.monotonic() + timeout
        while True:  # a row some other runner wrote, or wrote before this one started
            job = self.get(job_id)
            if job is None or job["status"] in FINISHED or time.monotonic() >= deadline:
                return job
            time.sleep(0.05)

    # ---- cancelling -------------------------------------------------------------------------------------------

    def cancel(self, job_id: str, owner: str | None = None) -> dict | None:
        """Stop a job. ``owner`` None means the server itself asks (no ownership check)."""
        job = self.store.get(job_id)
        if job is None:
            return None
        if owner is not None and job["owner"] != owner:
            raise NotOwner("only the browser that started this job can cancel it")
        if job["status"] in FINISHED:
            return job
        with self._lock:
            future = self._futures.get(job_id)
            live = self._live.get(job_id)
            followed = live is not None
            started = bool(live and live.get("worker"))  # the row may still say queued: its write is on the pool
            first = job_id not in self._cancel_asked
            self._cancel_asked.setdefault(job_id, time.monotonic())
        from distributed import Event

        Event(cancel_event_name(job_id), client=self.client).set()
        if job["status"] == Status.QUEUED and not started and future is not None:
            future.cancel()
        elif not followed:  # a row this runner does not follow (a stale row): end it here
            self.store.finish(job_id, Status.CANCELLED, None, "cancelled")
        if first and future is not None:
            threading.Thread(target=self._enforce_cancel, args=(job_id, future), daemon=True,
                             name=f"cancel-{job_id}").start()
        return self.wait(job_id, timeout=2.0)

    def _enforce_cancel(self, job_id: str, future) -> None:
        """Replace the worker of a job that has not stopped ``KILL_AFTER`` seconds after its cancel."""
        deadline = time.monotonic() + KILL_AFTER
        while not future.done() and time.monotonic() < deadline and not self._closed:
            time.sleep(0.05)
        job = self.get(job_id)
        if future.done() or self._closed or job is None or job["status"] in FINISHED:
            return
        worker = job.get("worker")
        log.warning("job %s ignored cancel for %.0f s; restarting worker %s", job_id, KILL_AFTER, worker)
        self.store.finish(job_id, Status.CANCELLED, None, f"cancelled (it did not stop within {KILL_AFTER:.0f} s, so "
                                                          "its worker process was replaced)")
        future.cancel()
        if worker:
            try:
                self.client.restart_workers([worker], raise_for_error=False)
            except Exception as exc:
                log.error("restarting worker %s failed: %r", worker, exc)

    # ---- stopping ---------------------------------------------------------------------------------------------

    def shutdown(self) -> None:
        """Stop following jobs: the unfinished ones are asked to cancel and marked interrupted."""
        if self._closed:
            return
        self._closed = True
        from distributed import Event

        with self._lock:
            unfinished = list(self._futures)
            self._live.clear()
            for ended in self._ended.values():  # nobody waits for a job this runner no longer follows
                ended.set()
        for job_id in unfinished:
            try:
                Event(cancel_event_name(job_id), client=self.client).set()
            except Exception:
                pass
        # Closing the scheduler interrupts the workers' waits on cancel events, which Dask logs as errors: they are
        # the expected end of those waits, not faults.
        logging.getLogger("distributed.event").setLevel(logging.CRITICAL)
        self._writer.shutdown(wait=True)
        self.store.interrupt_unfinished()
        try:
            self.client.close(timeout=5)
        finally:
            if self.cluster is not None:
                self.cluster.close(timeout=10)

    # ---- reading stored results -------------------------------------------------------------------------------

    def latest(self, kind: str, where=None) -> dict | None:
        return self.store.latest(kind, where)

    def newest_by(self, kind: str, key) -> list[dict]:
        return self.store.newest_by(kind, key)
