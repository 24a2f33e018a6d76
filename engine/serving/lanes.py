"""The cluster's lanes: the shape of the embedded local cluster and how it starts, and which lanes the workers of any
cluster serve.

Workers advertise a lane as a Dask resource (``interactive=2`` on a worker of two threads, ``long=1``); every job asks
for one unit of its lane's resource, so a worker runs as many jobs of its lane at once as the units it advertises, never
more, whatever its threads. ``engine.serving.cluster``'s runner asks this census how many jobs each lane can run at
once (per worker, the lesser of its threads and its units) before it hands a job over, and asks for the lane's
resource with the job: a job it hands over then starts at once, rather than queueing inside Dask behind another
client's job, where the fair turns cannot reach it.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass

from engine.serving.jobs import INTERACTIVE, LANES, LONG


@dataclass(frozen=True)
class LocalWorkers:
    """The embedded cluster's shape: long-lane worker processes (one thread each) and interactive ones."""

    long: int = max(1, os.cpu_count() or 2)
    interactive: int = 1
    interactive_threads: int = 2


def start_local_cluster(shape: LocalWorkers, memory_limit: int, env: dict | None = None, host: str = "127.0.0.1",
                        port: int = 0):
    """A scheduler in this process (on host:port; port 0: any free one) and worker processes on this machine, each
    with its lane as a resource."""
    import dask
    from distributed import Nanny, Scheduler, SpecCluster

    # A worker that dies under a job (out of memory, killed after ignoring cancel) fails that job at once: retrying
    # it elsewhere would kill the next worker too.
    # The workers' statistical profiler (a stack sample every 10 ms, for a dashboard nobody opens here), the event
    # loop's watchdog tick and the system monitor burn CPU every second a worker lives, busy or not: on a machine
    # whose every core runs a worker they take it from the work (bench/korf100.py --workers).
    # A worker whose process ended (a job over its memory limit ends it) is started again by its nanny, and comes
    # back under its name once its preload has warmed the kernels: tens of seconds on a loaded machine. The cluster
    # closes for good a nanny whose worker is not back within ``lost-worker-timeout`` (15 s by default), which left
    # the lane one worker short until the server restarted; a nanny here always starts its worker again.
    dask.config.set({"distributed.deploy.lost-worker-timeout": "1 day"})
    dask.config.set({"distributed.scheduler.allowed-failures": 0,
                     "distributed.worker.daemon": False,
                     "distributed.admin.tick.limit": "30s",
                     "distributed.worker.profile.enabled": False,
                     "distributed.admin.tick.interval": "200ms",
                     "distributed.admin.system-monitor.interval": "2s"})
    nanny_memory = memory_limit + 2**30  # the nanny's own limit is the backstop behind the job's watch

    def worker(lane: str, threads: int) -> dict:  # one unit of its lane per thread: each thread runs a job
        return {"cls": Nanny, "options": {"nthreads": threads, "resources": {lane: threads},
                                          "memory_limit": nanny_memory,
                                          "preload": ["engine.serving.worker"], "env": env or {},
                                          "host": "127.0.0.1" if host == "127.0.0.1" else None, "dashboard": False,
                                          "silence_logs": logging.WARNING}}

    workers = {f"long-{i}": worker(LONG, 1) for i in range(shape.long)}
    workers.update({f"interactive-{i}": worker(INTERACTIVE, shape.interactive_threads)
                    for i in range(shape.interactive)})
    scheduler = {"cls": Scheduler, "options": {"host": host, "port": port, "dashboard": False,
                                               "dashboard_address": "127.0.0.1:0"}}  # its health route only
    return SpecCluster(workers=workers, scheduler=scheduler, silence_logs=logging.WARNING, name="puzzle-playground")


def kill_local_workers(cluster) -> None:
    """End a local cluster's worker processes at once (a stop that needs nothing from them: one busy in a kernel
    would hold an orderly close for seconds)."""
    import signal

    for nanny in list(cluster.workers.values()):
        pid = getattr(getattr(getattr(nanny, "process", None), "process", None), "pid", None)
        if pid:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


def cluster_workers(client, patience: float = 0.0) -> dict[str, dict]:
    """Every worker the scheduler knows, by address, asked of the scheduler now.

    ``Client.scheduler_info`` falls back to the client's cached identity when its call fails, and the cache that the
    client refreshes by itself carries no workers: a search asking it on a busy machine was told the cluster was
    empty. This asks the scheduler and, if the answer is empty, asks again for ``patience`` seconds: a job asking
    from a worker knows one exists."""
    deadline = time.monotonic() + patience
    while True:
        workers = dict(client.sync(client.scheduler.identity, n_workers=-1).get("workers", {}))
        if workers or time.monotonic() > deadline:
            return workers
        time.sleep(0.2)


def lane_workers(client, lane: str) -> list[str]:
    """The addresses of the workers serving ``lane``; every worker that serves no lane when none advertises it."""
    workers = cluster_workers(client, patience=10.0)
    serving = [address for address, info in workers.items() if lane in (info.get("resources") or {})]
    if serving:
        return serving
    return [address for address, info in workers.items() if not set(LANES) & set(info.get("resources") or {})]


class LaneCensus:
    """Which lanes the cluster's workers serve and with how many threads, asked of the scheduler at most every
    ``EVERY`` seconds. A cluster whose workers advertise no lane (a bare ``dask worker``) runs every job anywhere."""

    EVERY = 2.0
    #: A lane seen this recently still counts as served (its one worker may be restarting).
    REMEMBER = 60.0

    #: For this long after the runner connects, a lane no worker has shown yet is not refused: a cluster's workers
    #: register one by one (a worker's preload takes seconds), and a job for the late lane waits for it in the queue.
    STARTING = 60.0

    def __init__(self):
        self._born = time.monotonic()
        self._checked = -float("inf")
        self._threads: dict[str, int] = {}
        self._bare = 0
        self._seen: dict[str, float] = {}

    def _refresh(self, client) -> None:
        now = time.monotonic()
        if now - self._checked < self.EVERY:
            return
        workers = cluster_workers(client).values()
        threads = dict.fromkeys(LANES, 0)
        bare = 0
        for worker in workers:
            resources = worker.get("resources", {})
            lanes = [lane for lane in LANES if lane in resources]
            for lane in lanes:  # a job takes one unit: ``--nthreads 2 --resources interactive=1`` runs one at a time
                threads[lane] += min(worker.get("nthreads", 1), int(resources[lane]))
                self._seen[lane] = now
            bare += 0 if lanes else worker.get("nthreads", 1)
        self._threads, self._bare, self._checked = threads, bare, now

    @property
    def offered(self) -> bool:
        return any(self._threads.values())

    def slots(self, client) -> dict[str, int]:
        """Jobs each lane runs at once. A cluster with no worker yet has none: a job handed over now would go, with
        no lane to ask for, to whichever worker registers first (an interactive one taking a long job), so it waits in
        the queue, which the runner offers again every few seconds."""
        self._refresh(client)
        if not self.offered:
            return dict.fromkeys(LANES, self._bare)
        return {lane: max(count, 1 if lane in self._seen else 0) for lane, count in self._threads.items()}

    def resources(self, lane: str) -> dict | None:
        return {lane: 1} if self.offered else None

    def serves(self, client, lane: str) -> bool:
        self._refresh(client)
        if not self.offered:
            return True  # no lanes at all: a bare worker takes anything, and a cluster still starting will too
        now = time.monotonic()
        return now - self._born < self.STARTING or now - self._seen.get(lane, -float("inf")) < self.REMEMBER
