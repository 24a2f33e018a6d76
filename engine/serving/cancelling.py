"""Cancelling a job from any web process: the cancel is written to its row and sent through the job's Dask ``Event``,
which its worker watches, so it reaches the worker whoever holds the row; the holder (the runner whose lease the row
carries) replaces the worker of a job that has not stopped ``KILL_AFTER`` seconds later."""

from __future__ import annotations

import logging
import threading
import time

from engine.core.errors import PuzzleError
from engine.core.status import FINISHED, Status
from engine.serving.jobs import StorageFull, kept_between_attempts
from engine.serving.runner_state import RunnerState
from engine.serving.worker import cancel_event_name

log = logging.getLogger(__name__)

#: Seconds a running job has to honour a cancel before its worker process is replaced.
KILL_AFTER = 10.0


class NotOwner(PuzzleError):
    """Only the browser that submitted a job may cancel it: the app answers 403."""


class Cancelling(RunnerState):
    """The runner's side of a cancel (``engine.serving.cluster.JobRunner``)."""

    def cancel(self, job_id: str, owner: str | None = None, address: str | None = None) -> dict | None:
        """Stop a job, whichever web process runs it. ``owner`` None means the server itself asks (no ownership
        check); ``address``: the request had no cookie, and may cancel what its address started without one."""
        row = self.store.get(job_id)
        if row is None:
            return None
        if owner is not None and row["owner"] != owner and not (address and row["anonymous"]
                                                                and row["address"] == address):
            raise NotOwner("only the browser that started this job can cancel it")
        if row["status"] in FINISHED:
            return row
        kept = kept_between_attempts(row["kind"], row["run_params"]) if row["status"] == Status.QUEUED else None
        try:
            if self.store.cancel_waiting(job_id, kept):  # no task runs it: it ends here
                with self._ending:
                    self._ending.notify_all()
                return self.get(job_id)
        except StorageFull:
            if row["dispatched"] is None:  # its ending waits in memory; no runner can claim it meanwhile
                self._finish(job_id, Status.CANCELLED, kept, None if kept else "cancelled")
                return self.get(job_id)
        with self._lock:
            job = self._jobs.get(job_id)
            first = job is not None and not job.cancel_asked
            if job is not None:
                job.cancel_asked = True
        try:
            self.store.ask_cancel(job_id)  # the runner that holds it enforces it (``_enforce_asked``)
        except StorageFull:
            pass  # the event below still stops it
        from distributed import Event

        Event(cancel_event_name(job_id), client=self.client).set()
        if first and job is not None and job.future is not None:
            self._start_enforcing(job)
        return self.wait(job_id, timeout=2.0)

    def _enforce_asked(self) -> None:
        """Enforce the cancels other web processes asked of the jobs this runner holds."""
        asked = set(self.store.cancels_asked(self.id))
        with self._lock:
            jobs = [job for job in self._jobs.values() if job.id in asked and not job.cancel_asked]
            for job in jobs:
                job.cancel_asked = True
        for job in jobs:
            if job.future is not None:
                self._start_enforcing(job)

    def _start_enforcing(self, job) -> None:
        threading.Thread(target=self._enforce_cancel, args=(job, job.future), daemon=True,
                         name=f"cancel-{job.id}").start()

    def _enforce_cancel(self, job, future) -> None:
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
        try:
            self.client.cancel([future], force=True)  # published, it has another holder: force its end
        except Exception:
            pass
        if worker:
            with self._lock:
                self._replaced.add(worker)
            try:
                self.client.restart_workers([worker], raise_for_error=False)
            except Exception as exc:
                log.error("restarting worker %s failed: %r", worker, exc)
