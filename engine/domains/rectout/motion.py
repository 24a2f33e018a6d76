"""A motion of Rectangle-out (plates going from one pose to the next, drawable frame by frame), and the three ways a
body moves until it stops: ``translate`` (to the first contact, exactly), ``turn`` (a pivot or a wall-slide, swept by
``turn_kernels.turn_sweep``) and ``fan_frames`` (a set rotation, swept by ``fan_kernels.fan_turn``)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from engine.domains.rectout.collision_kernels import translation_distance
from engine.domains.rectout.contacts import Body, placed
from engine.domains.rectout.fan_kernels import FAN_STEP, fan_turn
from engine.domains.rectout.geometry import TOLERANCE
from engine.domains.rectout.puzzle import HALF_HEIGHT, HALF_WIDTH, Pose, State
from engine.domains.rectout.turn_kernels import pose_at, turn_sweep

MAX_TURN = math.pi / 2
FAN_SAMPLES = 90  # poses of a set rotation sent to the page: one per degree of a quarter turn
MIN_MOTION = 1e-6  # shorter moves (cm, or radians) are not moves
FAR = 1e3  # a translation that meets nothing within this is cut here (cannot happen inside the walls)
NO_PARAMS = (0.0,) * 18  # the turn kernels' parameters, zero beyond a pivot's point


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
            ok = pose_at(kind, np.array(params), *self.before[0], sense * angle * k / samples, pose)
            out.append(placed(relative, tuple(float(v) for v in pose)) if ok else out[-1])
        out[-1] = self.after
        return out

    def to_dict(self) -> dict:
        return {"pieces": list(self.pieces), "kind": self.kind, "label": self.label, "family": self.family,
                "path": [[list(p) for p in poses] for poses in self.path(FAN_SAMPLES if self.fan else 24)],
                "pivots": [list(p) for p in self.pivots]}


def with_pose(state: State, piece: int, pose: Pose) -> State:
    return state[:piece] + (pose,) + state[piece + 1:]


def moved_state(state: State, pieces: tuple[int, ...], poses: tuple[Pose, ...]) -> State:
    for piece, pose in zip(pieces, poses, strict=True):
        state = with_pose(state, piece, pose)
    return state


def apply(state: State, motion: Motion) -> State:
    return moved_state(state, motion.pieces, motion.after)


def translate(body: Body, vector: tuple[float, float], limit: float = FAR) -> tuple[tuple[Pose, ...], float]:
    """Move the body along ``vector`` until it touches something, or for ``limit`` cm."""
    norm = math.hypot(*vector)
    ux, uy = vector[0] / norm, vector[1] / norm
    travel = float(translation_distance(body.corners(), ux, uy, body.obstacles, body.applies, limit,
                                                TOLERANCE))
    x, y, a = body.reference
    return body.poses((x + ux * travel, y + uy * travel, a)), travel


def turn(body: Body, kind: int, params: tuple, sense: int, limit: float = MAX_TURN) -> tuple[tuple[Pose, ...], float]:
    """Turn the body in ``sense`` (+1 anticlockwise) along a one-parameter motion until it stops."""
    array = np.array(params, dtype=np.float64)
    angle = turn_sweep(kind, array, *body.reference, body.relative, HALF_WIDTH, HALF_HEIGHT, float(sense),
                               body.obstacles, body.applies, limit, TOLERANCE)
    end = np.empty(3)
    pose_at(kind, array, *body.reference, sense * angle, end)
    return body.poses(tuple(float(v) for v in end)), float(angle)


def fan_frames(state: State, pieces: tuple[int, ...], senses: tuple[int, ...], limit: float = MAX_TURN) -> np.ndarray:
    """The frames (n, len(pieces), 3) of the set rotation of ``pieces`` from ``state``, the start first."""
    body = Body(state, pieces)  # for its obstacles: the walls each plate meets and the plates that stay
    room = int(limit / FAN_STEP) * 8 + 16  # steps shrink in tight places, so this may not be enough:
    while True:  # the kernel stops when the frames are full, and then it runs again with more room
        frames = np.empty((room, len(pieces), 3))
        count = fan_turn(np.array([state[p] for p in pieces]), np.array(senses, dtype=np.float64),
                                 body.obstacles, body.applies, limit, HALF_WIDTH, HALF_HEIGHT, TOLERANCE, frames)
        if count < room:
            return frames[:count]
        room *= 4


def fan_end(frames: np.ndarray) -> tuple[tuple[Pose, ...], float]:
    """Where a set rotation ends, and the angle it turned."""
    return (tuple(tuple(float(v) for v in pose) for pose in frames[-1]),
            abs(float(frames[-1, 0, 2] - frames[0, 0, 2])))
