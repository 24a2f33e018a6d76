"""The Rectangle-out puzzle (seed 003): Iwasawa's "Rectangular Jam" with the 2007 contest's geometry.

A 13 × 13 box (inner walls x = 0, x = 13, y = 0, y = 13) with a hole from x = 5.2 to x = 7.8 in the bottom wall, and
four 9.76 × 2.44 plates. Only the target (the top plate at the start) is thin enough for the hole, so the hole is open
for it and a wall for the others.

Starting offsets (the contest gives none; our decision, a parameter): the plates lie flat, stacked from the floor,
each with its left end at ``DEFAULT_OFFSETS``: centred, 1.62 cm from either wall, so no side is favoured.

A state is a tuple of four poses (x, y, θ) of the plates' centres, bottom plate first, the target last.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from engine.core.errors import PuzzleError
from engine.core.params import numbers
from engine.domains.rectout.collision_kernels import plate_corners, quad_penetration
from engine.domains.rectout.geometry import TOLERANCE, box

SIZE = 13.0
HOLE = (5.2, 7.8)
LENGTH, THICKNESS = 9.76, 2.44
HALF_WIDTH, HALF_HEIGHT = LENGTH / 2, THICKNESS / 2
PLATES = 4
TARGET = PLATES - 1
DEFAULT_OFFSETS = ((SIZE - LENGTH) / 2,) * PLATES
HOLE_CENTRE = ((HOLE[0] + HOLE[1]) / 2, 0.0)
THICK = 6.0  # wall thickness for the ordinary plates: any value works (contacts are exact)
SHEET = 0.05  # for the target the bottom wall beside the hole is a thin frame (the paper draws it as a line)
FALL = 20.0  # below the hole a floor far down catches the target, so its last slide has an end

Pose = tuple[float, float, float]
State = tuple[Pose, ...]

_COMMON_WALLS = [box(-THICK, -THICK - FALL, 0, SIZE + THICK), box(SIZE, -THICK - FALL, SIZE + THICK, SIZE + THICK),
                 box(-THICK, SIZE, SIZE + THICK, SIZE + THICK)]
PLATE_WALLS = np.array(_COMMON_WALLS + [box(-THICK, -THICK, SIZE + THICK, 0)])
# The frame is lines in the paper ("no edge of a piece crosses an edge of the frame"), so a tilted target may swing
# its lower end through the hole and below the frame: outside there is nothing to hit.
TARGET_WALLS = np.array(_COMMON_WALLS + [box(-THICK, -SHEET, HOLE[0], 0), box(HOLE[1], -SHEET, SIZE + THICK, 0),
                                         box(-THICK, -THICK - FALL, SIZE + THICK, -FALL)])


def start_state(offsets: tuple[float, ...] = DEFAULT_OFFSETS) -> State:
    """Plates flat and stacked from the floor; ``offsets`` are their left ends, bottom plate first."""
    if len(offsets) != PLATES:
        raise PuzzleError(f"give {PLATES} offsets, one per plate from the bottom")
    poses = []
    for level, left in enumerate(offsets):
        left = float(left)
        if not 0 <= left <= SIZE - LENGTH:
            raise PuzzleError(f"an offset must be from 0 to {SIZE - LENGTH:.2f} cm (the plate is {LENGTH} cm long)")
        poses.append((left + HALF_WIDTH, HALF_HEIGHT + level * THICKNESS, 0.0))
    return tuple(poses)


FAR_FROM_BOX = 100.0  # cm (and radians): a pose beyond is a typo, not a position worth checking


def state_from(data: object) -> State:
    """A state from JSON: four [x, y, θ] lists (cm, cm, radians), bottom plate first, the target last; it must be
    legal."""
    if not isinstance(data, (list, tuple)) or len(data) != PLATES:
        raise PuzzleError(f"a state is {PLATES} poses [x, y, angle], bottom plate first, the target last")
    poses = []
    for pose in data:
        if not isinstance(pose, (list, tuple)):
            raise PuzzleError("each pose is [x, y, angle] (cm, cm, radians)")
        x, y, angle = numbers(pose, "a pose [x, y, angle]", 3, -FAR_FROM_BOX, FAR_FROM_BOX)
        poses.append((x, y, angle))
    state = tuple(poses)
    problems = overlap_report(state)
    if problems:
        raise PuzzleError("not a legal position: " + "; ".join(problems))
    return state


def corners(pose: Pose) -> np.ndarray:
    out = np.empty((4, 2))
    plate_corners(pose[0], pose[1], pose[2], HALF_WIDTH, HALF_HEIGHT, out)
    return out


def is_out(state: State) -> bool:
    """The target has left the box: all of it is below the bottom wall's inner face."""
    return float(corners(state[TARGET])[:, 1].max()) <= TOLERANCE


def overlap_depths(state: State) -> list[tuple[str, float]]:
    """Each plate's deepest overlap with its walls (the hole is open only for the target), and each pair of plates'
    overlap: > 0 is a depth, ≤ 0 a gap."""
    depths = []
    for i, pose in enumerate(state):
        mine = corners(pose)
        walls = TARGET_WALLS if i == TARGET else PLATE_WALLS
        depths.append((f"plate {i + 1} overlaps a wall", max(quad_penetration(mine, w) for w in walls)))
        for j in range(i + 1, len(state)):
            depths.append((f"plates {i + 1} and {j + 1} overlap", quad_penetration(mine, corners(state[j]))))
    return depths


def overlap_report(state: State) -> list[str]:
    """Every overlap deeper than the tolerance (empty for a legal state)."""
    return [what for what, depth in overlap_depths(state) if depth > TOLERANCE]


def _segment_crosses(pose: Pose, start: tuple[float, float], end: tuple[float, float]) -> bool:
    """Does the segment pass through the inside of the plate? (Clipped in the plate's own frame.)"""
    c, s = math.cos(pose[2]), math.sin(pose[2])

    def local(p):
        dx, dy = p[0] - pose[0], p[1] - pose[1]
        return c * dx + s * dy, -s * dx + c * dy

    (ax, ay), (bx, by) = local(start), local(end)
    lo, hi = 0.0, 1.0
    for origin, delta, half in ((ax, bx - ax, HALF_WIDTH - TOLERANCE), (ay, by - ay, HALF_HEIGHT - TOLERANCE)):
        if abs(delta) < 1e-15:
            if abs(origin) >= half:
                return False
            continue
        t0, t1 = (-half - origin) / delta, (half - origin) / delta
        lo, hi = max(lo, min(t0, t1)), min(hi, max(t0, t1))
        if lo >= hi:
            return False
    return True


def blocking_plates(state: State) -> int:
    """The paper's count: plates crossed by the lines from the target's corners to the hole."""
    lines = [tuple(p) for p in corners(state[TARGET])]
    return sum(1 for i, pose in enumerate(state)
               if i != TARGET and any(_segment_crosses(pose, p, HOLE_CENTRE) for p in lines))


def heuristic(state: State) -> int:
    """The paper's h: the blocking plates + 1, and 0 once the target is out."""
    return 0 if is_out(state) else blocking_plates(state) + 1


@dataclass(frozen=True)
class Quantum:
    """Duplicate detection: two states are the same when every pose agrees to the quantum. The three ordinary
    plates are interchangeable and a plate turned by π is the same plate, so the key sorts them and reduces θ
    modulo π."""

    position: float = 1e-3  # cm
    angle: float = 1e-3  # radians (0.06°, 0.005 cm at the end of a plate)

    def pose_key(self, pose: Pose) -> tuple[int, int, int]:
        angle = pose[2] % math.pi
        if angle > math.pi - self.angle / 2:
            angle -= math.pi
        return (round(pose[0] / self.position), round(pose[1] / self.position), round(angle / self.angle))

    def key(self, state: State) -> tuple:
        return (self.pose_key(state[TARGET]),) + tuple(sorted(self.pose_key(p) for p in state[:TARGET]))
