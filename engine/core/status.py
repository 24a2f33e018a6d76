"""The one vocabulary of statuses: how a search ended, where a job is in its life, what a job's result says.

A ``StrEnum``, so a status is its own text: rows in SQLite, JSON answers and templates compare it with plain strings
("solved", "done"), and nothing outside Python needs to know the enum exists.
"""

from __future__ import annotations

import enum


class Status(enum.StrEnum):
    # How a search ended (``engine.core.result.SolveResult.status``).
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"            # the parity argument says no; nothing was searched
    BUDGET_EXHAUSTED = "budget_exhausted"
    NOT_SOLVED = "not_solved"            # an incomplete search (DPSO, GA, Warnsdorff) ended without the goal
    SKIPPED = "skipped"                  # left out on purpose (a heuristic not asked for, a method too slow for n)

    # Where a background job is (``engine.serving.jobs``); a job's result dict says DONE or CANCELLED too.
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"              # also how a search ends when asked to stop
    INTERRUPTED = "interrupted"          # queued or running when the server stopped


#: The statuses a job never leaves.
FINISHED = (Status.DONE, Status.FAILED, Status.CANCELLED, Status.INTERRUPTED)
