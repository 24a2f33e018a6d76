"""Running jobs on Dask worker processes, from any number of web processes on one job database: the runner's life.

Where the work runs: a local cluster (``engine.serving.lanes``, the embedded default: a scheduler in this process and
worker processes sized to the machine), or an existing Dask cluster named by its scheduler's address, which several web
processes may share. Workers advertise a lane as a Dask resource (``interactive=2``, ``long=1``: one unit per thread);
a job asks for one unit of its lane's resource, so long work can never take the workers that answer solves. A cluster
whose workers advertise no lane at all still runs every job (in priority order), which is what a bare ``dask worker``
gives.

Jobs belong to the database and the cluster, not to a web process. Each ``JobRunner`` (one per web process) has an id;
a job's row names the runner that holds it and a lease (``LEASE`` seconds) that runner renews several times a lease.
The parts:

* ``engine.serving.admission``: the limits, counted in the database in the transaction that inserts the row;
* ``engine.serving.dispatch``: the queue (rows waiting), claimed in fair turns by whichever runner has a free slot,
  and the long lane's turns over time (a resumable job yields to another client's waiting job);
* ``engine.serving.following``: a task's events, its ending (written once), the hand-over to another turn;
* ``engine.serving.cancelling``: a cancel from any process, through the row and the job's Dask ``Event``;
* this module: starting (adopting the rows whose runner's lease lapsed), renewing the lease, and stopping.

A runner that starts or runs touches only its own rows and those whose lease has lapsed: a lapsed waiting row just
changes hands; a lapsed dispatched row is adopted if its task still lives on the cluster (every task is published
under its key, so it outlives the client that submitted it), and marked interrupted if not. A runner that stops while
its cluster lives on (``scheduler=`` given) and another runner works on the database (the ``runners`` table, leased
too) lets its leases lapse at once (``leave``): its tasks run on and the next runner that looks (within
``RENEW_EVERY`` seconds) adopts them. A runner that owns the embedded cluster ends it, and the last runner on the
database has nobody to hand on to: they cancel their tasks and mark their rows interrupted.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

from engine.core.status import FINISHED, Status
from engine.serving.admission import Admission, Limits, NoWorker, QuotaExceeded, anonymous_owner
from engine.serving.cancelling import KILL_AFTER, Cancelling, NotOwner
from engine.serving.dispatch import Dispatch, task_key
from engine.serving.following import BACKGROUND_TEXT, MAX_RESTARTS, RESTARTED_TEXT, Following, Job
from engine.serving.jobs import LONG, JobStore, Retention, StorageFull, job_kinds
from engine.serving.lanes import LaneCensus, LocalWorkers, kill_local_workers, start_local_cluster
from engine.serving.worker import TOPIC, cancel_event_name

__all__ = ["BACKGROUND_TEXT", "KILL_AFTER", "MAX_RESTARTS", "RESTARTED_TEXT", "Job", "JobRunner", "Limits", "NoWorker",
           "NotOwner", "QuotaExceeded", "anonymous_owner"]

log = logging.getLogger(__name__)

#: Seconds between two rounds of the keeper (adopting, enforcing cancels, asking for yields, offering the queue).
RENEW_EVERY = 1.0
#: Seconds a lease lasts unless renewed: past them, another runner adopts the row.
LEASE = 10.0
#: Seconds between two applications of the retention rule.
PRUNE_EVERY = 600.0


class JobRunner(Admission, Dispatch, Following, Cancelling):
    """Submit jobs to Dask in fair turns and keep their rows up to date, with any other runner on the database."""

    LEASE = LEASE

    def __init__(self, db_path: str, scheduler: str | None = None, workers: LocalWorkers | None = None,
                 limits: Limits | None = None, data_dir: str | None = None, retention: Retention | None = None):
        from distributed import Client

        self.id = uuid.uuid4().hex[:12]
        self.store = JobStore(db_path)
        self.retention = retention or Retention.from_environment()
        # Endings a full disk refused: job id → the ending to write (served from here meanwhile).
        self._unwritten: dict[str, tuple] = {}
        self.limits = limits or Limits()
        self.data_dir = data_dir
        # Guards the records, never a call to Dask: the client's calls run on Dask's event loop, whose handlers
        # (``_on_event``) take this lock too, so holding it across one would deadlock.
        self._lock = threading.Lock()
        self._jobs: dict[str, Job] = {}
        # Notified whenever this runner writes an ending (``wait`` sleeps on it between looks at the row).
        self._ending = threading.Condition()
        # Rows are written here, never on Dask's event loop (a write there would stall every message of the cluster)
        # nor on Dask's one shared callback thread (which would queue every job's ending behind the last one's).
        self._writer = ThreadPoolExecutor(max_workers=4, thread_name_prefix="job-rows")
        self._lanes = LaneCensus()
        # Workers this runner replaced for a job that ignored its cancel: the other jobs they ran are requeued.
        self._replaced: set[str] = set()
        self._closed = False
        self._renewed = -float("inf")
        self.cluster = None
        if scheduler:
            self.client = Client(scheduler, timeout="10s", set_as_default=False)
        else:
            env = {"PUZZLE_DATA_DIR": data_dir} if data_dir else None
            self.cluster = start_local_cluster(workers or LocalWorkers(), self.limits.memory, env)
            self.client = Client(self.cluster, set_as_default=False)
        self.client.subscribe_topic(TOPIC, self._on_event)
        #: set when the runner shuts down
        self.stopped = threading.Event()
        try:
            self._renew()  # known to be alive before anything else: a process stopping now hands its jobs here
            self._adopt()
        except StorageFull:
            log.warning("the disk of the job database is full: rows left by stopped servers are looked at later")
        threading.Thread(target=self._keep, daemon=True, name="job-rows-keeper").start()

    @property
    def scheduler_address(self) -> str:
        return self.client.scheduler.address

    # ---- the lease ----------------------------------------------------------------------------------------------

    def _adopt(self) -> None:
        """Take the rows whose runner's lease lapsed: follow the tasks that still run, interrupt those that are gone."""
        for row in self.store.take_lapsed(self.id, time.time() + self.LEASE):
            if row["status"] == Status.QUEUED and row["dispatched"] is None:
                continue  # waiting: it only changed hands
            future = None
            if row["attempt"]:
                try:
                    future = self.client.get_dataset(task_key(row["kind"], row["id"], row["attempt"]))
                except KeyError:
                    pass  # its task is gone (the cluster it ran on ended, or it ended and was forgotten)
            if future is None:
                log.warning("job %s: its web process stopped and its task is gone: interrupted", row["id"])
                self._finish(row["id"], Status.INTERRUPTED)
                continue
            job = Job.from_row(row)
            log.info("job %s: adopted from a web process that stopped", job.id)
            self._follow(job, future)
            if job.cancel_asked:
                self._start_enforcing(job)

    def _keep(self) -> None:
        """Every ``RENEW_EVERY`` seconds: write what a full disk refused, renew the lease, adopt lapsed rows, enforce
        the cancels other processes asked, ask for yields, offer the queue (a worker that joined since takes jobs even
        if no job ends to set off a dispatch), and now and then apply the retention rule."""
        pruned = -float("inf")
        while not self.stopped.wait(RENEW_EVERY):
            for step in (self._write_unwritten, self._renew, self._adopt, self._enforce_asked, self._ask_yields,
                         self._dispatch):
                if self._closed:
                    return
                try:
                    step()
                except StorageFull:
                    continue
                except Exception:
                    log.exception("keeping the job rows failed")
            if time.monotonic() - pruned >= PRUNE_EVERY:
                pruned = time.monotonic()
                try:
                    self.prune()
                except StorageFull:
                    pass

    def _renew(self) -> None:
        if time.monotonic() - self._renewed >= self.LEASE / 4:  # a few renewals per lease, not a write a second
            self.store.renew(self.id, time.time() + self.LEASE)
            self._renewed = time.monotonic()

    def prune(self) -> int:
        """Apply the retention rule (``engine.serving.jobs.Retention``) now; how many rows it deleted."""
        kept = tuple(name for name, kind in job_kinds().items() if kind.lane == LONG)
        return self.store.prune(self.retention, kept)

    # ---- reading ------------------------------------------------------------------------------------------------

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
            if job is not None:  # the record is ahead of the row (its writes wait on the pool)
                row.update(fraction=job.fraction, info=dict(job.info), lane=job.lane)
                if job.worker:
                    row["status"], row["worker"] = Status.RUNNING, job.worker
                else:
                    row["status"] = Status.QUEUED
            cancelling = bool(row["cancel"]) or (job is not None and job.cancel_asked)
        if row["note"]:
            progress = row["info"].get("text")
            row["info"]["text"] = f"{row['note']} · {progress}" if progress and progress != row["note"] else row["note"]
        if row["status"] == Status.QUEUED and row["dispatched"] is None:
            row["info"].setdefault("text", self._waiting_text(row))
        if cancelling:
            row["info"] = {**row["info"], "text": "cancelling…"}
        return row

    def mine(self, owner: str, address: str | None = None, limit: int = 50) -> list[dict]:
        """The owner's jobs, newest first; with ``address``, also those its address started without a cookie."""
        args: tuple[str, ...]
        where, args = "owner = ?", (owner,)
        if address:
            where, args = "owner = ? OR (anonymous = 1 AND address = ?)", (owner, address)
        return [self.get(job["id"]) or job for job in self.store.select(where, args, limit=limit)]

    def wait(self, job_id: str, timeout: float = 60.0) -> dict | None:
        """Block until the job has ended (written by any web process) or ``timeout`` passes; the row as it then is."""
        deadline = time.monotonic() + timeout
        while True:
            row = self.store.get(job_id)  # the row alone: the live overlay (``get``) is for the answer
            with self._lock:
                unwritten = job_id in self._unwritten
            left = deadline - time.monotonic()
            if row is None or unwritten or row["status"] in FINISHED or left <= 0:
                return self.get(job_id)
            with self._ending:  # an ending this runner writes wakes it at once; another process's, within 0.1 s
                self._ending.wait(min(0.1, left))

    def latest(self, kind: str, where=None) -> dict | None:
        return self.store.latest(kind, where)

    def newest_by(self, kind: str, key) -> list[dict]:
        return self.store.newest_by(kind, key)

    # ---- stopping -----------------------------------------------------------------------------------------------

    def shutdown(self) -> None:
        """Stop following jobs. On a shared cluster with another runner on the database, its jobs run on, for that
        runner to adopt; else (its own embedded cluster ends with it, or nobody would follow them) they are asked to
        cancel and its rows are marked interrupted (``leave``)."""
        if self._closed:
            return
        self._closed = True
        self.stopped.set()
        with self._lock:
            jobs = list(self._jobs.values())
            self._jobs.clear()
        for job in jobs:  # nobody waits for a job this runner no longer follows
            job.ended.set()
        hand_on = self._hands_on()
        if not hand_on:
            from distributed import Event

            for job in jobs:
                if job.future is not None:
                    try:
                        Event(cancel_event_name(job.id), client=self.client).set()
                        self.client.unpublish_dataset(task_key(job.kind, job.id, job.attempt))
                    except Exception:
                        pass
        # Closing the scheduler interrupts the workers' waits on cancel events, which Dask logs as errors: they are
        # the expected end of those waits, not faults.
        logging.getLogger("distributed.event").setLevel(logging.CRITICAL)
        self._writer.shutdown(wait=True, cancel_futures=True)
        self.leave(hand_on)
        try:
            self.client.close(timeout=2)
            if self.cluster is not None:
                # Every row is final already: the workers hold nothing worth an orderly close, and one busy in a
                # kernel would hold the close for seconds.
                self._kill_local_workers()
                self.cluster.close(timeout=3)
        except Exception as error:  # stopping goes on: the caller's process is about to end
            log.warning("closing the cluster: %r", error)

    def _hands_on(self) -> bool:
        """Whether this runner's jobs go on when it stops: its cluster lives on (``scheduler=`` given) and another
        runner works on the database to adopt them."""
        return self.cluster is None and self.store.others_alive(self.id)

    def leave(self, hand_on: bool | None = None) -> None:
        """What becomes of the rows this runner holds when its process stops: handed on (``_hands_on``), their leases
        lapse now and another runner adopts them within ``RENEW_EVERY`` seconds, the tasks running on; else they are
        marked interrupted."""
        try:
            if self._hands_on() if hand_on is None else hand_on:
                self.store.release(self.id)
            else:
                self.store.interrupt_runner(self.id)
        except StorageFull:
            log.warning("the disk is full: the rows of this web process are left to lapse")

    def _kill_local_workers(self) -> None:
        if self.cluster is not None:  # workers of a cluster elsewhere are not this process's to end
            kill_local_workers(self.cluster)
