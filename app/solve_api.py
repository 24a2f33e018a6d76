"""The JSON API: the same names and fields as the CLI. Errors are ``{"error": "..."}`` with a 4xx status."""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from app.positions import new_position, solver_choices
from app.submit import compare_request, job_accepted, my_jobs, request_cancel, runner, solve_request, start_job
from engine.core.errors import PuzzleError
from engine.core.params import json_value
from engine.domains.tiles import check_solvable, goal_board, parse_goal, parse_size
from engine.domains.tiles.board import position_from
from engine.serving.jobs import INTERNAL_COLUMNS, job_kinds

bp = Blueprint("api", __name__, url_prefix="/api")


def json_body() -> dict:
    """The request's JSON object, or a 400 that says what to send (every JSON endpoint reads its body here, with the
    one JSON reader, ``engine.core.params.json_value``: NaN, infinities and deep nesting are refused)."""
    if not request.is_json:
        raise PuzzleError("send a JSON object (Content-Type: application/json)")
    data = json_value(request.get_data(cache=True), "the body")
    if not isinstance(data, dict):
        raise PuzzleError("send a JSON object (Content-Type: application/json)")
    return data


def _answer(answer):
    if answer.job_id:
        return job_accepted(answer.job_id, answer.reattached)
    return jsonify(answer.result)


def public(job: dict) -> dict:
    """A job as anyone may read it: everything but who started it, from where, the internal address of the worker
    that ran it and how the runners keep it (a result can be shared by its id)."""
    hidden = ("owner", "address", "anonymous", "worker", *INTERNAL_COLUMNS)
    return {key: value for key, value in job.items() if key not in hidden}


@bp.post("/solve")
def solve():
    return _answer(solve_request(json_body()))


@bp.post("/compare")
def compare():
    return _answer(compare_request(json_body()))


@bp.post("/jobs")
def submit_job():
    """Start any kind of job: ``{"kind": K, "params": {...}}`` → 202 with its id (an identical job of yours that is
    still running is returned instead of a second one)."""
    data = json_body()
    job_id, reattached = start_job(data.get("kind"), data.get("params", {}))
    return job_accepted(job_id, reattached)


@bp.get("/jobs")
def list_jobs():
    """Your jobs (this browser's, or this address's without a cookie), newest first, and the kinds there are."""
    return jsonify(jobs=[public(job) for job in my_jobs()],
                   kinds={name: {"lane": kind.lane_label, "doc": kind.doc}
                          for name, kind in sorted(job_kinds().items())})


@bp.get("/jobs/<job_id>")
def job(job_id: str):
    found = runner().get(job_id)
    if found is None:
        return jsonify(error=f"there is no job {job_id}"), 404
    return jsonify(public(found))


@bp.post("/jobs/<job_id>/cancel")
def cancel_job(job_id: str):
    found = request_cancel(job_id)
    if found is None:
        return jsonify(error=f"there is no job {job_id}"), 404
    return jsonify(public(found))


@bp.post("/check")
def check():
    board, goal = position_from(json_body())
    verdict = check_solvable(board, goal)
    return jsonify(solvable=verdict.solvable, permutation_parity=verdict.permutation_parity,
                   blank_distance=verdict.blank_distance, explanation=verdict.explanation)


@bp.get("/position")
def position():
    """A new position: ``?size=4x4&goal=blank-last&random=1`` or ``&scramble=30``, optional ``&seed=``."""
    rows, cols = parse_size(request.args.get("size", "3x3"))
    goal = parse_goal(request.args.get("goal", "blank-last"), rows, cols)
    board = new_position(request.args, goal) or goal
    return jsonify(size=board.size_name, tiles=list(board.cells), goal=list(goal.cells))


@bp.get("/solvers")
def solvers():
    rows, cols = parse_size(request.args.get("size", "3x3"))
    return jsonify(solvers=solver_choices(goal_board(rows, cols)))
