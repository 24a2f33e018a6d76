"""What the parts of a ``JobRunner`` share (``engine.serving.cluster``): each part (admission, dispatch, following,
cancelling) is a module of its own, and this base declares once the state the runner's constructor makes and the
methods one part calls on another, so a part reads on its own and the type checker knows what ``self`` holds."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from distributed import Client

    from engine.core.status import Status
    from engine.serving.admission import Limits
    from engine.serving.following import Job
    from engine.serving.jobs import JobStore
    from engine.serving.lanes import LaneCensus


class RunnerState:
    id: str  # this runner's name in the rows it leases
    LEASE: float  # seconds a lease lasts unless renewed
    store: JobStore
    limits: Limits
    data_dir: str | None
    client: Client
    _lanes: LaneCensus
    _lock: threading.Lock  # guards the records below, never held across a call to Dask
    _jobs: dict[str, Job]  # the jobs this runner follows
    _unwritten: dict[str, tuple]  # endings a full disk refused
    _ending: threading.Condition
    _writer: ThreadPoolExecutor
    _replaced: set[str]
    _closed: bool

    @property
    def scheduler_address(self) -> str:
        raise NotImplementedError

    def get(self, job_id: str) -> dict | None:
        raise NotImplementedError

    def wait(self, job_id: str, timeout: float = 60.0) -> dict | None:
        raise NotImplementedError

    def _dispatch(self) -> None:
        raise NotImplementedError

    def _on_done(self, job: Job, future) -> None:
        raise NotImplementedError

    def _finish(self, job_id: str, status: Status, result: dict | None = None, error: str | None = None,
                info: dict | None = None, started: tuple[str | None, float] | None = None) -> None:
        raise NotImplementedError
