"""The moves of Rectangle-out: every way one plate can go from one feature point (a pose with no freedom left in the
direction it moved) to the next.

Translations, each until the plate touches something (the contact is computed exactly):

* ``diagonal``: up-left, up-right, down-left, down-right, the paper's four directions;
* ``slide``: along the line of a contact, both ways, to the corner of the free region the diagonals miss (the paper
  names these missed feature points as its limit);
* ``drop``: the target straight down; it is how the target leaves through the hole.

Turns, each until the plate stops (``kernels.turn_sweep``), both senses, at most a quarter turn:

* ``pivot``: about a contact point that stays put (a plate corner on an edge, or an edge on a corner);
* ``wall-slide``: the paper's rotation, two contacts kept closed while both slide.

The paper also moves a set of plates at once; we move one plate per motion and count the paper's moves afterwards
(``engine.rectout.search.paper_moves``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from engine.rectout import kernels
from engine.rectout.geometry import TOLERANCE
from engine.rectout.puzzle import HALF_HEIGHT, HALF_WIDTH, TARGET, Pose, State, corners, obstacles_for

DIAGONALS = {"up-left": (-1.0, 1.0), "up-right": (1.0, 1.0), "down-left": (-1.0, -1.0), "down-right": (1.0, -1.0)}
MAX_TURN = math.pi / 2
MIN_MOTION = 1e-6  # shorter moves (cm, or radians) are not moves
FAR = 1e3  # a translation that meets nothing within this is cut here (cannot happen inside the walls)
# the plate's edges in its own frame: outward normal, offset, half length (edge k runs from corner k to k + 1)
LOCAL_EDGES = (((0.0, -1.0), HALF_HEIGHT, HALF_WIDTH), ((1.0, 0.0), HALF_WIDTH, HALF_HEIGHT),
               ((0.0, 1.0), HALF_HEIGHT, HALF_WIDTH), ((-1.0, 0.0), HALF_WIDTH, HALF_HEIGHT))


@dataclass(frozen=True)
class Contact:
    """One closed contact of the plate, as a constraint row for ``kernels.pose_at`` (10 numbers)."""

    point: tuple[float, float]       # where it touches, in the box
    direction: tuple[float, float]   # the unit direction of the touching edge
    row: tuple[float, ...]


@dataclass(frozen=True)
class Motion:
    piece: int
    kind: str  # diagonal, slide, drop, pivot, wall-slide
    before: Pose
    after: Pose
    label: str
    turn: tuple = ()  # for turns: (kernel kind, params, sense, angle turned)
    pivots: tuple = field(default=())  # the points a turn keeps in contact, for drawing

    @property
    def family(self) -> str:
        return "turn" if self.turn else "translation"

    def path(self, samples: int = 24) -> list[Pose]:
        """Poses along the motion, both ends included (translations are straight, so two suffice)."""
        if not self.turn:
            return [self.before, self.after]
        kind, params, sense, angle = self.turn
        pose = np.empty(3)
        out = []
        for k in range(samples + 1):
            ok = kernels.pose_at(kind, np.array(params), *self.before, sense * angle * k / samples, pose)
            out.append((float(pose[0]), float(pose[1]), float(pose[2])) if ok else out[-1])
        out[-1] = self.after
        return out

    def to_dict(self) -> dict:
        return {"piece": self.piece, "kind": self.kind, "label": self.label, "family": self.family,
                "path": [list(p) for p in self.path()], "pivots": [list(p) for p in self.pivots]}


def _distance_to_segment(p, a, b) -> float:
    ex, ey = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / (ex * ex + ey * ey)))
    return math.hypot(p[0] - a[0] - t * ex, p[1] - a[1] - t * ey)


def contacts(pose: Pose, obstacles: np.ndarray) -> list[Contact]:
    """Every closed contact between the plate and the obstacles: plate corners on obstacle edges and obstacle
    corners on plate edges."""
    mine = corners(pose)
    c, s = math.cos(pose[2]), math.sin(pose[2])
    found = []
    for quad in obstacles:
        if kernels.quad_penetration(mine, quad) < -kernels.CONTACT_GAP:
            continue
        for k in range(4):
            a, b = quad[k], quad[(k + 1) % 4]
            length = math.hypot(b[0] - a[0], b[1] - a[1])
            ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
            nx, ny = uy, -ux
            for v in range(4):
                if _distance_to_segment(mine[v], a, b) <= kernels.CONTACT_GAP:
                    local = (kernels.CORNER_SIGNS[v][0] * HALF_WIDTH, kernels.CORNER_SIGNS[v][1] * HALF_HEIGHT)
                    row = (0.0, *local, nx, ny, nx * a[0] + ny * a[1], a[0], a[1], b[0], b[1])
                    found.append(Contact((float(mine[v][0]), float(mine[v][1])), (float(ux), float(uy)), row))
        for k, ((mx, my), offset, half) in enumerate(LOCAL_EDGES):
            a, b = mine[k], mine[(k + 1) % 4]
            for q in quad:
                if _distance_to_segment(q, a, b) <= kernels.CONTACT_GAP:
                    row = (1.0, float(q[0]), float(q[1]), mx, my, offset, half, 0.0, 0.0, 0.0)
                    found.append(Contact((float(q[0]), float(q[1])), (-s * mx - c * my, c * mx - s * my), row))
    return found


def with_pose(state: State, piece: int, pose: Pose) -> State:
    return state[:piece] + (pose,) + state[piece + 1:]


def translate(state: State, piece: int, vector: tuple[float, float], limit: float = FAR) -> tuple[Pose, float]:
    """Move the plate along ``vector`` until it touches something, or for ``limit`` cm."""
    norm = math.hypot(*vector)
    ux, uy = vector[0] / norm, vector[1] / norm
    pose = state[piece]
    travel = kernels.translation_distance(corners(pose), ux, uy, obstacles_for(state, piece), limit, TOLERANCE)
    return (pose[0] + ux * travel, pose[1] + uy * travel, pose[2]), float(travel)


def turn(state: State, piece: int, kind: int, params: tuple, sense: int, limit: float = MAX_TURN) -> tuple[Pose, float]:
    """Turn the plate in ``sense`` (+1 counter-clockwise) along a one-parameter motion until it stops."""
    pose = state[piece]
    array = np.array(params, dtype=np.float64)
    angle = kernels.turn_sweep(kind, array, *pose, HALF_WIDTH, HALF_HEIGHT, float(sense), obstacles_for(state, piece),
                               limit, TOLERANCE)
    end = np.empty(3)
    kernels.pose_at(kind, array, *pose, sense * angle, end)
    return (float(end[0]), float(end[1]), float(end[2])), float(angle)


def _direction_name(vector) -> str:
    degrees = math.degrees(math.atan2(vector[1], vector[0])) % 360
    return f"{degrees:.0f}°"


def translations(state: State, piece: int, found: list[Contact]) -> list[Motion]:
    vectors = [(name, v) for name, v in DIAGONALS.items()]
    seen = set()
    for contact in found:
        for sign in (1, -1):
            v = (sign * contact.direction[0], sign * contact.direction[1])
            key = round(math.degrees(math.atan2(v[1], v[0])) % 360, 4) % 360
            if key not in seen:
                seen.add(key)
                vectors.append((f"slide {_direction_name(v)}", v))
    if piece == TARGET:
        vectors.append(("drop", (0.0, -1.0)))
    out = []
    for name, vector in vectors:
        after, travel = translate(state, piece, vector)
        if travel > MIN_MOTION:
            kind = "diagonal" if name in DIAGONALS else ("drop" if name == "drop" else "slide")
            out.append(Motion(piece, kind, state[piece], after, f"{name}, {travel:.2f} cm"))
    return out


def turns(state: State, piece: int, found: list[Contact]) -> list[Motion]:
    options = []
    points = {}
    for contact in found:
        points.setdefault((round(contact.point[0], 6), round(contact.point[1], 6)), contact.point)
    for point in points.values():
        options.append(("pivot", kernels.PIVOT, point + (0.0,) * 18, (point,)))
    for i, first in enumerate(found):
        for second in found[i + 1:]:
            same_point = math.dist(first.point, second.point) < 1e-6
            cross = first.direction[0] * second.direction[1] - first.direction[1] * second.direction[0]
            if not same_point and abs(cross) > 1e-6:
                options.append(("wall-slide", kernels.TWO_CONTACTS, first.row + second.row,
                                (first.point, second.point)))
    out = []
    for kind_name, kind, params, pivots in options:
        for sense in (1, -1):
            after, angle = turn(state, piece, kind, params, sense)
            if angle > MIN_MOTION:
                word = "anticlockwise" if sense > 0 else "clockwise"
                out.append(Motion(piece, kind_name, state[piece], after,
                                  f"{kind_name} {word}, {math.degrees(angle):.1f}°", (kind, params, sense, angle),
                                  pivots))
    return out


def turn_by_hand(state: State, piece: int, angle: float) -> tuple[Pose, float]:
    """Play by hand: turn the plate by up to ``angle`` radians (+ anticlockwise) about its centre or, where that is
    blocked at once, about whichever contact point lets it turn farthest (a plate in a jam turns on a corner)."""
    x, y, _ = state[piece]
    pivots = [(x, y)] + [c.point for c in contacts(state[piece], obstacles_for(state, piece))]
    best = (state[piece], 0.0)
    for point in pivots:
        pose, turned = turn(state, piece, kernels.PIVOT, point + (0.0,) * 18, 1 if angle > 0 else -1, abs(angle))
        if turned > best[1] + MIN_MOTION:
            best = (pose, turned)
    return best


def motions(state: State) -> list[Motion]:
    """Every motion of every plate from this state."""
    out = []
    for piece in range(len(state)):
        found = contacts(state[piece], obstacles_for(state, piece))
        out += translations(state, piece, found)
        out += turns(state, piece, found)
    return out


def apply(state: State, motion: Motion) -> State:
    return with_pose(state, motion.piece, motion.after)
