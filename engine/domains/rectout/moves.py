"""The moves of Rectangle-out: every way plates go from one feature point (a pose with no freedom left in the
direction they moved) to the next. Single plates translate and turn; two plates turn together (a ``fan``), which is
the paper's set move and the one the puzzle cannot do without (see docs/rectout.md).

Translations, each until the body touches something (the contact is computed exactly):

* ``diagonal``: up-left, up-right, down-left, down-right, the paper's four directions, "until it cannot move": after
  the first contact the body slides on along whatever stopped it, as long as that still goes its way (up and to the
  left, say), so it ends wedged in a corner with no freedom left in that direction: the paper's feature point;
* ``slide``: along the line of a contact, both ways, to the corner of the free region the diagonals miss (the paper
  names these missed feature points as its limit);
* ``drop``: the target straight down; it is how the target leaves through the hole.

Turns, each until the body stops (``motion.turn``), both senses, at most a quarter turn:

* ``pivot``: about a contact point that stays put (a plate corner on an edge, or an edge on a corner);
* ``wall-slide``: the paper's rotation, two contacts kept closed while both slide.

And the set rotation, ``fan``: two plates (touching or not) turn at once in the same sense, by the same angle, each
sliding as little as it must to stay clear (``motion.fan_frames``), until they jam or one of them lies flat or stands
upright. This is the paper's "set of pieces, each wall-slide rotating" in one move, and it is what the puzzle needs:
four plates cannot pass 45° one at a time or as a rigid stack, but two at a time, each sliding along what it
touches, they can. (Two plates moving as one rigid body were tried before the fan and dropped: they never found
the way out and doubled the branching.)
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from engine.domains.rectout.contacts import Body, Contact
from engine.domains.rectout.motion import (
    MIN_MOTION,
    NO_PARAMS,
    Motion,
    fan_end,
    fan_frames,
    moved_state,
    translate,
    turn,
)
from engine.domains.rectout.puzzle import TARGET, Pose, State
from engine.domains.rectout.turn_kernels import PIVOT, TWO_CONTACTS

DIAGONALS = {"up-left": (-1.0, 1.0), "up-right": (1.0, 1.0), "down-left": (-1.0, -1.0), "down-right": (1.0, -1.0)}


def _direction_name(vector) -> str:
    degrees = math.degrees(math.atan2(vector[1], vector[0])) % 360
    return f"{degrees:.0f}°"


def _who(pieces: tuple[int, ...]) -> str:
    return " and ".join("target" if p == TARGET else f"plate {p + 1}" for p in pieces)


def translations(body: Body, found: list[Contact]) -> list[Motion]:
    vectors = list(DIAGONALS.items())
    seen = set()
    for contact in found:
        for sign in (1, -1):
            v = (sign * contact.direction[0], sign * contact.direction[1])
            key = round(math.degrees(math.atan2(v[1], v[0])) % 360, 4) % 360
            if key not in seen:
                seen.add(key)
                vectors.append((f"slide {_direction_name(v)}", v))
    if TARGET in body.pieces:
        vectors.append(("drop", (0.0, -1.0)))
    before = tuple(body.state[p] for p in body.pieces)
    out = []
    for name, vector in vectors:
        if name in DIAGONALS:
            kind, legs = "diagonal", into_corner(body, vector)
        else:
            kind, legs = ("drop" if name == "drop" else "slide"), [translate(body, vector)[0]]
        travel = sum(math.dist(a[0][:2], b[0][:2]) for a, b in zip([before] + legs, legs, strict=False))
        # where two ways end in the same place (down-left and sliding left, for a plate on the floor) keep the first
        if travel > MIN_MOTION and all(not np.allclose(legs[-1], m.after, rtol=0, atol=1e-9) for m in out):
            out.append(Motion(body.pieces, kind, before, legs[-1], f"{_who(body.pieces)}: {name}, {travel:.2f} cm",
                              waypoints=tuple(legs[:-1])))
    return out


def into_corner(body: Body, vector: tuple[float, float], most_legs: int = 6) -> list[tuple[Pose, ...]]:
    """The paper's diagonal translation: along ``vector`` until the body touches something, then on along the
    contact, whichever way still gains in ``vector``'s direction, leg after leg until no way does (a corner). The
    poses at the end of each leg; the last is where it stops (none if it cannot move at all)."""
    legs = []
    heading = vector
    for _ in range(most_legs):
        after, travel = translate(body, heading)
        if travel > MIN_MOTION:
            legs.append(after)
            body = Body(moved_state(body.state, body.pieces, after), body.pieces)
        heading = _onward(body, vector)
        if heading is None:
            break
    return legs


def _onward(body: Body, vector: tuple[float, float]) -> tuple[float, float] | None:
    """The free way that gains most along ``vector``: the vector itself, or along a contact."""
    ways = [(vector[0] * vector[0] + vector[1] * vector[1], vector)]
    for contact in body.contacts():
        for sign in (1, -1):
            d = (sign * contact.direction[0], sign * contact.direction[1])
            gain = d[0] * vector[0] + d[1] * vector[1]
            if gain > 1e-9:
                ways.append((gain, d))
    for _, d in sorted(ways, reverse=True):
        if translate(body, d, 10 * MIN_MOTION)[1] > MIN_MOTION:
            return d
    return None


def turns(body: Body, found: list[Contact]) -> list[Motion]:
    options = []
    points = {}
    for contact in found:
        points.setdefault((round(contact.point[0], 6), round(contact.point[1], 6)), contact.point)
    for point in points.values():
        options.append(("pivot", PIVOT, point + NO_PARAMS[2:], (point,)))
    for i, first in enumerate(found):
        for second in found[i + 1:]:
            same_point = math.dist(first.point, second.point) < 1e-6
            cross = first.direction[0] * second.direction[1] - first.direction[1] * second.direction[0]
            if not same_point and abs(cross) > 1e-6:
                options.append(("wall-slide", TWO_CONTACTS, first.row + second.row,
                                (first.point, second.point)))
    before = tuple(body.state[p] for p in body.pieces)
    out = []
    for kind_name, kind, params, pivots in options:
        for sense in (1, -1):
            after, angle = turn(body, kind, params, sense)
            if angle > MIN_MOTION:
                word = "anticlockwise" if sense > 0 else "clockwise"
                out.append(Motion(body.pieces, kind_name, before, after,
                                  f"{_who(body.pieces)}: {kind_name} {word}, {math.degrees(angle):.1f}°",
                                  (kind, params, sense, angle, body.relative.copy()), pivots))
    return out


def to_square(angle: float, sense: int) -> float:
    """How far a plate at ``angle`` turns in ``sense`` before it next lies flat or upright (a quarter turn from
    there)."""
    quarter = math.pi / 2
    steps = angle / quarter
    edge = math.floor(steps + 1e-9) + 1 if sense > 0 else math.ceil(steps - 1e-9) - 1
    return abs(edge * quarter - angle)


def fans(state: State) -> list[Motion]:
    """Every pair of plates turning together, in either sense, until they jam or one of them lies flat or stands
    upright (the feature points of a set rotation)."""
    out = []
    for pieces in itertools.combinations(range(len(state)), 2):
        for sense in (1, -1):
            limit = min(to_square(state[p][2], sense) for p in pieces)
            after, angle = fan_end(fan_frames(state, pieces, (sense, sense), limit))
            if angle > MIN_MOTION:
                word = "anticlockwise" if sense > 0 else "clockwise"
                out.append(Motion(pieces, "fan", tuple(state[p] for p in pieces), after,
                                  f"{_who(pieces)}: turn together {word}, {math.degrees(angle):.1f}°",
                                  fan=((sense, sense), state, limit)))
    return out


def motions(state: State) -> list[Motion]:
    """Every motion from this state: each plate's translations and turns, then every pair's set rotations."""
    out = []
    for piece in range(len(state)):
        body = Body(state, (piece,))
        found = body.contacts()
        out += translations(body, found)
        out += turns(body, found)
    return out + fans(state)
