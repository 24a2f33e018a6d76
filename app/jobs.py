"""Job progress fragments (htmx polls them every second), the cancel button, and the list of your own jobs.

A finished job's result is drawn by ``templates/results/<kind>.html`` (given ``result`` and ``job``): a new job kind
shows its answer by adding that one file; a kind without one shows its status and message.
"""

from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template
from jinja2 import Template, TemplateNotFound

from app.solving import owner, progress_fragment, runner
from engine.status import Status

bp = Blueprint("jobs", __name__, url_prefix="/jobs")


@bp.app_template_filter("duration")
def duration(seconds: float | None) -> str:
    """A time as people read it, three significant digits in the unit that fits: 4.2 µs, 12.5 ms, 3.40 s, 2 min 5 s
    (a 7,000-node solve takes milliseconds, and "0.000 s" would say it took nothing)."""
    if seconds is None:
        return "–"
    if seconds <= 0:
        return "0 s"
    for scale, unit in ((1e6, "µs"), (1e3, "ms")):
        shown = float(f"{seconds * scale:.3g}")
        if shown < 1000:
            return f"{shown:g} {unit}"
    if seconds < 59.95:
        return f"{float(f'{seconds:.3g}'):g} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s"


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
    if runner().cancel(job_id, owner()) is None:
        abort(404, description=f"there is no job {job_id}")
    return job_fragment(job_id)


@bp.get("/mine")
def mine():
    """This browser's queued and running jobs, each with its live progress (shown again after a reload)."""
    jobs = [job for job in runner().mine(owner(), limit=20) if job["status"] in (Status.QUEUED, Status.RUNNING)]
    return render_template("partials/my_jobs.html", jobs=jobs)
