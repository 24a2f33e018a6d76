"""The board page (play, new positions, solve and animate), the compare view, and the heuristic overlay's numbers."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict

from app import tables_job
from app.job_pages import result_fragment
from app.positions import GOALS, PRESETS, default_choice, new_position, read_position, solver_choices, solver_label
from app.solve_api import json_body
from app.subjects import Subject
from app.submit import WebWork, client, compare_request, progress_fragment, solve_request
from engine.core.errors import PuzzleError
from engine.core.params import integer
from engine.domains.tiles import Board, parse_goal, parse_size, parse_tiles
from engine.domains.tiles.board import position_from
from engine.domains.tiles.explain import explain
from engine.domains.tiles.jobs import MAX_COMPARE
from engine.domains.tiles.player import Hint, distance_range, hint
from engine.domains.tiles.random import MAX_SCRAMBLE

bp = Blueprint("play", __name__)
bp.add_app_template_global(solver_label)
SUBJECTS = [
    Subject("play.play", "Play", "Play & solve", "Slide the 8-puzzle, the 15-puzzle, 2×n and any board up to 6×6; ask "
            "BFS, A* or IDA* for an answer and watch it animate.", place=10),
    Subject("play.compare", "Compare", "Compare solvers", "Race two to four solvers on the same position: boards side "
            "by side, lengths, nodes and time in a table and a chart.", place=10),
]


def _page(template: str, args=None, **extra):
    """The board page for the position in ``args`` (the query string; a form's fields when a form posted without
    JavaScript and gets the whole page back)."""
    args = request.args if args is None else args
    position = read_position(args)
    if not any(args.get(k) for k in ("tiles", "random", "scramble", "distance")):
        args = {**args.to_dict(), "random": "1"}  # a page opened bare starts on a random position, not the goal
    if not position.error:
        try:
            fresh = new_position(MultiDict(args), position.goal)
        except PuzzleError as exc:
            position.error = str(exc)
        else:
            if fresh is not None and request.endpoint is not None:  # a routed request always names its endpoint
                shown = {"at": args["distance"]} if args.get("distance") else {}
                return redirect(url_for(request.endpoint, **{**position.query, **shown,
                                                             "tiles": ",".join(map(str, fresh.cells))}))
    status = 400 if position.error else 200
    is_4x4 = (position.board.rows, position.board.cols) == (4, 4)
    building = tables_job(current_app.extensions.get("jobs")) if is_4x4 else None
    choices = solver_choices(position.board)
    chosen = default_choice(position.board, position.goal, choices)
    return render_template(template, position=position, presets=PRESETS, goals=GOALS, building=building,
                           solvers=choices, default_choice=chosen, distances=distance_range(position.goal),
                           max_scramble=MAX_SCRAMBLE,
                           at=integer(args, "at", 0, 200, None) if not position.error else None, **extra), status


def _is_htmx() -> bool:
    return bool(request.headers.get("HX-Request"))


def _position_fields(form) -> MultiDict:
    return MultiDict({name: form.get(name, "") for name in ("size", "goal", "tiles")})


@bp.get("/play")
def play():
    return _page("play/index.html")


@bp.get("/compare")
def compare():
    # a race's link (app/race.py, race_link): the same solvers checked, run on opening
    return _page("play/compare.html", max_compare=MAX_COMPARE, chosen=request.args.getlist("choice"),
                 run=request.args.get("run") == "1")


def _solver_fields(value: str) -> dict:
    solver, _, heuristic = (value or "idastar:manhattan").partition(":")
    return {"solver": solver, "heuristic": heuristic}


def _optional(form, *names: str) -> dict:
    """The form's fields among ``names`` that were sent (``mode`` as the API takes it: auto, job or sync)."""
    return {name: form[name] for name in names if form.get(name)}


@bp.post("/play/solve")
def solve_fragment():
    """A solve from the Play page's form: its fragment for htmx, the whole page with the answer in place when the
    form posted without JavaScript."""
    form = request.form
    params = {"size": form.get("size"), "goal": form.get("goal"), "tiles": form.get("tiles"),
              **_solver_fields(form.get("choice", "")), **_optional(form, "mode")}
    answer = solve_request(params)
    if answer.job_id:
        fragment = progress_fragment(answer.job_id, "Solving")
    else:
        fragment = result_fragment("solve", answer.result)
    return fragment if _is_htmx() else _page("play/index.html", _position_fields(form), solve_result=fragment)


#: Hints are searched in the web process, each within ``HINT_BUDGET`` (2 s): one at a time per browser and four for
#: the whole server (two cores; more at once would only slow every page), so 40 clients asking at once get a 429
#: telling them to ask again instead of taking every thread.
HINTS = WebWork("hint", per_client=1, overall=4)


def _hint_of(data) -> Hint:
    board, goal = position_from({name: data.get(name) for name in ("size", "goal", "tiles") if name in data})
    with HINTS.slot(client()):
        return hint(board, goal)


@bp.post("/play/hint")
def hint_fragment():
    """A next move on a shortest path and how far from solved (``engine.domains.tiles.player.hint``), for the Hint
    button."""
    answer = _hint_of(request.form)
    fragment = render_template("partials/hint.html", hint=answer)
    return fragment if _is_htmx() else _page("play/index.html", _position_fields(request.form), hint_result=fragment)


@bp.post("/api/hint")
def hint_api():
    """``{"size", "goal", "tiles"}`` → the hint: ``move`` (the blank's), ``tile``, ``direction``, ``before`` and
    ``after`` (distances, exact when ``optimal``), ``solver``, ``heuristic``, ``text``, ``seconds``."""
    return jsonify(_hint_of(json_body()).as_dict())


@bp.post("/compare/run")
def compare_fragment():
    form = request.form
    params = {"size": form.get("size"), "goal": form.get("goal"), "tiles": form.get("tiles"),
              "solvers": [_solver_fields(v) for v in form.getlist("choice")], **_optional(form, "max_seconds", "mode")}
    answer = compare_request(params)
    if answer.job_id:
        return progress_fragment(answer.job_id, "Comparing")
    return result_fragment("compare", answer.result)


@bp.post("/api/heuristics")
def heuristics_api():
    """The parts of the tile heuristics for one position (engine.domains.tiles.explain), for the board overlays of the
    Play page and the step-through."""
    data = json_body()
    rows, cols = parse_size(str(data.get("size", "3x3")))
    goal = parse_goal(data.get("goal", "blank-last"), rows, cols)
    board = Board(rows, cols, parse_tiles(data.get("tiles"), rows, cols))
    return jsonify(explain(board, goal))
