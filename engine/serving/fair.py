"""Who runs next on a lane: fair shares across network addresses, then across browsers.

A job waits in the job database (``engine.serving.dispatch``) until its lane has a free slot (a worker thread), then
whichever web process has it claims it and hands it to Dask; the queue's state is loaded into this scheduler for each
choice (``FairScheduler.loaded``), so every web process chooses alike. The choice is
round robin: among the waiting jobs whose browser has nothing running on that lane, the one whose address, then whose
browser, was served longest ago (never served comes first), then the oldest. So one browser has at most one job
running per lane, a hundred cookies from one address share that address's turn, and nobody waits behind another's
second job. A job's ``client`` is who takes the turn: its browser, or for requests without a cookie their address
(``engine.serving.cluster.anonymous_owner``), so a script is one client however many cookies it throws away. This module
decides only; it knows nothing of Dask and keeps no clock (a test drives it step by step).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field


@dataclass(eq=False)
class Waiting:
    """What the scheduler needs to know of a job (``engine.serving.cluster.Job`` is one)."""

    id: str
    owner: str
    address: str
    lane: str
    order: int = field(default=0)
    client: str = ""  # who takes turns: the owner unless set
    turn: int = -1  # the turn it was given when taken

    def __post_init__(self):
        self.client = self.client or self.owner


class FairScheduler:
    def __init__(self):
        self._waiting: list = []
        self._running: dict[str, list] = {}
        self._served: dict[tuple[str, str], int] = {}
        self._turns = itertools.count()
        self._arrivals = itertools.count()

    @classmethod
    def loaded(cls, waiting: list, running: list, served: dict[tuple[str, str], int], turn: int) -> FairScheduler:
        """A scheduler in a given state: ``waiting`` in their arrival order, ``running`` (each with its ``lane`` and
        ``client``), the turn each ``("address", a)`` and ``("client", c)`` was last served, the next turn's number."""
        scheduler = cls()
        for job in waiting:
            scheduler.add(job)
        for job in running:
            scheduler._running.setdefault(job.lane, []).append(job)
        scheduler._served = dict(served)
        scheduler._turns = itertools.count(turn)
        return scheduler

    def add(self, job) -> None:
        """A job joins its lane's queue (a new job, or one handed over from another lane)."""
        job.order = next(self._arrivals)
        self._waiting.append(job)

    def withdraw(self, job) -> bool:
        """Take a job out of the queue before it starts (cancelled); whether it was waiting."""
        if job in self._waiting:
            self._waiting.remove(job)
            return True
        return False

    def remove(self, job) -> None:
        """Forget a job wherever it is (it ended, or stopped to go on in another lane)."""
        if not self.withdraw(job):
            running = self._running.get(job.lane, [])
            if job in running:
                running.remove(job)

    def waiting(self, lane: str | None = None) -> list:
        return [job for job in self._waiting if lane is None or job.lane == lane]

    def running(self, lane: str) -> list:
        return list(self._running.get(lane, []))

    def take(self, slots: dict[str, int]) -> list:
        """The jobs to start now, given each lane's number of slots; they count as running from here on."""
        started = []
        for lane, count in slots.items():
            running = self._running.setdefault(lane, [])
            while len(running) < count:
                job = self._next(lane, {job.client for job in running})
                if job is None:
                    break
                self._waiting.remove(job)
                running.append(job)
                turn = job.turn = next(self._turns)
                self._served[("address", job.address)] = self._served[("client", job.client)] = turn
                started.append(job)
        return started

    def _next(self, lane: str, busy_clients: set[str]):
        candidates = [job for job in self._waiting if job.lane == lane and job.client not in busy_clients]
        if not candidates:
            return None
        return min(candidates, key=lambda job: (self._served.get(("address", job.address), -1),
                                                self._served.get(("client", job.client), -1), job.order))
