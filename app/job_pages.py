"""Job progress fragments (htmx polls them every second), the cancel button, and the list of your own jobs.

A finished job's result is drawn by ``templates/results/<kind>.html`` (given ``result`` and ``job``): a new job kind
shows its answer by adding that one file; a kind without one shows its status and message.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict

from flask import Blueprint, abort, current_app, render_template, url_for
from jinja2 import Template, TemplateNotFound

from app.submit import my_jobs, owner, page_unless_htmx, progress_fragment, request_cancel, runner
from engine.core.status import Status
from engine.core.units import duration
from engine.search.jobs import kind_jobs
from engine.serving.jobs import JobView, job_kinds

bp = Blueprint("jobs", __name__, url_prefix="/jobs")


@bp.app_template_global()
def kind_result_template(result: dict, compare: bool) -> str:
    """The template that draws a solve's (or a compare's) result, its domain's own (``KindJobs.templates``): the kind
    the result names by ``problem``, the default kind without it."""
    return kind_jobs(result).templates[compare]


@bp.app_template_global()
def kind_view(job: dict) -> JobView:
    """The panel's words for ``job``, as its kind declares them (``engine.serving.jobs.JobView``)."""
    kind = job_kinds().get(job["kind"])
    if kind is None:  # a row of a kind this server does not register
        return JobView(job["kind"].replace("-", " ").capitalize())
    return kind.view_for(job.get("params") or {})


class Pace:
    """When each running job's count last moved, as this web process saw it between polls: a count that stands still
    (IDA* deep in a bound, a compare's next solver loading) is said to wait rather than divided by a growing time."""

    KEPT = 1000  # jobs remembered; the oldest seen is forgotten first

    def __init__(self):
        self._seen: OrderedDict[str, tuple[int, float]] = OrderedDict()
        self._lock = threading.Lock()

    def since(self, job_id: str, count: int, elapsed: float) -> float:
        """The job's elapsed seconds when ``count`` was first seen."""
        with self._lock:
            seen = self._seen.get(job_id)
            if seen is None or seen[0] != count:
                seen = self._seen[job_id] = (count, elapsed)
            self._seen.move_to_end(job_id)
            while len(self._seen) > self.KEPT:
                self._seen.popitem(last=False)
        return seen[1]


@bp.app_template_global()
def count_since(job: dict, count: int) -> float:
    """The elapsed seconds at which the job's progress count reached ``count`` (partials/job.html)."""
    pace = current_app.extensions.setdefault("job_pace", Pace())
    return pace.since(job["id"], count, job["elapsed"])


def form_values(job: dict) -> dict:
    """The job's parameters under the names of the form that starts it, so a page reloaded while it runs shows the
    form as it was sent (``js/jobs.js`` fills it in; hidden fields must match or the job is not this form's)."""
    params = job.get("params") or {}
    if isinstance(params.get("goal"), list) and params.get("size"):
        params = {**params, "goal": _goal_name(params["size"], params["goal"])}
    view = kind_view(job)
    return view.form_values(params) if view.form_values else params


def _goal_name(size: str, cells: list[int]) -> str:
    """A goal as the page's form names it: blank-last or blank-first, else its tiles."""
    from engine.domains.tiles import goal_board, parse_size

    rows, cols = parse_size(size)
    for name in ("blank-last", "blank-first"):
        if list(goal_board(rows, cols, name).cells) == cells:
            return name
    return ",".join(map(str, cells))


@bp.app_template_filter("form_json")
def form_json(job: dict) -> str:
    values = {k: (",".join(map(str, v)) if k == "tiles" and isinstance(v, list) else v)
              for k, v in form_values(job).items()}
    return json.dumps(values)


bp.add_app_template_filter(duration, "duration")


def result_template(kind: str) -> Template | None:
    """The template that draws a finished job of this kind, if the kind has one."""
    try:
        return current_app.jinja_env.get_template(f"results/{kind}.html")
    except TemplateNotFound:
        return None


def result_fragment(kind: str, result: dict, job: dict | None = None) -> str:
    """A result as its kind's template draws it, whether it came from a job or was computed in the request."""
    return render_template(f"results/{kind}.html", result=result, job=job)


def job_fragment(job_id: str):
    job = runner().get(job_id)
    if job is None:
        abort(404, description=f"there is no job {job_id}")
    drawn = job["status"] == Status.DONE or (job["status"] == Status.CANCELLED and job["result"]
                                              and kind_view(job).partial)
    if drawn and result_template(job["kind"]) is not None:
        return result_fragment(job["kind"], job["result"], job)
    return progress_fragment(job_id, kind_view(job).title, job=job, mine=job["owner"] == owner())


#: how a job's own page is headed once the job has ended (while it runs: its kind's words, "Solving …")
ENDED = {Status.DONE: "done", Status.FAILED: "failed", Status.CANCELLED: "cancelled",
         Status.INTERRUPTED: "interrupted (the server stopped)"}


def page_title(job: dict) -> str:
    """A job page's title and heading: what the job does while it is queued or running, and how it ended after."""
    title = kind_view(job).title
    ended = ENDED.get(job["status"])
    return f"{title}: {ended}" if ended else title


@bp.get("/<job_id>")
def show(job_id: str):
    """The job's fragment for htmx's polling; its own page otherwise (where a form without JavaScript leads)."""
    fragment = job_fragment(job_id)
    job = runner().get(job_id)
    if job is None:  # deleted (the retention rule) since its fragment was drawn
        abort(404, description=f"there is no job {job_id}")
    live = job["status"] in (Status.QUEUED, Status.RUNNING)
    return page_unless_htmx(fragment, page_title(job), url_for("jobs.show", job_id=job_id) if live else None)


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
