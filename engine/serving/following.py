"""Following a job's Dask task from the web process that holds its row: its events (start, progress, memory), its
ending written once, the hand-over to another turn (an interactive job past its slice, a long job that yielded), the
restart of a bystander of a replaced worker, and the endings a full disk refused, kept in memory until written."""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field

from engine.core.errors import PuzzleError
from engine.core.status import Status
from engine.serving.dispatch import task_key
from engine.serving.jobs import INTERACTIVE, LONG, StorageFull, kept_between_attempts
from engine.serving.runner_state import RunnerState
from engine.serving.worker import HANDED_OVER, MemoryLimitExceeded

log = logging.getLogger(__name__)

#: Seconds between SQLite writes of one job's progress (the live value is served from memory meanwhile).
WRITE_INTERVAL = 0.5
#: How many times one job starts again because its worker was replaced for another job's ignored cancel.
MAX_RESTARTS = 2
#: What such a job says while it waits again.
RESTARTED_TEXT = "starting again: its worker was replaced because another job did not stop when cancelled"
#: What a job handed over to the long lane says while it waits and runs there.
BACKGROUND_TEXT = "still searching, now in the background (it needed more than a quick answer's share)"


@dataclass(eq=False)
class Job:
    """One dispatched job a runner follows, from its claim to its ending (or its hand-over to another turn).

    Dispatched: ``future`` is its Dask task (``attempt`` numbers its keys). Started: the worker's event sets ``worker``.
    Progress events update ``fraction`` and ``info`` (written to the row at most every ``WRITE_INTERVAL``). Ended: the
    row gets its final status and the record leaves the runner; handed over: the row waits again in the queue.
    """

    id: str
    kind: str
    params: dict  # as submitted (what an identical request reattaches to)
    owner: str
    address: str
    lane: str
    run_params: dict  # what this attempt runs with (a handed-over solve has the rest of its budget)
    note: str = ""  # said beside its progress: why it runs on the long lane
    info: dict = field(default_factory=dict)
    order: int = 0
    attempt: int = 0
    future: object | None = None
    worker: str | None = None
    started: float | None = None  # when the worker said it started (its row may be written after the end)
    fraction: float | None = 0.0
    written: float = 0.0
    cancel_asked: bool = False
    memory_failed: bool = False
    ended: threading.Event = field(default_factory=threading.Event)
    client: str = ""  # who takes turns and counts for the per-browser limit; the owner unless set
    restarts: int = 0  # times it waited again after its worker was replaced for another job (``_requeue``)
    began: float = field(default_factory=time.monotonic)  # when this runner dispatched or adopted it
    yield_asked: bool = False

    def __post_init__(self):
        self.client = self.client or self.owner

    @classmethod
    def from_row(cls, row: dict) -> Job:
        return cls(row["id"], row["kind"], row["params"], row["owner"], row["address"], row["lane"],
                   row["run_params"], note=row["note"], info=dict(row["info"]), attempt=row["attempt"],
                   worker=row["worker"] if row["status"] == Status.RUNNING else None, started=row["started"],
                   fraction=row["fraction"], cancel_asked=bool(row["cancel"]), client=row["client"],
                   restarts=row["restarts"])


class Following(RunnerState):
    """The runner's side of a running job (``engine.serving.cluster.JobRunner``)."""

    def _follow(self, job: Job, future) -> None:
        with self._lock:
            self._jobs[job.id] = job
            job.future = future
        future.add_done_callback(lambda f, job=job: self._on_done(job, f))

    def _on_event(self, event) -> None:
        _, message = event
        with self._lock:
            job = self._jobs.get(message.get("job"))
        if job is None:
            return  # a job another web process follows (every runner on a cluster hears every event)
        kind = message.get("event")
        if kind == "started":
            job.worker = message["worker"]
            job.started = job.started or message["time"]
            self._writer.submit(self._write, self.store.started, job.id, message["worker"], message["time"])
        elif kind == "progress":
            job.fraction, job.info = message["fraction"], message["info"]
            now = time.monotonic()
            if now - job.written >= WRITE_INTERVAL:
                job.written = now
                self._writer.submit(self._write, self.store.progress, job.id, message["fraction"], message["info"])
        elif kind == "memory":
            job.memory_failed = True

    @staticmethod
    def _write(write, *args) -> None:
        try:
            write(*args)
        except StorageFull:
            pass  # progress and starts are overtaken by the ending, which is kept until it can be written

    def _on_done(self, job: Job, future) -> None:
        if not self._closed:  # a runner that stopped has handed its rows on (``JobRunner.leave``)
            self._writer.submit(self._end, job, future)

    def _end(self, job: Job, future) -> None:
        with self._lock:
            if self._jobs.get(job.id) is job:  # first, so that the row's next claim never finds this record
                self._jobs.pop(job.id)
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
            job.ended.set()
        try:
            self.client.unpublish_dataset(task_key(job.kind, job.id, job.attempt))
        except Exception:
            pass  # another runner that adopted it unpublished it first, or the client is closing
        self._dispatch()

    def _cancel_asked(self, job: Job) -> bool:
        """Whether a cancel was asked of the job, here or by any other web process (its row says so)."""
        if job.cancel_asked:
            return True
        row = self.store.get(job.id)
        return bool(row and row["cancel"])

    def _wait_again(self, job: Job, lane: str, run_params: dict, note: str) -> None:
        """The job's row waits in the queue again, for a turn on ``lane``, with what its next attempt runs with."""
        self.store.go_on_with(job.id, run_params, note, job.restarts)
        self.store.hand_over(job.id, lane, {**job.info, "text": note} if note else job.info)

    def _hand_over(self, job: Job, future) -> bool:
        """A job stopped at the end of its interactive slice, or that yielded its long-lane turn, waits again on the
        long lane (unless it was cancelled meanwhile), going on from where it stopped when it says how; whether it
        was handed over."""
        if future.status != "finished" or not (result := future.result()).get(HANDED_OVER):
            return False
        if self._closed or self._cancel_asked(job):
            return False
        run_params = dict(job.run_params)
        if "max_seconds" in run_params:  # a budget is the search's, not each attempt's
            run_params["max_seconds"] = max(0.001, run_params["max_seconds"] - result["seconds"])
        run_params.update(result.get("resume") or {})
        job.note = BACKGROUND_TEXT if job.lane == INTERACTIVE else job.note
        try:
            self._wait_again(job, LONG, run_params, job.note)
        except StorageFull:
            self._finish(job.id, Status.FAILED, None, "the server's disk was full when this job had to wait for its "
                                                      "next turn, so it stopped: start it again")
        return True

    def _requeue(self, job: Job, future) -> bool:
        """A job whose worker this runner replaced for another job's ignored cancel (``_enforce_cancel``) did nothing
        wrong: it waits again, in its lane, and starts afresh (at most ``MAX_RESTARTS`` times); whether it did. So
        does a job whose worker died before it started (handed to a worker another web process was replacing)."""
        if future.status != "error":
            return False
        never_started = job.worker is None and type(future.exception()).__name__ == "KilledWorker"
        with self._lock:
            replaced = job.worker in self._replaced
        if (self._closed or not (replaced or never_started) or job.restarts >= MAX_RESTARTS
                or self._cancel_asked(job)):
            return False
        job.restarts += 1
        job.worker, job.fraction, job.note = None, 0.0, RESTARTED_TEXT
        log.warning("job %s lost its worker to another job's cancel: it is queued again", job.id)
        try:
            self._wait_again(job, job.lane, job.run_params, job.note)
        except StorageFull:
            return False
        return True

    def _record_end(self, job: Job, future) -> None:
        info = job.info or None
        if future.status == "finished":
            result = future.result()
            if result.get(HANDED_OVER):  # stopped at its slice, and cancelled before it could go on
                resume = result.get("resume")
                kept = kept_between_attempts(job.kind, {**job.run_params, **resume}) if resume else None
                self._finish(job.id, Status.CANCELLED, kept, None if kept else "cancelled", info)
                return
            cancelled = result.get("status") == Status.CANCELLED or self._cancel_asked(job)
            status = Status.CANCELLED if cancelled else Status.DONE
            # "resume" is for a next attempt, and repeats what the result holds (a batch's solved positions)
            kept = {key: value for key, value in result.items() if key != "resume"}
            self._finish(job.id, status, kept, None, info, (job.worker, job.started) if job.started else None)
        elif future.status == "cancelled" or self._cancel_asked(job):
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

    def _finish(self, job_id: str, status: Status, result: dict | None = None, error: str | None = None,
                info: dict | None = None, started: tuple[str | None, float] | None = None) -> None:
        """Write a job's ending, once: a row that has ended already keeps the ending written first. If the disk is
        full, keep it in memory (``get`` serves it) until the keeper can write it (``_write_unwritten``)."""
        try:
            self.store.finish(job_id, status, result, error, info, started)
        except StorageFull:
            log.warning("the disk is full: the end of job %s is written once space returns", job_id)
            with self._lock:
                self._unwritten.setdefault(job_id, (status, result, error, info, time.time()))
        with self._ending:
            self._ending.notify_all()

    def _write_unwritten(self) -> None:
        with self._lock:
            pending = list(self._unwritten.items())
        for job_id, (status, result, error, info, _) in pending:
            self.store.finish(job_id, status, result, error, info)
            with self._lock:
                self._unwritten.pop(job_id, None)
