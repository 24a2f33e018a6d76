"""Job progress fragments (htmx polls them every second), the cancel button, and the list of your own jobs.

A finished job's result is drawn by ``templates/results/<kind>.html`` (given ``result`` and ``job``): a new job kind
shows its answer by adding that one file; a kind without one shows its status and message.
"""

from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template
from jinja2 import Template, TemplateNotFound

from app.solving import my_jobs, owner, progress_fragment, request_cancel, runner
from engine.status import Status

bp = Blueprint("jobs", __name__, url_prefix="/jobs")


def result_template(kind: str) -> Template | None:
    """The template that draws a finished job of this kind, if the kind has one."""
    try:
        return current_app.jinja_env.get_template(f"results/{kind}.html")
    except TemplateNotFound:
        return None


def result_fragment(kind: str, result: dict, job: dict | None = None) -> str:
    """A result as its kind's template draws it, whether it came from a job or was computed in the request."""
    return render_template(result_template(kind), result=result, job=job)


def job_fragment(job_id: str):
    job = runner().get(job_id)
    if job is None:
        abort(404, description=f"there is no job {job_id}")
    if job["status"] == Status.DONE and result_template(job["kind"]) is not None:
        return result_fragment(job["kind"], job["result"], job)
    return progress_fragment(job_id, job["kind"].capitalize(), job=job, mine=job["owner"] == owner())


@bp.get("/<job_id>")
def show(job_id: str):
    return job_fragment(job_id)


@bp.post("/<job_id>/cancel")
def cancel(job_id: str):
    if request_cancel(job_id) is None:
        abort(404, description=f"there is no job {job_id}")
    return job_fragment(job_id)


@bp.get("/mine")
def mine():
    """This browser's queued and running jobs, each with its live progress (shown again after a reload)."""
    jobs = [job for job in my_jobs(limit=20) if job["status"] in (Status.QUEUED, Status.RUNNING)]
    return render_template("partials/my_jobs.html", jobs=jobs)
