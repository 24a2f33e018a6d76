"""numba kernels of Rectangle-out's collision geometry: every shape in the puzzle is a convex quadrilateral (plates
and walls), so a shape is a (4, 2) array of counter-clockwise corners and a scene is an (n, 4, 2) array of obstacles.

The plain-Python reference of the overlap, translation and push kernels is ``engine.domains.rectout.geometry``
(``penetration``, ``contact_time``, ``push_out``); ``tests/engine/domains/rectout/test_kernels.py`` checks that they
agree.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

CONTACT_GAP = 1e-5  # obstacles closer than this are treated as touching: checked every step, not used to size it
CORNER_SIGNS = ((-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0))


@njit(cache=True, nogil=True)
def plate_corners(x, y, angle, half_width, half_height, out):
    c, s = math.cos(angle), math.sin(angle)
    for k in range(4):
        px, py = CORNER_SIGNS[k][0] * half_width, CORNER_SIGNS[k][1] * half_height
        out[k, 0] = x + c * px - s * py
        out[k, 1] = y + s * px + c * py


@njit(cache=True, nogil=True)
def group_corners(x, y, angle, relative, half_width, half_height, out):
    """Corners of plates moving as one rigid body: ``relative[j]`` is plate j's pose in the frame of the body's
    reference pose (x, y, angle)."""
    c, s = math.cos(angle), math.sin(angle)
    for j in range(relative.shape[0]):
        dx, dy, da = relative[j, 0], relative[j, 1], relative[j, 2]
        plate_corners(x + c * dx - s * dy, y + s * dx + c * dy, angle + da, half_width, half_height, out[j])


@njit(cache=True, nogil=True)
def _axis(poly, k):
    ax, ay = poly[k, 0], poly[k, 1]
    bx, by = poly[(k + 1) % 4, 0], poly[(k + 1) % 4, 1]
    ex, ey = bx - ax, by - ay
    length = math.sqrt(ex * ex + ey * ey)
    return ey / length, -ex / length


@njit(cache=True, nogil=True)
def _separating_axis(a, b, k):
    """The k-th candidate axis of a pair of quads (0..7): the edge normals of ``a``, then of ``b``."""
    return _axis(a, k) if k < 4 else _axis(b, k - 4)


@njit(cache=True, nogil=True)
def _project(poly, nx, ny):
    lo, hi = np.inf, -np.inf
    for k in range(4):
        v = poly[k, 0] * nx + poly[k, 1] * ny
        lo = min(lo, v)
        hi = max(hi, v)
    return lo, hi


@njit(cache=True, nogil=True)
def quad_penetration(a, b):
    """Least projection overlap over the 8 edge normals: > 0 overlap depth, ≤ 0 minus a gap."""
    depth = np.inf
    for k in range(8):
        nx, ny = _separating_axis(a, b, k)
        a0, a1 = _project(a, nx, ny)
        b0, b1 = _project(b, nx, ny)
        depth = min(depth, min(a1, b1) - max(a0, b0))
    return depth


@njit(cache=True, nogil=True)
def quad_contact_time(moving, vx, vy, still, tolerance):
    """Distance along the unit vector (vx, vy) at which ``moving`` first touches ``still`` going into it; inf if
    never (see ``geometry.contact_time``)."""
    enter, leave = -np.inf, np.inf
    for k in range(8):
        nx, ny = _separating_axis(moving, still, k)
        a0, a1 = _project(moving, nx, ny)
        b0, b1 = _project(still, nx, ny)
        speed = vx * nx + vy * ny
        if abs(speed) < 1e-12:
            if min(a1, b1) - max(a0, b0) <= tolerance:
                return np.inf
            continue
        t_first, t_second = (b0 - a1) / speed, (b1 - a0) / speed
        enter = max(enter, min(t_first, t_second))
        leave = min(leave, max(t_first, t_second))
        if enter >= leave:
            return np.inf
    if leave <= tolerance:
        return np.inf
    return max(0.0, enter)


@njit(cache=True, nogil=True)
def translation_distance(corners, vx, vy, obstacles, applies, limit, tolerance):
    """How far the plates (k, 4, 2) can translate together along (vx, vy) before one touches an obstacle that
    ``applies[j, i]`` to it (at most ``limit``)."""
    travel = limit
    for j in range(corners.shape[0]):
        for i in range(obstacles.shape[0]):
            if applies[j, i]:
                travel = min(travel, quad_contact_time(corners[j], vx, vy, obstacles[i], tolerance))
    return travel


@njit(cache=True, nogil=True)
def quad_push_out(a, b):
    """The axis of least overlap, pointing from ``b`` towards ``a``, and that overlap (see ``geometry.push_out``)."""
    depth, px, py = np.inf, 0.0, 0.0
    for k in range(8):
        nx, ny = _separating_axis(a, b, k)
        a0, a1 = _project(a, nx, ny)
        b0, b1 = _project(b, nx, ny)
        overlap = min(a1, b1) - max(a0, b0)
        if overlap < depth:
            sign = 1.0 if a0 + a1 >= b0 + b1 else -1.0
            depth, px, py = overlap, sign * nx, sign * ny
    return depth, px, py


@njit(cache=True, nogil=True)
def apart(a, b, margin):
    """The bounding boxes of the quads are more than ``margin`` apart (a cheap test before the separating axes)."""
    return (a[:, 0].min() > b[:, 0].max() + margin or b[:, 0].min() > a[:, 0].max() + margin
            or a[:, 1].min() > b[:, 1].max() + margin or b[:, 1].min() > a[:, 1].max() + margin)
