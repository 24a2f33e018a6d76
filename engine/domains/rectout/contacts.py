"""A body of Rectangle-out: plates that move as one rigid body, what they may meet (the walls each plate meets and
every plate not in the body), and the contacts closed between them, each a constraint row for the turn kernels."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from engine.domains.rectout.collision_kernels import CONTACT_GAP, CORNER_SIGNS, group_corners, quad_penetration
from engine.domains.rectout.puzzle import (
    HALF_HEIGHT,
    HALF_WIDTH,
    PLATE_WALLS,
    TARGET,
    TARGET_WALLS,
    Pose,
    State,
    corners,
)

# a plate's edges in its own frame: outward normal, offset, half length (edge k runs from corner k to k + 1)
LOCAL_EDGES = (((0.0, -1.0), HALF_HEIGHT, HALF_WIDTH), ((1.0, 0.0), HALF_WIDTH, HALF_HEIGHT),
               ((0.0, 1.0), HALF_HEIGHT, HALF_WIDTH), ((-1.0, 0.0), HALF_WIDTH, HALF_HEIGHT))


@dataclass(frozen=True)
class Contact:
    """One closed contact of the body, as a constraint row for ``turn_kernels.pose_at`` (10 numbers)."""

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
        return placed(self.relative, reference)

    def corners(self) -> np.ndarray:
        out = np.empty((len(self.pieces), 4, 2))
        group_corners(*self.reference, self.relative, HALF_WIDTH, HALF_HEIGHT, out)
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
                if quad_penetration(mine, quad) < -CONTACT_GAP:
                    continue
                found += _corner_contacts(mine, quad, (dx, dy, dc, ds))
                for k, ((mx, my), offset, half) in enumerate(LOCAL_EDGES):
                    a, b = mine[k], mine[(k + 1) % 4]
                    nx, ny = dc * mx - ds * my, ds * mx + dc * my  # the edge's normal in the reference frame
                    for q in quad:
                        if _distance_to_segment(q, a, b) <= CONTACT_GAP:
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
            if _distance_to_segment(mine[v], a, b) <= CONTACT_GAP:
                px, py = CORNER_SIGNS[v][0] * HALF_WIDTH, CORNER_SIGNS[v][1] * HALF_HEIGHT
                local = (dx + dc * px - ds * py, dy + ds * px + dc * py)
                row = (0.0, *local, nx, ny, nx * a[0] + ny * a[1], a[0], a[1], b[0], b[1])
                found.append(Contact((float(mine[v][0]), float(mine[v][1])), (float(ux), float(uy)), row))
    return found


def placed(relative, reference: Pose) -> tuple[Pose, ...]:
    """The poses of plates with poses ``relative`` in the frame of a reference plate that is at ``reference``."""
    x, y, a = reference
    c, s = math.cos(a), math.sin(a)
    return tuple((x + c * dx - s * dy, y + s * dx + c * dy, a + da) for dx, dy, da in relative)


def _distance_to_segment(p, a, b) -> float:
    ex, ey = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / (ex * ex + ey * ey)))
    return math.hypot(p[0] - a[0] - t * ex, p[1] - a[1] - t * ey)
