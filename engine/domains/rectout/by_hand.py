"""Play Rectangle-out by hand: the page's slide, turn and turn-together, each stopping where the plates first touch."""

from __future__ import annotations

from engine.domains.rectout.contacts import Body
from engine.domains.rectout.motion import MIN_MOTION, NO_PARAMS, fan_end, fan_frames, translate, turn
from engine.domains.rectout.puzzle import Pose, State
from engine.domains.rectout.turn_kernels import PIVOT


def turn_by_hand(state: State, piece: int, angle: float) -> tuple[Pose, float]:
    """Play by hand: turn the plate by up to ``angle`` radians (+ anticlockwise) about its centre or, where that is
    blocked at once, about whichever contact point lets it turn farthest (a plate in a jam turns on a corner)."""
    body = Body(state, (piece,))
    x, y, _ = state[piece]
    best = (state[piece], 0.0)
    for point in [(x, y)] + [c.point for c in body.contacts()]:
        poses, turned = turn(body, PIVOT, point + NO_PARAMS[2:], 1 if angle > 0 else -1, abs(angle))
        if turned > best[1] + MIN_MOTION:
            best = (poses[0], turned)
    return best


def turn_together_by_hand(state: State, pieces: tuple[int, ...], angle: float) -> tuple[tuple[Pose, ...], float]:
    """Play by hand: turn several plates together by up to ``angle`` radians (+ anticlockwise), each sliding as
    little as it must (the set rotation), stopping where they jam."""
    sense = 1 if angle > 0 else -1
    return fan_end(fan_frames(state, pieces, (sense,) * len(pieces), abs(angle)))


def slide_by_hand(state: State, piece: int, vector: tuple[float, float], limit: float) -> tuple[Pose, float]:
    """Play by hand: slide the plate along ``vector`` for up to ``limit`` cm, stopping at the first contact."""
    poses, travel = translate(Body(state, (piece,)), vector, limit)
    return poses[0], travel
