"""The JSON API: the same names and fields as the CLI. Errors are ``{"error": "..."}`` with a 4xx status."""

from __future__ import annotations

import json

from flask import Blueprint, jsonify, request

from app.positions import new_position, solver_choices
from app.submit import compare_request, job_accepted, my_jobs, request_cancel, runner, solve_request, start_job
from engine.core.errors import PuzzleError
from engine.core.params import depth
from engine.domains.tiles import check_solvable, goal_board, parse_goal, parse_size
from engine.domains.tiles.board import position_from
from engine.serving.jobs import job_kinds

bp = Blueprint("api", __name__, url_prefix="/api")


MAX_JSON_DEPTH = 16  # the deepest request we take nests four levels (a state's poses); 16 leaves room


def json_body() -> dict:
    """The request's JSON object, or a 400 that says what to send (every JSON endpoint reads its body here).

    Parsed here rather than by Flask so that NaN and Infinity (which Python's parser accepts) and deep nesting (which
    exhausts its recursion) are refused with a message."""
    if not request.is_json:
        raise PuzzleError("send a JSON object (Content-Type: application/json)")
    try:
        data = json.loads(request.get_data(cache=True), parse_constant=_refuse_constant, parse_float=_finite)
    except PuzzleError:
        raise
    except RecursionError:
        raise PuzzleError("the JSON nests too deeply") from None
    except (ValueError, UnicodeDecodeError):
        raise PuzzleError("the body is not valid JSON") from None
    if not isinstance(data, dict):
        raise PuzzleError("send a JSON object (Content-Type: application/json)")
    if depth(data, MAX_JSON_DEPTH) > MAX_JSON_DEPTH:
        raise PuzzleError(f"the JSON nests too deeply (at most {MAX_JSON_DEPTH} levels)")
    return data


def _finite(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise PuzzleError(f"{text[:20]} is too large: send finite numbers")
    return value


def _refuse_constant(name: str):
    raise PuzzleError(f"{name} is not a number this API accepts: send finite numbers")


def _answer(answer):
    if answer.job_id:
        return job_accepted(answer.job_id, answer.reattached)
    return jsonify(answer.result)


def public(job: dict) -> dict:
    """A job as anyone may read it: everything but who started it, from where, and the internal address of the
    worker that ran it (a result can be shared by its id)."""
    return {key: value for key, value in job.items() if key not in ("owner", "address", "anonymous", "worker")}


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
