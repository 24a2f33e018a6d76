"""The Rectangle-out page (seed 003): the box and plates on a canvas, play by hand (a plate slides until it touches,
turns until it touches), and the feature-point search as a job whose answer animates on the canvas.

Every motion is computed by the engine, so the page never shows an overlap: the browser asks, the server answers with
where the plate stops.
"""

from __future__ import annotations

import math

from flask import Blueprint, jsonify, render_template, request

from app.solve_api import json_body
from app.subjects import Subject
from app.submit import job_accepted, job_fragment_for, start_job
from engine.core.errors import PuzzleError
from engine.core.params import integer, json_value, number, numbers
from engine.domains.rectout import by_hand, motion
from engine.domains.rectout.jobs import MAX_SECONDS, MAX_STATES
from engine.domains.rectout.puzzle import (
    DEFAULT_OFFSETS,
    HOLE,
    LENGTH,
    PLATES,
    SIZE,
    TARGET,
    THICKNESS,
    is_out,
    start_state,
    state_from,
)

bp = Blueprint("rectout", __name__)
SUBJECTS = [Subject("rectout.index", "Rectangle-out", "Rectangle-out", "Seed 003's continuous puzzle: four plates in a "
                    "box, one must leave through a narrow hole. Play it by hand on a canvas; search its feature points "
                    "with A*.", section="rectout.", place=50)]

MAX_TURN_REQUEST = math.pi  # one request turns a plate by at most half a turn


def _offsets(text: str | None) -> tuple[float, ...]:
    if not text:
        return DEFAULT_OFFSETS
    try:
        return numbers(text, "offsets", PLATES, -SIZE, SIZE)  # start_state checks where a plate fits
    except PuzzleError as error:
        raise PuzzleError(f"{error} (cm, bottom plate first, e.g. 1.62 1.62 1.62 1.62)") from None


def _piece(data: dict, name: str = "piece") -> int:
    return integer(data, name, 0, PLATES - 1)


def _number(data: dict, name: str) -> float:
    return number(data, name, -1e6, 1e6)


def _answer(state, pieces: tuple[int, ...], poses, moved: float):
    """The new position; a motion shorter than ``motion.MIN_MOTION`` is no motion (the plate was already touching)."""
    if moved > motion.MIN_MOTION:
        for piece, pose in zip(pieces, poses, strict=True):
            state = motion.with_pose(state, piece, pose)
    else:
        moved = 0.0
    return jsonify(state=[list(p) for p in state], moved=moved, out=is_out(state))


@bp.get("/rectout/")
def index():
    """The page; ``?state=`` (JSON poses, as the API takes them) opens a shared position, ``?offsets=`` a start."""
    start = start_state(_offsets(request.args.get("offsets")))
    current = start
    if request.args.get("state"):
        try:
            data = json_value(request.args["state"], "state")
        except ValueError:
            raise PuzzleError("state must be JSON: four [x, y, angle] lists") from None
        current = state_from(data)
    return render_template("rectout/index.html", start=[list(p) for p in start],
                           current=[list(p) for p in current], size=SIZE, hole=HOLE,
                           length=LENGTH, thickness=THICKNESS, target=TARGET,
                           max_states=MAX_STATES, max_seconds=MAX_SECONDS)


@bp.post("/api/rectout/slide")
def slide():
    """Slide a plate by (dx, dy) cm, stopping where it first touches a wall or a plate."""
    data = json_body()
    state, piece = state_from(data.get("state")), _piece(data)
    dx, dy = _number(data, "dx"), _number(data, "dy")
    distance = math.hypot(dx, dy)
    if distance < 1e-12:
        return _answer(state, (piece,), (state[piece],), 0.0)
    pose, travel = by_hand.slide_by_hand(state, piece, (dx, dy), min(distance, 3 * SIZE))
    return _answer(state, (piece,), (pose,), travel)


@bp.post("/api/rectout/turn")
def turn():
    """Turn a plate by ``angle`` radians (+ anticlockwise) about its centre, or about a contact point where the
    centre is blocked (``by_hand.turn_by_hand``), stopping where it first touches. With ``partner`` (another plate)
    the two turn together, each sliding as little as it must, until they jam: the paper's set rotation."""
    data = json_body()
    state, piece = state_from(data.get("state")), _piece(data)
    angle = _number(data, "angle")
    if abs(angle) > MAX_TURN_REQUEST:
        raise PuzzleError("turn by at most π radians at a time")
    pieces = (piece,)
    if data.get("partner") is not None:
        partner = _piece(data, "partner")
        if partner == piece:
            raise PuzzleError("the partner must be another plate")
        pieces = (piece, partner)
    if abs(angle) < 1e-12:
        return _answer(state, pieces, tuple(state[p] for p in pieces), 0.0)
    if len(pieces) == 2:
        poses, turned = by_hand.turn_together_by_hand(state, pieces, angle)
        return _answer(state, pieces, poses, turned)
    pose, turned = by_hand.turn_by_hand(state, piece, angle)
    return _answer(state, pieces, (pose,), turned)


@bp.post("/api/rectout/solve")
def solve():
    """Start the feature-point A* from a state; answers a job id to poll at /api/jobs/<id>."""
    return job_accepted(*start_job("rectout-solve", json_body()))


@bp.post("/rectout/solve")
def solve_form():
    """The page's "solve from here": the job's progress fragment, replaced by the answer when it is done."""
    form = request.form
    try:
        state = json_value(form.get("state", ""), "the position")
    except ValueError:
        raise PuzzleError("the position did not come through; reload the page") from None
    params = {"state": state, "max_states": form.get("max_states", 20_000),
              "max_seconds": form.get("max_seconds", 300), "dedupe": bool(form.get("dedupe")),
              "weight": form.get("weight", 1)}
    return job_fragment_for("rectout-solve", params, "Searching feature points")
