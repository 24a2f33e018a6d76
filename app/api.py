"""The JSON API: the same names and fields as the CLI. Errors are ``{"error": "..."}`` with a 4xx status."""

from __future__ import annotations

from flask import Blueprint, jsonify, request, url_for

from engine.errors import PuzzleError
from engine.tiles import check_solvable, goal_board, parse_goal, parse_size
from engine.tiles.board import position_from
from app.positions import new_position, solver_choices
from app.solving import compare_request, runner, solve_request

bp = Blueprint("api", __name__, url_prefix="/api")


def json_body() -> dict:
    """The request's JSON object, or a 400 that says what to send (every JSON endpoint reads its body here)."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise PuzzleError("send a JSON object (Content-Type: application/json)")
    return data


def _answer(answer):
    if answer.job_id:
        return jsonify(job=answer.job_id, status="queued", url=url_for("api.job", job_id=answer.job_id)), 202
    return jsonify(answer.result)


@bp.post("/solve")
def solve():
    return _answer(solve_request(json_body()))


@bp.post("/compare")
def compare():
    return _answer(compare_request(json_body()))


@bp.get("/jobs/<job_id>")
def job(job_id: str):
    found = runner().get(job_id)
    if found is None:
        return jsonify(error=f"there is no job {job_id}"), 404
    return jsonify(found)


@bp.post("/jobs/<job_id>/cancel")
def cancel_job(job_id: str):
    if runner().get(job_id) is None:
        return jsonify(error=f"there is no job {job_id}"), 404
    runner().cancel(job_id)
    return jsonify(runner().wait(job_id, timeout=3.0))


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
