"""The queue in the job database and its dispatch in fair turns, by whichever web process has a free slot.

A waiting job is a queued row not yet dispatched. A runner claims the next ones in one write transaction (SQLite's
``BEGIN IMMEDIATE``): it counts the rows its lane holds (dispatched and unfinished, every web process's) against the
slots the cluster's workers offer (``engine.serving.lanes.LaneCensus``), lets ``engine.serving.fair`` choose whose turn
it is from the turns recorded on the rows, and marks the chosen rows dispatched, held by itself. So two web processes
never oversubscribe a lane nor dispatch one job twice. It then hands each to Dask, publishing the task under its key
(``task_key``), so the task outlives this process's client and another process can adopt it.

Turns over time: a running long job of a resumable kind (``JobKind.resumable``) that has held its slot for ``TURN``
seconds while another client's job waits for its lane is asked to yield (a Dask ``Event`` per job); it stops where it
is, and waits again with what it says to go on with (``engine.serving.following``).
"""

from __future__ import annotations

import logging
import time

from engine.core.units import duration
from engine.serving.fair import FairScheduler, Waiting
from engine.serving.jobs import ACTIVE, INTERACTIVE, LONG, JobStore, StorageFull, _job, job_kinds
from engine.serving.runner_state import RunnerState
from engine.serving.worker import run_job, yield_event_name

log = logging.getLogger(__name__)

#: Seconds a resumable long job holds its slot before it is asked to yield to another client's waiting job.
TURN = 3.0


def task_key(kind: str, job_id: str, attempt: int) -> str:
    """The Dask key of one attempt of a job, and the name its task is published under."""
    return f"job-{kind}-{job_id}-{attempt}"


def _waiting(row) -> Waiting:
    return Waiting(row["id"], row["owner"], row["address"], row["lane"], client=row["client"] or row["owner"])


def claim(store: JobStore, runner: str, lease: float, slots: dict[str, int],
          ended: set[str] | frozenset[str] = frozenset()) -> list[dict]:
    """Claim for ``runner`` the waiting jobs that go now, in fair turns, given each lane's slots in the cluster; their
    rows, marked dispatched. ``ended``: rows still unfinished in the database whose jobs have ended (a full disk keeps
    their endings in memory): they hold no slot."""
    with store._connect() as db:  # most calls find nobody waiting: a read, not the write lock
        if db.execute("SELECT 1 FROM jobs WHERE status = 'queued' AND dispatched IS NULL LIMIT 1").fetchone() is None:
            return []
    with store.transaction() as db:
        waiting = [_waiting(row) for row in db.execute(
            "SELECT id, owner, address, lane, client FROM jobs WHERE status = 'queued' AND dispatched IS NULL "
            "ORDER BY waiting_since, id")]
        if not waiting:
            return []
        running = [_waiting(row) for row in db.execute(
            "SELECT id, owner, address, lane, client FROM jobs WHERE status IN (?, ?) "
            "AND (dispatched IS NOT NULL OR status = 'running')", ACTIVE) if row["id"] not in ended]
        served = {}
        for key, column in (("address", "address"), ("client", "client")):
            for who in {getattr(job, column) for job in waiting}:
                turn = db.execute(f"SELECT MAX(turn) FROM jobs WHERE {column} = ?", (who,)).fetchone()[0]
                if turn is not None:
                    served[(key, who)] = turn
        last = db.execute("SELECT MAX(turn) FROM jobs").fetchone()[0]
        fair = FairScheduler.loaded(waiting, running, served, 0 if last is None else last + 1)
        taken = fair.take(slots)
        now = time.time()
        for job in taken:
            db.execute("UPDATE jobs SET dispatched = ?, runner = ?, lease = ?, turn = ?, attempt = attempt + 1 "
                       "WHERE id = ? AND status = 'queued' AND dispatched IS NULL",
                       (now, runner, lease, job.turn, job.id))
        return [_job(db.execute("SELECT * FROM jobs WHERE id = ?", (job.id,)).fetchone()) for job in taken]


class Dispatch(RunnerState):
    """The runner's side of the queue (``engine.serving.cluster.JobRunner``): claim, hand to Dask, ask to yield."""

    def _dispatch(self) -> None:
        """Hand to Dask every waiting job whose lane has a free slot in the cluster, in fair turns."""
        if self._closed:
            return
        slots = self._lanes.slots(self.client)
        with self._lock:
            ended = set(self._unwritten)
        try:
            rows = claim(self.store, self.id, time.time() + self.LEASE, slots, ended)
        except StorageFull:
            return  # claiming is a write: the queue waits for space, and the keeper offers it again
        for row in rows:
            self._start(row)

    def _start(self, row: dict) -> None:
        from distributed import Event

        from engine.serving.following import Job

        job = Job.from_row(row)
        key = task_key(job.kind, job.id, job.attempt)
        interactive = job.lane == INTERACTIVE
        with self._lock:
            self._jobs[job.id] = job
        try:
            if job_kinds()[job.kind].resumable:  # a yield asked of its last attempt is not one asked of this one
                Event(yield_event_name(job.id), client=self.client).clear()
            future = self.client.submit(
                run_job, job.id, job.kind, job.run_params, self.limits.memory, self.data_dir,
                self.limits.slice_seconds if interactive else 0.0, key=key, pure=False,
                resources=self._lanes.resources(job.lane), priority=10 if interactive else 0)
            # published, the task outlives this process's client: another web process adopts it (``_adopt``); the
            # stubs know only identifiers as names, and a task's key is any string
            self.client.publish_dataset(**{key: future})  # type: ignore[call-overload]
        except Exception as error:
            if self._closed:
                return
            log.error("handing job %s to Dask failed: %r", job.id, error)
            with self._lock:
                self._jobs.pop(job.id, None)
            try:
                self.store.hand_over(job.id, job.lane, job.info)
            except StorageFull:
                pass
            return
        with self._lock:
            job.future = future
        future.add_done_callback(lambda f, job=job: self._on_done(job, f))

    def _ask_yields(self) -> None:
        """Ask the resumable long jobs that have held their slot for a turn to yield it, one for each other client
        whose job waits for the long lane while it has no free slot."""
        now = time.monotonic()
        kinds = job_kinds()
        with self._lock:
            holding = sorted((job for job in self._jobs.values()
                              if job.lane == LONG and job.future is not None and not job.yield_asked
                              and not job.cancel_asked and now - job.began >= TURN
                              and kinds[job.kind].resumable), key=lambda job: job.began)
        if not holding:
            return
        waiting = self.store.waiting_clients(LONG)
        if not waiting or len(self.store.held(LONG)) < self._lanes.slots(self.client).get(LONG, 0):
            return  # nobody waits, or a slot is free: the next dispatch serves them without anyone yielding
        from distributed import Event

        for job in holding:
            if not waiting - {job.client}:
                continue
            waiting -= {next(iter(waiting - {job.client}))}
            job.yield_asked = True
            log.info("job %s yields the long lane to another client's turn", job.id)
            Event(yield_event_name(job.id), client=self.client).set()

    def _waiting_text(self, row: dict) -> str:
        """What a waiting job says: what holds its lane's workers (a start-up table build holds one for minutes) and
        how many jobs wait before it."""
        now = time.time()
        busy = []
        for other in self.store.held(row["lane"]):
            with self._lock:
                record = self._jobs.get(other["id"])
            started = other["started"] or (record.started if record is not None else None)
            busy.append(job_kinds()[other["kind"]].view_for(other["params"]).title.lower()
                        + (f", {duration(now - started)} so far" if started else ""))
        others = len(self.store.waiting(row["lane"])) - 1
        text = f"waiting for a worker of the {row['lane']} lane"
        if busy:  # a big cluster's long lane has many workers: the first few say enough
            text += f"; busy with: {'; '.join(busy[:3])}" + (f"; and {len(busy) - 3} more" if len(busy) > 3 else "")
        if others:
            waiting = "1 other job waits" if others == 1 else f"{others} other jobs wait"
            text += f" · {waiting}; turns go round every browser"
        return text
