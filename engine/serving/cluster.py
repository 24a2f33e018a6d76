"""Running jobs on Dask worker processes, from the web process: submit, follow, cancel, limit.

Where the work runs: a local cluster (``engine.serving.lanes``, the embedded default: a scheduler in this process and
worker processes sized to the machine), or an existing Dask cluster named by its scheduler's address. Workers advertise
a lane as a Dask resource (``interactive=2``, ``long=1``: one unit per thread); a job asks for one unit of its lane's
resource, so long work can never take the workers that answer solves. A cluster whose workers advertise no lane at all
still runs every job (in priority order), which is what a bare ``dask worker`` gives.

What crosses the process boundary: the task (``engine.serving.worker.run_job``) and its result; progress and the
worker's address as Dask events on one topic; cancel as a Dask ``Event`` per job. A job that ignores cancel for
``KILL_AFTER`` seconds loses its worker process (its nanny starts a fresh one; other workers carry on).

Who goes first: a job is admitted (``Limits``: per browser, per network address, long jobs waiting overall; a browser
with nothing running always gets its interactive job) and then waits here, not in Dask, until its lane has a free
worker thread; ``engine.serving.fair`` picks whose turn it is. An interactive job runs for ``Limits.slice_seconds`` at
most: the worker stops it there and it waits again, on the long lane, with the rest of its budget.

The rows live in SQLite (``engine.serving.jobs.JobStore``); each job this runner follows is one ``Job`` record in memory
(its row's live state, its Dask future, its cancel), from submission to its final row.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.core.errors import PuzzleError
from engine.core.status import FINISHED, Status
from engine.core.units import duration
from engine.serving.fair import FairScheduler
from engine.serving.jobs import INTERACTIVE, LONG, JobStore, Retention, StorageFull, canonical, checked, job_kinds
from engine.serving.lanes import LaneCensus, LocalWorkers, start_local_cluster
from engine.serving.worker import HANDED_OVER, TOPIC, MemoryLimitExceeded, cancel_event_name, run_job

if TYPE_CHECKING:
    from distributed import Future

log = logging.getLogger(__name__)

#: Seconds a running job has to honour a cancel before its worker process is replaced.
KILL_AFTER = 10.0
#: Seconds between SQLite writes of one job's progress (the live value is served from memory meanwhile).
WRITE_INTERVAL = 0.5
#: Seconds between tries to write the endings a full disk refused (and between checks of the retention rule).
RETRY_EVERY = 2.0
#: Seconds between two applications of the retention rule.
PRUNE_EVERY = 600.0
#: How many times one job starts again because its worker was replaced for another job's ignored cancel.
MAX_RESTARTS = 2
#: What such a job says while it waits again.
RESTARTED_TEXT = "starting again: its worker was replaced because another job did not stop when cancelled"


class QuotaExceeded(PuzzleError):
    """Too many jobs: the app answers 429 (the message says what to do)."""


class NotOwner(PuzzleError):
    """Only the browser that submitted a job may cancel it: the app answers 403."""


class NoWorker(PuzzleError):
    """No worker serves the job's lane: the app answers 503 with how to start one."""


def anonymous_owner(address: str) -> str:
    """The client every cookieless request from ``address`` is, whatever cookie each response sets."""
    return f"ip:{address}"


@dataclass(frozen=True)
class Limits:
    per_owner: int = 4  # queued + running jobs one browser may have
    per_address: int = 16  # queued + running jobs of every browser behind one network address together
    queued: int = 64  # long jobs waiting overall, every browser together
    slice_seconds: float = 2.0  # how long a job may hold an interactive slot before it goes on in the background
    memory: int = 4 * 2**30  # bytes one job may grow its worker by

    @classmethod
    def from_environment(cls) -> Limits:
        """The defaults, with ``PUZZLE_PER_ADDRESS`` (a class behind one NAT address needs about 4 per student)."""
        value = os.environ.get("PUZZLE_PER_ADDRESS", "")
        return cls(per_address=int(value)) if value.strip().isdigit() else cls()


@dataclass(eq=False)
class Job:
    """One job this runner follows, from submission to its final row: everything its lifecycle needs in one place.

    Submitted: the row is written queued and the job waits in the fair scheduler (``engine.serving.fair``) until its
    lane has a free slot. Dispatched: ``future`` is its Dask task (``attempt`` numbers its keys). Started: the worker's
    event sets ``worker``. Progress events update ``fraction`` and ``info`` (written to the row at most every
    ``WRITE_INTERVAL``). An interactive job still running at the end of its slice comes back handed over and waits
    again, on the long lane. Ended: the row gets its final status, the record leaves the runner and ``ended`` is set.
    """

    id: str
    kind: str
    params: dict  # as submitted (what an identical request reattaches to)
    owner: str
    address: str
    lane: str
    run_params: dict  # what the next attempt runs with (a handed-over solve has the rest of its budget)
    note: str = ""  # said beside its progress: why it runs on the long lane
    info: dict = field(default_factory=dict)
    order: int = 0  # the scheduler's arrival order
    attempt: int = 0
    future: Future | None = None
    worker: str | None = None
    started: float | None = None  # when the worker said it started (its row may be written after the end)
    fraction: float | None = 0.0
    written: float = 0.0
    cancel_asked: bool = False
    memory_failed: bool = False
    ended: threading.Event = field(default_factory=threading.Event)
    client: str = ""  # who takes turns and counts for the per-browser limit (``submit``); the owner unless set
    restarts: int = 0  # times it waited again after its worker was replaced for another job (``_requeue``)

    def __post_init__(self):
        self.client = self.client or self.owner

    def same_request(self, owner: str, kind: str, params: dict) -> bool:
        return (self.owner, self.kind, canonical(self.params)) == (owner, kind, canonical(params))


#: What a job handed over to the long lane says while it waits and runs there.
BACKGROUND_TEXT = "still searching, now in the background (it needed more than a quick answer's share)"


class JobRunner:
    """Submit jobs to Dask in fair turns and keep their rows up to date."""

    def __init__(self, db_path: str, scheduler: str | None = None, workers: LocalWorkers | None = None,
                 limits: Limits | None = None, data_dir: str | None = None, retention: Retention | None = None):
        from distributed import Client

        self.store = JobStore(db_path)
        self.retention = retention or Retention.from_environment()
        # What a full disk refused: job id → the ending to write (served from here meanwhile), and whether the rows a
        # stopped server left unfinished are still to be marked interrupted. Written again every RETRY_EVERY.
        self._unwritten: dict[str, tuple] = {}
        self._interrupt_pending = False
        try:
            self.store.interrupt_unfinished()
        except StorageFull:
            log.warning("the disk of the job database is full: unfinished rows are marked interrupted later")
            self._interrupt_pending = True
        self.limits = limits or Limits()
        self.data_dir = data_dir
        # Guards the records and the scheduler, never a call to Dask: the client's calls run on Dask's event loop,
        # whose handlers (``_on_event``) take this lock too, so holding it across one would deadlock.
        self._lock = threading.Lock()
        self._jobs: dict[str, Job] = {}
        self._fair = FairScheduler()
        # Rows are written here, never on Dask's event loop (a write there would stall every message of the cluster)
        # nor on Dask's one shared callback thread (which would queue every job's ending behind the last one's).
        self._writer = ThreadPoolExecutor(max_workers=4, thread_name_prefix="job-rows")
        self._lanes = LaneCensus()
        # Workers this runner replaced for a job that ignored its cancel: the other jobs they ran are requeued.
        self._replaced: set[str] = set()
        self.cluster = None
        if scheduler:
            self.client = Client(scheduler, timeout="10s", set_as_default=False)
        else:
            env = {"PUZZLE_DATA_DIR": data_dir} if data_dir else None
            self.cluster = start_local_cluster(workers or LocalWorkers(), self.limits.memory, env)
            self.client = Client(self.cluster, set_as_default=False)
        self.client.subscribe_topic(TOPIC, self._on_event)
        self._closed = False
        #: set when the runner shuts down
        self.stopped = threading.Event()
        threading.Thread(target=self._keep, daemon=True, name="job-rows-keeper").start()

    @property
    def scheduler_address(self) -> str:
        return self.client.scheduler.address

    # ---- submitting ---------------------------------------------------------------------------------------------

    def submit(self, kind: str, params: dict, owner: str = "", address: str = "",
               anonymous: bool = False) -> tuple[str, bool]:
        """Queue a job; returns (job id, reattached). A job of the same owner, kind and parameters that is still
        queued or running is returned instead of a duplicate. Raises PuzzleError (400) for bad parameters,
        QuotaExceeded (429) past the limits and NoWorker (503) when no worker serves its lane. ``address`` is the
        client's network address; ``anonymous``: the request carried no cookie (a script: it may cancel the jobs its
        address started so). Every cookieless request from one address is one client (``anonymous_owner``): counted
        by the per-browser limit and taking one turn, so a script's hundred jobs never queue ahead of a browser
        behind the same address; the cookie its response sets still owns the job."""
        client = anonymous_owner(address) if anonymous and address else owner
        job_kind, params = checked(kind, params)
        placement = job_kind.place(params)
        self._require_lane(placement.lane)
        with self._lock:
            for job in self._jobs.values():
                if job.same_request(owner, kind, params):
                    return job.id, True
            self._admit(client, address, placement.lane)
            job = Job(uuid.uuid4().hex[:12], kind, params, owner, address, placement.lane, params, placement.note,
                      client=client)
            self.store.create(job.id, kind, params, owner, placement.lane, address, anonymous,
                              {"text": job.note} if job.note else None)
            self._jobs[job.id] = job
            self._fair.add(job)
        self._dispatch()
        return job.id, False

    def _admit(self, client: str, address: str, lane: str) -> None:
        """Raise QuotaExceeded past a limit. A browser with nothing running always gets its interactive job: the
        limits of its address and of the whole server stop the many, never the one."""
        mine = [job for job in self._jobs.values() if job.client == client]
        if lane == INTERACTIVE and not mine:
            return
        limits = self.limits
        if len(mine) >= limits.per_owner:
            raise QuotaExceeded(f"you already have {limits.per_owner} jobs queued or running: wait for one to finish "
                                "or cancel one (the Jobs page lists them), then try again")
        if address and sum(job.address == address for job in self._jobs.values()) >= limits.per_address:
            raise QuotaExceeded(
                f"your network address already has {limits.per_address} jobs queued or running (every browser "
                "behind it together): wait for one to finish, then try again. A class that shares one address: the "
                "teacher can raise the limit with PUZZLE_PER_ADDRESS (see the README)")
        if lane == LONG and len(self._fair.waiting(LONG)) >= limits.queued:
            raise QuotaExceeded(f"the server's queue of long jobs is full ({limits.queued} waiting): try again in a "
                                "few minutes; solves that answer within seconds are still taken")

    def _require_lane(self, lane: str) -> None:
        if not self._lanes.serves(self.client, lane):
            raise NoWorker(f"no worker serves the {lane} lane, so this job could never start. Start one: dask worker "
                           f"{self.scheduler_address} --resources {lane}=1 --preload engine.serving.worker")

    def _dispatch(self) -> None:
        """Hand to Dask every waiting job whose lane has a free slot, in the fair scheduler's order."""
        slots = self._lanes.slots(self.client)
        with self._lock:
            if self._closed:
                return
            starting = self._fair.take(slots)
            for job in starting:
                job.attempt += 1
        for job in starting:
            interactive = job.lane == INTERACTIVE
            future = self.client.submit(
                run_job, job.id, job.kind, job.run_params, self.limits.memory, self.data_dir,
                self.limits.slice_seconds if interactive else 0.0, key=f"job-{job.kind}-{job.id}-{job.attempt}",
                pure=False, resources=self._lanes.resources(job.lane), priority=10 if interactive else 0)
            with self._lock:
                job.future = future
            future.add_done_callback(lambda f, job=job: self._on_done(job, f))

    # ---- following --------------------------------------------------------------------------------------------

    def _on_event(self, event) -> None:
        _, message = event
        with self._lock:
            job = self._jobs.get(message.get("job"))
        if job is None:
            return  # another web process's job (several apps may share one cluster)
        kind = message.get("event")
        if kind == "started":
            job.worker = message["worker"]
            job.started = job.started or message["time"]
            self._writer.submit(self.store.started, job.id, message["worker"], message["time"])
        elif kind == "progress":
            job.fraction, job.info = message["fraction"], message["info"]
            now = time.monotonic()
            if now - job.written >= WRITE_INTERVAL:
                job.written = now
                self._writer.submit(self.store.progress, job.id, message["fraction"], message["info"])
        elif kind == "memory":
            job.memory_failed = True

    def _on_done(self, job: Job, future) -> None:
        if not self._closed:  # after shutdown the rows were already marked interrupted
            self._writer.submit(self._end, job, future)

    def _end(self, job: Job, future) -> None:
        try:
            handed_over = self._hand_over(job, future)
        except Exception:
            log.exception("handing job %s over failed", job.id)
            handed_over = False
        if not handed_over and not self._requeue(job, future):
            try:
                self._record_end(job, future)
            except Exception:  # whatever went wrong, the job ends and frees its lane: no row stays running
                log.exception("recording the end of job %s failed", job.id)
                self._finish(job.id, Status.FAILED, None, "internal error: the end of this job could not be recorded")
            with self._lock:
                self._jobs.pop(job.id, None)
                self._fair.remove(job)
            job.ended.set()
        self._dispatch()

    def _hand_over(self, job: Job, future) -> bool:
        """An interactive job stopped at the end of its slice waits again, on the long lane (unless it was cancelled
        meanwhile); whether it was handed over."""
        if future.status != "finished" or not (result := future.result()).get(HANDED_OVER):
            return False
        with self._lock:
            if job.cancel_asked or self._closed:
                return False
            self._fair.remove(job)
            job.lane, job.worker, job.future = LONG, None, None
            if "max_seconds" in job.run_params:  # a budget is the search's, not each attempt's
                left = max(0.001, job.run_params["max_seconds"] - result["seconds"])
                job.run_params = {**job.run_params, "max_seconds": left}
            job.note = BACKGROUND_TEXT
            self._fair.add(job)
        try:
            self.store.hand_over(job.id, LONG, {**job.info, "text": job.note})
        except StorageFull:
            pass  # the record in memory goes on; its ending is written (or kept) as any other's
        return True

    def _requeue(self, job: Job, future) -> bool:
        """A job whose worker this runner replaced for another job's ignored cancel (``_enforce_cancel``) did nothing
        wrong: it waits again, in its lane, and starts afresh (at most ``MAX_RESTARTS`` times); whether it did."""
        if future.status != "error":
            return False
        with self._lock:
            if (job.cancel_asked or self._closed or job.worker not in self._replaced
                    or job.restarts >= MAX_RESTARTS):
                return False
            self._fair.remove(job)
            job.restarts += 1
            job.worker, job.future, job.fraction = None, None, 0.0
            job.note = RESTARTED_TEXT
            self._fair.add(job)
        log.warning("job %s lost its worker to another job's cancel: it is queued again", job.id)
        try:
            self.store.hand_over(job.id, job.lane, {**job.info, "text": job.note})
        except StorageFull:
            pass  # the record in memory goes on; its ending is written (or kept) as any other's
        return True

    def _record_end(self, job: Job, future) -> None:
        info = job.info or None
        if future.status == "finished":
            result = future.result()
            if result.get(HANDED_OVER):  # stopped at its slice, and cancelled before it could go on
                self._finish(job.id, Status.CANCELLED, None, "cancelled", info)
                return
            status = Status.CANCELLED if job.cancel_asked or result.get("status") == Status.CANCELLED else Status.DONE
            self._finish(job.id, status, result, None, info, (job.worker, job.started) if job.started else None)
        elif job.cancel_asked or future.status == "cancelled":
            self._finish(job.id, Status.CANCELLED, None, "cancelled", info)
        else:
            self._finish(job.id, Status.FAILED, None, self._failure_message(job, future.exception()), info)

    def _failure_message(self, job: Job, error: BaseException | None) -> str:
        if isinstance(error, (PuzzleError, MemoryLimitExceeded)):
            return str(error)
        if job.memory_failed:
            return (f"this job went over its memory limit ({self.limits.memory / 2**30:.1f} GB) and was stopped; "
                    "its worker was replaced")
        name = type(error).__name__
        if name == "KilledWorker":
            return "the worker running this job stopped (it was restarted); the job did not finish"
        log.error("job %s failed: %r", job.id, error)
        return f"internal error: {name}: {error}"

    # ---- writing endings, and the retention rule -------------------------------------------------------------

    def _finish(self, job_id: str, status: Status, result: dict | None = None, error: str | None = None,
                info: dict | None = None, started: tuple[str | None, float] | None = None) -> None:
        """Write a job's ending; if the disk is full, keep it in memory (``get`` serves it) until ``_keep`` can."""
        try:
            self.store.finish(job_id, status, result, error, info, started)
        except StorageFull:
            log.warning("the disk is full: the end of job %s is written once space returns", job_id)
            with self._lock:
                self._unwritten.setdefault(job_id, (status, result, error, info, time.time()))

    def _keep(self) -> None:
        """Write what a full disk refused, as soon as it can, apply the retention rule now and then, and offer the
        waiting jobs again: a worker that joined since (a cluster still starting, a worker added for a class) takes
        them even if no job ends to trigger a dispatch."""
        pruned = -float("inf")
        while not self.stopped.wait(RETRY_EVERY):
            try:
                with self._lock:
                    waiting = bool(self._fair.waiting())
                if waiting:
                    self._dispatch()
                with self._lock:
                    pending = list(self._unwritten.items())
                for job_id, (status, result, error, info, _) in pending:
                    self.store.finish(job_id, status, result, error, info)
                    with self._lock:
                        self._unwritten.pop(job_id, None)
                if self._interrupt_pending:
                    self.store.interrupt_unfinished_except(self._following())
                    self._interrupt_pending = False
                if time.monotonic() - pruned >= PRUNE_EVERY:
                    pruned = time.monotonic()
                    self.prune()
            except StorageFull:
                continue
            except Exception:
                log.exception("keeping the job rows failed")

    def _following(self) -> list[str]:
        with self._lock:
            return list(self._jobs)

    def prune(self) -> int:
        """Apply the retention rule (``engine.serving.jobs.Retention``) now; how many rows it deleted."""
        kept = tuple(name for name, kind in job_kinds().items() if kind.lane == LONG)
        return self.store.prune(self.retention, kept)

    def get(self, job_id: str) -> dict | None:
        row = self.store.get(job_id)
        with self._lock:
            unwritten = self._unwritten.get(job_id)
        if row is not None and unwritten is not None:  # ended, but a full disk has kept the row from saying so
            status, result, error, info, when = unwritten
            row.update(status=status, result=result, error=error, finished=when, info=info or row["info"],
                       fraction=1.0 if status == Status.DONE else row["fraction"])
            return row
        if row is None or row["status"] in FINISHED:
            return row
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None:
                return row
            # the record is ahead of the row (its writes wait on the pool)
            row.update(fraction=job.fraction, info=dict(job.info), lane=job.lane)
            if job.note:
                progress = row["info"].get("text")
                row["info"]["text"] = f"{job.note} · {progress}" if progress else job.note
            if job.worker:
                row["status"], row["worker"] = Status.RUNNING, job.worker
            else:
                row["status"] = Status.QUEUED
                if job in self._fair.waiting():
                    row["info"].setdefault("text", self._waiting_text(job))
            if job.cancel_asked:
                row["info"] = {**row["info"], "text": "cancelling…"}
        return row

    def _waiting_text(self, job: Job) -> str:
        """What a waiting job says: what holds its lane's workers (a start-up table build holds one for minutes) and
        how many jobs wait before it. The caller holds the lock."""
        now = time.time()
        busy = [f"{job_kinds()[other.kind].view_for(other.params).title.lower()}"
                + (f", {duration(now - other.started)} so far" if other.started else "")
                for other in self._jobs.values() if other.lane == job.lane and other.worker]
        others = len(self._fair.waiting(job.lane)) - 1
        text = f"waiting for a worker of the {job.lane} lane"
        if busy:  # a big cluster's long lane has many workers: the first few say enough
            text += f"; busy with: {'; '.join(busy[:3])}" + (f"; and {len(busy) - 3} more" if len(busy) > 3 else "")
        if others:
            waiting = "1 other job waits" if others == 1 else f"{others} other jobs wait"
            text += f" · {waiting}; turns go round every browser"
        return text

    def mine(self, owner: str, address: str | None = None, limit: int = 50) -> list[dict]:
        """The owner's jobs, newest first; with ``address``, also those its address started without a cookie."""
        args: tuple[str, ...]
        where, args = "owner = ?", (owner,)
        if address:
            where, args = "owner = ? OR (anonymous = 1 AND address = ?)", (owner, address)
        return [self.get(job["id"]) or job for job in self.store.select(where, args, limit=limit)]

    def wait(self, job_id: str, timeout: float = 60.0) -> dict | None:
        """Block until the job has ended or ``timeout`` passes; returns the row as it then is."""
        with self._lock:
            job = self._jobs.get(job_id)
        if job is not None:  # a job this runner follows: sleep until its row is written, no polling
            job.ended.wait(timeout)
            return self.get(job_id)
        deadline = time.monotonic() + timeout
        while True:  # a row some other runner wrote, or wrote before this one started
            row = self.get(job_id)
            if row is None or row["status"] in FINISHED or time.monotonic() >= deadline:
                return row
            time.sleep(0.05)

    # ---- cancelling -------------------------------------------------------------------------------------------

    def cancel(self, job_id: str, owner: str | None = None, address: str | None = None) -> dict | None:
        """Stop a job. ``owner`` None means the server itself asks (no ownership check); ``address``: the request
        had no cookie, and may cancel what its address started without one."""
        row = self.store.get(job_id)
        if row is None:
            return None
        if owner is not None and row["owner"] != owner and not (address and row["anonymous"]
                                                                and row["address"] == address):
            raise NotOwner("only the browser that started this job can cancel it")
        if row["status"] in FINISHED:
            return row
        with self._lock:
            job = self._jobs.get(job_id)
            first = job is not None and not job.cancel_asked
            if job is not None:
                job.cancel_asked = True
            never_dispatched = job is not None and self._fair.withdraw(job)
            future = job.future if job is not None else None
        if job is None or never_dispatched:  # nothing runs it: end it here
            self._finish(job_id, Status.CANCELLED, None, "cancelled")
            if job is not None:
                with self._lock:
                    self._jobs.pop(job_id, None)
                job.ended.set()
            return self.get(job_id)
        from distributed import Event

        Event(cancel_event_name(job_id), client=self.client).set()
        if future is not None and job.worker is None:
            future.cancel()  # queued inside Dask: it never starts
        if first and future is not None:
            threading.Thread(target=self._enforce_cancel, args=(job, future), daemon=True,
                             name=f"cancel-{job_id}").start()
        return self.wait(job_id, timeout=2.0)

    def _enforce_cancel(self, job: Job, future) -> None:
        """Replace the worker of a job that has not stopped ``KILL_AFTER`` seconds after its cancel."""
        deadline = time.monotonic() + KILL_AFTER
        while not future.done() and time.monotonic() < deadline and not self._closed:
            time.sleep(0.05)
        if future.done() or self._closed or job.ended.is_set():
            return
        worker = job.worker
        log.warning("job %s ignored cancel for %.0f s; restarting worker %s", job.id, KILL_AFTER, worker)
        self._finish(job.id, Status.CANCELLED, None, f"cancelled (it did not stop within {KILL_AFTER:.0f} s, "
                                                          "so its worker process was replaced)")
        future.cancel()
        if worker:
            with self._lock:
                self._replaced.add(worker)
            try:
                self.client.restart_workers([worker], raise_for_error=False)
            except Exception as exc:
                log.error("restarting worker %s failed: %r", worker, exc)

    # ---- stopping ---------------------------------------------------------------------------------------------

    def shutdown(self) -> None:
        """Stop following jobs: the running ones are asked to cancel, every unfinished row is marked interrupted."""
        if self._closed:
            return
        self._closed = True
        self.stopped.set()
        from distributed import Event

        with self._lock:
            jobs = list(self._jobs.values())
            self._jobs.clear()
        for job in jobs:  # nobody waits for a job this runner no longer follows
            job.ended.set()
        for job in jobs:
            if job.future is not None:
                try:
                    Event(cancel_event_name(job.id), client=self.client).set()
                except Exception:
                    pass
        # Closing the scheduler interrupts the workers' waits on cancel events, which Dask logs as errors: they are
        # the expected end of those waits, not faults.
        logging.getLogger("distributed.event").setLevel(logging.CRITICAL)
        self._writer.shutdown(wait=True, cancel_futures=True)
        self.store.interrupt_unfinished()
        try:
            self.client.close(timeout=2)
            if self.cluster is not None:
                # Every row is final already: the workers hold nothing worth an orderly close, and one busy in a
                # kernel would hold the close for seconds.
                self._kill_local_workers()
                self.cluster.close(timeout=3)
        except Exception as error:  # stopping goes on: the caller's process is about to end
            log.warning("closing the cluster: %r", error)

    def _kill_local_workers(self) -> None:
        if self.cluster is None:  # workers of a cluster elsewhere are not this process's to end
            return
        for nanny in list(self.cluster.workers.values()):
            pid = getattr(getattr(getattr(nanny, "process", None), "process", None), "pid", None)
            if pid:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass

    # ---- reading stored results -------------------------------------------------------------------------------

    def latest(self, kind: str, where=None) -> dict | None:
        return self.store.latest(kind, where)

    def newest_by(self, kind: str, key) -> list[dict]:
        return self.store.newest_by(kind, key)
