"""numba kernels of Rectangle-out's turns: a turn is a one-parameter motion, the body's pose as a function of the
angle turned, φ, swept until the body stops.

* PIVOT: about a fixed point (a contact that does not move).
* TWO_CONTACTS: the paper's wall-slide rotation. Two contacts stay closed while the plate turns; each is either a
  plate corner on an obstacle's edge line or an obstacle corner on a plate's edge line. For a given angle both are
  linear in the plate's centre, so the centre is a 2×2 solve. The turn ends when a contact would slide off the end
  of its edge, when the solve degenerates, or at the first new contact.

The sweep has no Python twin: its stopping rule is tested on hand-computed cases
(tests/engine/domains/rectout/test_moves.py).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.domains.rectout.collision_kernels import CONTACT_GAP, group_corners, quad_penetration

PIVOT = 0
TWO_CONTACTS = 1
MAX_TURN_STEP = 0.01  # radians: at most about 0.1 cm of travel for the 9.76 cm plate, so no corner jumps a wall


@njit(cache=True, nogil=True)
def pose_at(kind, params, x0, y0, angle0, phi, pose):
    """The plate's pose after turning by φ; False where the motion is not defined (a contact slid off its edge,
    or the two contact lines became parallel)."""
    c, s = math.cos(phi), math.sin(phi)
    if kind == PIVOT:
        px, py = params[0], params[1]
        dx, dy = x0 - px, y0 - py
        pose[0] = px + c * dx - s * dy
        pose[1] = py + s * dx + c * dy
        pose[2] = angle0 + phi
        return True
    angle = angle0 + phi
    ca, sa = math.cos(angle), math.sin(angle)
    rows = np.empty((2, 3))
    for j in range(2):
        p = params[10 * j:10 * j + 10]
        if p[0] == 0.0:  # plate corner (local p1, p2) on the obstacle line n·x = c (n = p3, p4; c = p5)
            vx, vy = ca * p[1] - sa * p[2], sa * p[1] + ca * p[2]
            rows[j, 0], rows[j, 1], rows[j, 2] = p[3], p[4], p[5] - (p[3] * vx + p[4] * vy)
        else:  # obstacle corner q = (p1, p2) on the plate edge m·x_local = d (m = p3, p4 local; d = p5)
            mx, my = ca * p[3] - sa * p[4], sa * p[3] + ca * p[4]
            rows[j, 0], rows[j, 1], rows[j, 2] = mx, my, mx * p[1] + my * p[2] - p[5]
    det = rows[0, 0] * rows[1, 1] - rows[0, 1] * rows[1, 0]
    if abs(det) < 1e-9:
        return False
    x = (rows[0, 2] * rows[1, 1] - rows[0, 1] * rows[1, 2]) / det
    y = (rows[0, 0] * rows[1, 2] - rows[0, 2] * rows[1, 0]) / det
    for j in range(2):  # does each contact still lie on its edge (not beyond the end)?
        p = params[10 * j:10 * j + 10]
        if p[0] == 0.0:
            wx, wy = x + ca * p[1] - sa * p[2], y + sa * p[1] + ca * p[2]
            ex, ey = p[8] - p[6], p[9] - p[7]
            t = ((wx - p[6]) * ex + (wy - p[7]) * ey) / (ex * ex + ey * ey)
            if t < -1e-9 or t > 1 + 1e-9:
                return False
        else:  # p6: the edge's half length, p7: its middle's offset along it from the reference centre
            mx, my = ca * p[3] - sa * p[4], sa * p[3] + ca * p[4]
            along = -my * (p[1] - x) + mx * (p[2] - y)
            if abs(along - p[7]) > p[6] + 1e-9:
                return False
    pose[0], pose[1], pose[2] = x, y, angle
    return True


@njit(cache=True, nogil=True)
def _clear_at(kind, params, x0, y0, angle0, phi, relative, half_width, half_height, obstacles, applies, tolerance,
              pose, corners):
    if not pose_at(kind, params, x0, y0, angle0, phi, pose):
        return False
    group_corners(pose[0], pose[1], pose[2], relative, half_width, half_height, corners)
    for j in range(corners.shape[0]):
        for i in range(obstacles.shape[0]):
            if applies[j, i] and quad_penetration(corners[j], obstacles[i]) > tolerance:
                return False
    return True


@njit(cache=True, nogil=True)
def turn_sweep(kind, params, x0, y0, angle0, relative, half_width, half_height, direction, obstacles, applies, limit,
               tolerance):
    """Turn in ``direction`` (±1) until the body (one plate, or plates moving as one) stops: the angle turned (≥ 0),
    at most ``limit``.

    Conservative advancement: a rigid motion moves no point of a plate farther than its farthest corner, so a step
    that moves the corners by less than half the gap to every obstacle not yet touching cannot pass through one.
    Obstacles already touching are checked at every step of at most MAX_TURN_STEP; when a step would overlap, the
    stopping angle is bisected to 1e-12 radians."""
    pose = np.empty(3)
    corners = np.empty((relative.shape[0], 4, 2))
    previous = np.empty((relative.shape[0], 4, 2))
    if not _clear_at(kind, params, x0, y0, angle0, 0.0, relative, half_width, half_height, obstacles, applies,
                     tolerance, pose, corners):
        return 0.0
    done = 0.0
    speed = 0.0  # corner travel per radian, measured on the last step
    for _ in range(100_000):
        if done >= limit:
            return limit
        gap = np.inf
        for j in range(corners.shape[0]):
            for i in range(obstacles.shape[0]):
                if applies[j, i]:
                    g = -quad_penetration(corners[j], obstacles[i])
                    if g > CONTACT_GAP:
                        gap = min(gap, g)
        step = MAX_TURN_STEP
        if speed > 0.0:
            step = min(step, 0.5 * gap / speed)
        step = max(min(step, limit - done), 1e-9)
        previous[:, :, :] = corners
        if _clear_at(kind, params, x0, y0, angle0, direction * (done + step), relative, half_width, half_height,
                     obstacles, applies, tolerance, pose, corners):
            moved = 0.0
            for j in range(corners.shape[0]):
                for k in range(4):
                    moved = max(moved, math.hypot(corners[j, k, 0] - previous[j, k, 0],
                                                  corners[j, k, 1] - previous[j, k, 1]))
            speed = max(moved / step, 1e-6)
            done += step
            continue
        lo, hi = done, done + step
        while hi - lo > 1e-12:
            mid = 0.5 * (lo + hi)
            if _clear_at(kind, params, x0, y0, angle0, direction * mid, relative, half_width, half_height,
                         obstacles, applies, tolerance, pose, corners):
                lo = mid
            else:
                hi = mid
        return lo
    return done
