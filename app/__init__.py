"""Puzzle Playground's web app: an application factory, one blueprint per subject, one base layout.

The web process renders pages and answers quick requests; every job runs in a Dask worker process
(``engine.serving.cluster``). ``create_app`` only builds the app; ``init_jobs`` connects it to its workers (a local
cluster by default, or the cluster whose scheduler ``SCHEDULER``, or the environment's ``PUZZLE_SCHEDULER``, names) and
queues the start-up table build. The serve command calls both; a test or a script that needs no jobs calls only the
first.
"""

from __future__ import annotations

import atexit
import importlib
import logging
import os
import pkgutil
import secrets
import threading
from pathlib import Path

from flask import Blueprint, Flask, current_app, g, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from app.identity import NewIdentities, cookie_for, instance_secret, network, owner_of, page_load
from engine.core import registry
from engine.core.errors import PuzzleError
from engine.serving import store
from engine.serving.cluster import JobRunner, Limits, NotOwner, NoWorker, QuotaExceeded
from engine.serving.jobs import MAX_PROBLEM_BYTES, StorageFull
from engine.serving.lanes import LocalWorkers

app_log = logging.getLogger(__name__)
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
       "base-uri 'self'; form-action 'self'; frame-ancestors 'none'")
OWNER_COOKIE = "pp_owner"
SERVER_OWNER = "server"  # jobs the server starts itself (a browser's owner is 32 hex digits or "ip:…")
#: The API routes that take a problem's data (a graph, a grid), and so a body up to ``MAX_PROBLEM_BYTES``.
PROBLEM_ROUTES = ("/api/solve", "/api/compare", "/api/step", "/api/jobs")
#: Fetch metadata values of a request a page of this site sent (``none``: typed in the address bar, a bookmark).
SAME_SITE_FETCH = ("same-origin", "none")


def create_app(config: dict | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True)
    app.config.update(
        DATABASE=os.environ.get("PUZZLE_DATABASE") or None,  # default: instance/jobs.sqlite
        DATA_DIR=None,  # default: the instance folder (pattern databases and tables live next to the database)
        MAX_CONTENT_LENGTH=64 * 1024,
        SCHEDULER=os.environ.get("PUZZLE_SCHEDULER") or None,  # None: start a local Dask cluster
        LOCAL_WORKERS=LocalWorkers(),
        JOB_LIMITS=Limits.from_environment(),
        # build missing pattern databases in a worker at start-up (PUZZLE_BUILD_TABLES=0 and the tests turn it off)
        BUILD_TABLES=os.environ.get("PUZZLE_BUILD_TABLES", "1") != "0",
        # new owner cookies one network address may be given (``app.identity``): at once, then one per so many s
        NEW_IDENTITIES=NewIdentities(),
        # bytes the saved views, own lessons and their verdicts may hold together (``app.records``)
        RECORDS_BUDGET=int(float(os.environ.get("PUZZLE_RECORDS_MB") or 200) * 2**20),
    )
    if config:
        app.config.update(config)
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    if not app.config.get("SECRET_KEY"):  # signs the owner cookies: the instance folder's, kept across restarts
        app.config["SECRET_KEY"] = instance_secret(app.instance_path)
    database = app.config["DATABASE"] or os.path.join(app.instance_path, "jobs.sqlite")
    data_dir = app.config["DATA_DIR"] or os.environ.get("PUZZLE_DATA_DIR") or app.instance_path
    app.config.update(DATABASE=database, DATA_DIR=str(data_dir))
    store.set_data_dir(data_dir)
    registry.load_all()
    register_blueprints(app)
    install_request_guards(app)
    install_error_handlers(app)
    return app


def register_blueprints(app: Flask) -> None:
    """Every module of this package with a blueprint ``bp`` (found, not listed); a page module's ``SUBJECTS`` join the
    navigation and the home page in the order of their ``place``."""
    import app as package
    from app.subjects import Subject, current

    subjects: list[Subject] = []
    for found in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if found.name.startswith("_"):  # __main__ serves: importing it would start a server
            continue
        module = importlib.import_module(f"app.{found.name}")
        if isinstance(getattr(module, "bp", None), Blueprint):
            app.register_blueprint(module.bp)
            subjects.extend(getattr(module, "SUBJECTS", ()))
    subjects.sort(key=lambda subject: subject.place)
    app.extensions["subjects"] = subjects

    @app.context_processor
    def navigation():
        return {"subjects": subjects, "current_subject": current(subjects, request.endpoint)}


def init_jobs(app: Flask) -> JobRunner:
    """Connect the app to its Dask workers (starting the local cluster unless ``SCHEDULER`` names one) and queue the
    build of missing tables; the runner is ``app.extensions["jobs"]``. Its shutdown runs at exit at the latest."""
    config = app.config
    app.extensions["jobs"] = runner = JobRunner(config["DATABASE"], scheduler=config["SCHEDULER"],
                                                workers=config["LOCAL_WORKERS"], limits=config["JOB_LIMITS"],
                                                data_dir=config["DATA_DIR"])
    atexit.register(runner.shutdown)
    if config["BUILD_TABLES"]:
        if tables_job(runner) is None:  # several web processes on one database: the first to start queues it
            build_missing_tables(runner)
        threading.Thread(target=keep_tables_built, args=(runner,), daemon=True, name="keep-tables-built").start()
    return runner


#: Seconds between looks for a table gone missing (a worker deletes one that fails its checksum).
TABLES_CHECK_EVERY = 60.0


def keep_tables_built(runner: JobRunner) -> None:
    """Queue the build of tables that have gone missing since start-up (refused for a bad checksum, deleted by
    hand), unless a build is already queued or running."""
    while not runner.stopped.wait(TABLES_CHECK_EVERY):
        try:
            if tables_job(runner) is None:
                build_missing_tables(runner)
        except Exception:  # a full disk, a cluster restarting: the next look tries again
            app_log.warning("queueing the build of missing tables failed", exc_info=True)


def build_missing_tables(runner: JobRunner) -> None:
    """Queue one job that builds every missing large table, so no solve ever waits for one: until they exist, the
    solvers fall back to the next heuristic and say which they used. The 6-6-3 databases come first (seconds), the
    7-8 ones after (minutes, about 2.7 GB in the worker)."""
    from engine.domains.tiles.pdb_catalogue import missing

    names = missing()
    if names:
        runner.submit("tables-build", {"names": names}, owner=SERVER_OWNER)


def tables_job(runner: JobRunner | None) -> dict | None:
    """The start-up build, while it is queued or running (pages that need the tables say so); None in an app that
    runs no jobs."""
    if runner is None:
        return None
    jobs = runner.store.active(owner=SERVER_OWNER, kind="tables-build")
    return runner.get(jobs[0]["id"]) if jobs else None


def install_request_guards(app: Flask) -> None:
    @app.before_request
    def identify_and_check_origin():
        if request.path in PROBLEM_ROUTES:  # a graph of 500 nodes and 5,000 edges is more than the 64 KB of the rest
            request.max_content_length = MAX_PROBLEM_BYTES
        owner = owner_of(request.cookies.get(OWNER_COOKIE, ""), app.secret_key)
        if owner:
            g.owner = owner
        else:  # no cookie we signed: the one this response sets (if its address may have one) owns what it starts
            g.owner = g.new_owner = secrets.token_hex(16)
            # only a browser loading a page is named (``app.identity``): a page's files ask alongside it, before its
            # cookie is back, and a script's cookieless requests take nothing from the names its network may have
            g.give_cookie = (request.endpoint != "static" and not request.path.startswith("/api/")
                             and page_load(request.method, request.headers.get("Accept", ""),
                                           request.headers.get("Sec-Fetch-Dest"))
                             and app.config["NEW_IDENTITIES"].take(network(request.remote_addr or "")))
        if request.method not in ("GET", "HEAD", "OPTIONS") and not same_origin():
            return refuse(403, "this request came from another site; open the playground's own page to do this")
        return None

    @app.after_request
    def security_headers(response):
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "same-origin"
        if g.get("new_owner") and g.get("give_cookie"):
            response.set_cookie(OWNER_COOKIE, cookie_for(g.new_owner, current_app.secret_key),
                                max_age=365 * 24 * 3600, httponly=True, samesite="Lax", secure=reached_over_https())
        return response


def reached_over_https() -> bool:
    """Whether the browser reached us over HTTPS: directly, or through a trusted reverse proxy that says so (waitress
    reads its ``X-Forwarded-Proto`` when ``PUZZLE_TRUSTED_PROXIES`` is set, and drops the header otherwise:
    ``app.serve.make_server``)."""
    return request.is_secure


def same_origin() -> bool:
    """Whether a state-changing request comes from one of our own pages (or from a client that is no browser).

    Browsers say where a request comes from (``Sec-Fetch-Site``; older ones only ``Origin``); a form on another site
    posting here carries ``cross-site`` or a foreign origin. curl and API clients send neither and are let through:
    they cannot ride on a visitor's cookie.
    """
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if fetch_site is not None:
        return fetch_site in SAME_SITE_FETCH
    origin = request.headers.get("Origin")
    if origin is not None:
        return origin == request.host_url.rstrip("/")
    return True


def wants_json() -> bool:
    return request.path.startswith("/api/")


def refuse(code: int, message: str):
    if wants_json():
        return jsonify(error=message), code
    if request.headers.get("HX-Request"):
        return render_template("partials/error.html", message=message), code
    return render_template("error.html", code=code, message=message), code


def install_error_handlers(app: Flask) -> None:
    @app.errorhandler(QuotaExceeded)
    def too_many(error: QuotaExceeded):
        return refuse(429, str(error))

    @app.errorhandler(StorageFull)
    def storage_full(error: StorageFull):
        return refuse(507, str(error))

    @app.errorhandler(NoWorker)
    def no_worker(error: NoWorker):
        return refuse(503, str(error))

    @app.errorhandler(NotOwner)
    def not_owner(error: NotOwner):
        return refuse(403, str(error))

    @app.errorhandler(PuzzleError)
    def bad_input(error: PuzzleError):
        return refuse(400, str(error))

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        code = error.code or 500  # every exception werkzeug raises for a request has its status
        message = error.description or ""
        if message == type(error).description:  # werkzeug's general words: say it of this request, in ours
            missing = (f"there is no API route {request.path}" if wants_json() else
                       f"there is no page at {request.path}: the menu above leads to every subject")
            limit = request.max_content_length
            message = {404: missing,
                       405: f"{request.path} does not take a {request.method} request",
                       413: f"the request is too large (at most {limit // 1024:,} KB)" if limit else
                       "the request is too large",
                       }.get(code, message)
        return refuse(code, message)

    @app.errorhandler(Exception)
    def internal_error(error: Exception):
        app.logger.exception("unhandled error")
        return refuse(500, "something went wrong on our side; the error has been logged")
