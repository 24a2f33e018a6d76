"""Exact plane geometry for Rectangle-out: rectangles as poses, overlap by separating axes, contact times.

A plate is a rectangle given by its pose (centre x, y and angle θ) and its half sizes. Walls are convex polygons
too. Two convex polygons overlap when every separating axis (the edge normals of both) shows overlapping projections;
the smallest overlap is the penetration depth, and a depth of at most ``TOLERANCE`` counts as touching, not
overlapping. A translation's first contact is found exactly by intersecting, axis by axis, the times at which the
moving projection overlaps the still one (swept separating axes), never by small steps.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

TOLERANCE = 1e-6

Point = tuple[float, float]


@dataclass(frozen=True)
class Plate:
    x: float
    y: float
    angle: float  # radians, counter-clockwise
    half_width: float
    half_height: float

    def corners(self) -> list[Point]:
        c, s = math.cos(self.angle), math.sin(self.angle)
        out = []
        for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):  # counter-clockwise
            px, py = dx * self.half_width, dy * self.half_height
            out.append((self.x + c * px - s * py, self.y + s * px + c * py))
        return out

    def moved(self, dx: float, dy: float) -> Plate:
        return Plate(self.x + dx, self.y + dy, self.angle, self.half_width, self.half_height)

    def turned(self, angle: float) -> Plate:
        return Plate(self.x, self.y, angle, self.half_width, self.half_height)


def box(x0: float, y0: float, x1: float, y1: float) -> list[Point]:
    """An axis-aligned rectangle as a counter-clockwise polygon (walls)."""
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def _normals(polygon: list[Point]) -> list[Point]:
    out = []
    for i, (ax, ay) in enumerate(polygon):
        bx, by = polygon[(i + 1) % len(polygon)]
        ex, ey = bx - ax, by - ay
        length = math.hypot(ex, ey)
        out.append((ey / length, -ex / length))
    return out


def _project(polygon: list[Point], axis: Point) -> tuple[float, float]:
    values = [px * axis[0] + py * axis[1] for px, py in polygon]
    return min(values), max(values)


def penetration(a: list[Point], b: list[Point]) -> float:
    """The least overlap of the projections over all separating axes: > 0 overlap depth, ≤ 0 minus a gap (the
    largest gap along an edge normal, which is the distance when an edge faces the other polygon)."""
    depth = math.inf
    for axis in _normals(a) + _normals(b):
        a0, a1 = _project(a, axis)
        b0, b1 = _project(b, axis)
        depth = min(depth, min(a1, b1) - max(a0, b0))
    return depth


def push_out(a: list[Point], b: list[Point]) -> tuple[float, Point]:
    """The separating axis of least overlap, turned to point from ``b`` towards ``a``, with that overlap: moving
    ``a`` by (depth + a gap) along it is the shortest way to part the two (for polygons that overlap a little)."""
    best = (math.inf, (0.0, 0.0))
    for axis in _normals(a) + _normals(b):
        a0, a1 = _project(a, axis)
        b0, b1 = _project(b, axis)
        depth = min(a1, b1) - max(a0, b0)
        if depth < best[0]:
            sign = 1.0 if a0 + a1 >= b0 + b1 else -1.0
            best = (depth, (sign * axis[0], sign * axis[1]))
    return best


def overlaps(a: list[Point], b: list[Point], tolerance: float = TOLERANCE) -> bool:
    """True if the polygons overlap by more than the tolerance (touching is allowed)."""
    return penetration(a, b) > tolerance


def contact_time(moving: list[Point], velocity: Point, still: list[Point], tolerance: float = TOLERANCE) -> float:
    """The time t ≥ 0 at which ``moving``, translated by t·velocity (a unit vector: times are distances), first
    touches ``still`` on its way into it; ``math.inf`` if it never does. 0 if it is already in contact and moving
    inward. Axes along which the motion is parallel and the shapes are at most touching keep them apart for ever,
    so a plate resting on a wall slides along it freely."""
    enter, leave = -math.inf, math.inf
    for axis in _normals(moving) + _normals(still):
        a0, a1 = _project(moving, axis)
        b0, b1 = _project(still, axis)
        speed = velocity[0] * axis[0] + velocity[1] * axis[1]
        if abs(speed) < 1e-12:
            if min(a1, b1) - max(a0, b0) <= tolerance:
                return math.inf
            continue
        # the projections overlap while max(a0 + speed t, b0) < min(a1 + speed t, b1)
        t_first, t_second = (b0 - a1) / speed, (b1 - a0) / speed
        enter = max(enter, min(t_first, t_second))
        leave = min(leave, max(t_first, t_second))
        if enter >= leave:
            return math.inf
    if leave <= tolerance:  # in contact but moving apart (or only grazing)
        return math.inf
    return max(0.0, enter)


def slide(plate: Plate, direction: Point, obstacles: list[list[Point]], limit: float = math.inf) -> tuple[Plate, float]:
    """Translate ``plate`` along the unit vector ``direction`` until it touches an obstacle (or for ``limit``).
    Returns the stopped plate and the distance travelled."""
    norm = math.hypot(*direction)
    unit = (direction[0] / norm, direction[1] / norm)
    corners = plate.corners()
    travel = min([limit] + [contact_time(corners, unit, obstacle) for obstacle in obstacles])
    if math.isinf(travel):
        raise ValueError("the plate never stops: give a limit")
    return plate.moved(unit[0] * travel, unit[1] * travel), travel


def turn_until_contact(plate: Plate, step: float, obstacles: list[list[Point]], limit: float = math.pi,
                       precision: float = 1e-10) -> tuple[Plate, float]:
    """Rotate ``plate`` about its centre by up to ``limit`` radians (sign of ``step``) and stop at first contact:
    sampled every ``step`` radians, then the contact angle is bisected to ``precision``. Returns the plate and the
    angle turned."""
    def clear(angle: float) -> bool:
        corners = plate.turned(plate.angle + angle).corners()
        return not any(overlaps(corners, obstacle) for obstacle in obstacles)

    if not clear(0.0):
        raise ValueError("the plate already overlaps an obstacle")
    done = 0.0
    while abs(done) < limit:
        nxt = done + step
        if abs(nxt) > limit:
            nxt = math.copysign(limit, step)
        if not clear(nxt):
            lo, hi = done, nxt
            while abs(hi - lo) > precision:
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if clear(mid) else (lo, mid)
            return plate.turned(plate.angle + lo), lo
        done = nxt
    return plate.turned(plate.angle + done), done
