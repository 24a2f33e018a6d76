"""Puzzle Playground's web app: an application factory, one blueprint per subject, one base layout."""

from __future__ import annotations

import atexit
import os
import threading
from pathlib import Path

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from engine import store
from engine.errors import PuzzleError
from engine.jobs import JobRunner

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
       "base-uri 'self'; form-action 'self'; frame-ancestors 'none'")


def create_app(config: dict | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True)
    app.config.update(
        DATABASE=None,  # default: instance/jobs.sqlite
        DATA_DIR=None,  # default: the instance folder (pattern databases and tables live next to the database)
        MAX_CONTENT_LENGTH=64 * 1024,
        JOB_WORKERS=os.cpu_count() or 2,
        WARM_UP=True,  # load the numba kernels in the background at start
    )
    if config:
        app.config.update(config)
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    database = app.config["DATABASE"] or os.path.join(app.instance_path, "jobs.sqlite")
    store.set_data_dir(app.config["DATA_DIR"] or os.environ.get("PUZZLE_DATA_DIR") or app.instance_path)

    import engine.bounds.jobs  # noqa: F401  (registers the research job kinds)
    import engine.classic.jobs  # noqa: F401  (registers the classic-search job kinds)
    import engine.learned.jobs  # noqa: F401  (registers the learned-heuristic job kinds)
    import engine.rectout.jobs  # noqa: F401  (registers the Rectangle-out search)
    import engine.solvers  # noqa: F401  (registers the solve job kinds)

    app.extensions["jobs"] = runner = JobRunner(database, app.config["JOB_WORKERS"])
    atexit.register(runner.shutdown)
    if app.config["WARM_UP"]:
        threading.Thread(target=engine.solvers.warm_up, name="warm-up", daemon=True).start()

    from app import api, classic, jobs, learned, main, meta, play, rectout, research

    app.register_blueprint(main.bp)
    app.register_blueprint(play.bp)
    app.register_blueprint(jobs.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(research.bp)
    app.register_blueprint(classic.bp)
    app.register_blueprint(meta.bp)
    app.register_blueprint(learned.bp)
    app.register_blueprint(rectout.bp)

    @app.after_request
    def security_headers(response):
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "same-origin"
        return response

    def wants_json() -> bool:
        return request.path.startswith("/api/")

    @app.errorhandler(PuzzleError)
    def bad_input(error: PuzzleError):
        if wants_json():
            return jsonify(error=str(error)), 400
        return render_template("partials/error.html", message=str(error)), 400

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        message = {413: "the request is too large (at most 64 KB)"}.get(error.code, error.description)
        if wants_json():
            return jsonify(error=message), error.code
        if request.headers.get("HX-Request"):
            return render_template("partials/error.html", message=message), error.code
        return render_template("error.html", code=error.code, message=message), error.code

    @app.errorhandler(Exception)
    def internal_error(error: Exception):
        app.logger.exception("unhandled error")
        message = "something went wrong on our side; the error has been logged"
        if wants_json():
            return jsonify(error=message), 500
        return render_template("error.html", code=500, message=message), 500

    return app
