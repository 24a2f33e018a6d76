"""Submitting work: a job from any form or API request, and how the web answers a solve or a compare.

A solve small enough to be sure of is answered here in the web process, under the node cap its domain's jobs set
(``engine.search.jobs.KindJobs.quick_nodes``: for tiles a compiled solver on the 8-puzzle or a smaller board,
``engine.domains.tiles.solve_cost.quick_nodes``; for a problem given as JSON its first
``engine.search.jobs.QUICK_NODES`` nodes: a graph a person types is answered long before), without a worker, when its
client has no other quick solve under way and the server fewer than four (``QUICK_SOLVES``); otherwise it is a job
like any other.
Every other solve and compare is a job (a Dask worker process, never this one), on the lane its cost estimate
chooses. The request waits a moment for it: a quick job (most 2×n positions, many 15-puzzle ones) answers at once with
the result; a longer one answers 202 with the job's id and goes on in the background, with no work thrown away.

``mode``: ``auto`` (the default: wait up to ``AUTO_WAIT``), ``job`` (answer 202 at once) or ``sync`` (wait for the
answer; the budget is capped at ``SYNC_MAX_SECONDS`` so that no request holds a connection longer).
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass

from flask import current_app, g, jsonify, render_template, request, url_for
from markupsafe import Markup

from app.identity import network
from engine.core.params import MAX_REQUEST_SECONDS, choice, number
from engine.core.status import FINISHED, Status
from engine.search.jobs import QUICK_SECONDS, every_kind_jobs, kind_jobs
from engine.serving.cluster import JobRunner, NoWorker, QuotaExceeded, anonymous_owner
from engine.serving.jobs import checked

AUTO_WAIT = 1.0  # seconds a request waits for a solve before answering with the job id
SYNC_MAX_SECONDS = 10.0
SYNC_SLACK = 2.0  # seconds beyond the budget a sync request waits (the job may queue briefly)


@dataclass
class Answer:
    result: dict | None = None
    job_id: str | None = None
    reattached: bool = False


def runner() -> JobRunner:
    jobs = current_app.extensions.get("jobs")
    if jobs is None:
        raise JobsNotStarted("this app runs no jobs: it was built without app.init_jobs")
    return jobs


class JobsNotStarted(NoWorker):
    """The app was built without its job runner (a test or a script that needs none)."""


def network_address() -> str:
    """The network the request came from, as every per-address limit counts it (``app.identity.network``: an IPv6
    address's /64)."""
    return network(request.remote_addr or "")


def owner() -> str:
    """Who is asking: the browser's cookie (the first response sets it, and it owns what that request starts)."""
    return g.get("owner") or anonymous_owner(network_address())


def client() -> str:
    """Who counts for a per-client limit: the browser's signed cookie, or for a request without one its network's
    cookieless client (as ``JobRunner.submit`` counts jobs)."""
    return anonymous_owner(network_address()) if g.get("new_owner") else owner()


def signed_client() -> bool:
    """Whether the request carries an owner cookie this server signed (``client`` is then that browser alone)."""
    return not g.get("new_owner")


class WebWork:
    """Work a request does in the web process (hints, quick solves): each client may have ``per_client`` of it under
    way at once, the server ``overall``, so that a crowd asking for it cannot take the threads that serve pages. Past
    either, ``slot`` raises a QuotaExceeded (429) that says what to do, and ``try_slot`` says no (the caller has
    another way to do the work). Each piece is bounded in time by its own budget as well."""

    def __init__(self, what: str, per_client: int, overall: int):
        self.what, self.per_client, self.overall = what, per_client, overall
        self._lock = threading.Lock()
        self._running: dict[str, int] = {}

    def _claim(self, who: str) -> str | None:
        """Count one more under way for ``who``, or say why not (None: counted). The caller holds the lock."""
        if self._running.get(who, 0) >= self.per_client:
            return f"your last {self.what} is still being worked out: wait for it, then ask again"
        if sum(self._running.values()) >= self.overall:
            return f"the server is working out {self.overall} {self.what}s for others right now: ask again in a second"
        self._running[who] = self._running.get(who, 0) + 1
        return None

    def _release(self, who: str) -> None:
        with self._lock:
            self._running[who] -= 1
            if not self._running[who]:
                del self._running[who]

    @contextmanager
    def slot(self, who: str):
        with self._lock:
            refusal = self._claim(who)
        if refusal:
            raise QuotaExceeded(refusal)
        try:
            yield
        finally:
            self._release(who)

    @contextmanager
    def try_slot(self, who: str):
        """Yields whether ``who`` got a place (held until the block ends)."""
        with self._lock:
            allowed = self._claim(who) is None
        try:
            yield allowed
        finally:
            if allowed:
                self._release(who)


#: Quick solves (``quick_answer``) run in the web process: one at a time per client (its signed cookie, or its
#: address's cookieless client), four for the whole server (two cores; each is a few milliseconds to a few tenths of
#: a second under its node cap). A solve past either limit is not refused: it goes the way every larger solve goes,
#: as a job on the interactive lane (a browser with nothing running always gets that; the request waits for it as
#: for any job), so the person still gets the answer while a client firing solves in parallel takes one web thread
#: at most, and a crowd of them four.
QUICK_SOLVES = WebWork("quick solve", per_client=1, overall=4)


def anonymous_address() -> str | None:
    """The client's address when its request carried no cookie (curl, a script): it may see and cancel what its
    address started without one."""
    return network_address() if g.get("new_owner") else None


def start_job(kind: str, params: dict) -> tuple[str, bool]:
    """Submit a job for the current browser: (job id, reattached to an identical running job)."""
    return runner().submit(kind, params, owner(), network_address(), anonymous=bool(g.get("new_owner")))


def request_cancel(job_id: str) -> dict | None:
    return runner().cancel(job_id, owner(), anonymous_address())


def my_jobs(limit: int = 50) -> list[dict]:
    if current_app.extensions.get("jobs") is None:  # an app that runs no jobs: nobody has any
        return []
    return runner().mine(owner(), anonymous_address(), limit=limit)


def job_accepted(job_id: str, reattached: bool = False):
    """The API's 202 for a started job."""
    return jsonify(job=job_id, status=str(Status.QUEUED), reattached=reattached,
                   url=url_for("api.job", job_id=job_id)), 202


def progress_fragment(job_id: str, title: str, **extra):
    """A job's progress as a page shows it (htmx polls it until the result shows)."""
    return render_template("partials/job.html", job_id=job_id, title=title, **extra)


def page_unless_htmx(fragment: str, title: str, refresh: str | None = None):
    """htmx swaps ``fragment`` into the page that asked; a browser without JavaScript, which posted the form itself,
    gets a whole page holding it (reloading ``refresh`` every 2 s while a job runs)."""
    if request.headers.get("HX-Request"):
        return fragment
    back = request.referrer if (request.referrer or "").startswith(request.host_url) else url_for("home.index")
    return render_template("jobs/answer.html", fragment=Markup(fragment), title=title, refresh=refresh, back=back)


def job_fragment_for(kind: str, params: dict, title: str):
    """Start a job from a page's form and answer its progress fragment (a whole page that reloads the job's own
    page while it runs, for a form posted without JavaScript)."""
    job_id, reattached = start_job(kind, params)
    return page_unless_htmx(progress_fragment(job_id, title, reattached=reattached), title,
                            url_for("jobs.show", job_id=job_id))


def _run(kind: str, params: dict) -> Answer:
    mode = choice(params, "mode", ("auto", "job", "sync"), "auto")
    if mode == "sync":
        seconds = number(params, "max_seconds", 0.001, MAX_REQUEST_SECONDS, SYNC_MAX_SECONDS)
        params = {**params, "max_seconds": min(seconds, SYNC_MAX_SECONDS)}
    params = {k: v for k, v in params.items() if k != "mode"}
    if mode != "job":
        with QUICK_SOLVES.try_slot(client()) as here:
            if here and (result := quick_answer(params, kind)) is not None:
                return Answer(result=result)
    job_id, reattached = start_job(kind, params)
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


def quick_cap(kind: str, params: dict) -> int:
    """The node cap under which the web process tries a checked solve or compare itself (0: it does not), as the
    problem's domain sets it."""
    jobs = kind_jobs(params)
    return jobs.compare_quick_nodes(params) if kind == "compare" else jobs.quick_nodes(params)


def quick_answer(params: dict, kind: str = "solve") -> dict | None:
    """A small solve's (or a compare's, each solver) result, searched here under its node cap (``quick_cap``); None
    when it is not tried here or the cap ended it before its own budget did (it then runs as a job)."""
    job, clean = checked(kind, params)
    cap = quick_cap(kind, clean)
    if not cap:
        return None
    # a compare's solvers share the time a solve has
    capped = {**clean, "max_nodes": min(clean["max_nodes"], cap),
              "max_seconds": min(clean["max_seconds"], QUICK_SECONDS / len(clean.get("solvers", [clean])))}
    result = job.run(capped, _no_progress, threading.Event())
    if capped != clean and any(r["status"] == Status.BUDGET_EXHAUSTED for r in result.get("results", [result])):
        return None
    return result


def _no_progress(fraction, info) -> None:
    pass


def warm_quick_solves() -> None:
    """Load the quick solvers' kernels in this process (a thread at start-up), so no request pays for it."""
    for jobs in every_kind_jobs():
        for params in jobs.quick_requests():
            quick_answer(params)


def solve_request(params: dict) -> Answer:
    """One solver on the problem the request names (``problem``: its domain; a board's without it)."""
    return _run("solve", params)


def compare_request(params: dict) -> Answer:
    """Every chosen solver on the same position (or problem), each within its own budget."""
    return _run("compare", params)
