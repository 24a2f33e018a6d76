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

Turns, each until the body stops (``kernels.turn_sweep``), both senses, at most a quarter turn:

* ``pivot``: about a contact point that stays put (a plate corner on an edge, or an edge on a corner);
* ``wall-slide``: the paper's rotation, two contacts kept closed while both slide.

And the set rotation, ``fan``: two plates (touching or not) turn at once in the same sense, by the same angle, each
sliding as little as it must to stay clear (``kernels.fan_turn``), until they jam or one of them lies flat or stands
upright. This is the paper's "set of pieces, each wall-slide rotating" in one move, and it is what the puzzle needs:
four plates cannot pass 45° one at a time or as a rigid stack, but two at a time, each sliding along what it
touches, they can. (Two plates moving as one rigid body were tried before the fan and dropped: they never found
the way out and doubled the branching.)
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from engine.rectout import kernels
from engine.rectout.geometry import TOLERANCE
from engine.rectout.puzzle import (HALF_HEIGHT, HALF_WIDTH, PLATE_WALLS, TARGET, TARGET_WALLS, Pose, State, corners)

DIAGONALS = {"up-left": (-1.0, 1.0), "up-right": (1.0, 1.0), "down-left": (-1.0, -1.0), "down-right": (1.0, -1.0)}
MAX_TURN = math.pi / 2
FAN_SAMPLES = 90  # poses of a set rotation sent to the page: one per degree of a quarter turn
MIN_MOTION = 1e-6  # shorter moves (cm, or radians) are not moves
FAR = 1e3  # a translation that meets nothing within this is cut here (cannot happen inside the walls)
# a plate's edges in its own frame: outward normal, offset, half length (edge k runs from corner k to k + 1)
LOCAL_EDGES = (((0.0, -1.0), HALF_HEIGHT, HALF_WIDTH), ((1.0, 0.0), HALF_WIDTH, HALF_HEIGHT),
               ((0.0, 1.0), HALF_HEIGHT, HALF_WIDTH), ((-1.0, 0.0), HALF_WIDTH, HALF_HEIGHT))
NO_PARAMS = (0.0,) * 18


@dataclass(frozen=True)
class Contact:
    """One closed contact of the body, as a constraint row for ``kernels.pose_at`` (10 numbers)."""

    point: tuple[float, float]       # where it touches, in the box
    direction: tuple[float, float]   # the unit direction of the touching edge
    row: tuple[float, ...]


class Body:
    """Plates that move as one rigid body; the first is the reference whose pose the kernels move."""

    def __init__(self, state: State, pieces: tuple[int, ...]):
        self.state = state
        self.pieces = pieces
        rx, ry, ra = state[pieces[0]]
        c, s = math.cos(ra), math.sin(ra)
        self.relative = np.array([(c * (x - rx) + s * (y - ry), -s * (x - rx) + c * (y - ry), a - ra)
                                  for x, y, a in (state[p] for p in pieces)])
        others = [corners(p) for i, p in enumerate(state) if i not in pieces]
        self.obstacles = np.concatenate([PLATE_WALLS, TARGET_WALLS] + ([np.array(others)] if others else []))
        # the hole is open for the target only: each plate meets its own walls, and every plate not in the body
        self.applies = np.zeros((len(pieces), len(self.obstacles)), dtype=np.bool_)
        for j, piece in enumerate(pieces):
            walls = slice(len(PLATE_WALLS), len(PLATE_WALLS) + len(TARGET_WALLS)) if piece == TARGET else \
                slice(0, len(PLATE_WALLS))
            self.applies[j, walls] = True
            self.applies[j, len(PLATE_WALLS) + len(TARGET_WALLS):] = True

    @property
    def reference(self) -> Pose:
        return self.state[self.pieces[0]]

    def poses(self, reference: Pose) -> tuple[Pose, ...]:
        """Every plate's pose when the reference plate is at ``reference``."""
        x, y, a = reference
        c, s = math.cos(a), math.sin(a)
        return tuple((x + c * dx - s * dy, y + s * dx + c * dy, a + da) for dx, dy, da in self.relative)

    def corners(self) -> np.ndarray:
        out = np.empty((len(self.pieces), 4, 2))
        kernels.group_corners(*self.reference, self.relative, HALF_WIDTH, HALF_HEIGHT, out)
        return out

    def contacts(self) -> list[Contact]:
        """Every closed contact between the body and what it meets: plate corners on obstacle edges and obstacle
        corners on plate edges, written in the reference plate's frame."""
        found = []
        rc, rs = math.cos(self.reference[2]), math.sin(self.reference[2])
        for j, mine in enumerate(self.corners()):
            dx, dy, da = self.relative[j]
            dc, ds = math.cos(da), math.sin(da)
            for quad in self.obstacles[self.applies[j]]:
                if kernels.quad_penetration(mine, quad) < -kernels.CONTACT_GAP:
                    continue
                found += _corner_contacts(mine, quad, (dx, dy, dc, ds))
                for k, ((mx, my), offset, half) in enumerate(LOCAL_EDGES):
                    a, b = mine[k], mine[(k + 1) % 4]
                    nx, ny = dc * mx - ds * my, ds * mx + dc * my  # the edge's normal in the reference frame
                    for q in quad:
                        if _distance_to_segment(q, a, b) <= kernels.CONTACT_GAP:
                            row = (1.0, float(q[0]), float(q[1]), nx, ny, offset + nx * dx + ny * dy, half,
                                   -ny * dx + nx * dy, 0.0, 0.0)
                            found.append(Contact((float(q[0]), float(q[1])),
                                                 (-rs * nx - rc * ny, rc * nx - rs * ny), row))
        return found


def _corner_contacts(mine, quad, frame) -> list[Contact]:
    """The plate's corners lying on the obstacle's edges."""
    dx, dy, dc, ds = frame
    found = []
    for k in range(4):
        a, b = quad[k], quad[(k + 1) % 4]
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        nx, ny = uy, -ux
        for v in range(4):
            if _distance_to_segment(mine[v], a, b) <= kernels.CONTACT_GAP:
                px, py = kernels.CORNER_SIGNS[v][0] * HALF_WIDTH, kernels.CORNER_SIGNS[v][1] * HALF_HEIGHT
                local = (dx + dc * px - ds * py, dy + ds * px + dc * py)
                row = (0.0, *local, nx, ny, nx * a[0] + ny * a[1], a[0], a[1], b[0], b[1])
                found.append(Contact((float(mine[v][0]), float(mine[v][1])), (float(ux), float(uy)), row))
    return found


@dataclass(frozen=True)
class Motion:
    pieces: tuple[int, ...]
    kind: str  # diagonal, slide, drop, pivot, wall-slide
    before: tuple[Pose, ...]
    after: tuple[Pose, ...]
    label: str
    turn: tuple = ()  # for turns: (kernel kind, params, sense, angle turned, relative poses)
    pivots: tuple = field(default=())  # the points a turn keeps in contact, for drawing
    fan: tuple = ()  # for set rotations: (senses, the whole state before, limit), to replay ``fan_frames``
    waypoints: tuple = ()  # for a diagonal that slid on after its first contact: the poses where it turned

    @property
    def family(self) -> str:
        return "turn" if self.turn or self.fan else "translation"

    def frames(self) -> list[tuple[Pose, ...]]:
        """Every computed pose of the pieces along the motion; straight interpolation between neighbours is the
        motion itself (for a fan, thousands of frames; for the others, ``path``'s samples)."""
        if not self.fan:
            return self.path()
        senses, context, limit = self.fan
        return [tuple(tuple(float(v) for v in pose) for pose in frame)
                for frame in fan_frames(context, self.pieces, senses, limit)]

    def path(self, samples: int = 24) -> list[tuple[Pose, ...]]:
        """The body's poses along the motion, both ends included (translations are straight, so two suffice)."""
        if self.fan:
            frames = self.frames()
            picks = sorted({round(k * (len(frames) - 1) / samples) for k in range(samples + 1)})
            return [frames[k] for k in picks]
        if not self.turn:
            return [self.before, *self.waypoints, self.after]
        kind, params, sense, angle, relative = self.turn
        pose = np.empty(3)
        out = []
        for k in range(samples + 1):
            ok = kernels.pose_at(kind, np.array(params), *self.before[0], sense * angle * k / samples, pose)
            out.append(_placed(relative, tuple(float(v) for v in pose)) if ok else out[-1])
        out[-1] = self.after
        return out

    def to_dict(self) -> dict:
        return {"pieces": list(self.pieces), "kind": self.kind, "label": self.label, "family": self.family,
                "path": [[list(p) for p in poses] for poses in self.path(FAN_SAMPLES if self.fan else 24)],
                "pivots": [list(p) for p in self.pivots]}


def _placed(relative, reference: Pose) -> tuple[Pose, ...]:
    x, y, a = reference
    c, s = math.cos(a), math.sin(a)
    return tuple((x + c * dx - s * dy, y + s * dx + c * dy, a + da) for dx, dy, da in relative)


def _distance_to_segment(p, a, b) -> float:
    ex, ey = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / (ex * ex + ey * ey)))
    return math.hypot(p[0] - a[0] - t * ex, p[1] - a[1] - t * ey)


def with_pose(state: State, piece: int, pose: Pose) -> State:
    return state[:piece] + (pose,) + state[piece + 1:]


def translate(body: Body, vector: tuple[float, float], limit: float = FAR) -> tuple[tuple[Pose, ...], float]:
    """Move the body along ``vector`` until it touches something, or for ``limit`` cm."""
    norm = math.hypot(*vector)
    ux, uy = vector[0] / norm, vector[1] / norm
    travel = float(kernels.translation_distance(body.corners(), ux, uy, body.obstacles, body.applies, limit,
                                                TOLERANCE))
    x, y, a = body.reference
    return body.poses((x + ux * travel, y + uy * travel, a)), travel


def turn(body: Body, kind: int, params: tuple, sense: int, limit: float = MAX_TURN) -> tuple[tuple[Pose, ...], float]:
    """Turn the body in ``sense`` (+1 anticlockwise) along a one-parameter motion until it stops."""
    array = np.array(params, dtype=np.float64)
    angle = kernels.turn_sweep(kind, array, *body.reference, body.relative, HALF_WIDTH, HALF_HEIGHT, float(sense),
                               body.obstacles, body.applies, limit, TOLERANCE)
    end = np.empty(3)
    kernels.pose_at(kind, array, *body.reference, sense * angle, end)
    return body.poses(tuple(float(v) for v in end)), float(angle)


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
        travel = sum(math.dist(a[0][:2], b[0][:2]) for a, b in zip([before] + legs, legs))
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
            body = Body(_moved(body.state, body.pieces, after), body.pieces)
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


def _moved(state: State, pieces: tuple[int, ...], poses: tuple[Pose, ...]) -> State:
    for piece, pose in zip(pieces, poses):
        state = with_pose(state, piece, pose)
    return state


def turns(body: Body, found: list[Contact]) -> list[Motion]:
    options = []
    points = {}
    for contact in found:
        points.setdefault((round(contact.point[0], 6), round(contact.point[1], 6)), contact.point)
    for point in points.values():
        options.append(("pivot", kernels.PIVOT, point + NO_PARAMS[2:], (point,)))
    for i, first in enumerate(found):
        for second in found[i + 1:]:
            same_point = math.dist(first.point, second.point) < 1e-6
            cross = first.direction[0] * second.direction[1] - first.direction[1] * second.direction[0]
            if not same_point and abs(cross) > 1e-6:
                options.append(("wall-slide", kernels.TWO_CONTACTS, first.row + second.row,
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


def fan_frames(state: State, pieces: tuple[int, ...], senses: tuple[int, ...], limit: float = MAX_TURN) -> np.ndarray:
    """The frames (n, len(pieces), 3) of the set rotation of ``pieces`` from ``state``, the start first."""
    body = Body(state, pieces)  # for its obstacles: the walls each plate meets and the plates that stay
    room = int(limit / kernels.FAN_STEP) * 8 + 16  # steps shrink in tight places, so this may not be enough:
    while True:  # the kernel stops when the frames are full, and then it runs again with more room
        frames = np.empty((room, len(pieces), 3))
        count = kernels.fan_turn(np.array([state[p] for p in pieces]), np.array(senses, dtype=np.float64),
                                 body.obstacles, body.applies, limit, HALF_WIDTH, HALF_HEIGHT, TOLERANCE, frames)
        if count < room:
            return frames[:count]
        room *= 4


def _fan_end(frames: np.ndarray) -> tuple[tuple[Pose, ...], float]:
    """Where a set rotation ends, and the angle it turned."""
    return (tuple(tuple(float(v) for v in pose) for pose in frames[-1]),
            abs(float(frames[-1, 0, 2] - frames[0, 0, 2])))


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
            after, angle = _fan_end(fan_frames(state, pieces, (sense, sense), limit))
            if angle > MIN_MOTION:
                word = "anticlockwise" if sense > 0 else "clockwise"
                out.append(Motion(pieces, "fan", tuple(state[p] for p in pieces), after,
                                  f"{_who(pieces)}: turn together {word}, {math.degrees(angle):.1f}°",
                                  fan=((sense, sense), state, limit)))
    return out


def turn_by_hand(state: State, piece: int, angle: float) -> tuple[Pose, float]:
    """Play by hand: turn the plate by up to ``angle`` radians (+ anticlockwise) about its centre or, where that is
    blocked at once, about whichever contact point lets it turn farthest (a plate in a jam turns on a corner)."""
    body = Body(state, (piece,))
    x, y, _ = state[piece]
    best = (state[piece], 0.0)
    for point in [(x, y)] + [c.point for c in body.contacts()]:
        poses, turned = turn(body, kernels.PIVOT, point + NO_PARAMS[2:], 1 if angle > 0 else -1, abs(angle))
        if turned > best[1] + MIN_MOTION:
            best = (poses[0], turned)
    return best


def turn_together_by_hand(state: State, pieces: tuple[int, ...], angle: float) -> tuple[tuple[Pose, ...], float]:
    """Play by hand: turn several plates together by up to ``angle`` radians (+ anticlockwise), each sliding as
    little as it must (the set rotation), stopping where they jam."""
    sense = 1 if angle > 0 else -1
    return _fan_end(fan_frames(state, pieces, (sense,) * len(pieces), abs(angle)))


def slide_by_hand(state: State, piece: int, vector: tuple[float, float], limit: float) -> tuple[Pose, float]:
    """Play by hand: slide the plate along ``vector`` for up to ``limit`` cm, stopping at the first contact."""
    poses, travel = translate(Body(state, (piece,)), vector, limit)
    return poses[0], travel


def motions(state: State) -> list[Motion]:
    """Every motion from this state: each plate's translations and turns, then every pair's set rotations."""
    out = []
    for piece in range(len(state)):
        body = Body(state, (piece,))
        found = body.contacts()
        out += translations(body, found)
        out += turns(body, found)
    return out + fans(state)


def apply(state: State, motion: Motion) -> State:
    return _moved(state, motion.pieces, motion.after)
