"""Job progress fragments (htmx polls them every second), the cancel button, and the list of your own jobs."""

from __future__ import annotations

from flask import Blueprint, abort, render_template

from engine.status import Status
from app.solving import owner, runner

bp = Blueprint("jobs", __name__, url_prefix="/jobs")

#: The fragment that shows a finished job's result, by job kind; later subjects add theirs.
RESULT_TEMPLATES = {"solve": "partials/result.html", "compare": "partials/compare_results.html",
                    "research-bfs": "research/bfs.html", "research-maxmd": "research/maxmd.html",
                    "research-subproblem": "research/subproblem.html", "research-tables": "research/tables.html",
                    "research-bounds": "research/bounds.html", "classic-queens": "classic/queens_results.html",
                    "classic-knights": "classic/knights_count.html", "meta-experiment": "meta/experiment.html",
                    "learned-train": "learned/trained.html", "learned-evaluate": "learned/evaluation.html",
                    "rectout-solve": "rectout/result.html"}


def job_fragment(job_id: str):
    job = runner().get(job_id)
    if job is None:
        abort(404, description=f"there is no job {job_id}")
    if job["status"] == Status.DONE and job["kind"] in RESULT_TEMPLATES:
        result = job["result"]
        return render_template(RESULT_TEMPLATES[job["kind"]], result=result, data=result, job=job)
    return render_template("partials/job.html", job=job, job_id=job_id, title=job["kind"].capitalize(),
                           mine=job["owner"] == owner())


@bp.get("/<job_id>")
def show(job_id: str):
    return job_fragment(job_id)


@bp.post("/<job_id>/cancel")
def cancel(job_id: str):
    if runner().cancel(job_id, owner()) is None:
        abort(404, description=f"there is no job {job_id}")
    return job_fragment(job_id)


@bp.get("/mine")
def mine():
    """This browser's queued and running jobs, each with its live progress (shown again after a reload)."""
    jobs = [job for job in runner().mine(owner(), limit=20) if job["status"] in (Status.QUEUED, Status.RUNNING)]
    return render_template("partials/my_jobs.html", jobs=jobs)
