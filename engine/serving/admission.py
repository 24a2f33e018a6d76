"""Who may start a job: the limits per browser, per network address and on the long queue, counted in the job
database in the same write transaction as the row they admit, so they hold across every web process on it."""

from __future__ import annotations

import os
import sqlite3
import time
import uuid
from dataclasses import dataclass

from engine.core.errors import PuzzleError
from engine.serving.jobs import ACTIVE, INTERACTIVE, LONG, canonical, checked
from engine.serving.runner_state import RunnerState


class QuotaExceeded(PuzzleError):
    """Too many jobs: the app answers 429 (the message says what to do)."""


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


def same_request(db: sqlite3.Connection, owner: str, kind: str, params: dict) -> str | None:
    """The id of an unfinished job of this owner, kind and parameters (an identical request reattaches to it)."""
    row = db.execute("SELECT id FROM jobs WHERE owner = ? AND kind = ? AND params = ? AND status IN (?, ?) LIMIT 1",
                     (owner, kind, canonical(params), *ACTIVE)).fetchone()
    return row[0] if row else None


def admit(db: sqlite3.Connection, limits: Limits, client: str, address: str, lane: str) -> None:
    """Raise QuotaExceeded past a limit, counting the unfinished rows of ``db`` (a write transaction, so no other
    process admits a job between this count and the insert). A browser with nothing running always gets its
    interactive job: the limits of its address and of the whole server stop the many, never the one."""

    def count(where: str, *args) -> int:
        sql = f"SELECT COUNT(*) FROM jobs WHERE status IN (?, ?) AND {where}"
        return db.execute(sql, (*ACTIVE, *args)).fetchone()[0]

    mine = count("client = ?", client)
    if lane == INTERACTIVE and not mine:
        return
    if mine >= limits.per_owner:
        raise QuotaExceeded(f"you already have {limits.per_owner} jobs queued or running: wait for one to finish "
                            "or cancel one (the Jobs page lists them), then try again")
    if address and count("address = ?", address) >= limits.per_address:
        raise QuotaExceeded(
            f"your network address already has {limits.per_address} jobs queued or running (every browser "
            "behind it together): wait for one to finish, then try again. A class that shares one address: the "
            "teacher can raise the limit with PUZZLE_PER_ADDRESS (see the README)")
    if lane == LONG and count("status = 'queued' AND dispatched IS NULL AND lane = ?", LONG) >= limits.queued:
        raise QuotaExceeded(f"the server's queue of long jobs is full ({limits.queued} waiting): try again in a "
                            "few minutes; solves that answer within seconds are still taken")


class Admission(RunnerState):
    """The runner's side of starting a job (``engine.serving.cluster.JobRunner``): check, admit, queue."""

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
        job_id = uuid.uuid4().hex[:12]
        with self.store.transaction() as db:
            if (same := same_request(db, owner, kind, params)) is not None:
                return same, True
            admit(db, self.limits, client, address, placement.lane)
            self.store.create(job_id, kind, params, owner, placement.lane, address, anonymous,
                              {"text": placement.note} if placement.note else None, client=client,
                              note=placement.note, runner=self.id, lease=time.time() + self.LEASE, db=db)
        self._dispatch()
        return job_id, False

    def _require_lane(self, lane: str) -> None:
        if not self._lanes.serves(self.client, lane):
            raise NoWorker(f"no worker serves the {lane} lane, so this job could never start. Start one: dask worker "
                           f"{self.scheduler_address} --resources {lane}=1 --preload engine.serving.worker")
