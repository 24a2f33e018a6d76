"""What runs inside a Dask worker process: one job, with its progress, cancel and memory watch.

``run_job`` is the task the web process submits. It reports progress as Dask events (topic ``TOPIC``), which the
scheduler forwards to the web process; it learns of a cancel from a Dask ``Event`` named after the job; it watches its
own process's memory and stops a job that grows past its limit. The job function itself keeps the plain contract of
``engine.serving.jobs``: ``run(params, report, cancel)`` with a ``threading.Event``.

``dask_setup`` is the worker preload (``dask worker --preload engine.serving.worker``): it lowers the scheduling
priority of long-lane workers, so the web server and the interactive lane keep the CPU when both compete, and warms the
numba kernels so the first job does not pay for loading them.
"""

from __future__ import annotations

import logging
import os
import threading
import time

log = logging.getLogger(__name__)
TOPIC = "puzzle-jobs"
#: How often a job's progress may cross to the web process.
PROGRESS_INTERVAL = 0.25
#: Long-lane workers run at this nice level (0 = normal priority; the interactive lane and the web server stay at 0).
LONG_LANE_NICE = 10


def cancel_event_name(job_id: str) -> str:
    return f"puzzle-cancel-{job_id}"


def yield_event_name(job_id: str) -> str:
    """The Dask ``Event`` that asks a running job of a resumable kind to give its slot to another client's turn."""
    return f"puzzle-yield-{job_id}"


class MemoryLimitExceeded(Exception):
    """The job grew past its memory limit and was stopped."""


#: The key of the result of a job that was stopped at the end of its slice (the web process starts it on the long lane).
HANDED_OVER = "handed_over"


def run_job(job_id: str, kind: str, params: dict, memory_limit: int, data_dir: str | None,
            slice_seconds: float = 0.0) -> dict:
    """Run one job on this worker; returns its result dict, or raises (PuzzleError for bad input found late).

    With ``slice_seconds`` the job is stopped (as by a cancel) once it has run that long, and the result says only
    ``{HANDED_OVER: True, "seconds": ..., "resume": ...}``: it held an interactive slot long enough. A job of a
    resumable kind is stopped so too when its yield event is set (another client's turn on its lane); ``resume`` is
    what its partial result says to go on with (None: it starts again)."""
    from distributed import Event, get_client, get_worker

    from engine.core import registry
    from engine.serving import store
    from engine.serving.jobs import job_kinds

    worker = get_worker()
    if data_dir and os.path.isdir(data_dir):
        store.set_data_dir(data_dir)
    send = _sender(worker, job_id)
    send({"event": "started", "worker": worker.address, "time": time.time()})
    # A worker warms every kernel as it starts (``dask_setup``); a job that arrives before that is done waits for
    # it here, so its slice counts its own work and not the worker's start-up.
    registry.warm_up()

    cancel = threading.Event()
    finished = threading.Event()
    # The event is bound to the worker's client here, in the task's thread: the watcher thread has no worker context
    client = get_client()
    resumable = job_kinds()[kind].resumable
    watch = _Watchers(Event(cancel_event_name(job_id), client=client), cancel, finished, memory_limit, send,
                      slice_seconds, Event(yield_event_name(job_id), client=client) if resumable else None)
    watch.start()
    began = time.monotonic()
    last = [0.0]

    def report(fraction: float | None, info: dict) -> None:
        now = time.monotonic()
        if now - last[0] >= PROGRESS_INTERVAL:
            last[0] = now
            send({"event": "progress", "fraction": fraction, "info": info})

    try:
        result = job_kinds()[kind].run(params, report, cancel)
    finally:
        finished.set()
    if watch.memory_exceeded:
        raise MemoryLimitExceeded(
            f"this job went over its memory limit ({memory_limit / 2**30:.1f} GB) and was stopped; "
            "try smaller parameters")
    if watch.sliced or watch.yielded:
        resume = result.get("resume") if isinstance(result, dict) else None
        return {HANDED_OVER: True, "seconds": time.monotonic() - began, "resume": resume}
    return result  # cancelled or not: the web process knows whether it asked, and a partial result is worth keeping


def _sender(worker, job_id: str):
    def send(message: dict) -> None:
        worker.log_event(TOPIC, {"job": job_id, **message})
    return send


class _Watchers:
    """Threads beside the job: one waits for the cancel event, one samples the process's memory, and for a resumable
    kind one waits for the yield event."""

    MEMORY_SAMPLE = 0.1  # seconds
    GRACE = 2.0  # seconds a job over its memory limit has to stop before the process ends itself

    def __init__(self, remote_cancel, cancel: threading.Event, finished: threading.Event, memory_limit: int, send,
                 slice_seconds: float = 0.0, remote_yield=None):
        self.remote_cancel, self.cancel, self.finished = remote_cancel, cancel, finished
        self.remote_yield = remote_yield
        self.yielded = False
        self.memory_limit, self.send = memory_limit, send
        self.slice_ends = time.monotonic() + slice_seconds if slice_seconds > 0 else float("inf")
        self.memory_exceeded = self.sliced = False

    def start(self) -> None:
        threading.Thread(target=self._wait_for_cancel, daemon=True, name="job-cancel").start()
        if self.remote_yield is not None:
            threading.Thread(target=self._wait_for_yield, daemon=True, name="job-yield").start()
        if self.memory_limit > 0:
            threading.Thread(target=self._watch_memory, daemon=True, name="job-memory").start()

    def _wait_for_cancel(self) -> None:
        while not self.finished.is_set():
            left = self.slice_ends - time.monotonic()
            if left <= 0:
                self.sliced = not self.finished.is_set()
                self.cancel.set()
                return
            try:
                if self.remote_cancel.wait(timeout=min(0.5, left)):
                    self.cancel.set()
                    return
            except Exception as error:  # the scheduler went away: nobody can ask for a cancel any more
                log.warning("cannot watch for cancel: %r", error)
                if self.finished.wait(0.5):
                    return

    def _wait_for_yield(self) -> None:
        while not self.finished.is_set() and not self.cancel.is_set():
            try:
                if self.remote_yield.wait(timeout=0.5):
                    if not self.finished.is_set() and not self.cancel.is_set():
                        self.yielded = True
                        self.cancel.set()
                    return
            except Exception as error:  # the scheduler went away: the job runs on to its end
                log.warning("cannot watch for a yield: %r", error)
                if self.finished.wait(0.5):
                    return

    def _watch_memory(self) -> None:
        import psutil

        process = psutil.Process()
        baseline = process.memory_info().rss
        while not self.finished.wait(self.MEMORY_SAMPLE):
            if process.memory_info().rss - baseline > self.memory_limit:
                self.memory_exceeded = True
                self.send({"event": "memory", "limit": self.memory_limit})
                self.cancel.set()
                if not self.finished.wait(self.GRACE):
                    os._exit(70)  # the job ignores cancel: end the process, its nanny starts a fresh one
                return


def dask_setup(worker) -> None:
    """Worker preload: lower the long lane's priority and warm the kernels."""
    if "long" in (worker.state.total_resources or {}):
        try:
            os.nice(LONG_LANE_NICE - os.nice(0))
        except OSError:
            pass
    from engine.core import registry

    threading.Thread(target=registry.warm_up, daemon=True, name="warm-up").start()
