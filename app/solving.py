"""Starting jobs from requests, and how the web answers a solve or a compare.

Every solve and compare is a job on the interactive lane (a Dask worker process, never this one). The request waits
a moment for it: a quick solve (most 8-puzzle and 2×n positions, many 15-puzzle ones) answers at once with the
result; a longer one answers 202 with the job's id and goes on in the background, with no work thrown away.

``mode``: ``auto`` (the default: wait up to ``AUTO_WAIT``), ``job`` (answer 202 at once) or ``sync`` (wait for the
answer; the budget is capped at ``SYNC_MAX_SECONDS`` so that no request holds a connection longer).
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app, g, jsonify, render_template, request, url_for

from engine.cluster import JobRunner
from engine.params import choice, number
from engine.solve_jobs import MAX_REQUEST_SECONDS
from engine.status import FINISHED, Status

AUTO_WAIT = 1.0  # seconds a request waits for a solve before answering with the job id
SYNC_MAX_SECONDS = 10.0
SYNC_SLACK = 2.0  # seconds beyond the budget a sync request waits (the job may queue briefly)
OWNER_COOKIE = "pp_owner"


@dataclass
class Answer:
    result: dict | None = None
    job_id: str | None = None
    reattached: bool = False


def runner() -> JobRunner:
    return current_app.extensions["jobs"]


def owner() -> str:
    """Who is asking: the browser's cookie (set on its first visit), else the client's address (curl, scripts)."""
    return g.get("owner") or f"ip:{request.remote_addr}"


def start_job(kind: str, params: dict) -> tuple[str, bool]:
    """Submit a job for the current browser: (job id, reattached to an identical running job)."""
    return runner().submit(kind, params, owner())


def job_accepted(job_id: str, reattached: bool = False):
    """The API's 202 for a started job."""
    return jsonify(job=job_id, status=str(Status.QUEUED), reattached=reattached,
                   url=url_for("api.job", job_id=job_id)), 202


def progress_fragment(job_id: str, title: str, **extra):
    """A job's progress as a page shows it (htmx polls it until the result shows)."""
    return render_template("partials/job.html", job_id=job_id, title=title, **extra)


def job_fragment_for(kind: str, params: dict, title: str):
    """Start a job from a page's form and answer its progress fragment."""
    job_id, reattached = start_job(kind, params)
    return progress_fragment(job_id, title, reattached=reattached)


def _run(kind: str, params: dict) -> Answer:
    mode = choice(params, "mode", ("auto", "job", "sync"), "auto")
    if mode == "sync":
        seconds = number(params, "max_seconds", 0.001, MAX_REQUEST_SECONDS, SYNC_MAX_SECONDS)
        params = {**params, "max_seconds": min(seconds, SYNC_MAX_SECONDS)}
    job_id, reattached = start_job(kind, {k: v for k, v in params.items() if k != "mode"})
    if mode == "job":
        return Answer(job_id=job_id, reattached=reattached)
    wait = AUTO_WAIT if mode == "auto" else SYNC_MAX_SECONDS + SYNC_SLACK
    job = runner().wait(job_id, timeout=wait)
    if job is not None and job["status"] in FINISHED:
        if job["status"] == Status.DONE:
            return Answer(result=job["result"])
        return Answer(result={"status": str(job["status"]), "message": job["error"] or str(job["status"]),
                              "job": job_id})
    return Answer(job_id=job_id, reattached=reattached)


def solve_request(params: dict) -> Answer:
    return _run("solve", params)


def compare_request(params: dict) -> Answer:
    """Every chosen solver on the same position, each within its own budget."""
    return _run("compare", params)
