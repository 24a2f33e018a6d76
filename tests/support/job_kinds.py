"""Job kinds that exist only for the tests: each behaves in one way a real job might (count, ignore cancel, grow).

Registered in the test process by importing this module, and in every Dask worker by ``register_everywhere``.
"""

from __future__ import annotations

import time

import numpy as np

from engine.core.errors import PuzzleError
from engine.core.params import integer, number
from engine.serving.jobs import INTERACTIVE, job_kind


def _count_params(params: dict) -> dict:
    return {"n": integer(params, "n", 0, 10**6), "sleep": number(params, "sleep", 0, 1, 0.0),
            "token": params.get("token", "")}


@job_kind("test-count", check=_count_params)
def count_job(params, report, cancel):
    """Count to n, reporting each step; honours cancel."""
    for i in range(params["n"]):
        if cancel.is_set():
            return {"status": "cancelled", "reached": i}
        report(i / params["n"], {"nodes": i, "text": f"{i} of {params['n']}"})
        time.sleep(params["sleep"])
    return {"status": "done", "reached": params["n"]}


@job_kind("test-interactive", check=_count_params, lane=INTERACTIVE)
def interactive_job(params, report, cancel):
    """The same count on the interactive lane."""
    return count_job(params, report, cancel)


def _resumable_params(params: dict) -> dict:
    return {**_count_params(params), "start": integer(params, "start", 0, 10**6, 0)}


@job_kind("test-resumable", check=_resumable_params, resumable=True)
def resumable_job(params, report, cancel):
    """Count from ``start`` to n; stopped, it says where to go on from. Its result says where its last attempt
    started, so a test sees that it went on rather than starting again."""
    for i in range(params["start"], params["n"]):
        if cancel.is_set():
            return {"status": "cancelled", "reached": i, "resume": {"start": i}}
        report(i / params["n"], {"nodes": i, "text": f"{i} of {params['n']}"})
        time.sleep(params["sleep"])
    return {"status": "done", "reached": params["n"], "last_start": params["start"]}


@job_kind("test-fail")
def failing_job(params, report, cancel):
    """Fail as bad input found late, or as a bug."""
    if params.get("bad_input"):
        raise PuzzleError("tile 7 appears twice")
    raise RuntimeError("boom")


@job_kind("test-ignore-cancel")
def stubborn_job(params, report, cancel):
    """Sleep for a minute, never looking at cancel (as a kernel that never returns to Python would)."""
    report(None, {"text": "sleeping"})
    time.sleep(60)
    return {"status": "done"}


@job_kind("test-grow")
def growing_job(params, report, cancel):
    """Allocate 64 MB at a time up to 4 GB; honours cancel between allocations unless told not to."""
    blocks = []
    for _ in range(64):
        if cancel.is_set() and not params.get("ignore_cancel"):
            return {"status": "cancelled", "blocks": len(blocks)}
        blocks.append(np.ones(8 * 2**20))  # 64 MB, written so that it is resident
        time.sleep(0.05)
    return {"status": "done", "blocks": len(blocks)}


def register_in_worker() -> bool:
    import tests.support.job_kinds  # noqa: F401  (registers the kinds above in this worker process)

    return True


def register_everywhere(client) -> None:
    client.run(register_in_worker)
