"""numba kernels for Rectangle-out: every shape in the puzzle is a convex quadrilateral (plates and walls), so a
shape is a (4, 2) array of counter-clockwise corners and a scene is an (n, 4, 2) array of obstacles.

The plain-Python reference of the overlap, translation and push kernels is ``engine.rectout.geometry``
(``penetration``, ``contact_time``, ``push_out``); tests check that they agree. The rotation sweep and the set
rotation (``fan_turn``) have no Python twin: the sweep's stopping rule is tested on hand-computed cases, and the set
rotation on the case worked out by hand in docs/rectout.md (two plates through the Z between two parked ones), with
every frame and every midpoint between frames checked clear.

A turn is a one-parameter motion: the plate's pose as a function of the angle turned, φ.

* PIVOT: about a fixed point (a contact that does not move).
* TWO_CONTACTS: the paper's wall-slide rotation. Two contacts stay closed while the plate turns; each is either a
  plate corner on an obstacle's edge line or an obstacle corner on a plate's edge line. For a given angle both are
  linear in the plate's centre, so the centre is a 2×2 solve. The turn ends when a contact would slide off the end
  of its edge, when the solve degenerates, or at the first new contact.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

PIVOT = 0
TWO_CONTACTS = 1
CONTACT_GAP = 1e-5  # obstacles closer than this are treated as touching: checked every step, not used to size it
MAX_TURN_STEP = 0.01  # radians: at most about 0.1 cm of travel for the 9.76 cm plate, so no corner jumps a wall
CORNER_SIGNS = ((-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0))
# The set rotation (fan_turn): plates are kept FAN_GAP apart, so the straight line between two frames (whose corner
# paths bend by at most r·step²/8 ≈ 4e-6 cm) never closes the gap; FAN_MAX_TRAVEL is below half the 0.05 cm frame
# beside the hole, so a push cannot carry the target through it.
FAN_STEP = 2.5e-3  # radians
FAN_MIN_STEP = 2e-5  # radians: a set that needs a smaller step is wedged (its corners outrun the turn 200 to 1)
FAN_GAP = 1e-5
FAN_MAX_TRAVEL = 0.02  # cm
FAN_ITERATIONS = 30


@njit(cache=True)
def plate_corners(x, y, angle, half_width, half_height, out):
    c, s = math.cos(angle), math.sin(angle)
    for k in range(4):
        px, py = CORNER_SIGNS[k][0] * half_width, CORNER_SIGNS[k][1] * half_height
        out[k, 0] = x + c * px - s * py
        out[k, 1] = y + s * px + c * py


@njit(cache=True)
def group_corners(x, y, angle, relative, half_width, half_height, out):
    """Corners of plates moving as one rigid body: ``relative[j]`` is plate j's pose in the frame of the body's
    reference pose (x, y, angle)."""
    c, s = math.cos(angle), math.sin(angle)
    for j in range(relative.shape[0]):
        dx, dy, da = relative[j, 0], relative[j, 1], relative[j, 2]
        plate_corners(x + c * dx - s * dy, y + s * dx + c * dy, angle + da, half_width, half_height, out[j])


@njit(cache=True)
def _axis(poly, k):
    ax, ay = poly[k, 0], poly[k, 1]
    bx, by = poly[(k + 1) % 4, 0], poly[(k + 1) % 4, 1]
    ex, ey = bx - ax, by - ay
    length = math.sqrt(ex * ex + ey * ey)
    return ey / length, -ex / length


@njit(cache=True)
def _separating_axis(a, b, k):
    """The k-th candidate axis of a pair of quads (0..7): the edge normals of ``a``, then of ``b``."""
    return _axis(a, k) if k < 4 else _axis(b, k - 4)


@njit(cache=True)
def _project(poly, nx, ny):
    lo, hi = np.inf, -np.inf
    for k in range(4):
        v = poly[k, 0] * nx + poly[k, 1] * ny
        lo = min(lo, v)
        hi = max(hi, v)
    return lo, hi


@njit(cache=True)
def quad_penetration(a, b):
    """Least projection overlap over the 8 edge normals: > 0 overlap depth, ≤ 0 minus a gap."""
    depth = np.inf
    for k in range(8):
        nx, ny = _separating_axis(a, b, k)
        a0, a1 = _project(a, nx, ny)
        b0, b1 = _project(b, nx, ny)
        depth = min(depth, min(a1, b1) - max(a0, b0))
    return depth


@njit(cache=True)
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


@njit(cache=True)
def translation_distance(corners, vx, vy, obstacles, applies, limit, tolerance):
    """How far the plates (k, 4, 2) can translate together along (vx, vy) before one touches an obstacle that
    ``applies[j, i]`` to it (at most ``limit``)."""
    travel = limit
    for j in range(corners.shape[0]):
        for i in range(obstacles.shape[0]):
            if applies[j, i]:
                travel = min(travel, quad_contact_time(corners[j], vx, vy, obstacles[i], tolerance))
    return travel


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def _apart(a, b, margin):
    """The bounding boxes of the quads are more than ``margin`` apart (a cheap test before the separating axes)."""
    return (a[:, 0].min() > b[:, 0].max() + margin or b[:, 0].min() > a[:, 0].max() + margin
            or a[:, 1].min() > b[:, 1].max() + margin or b[:, 1].min() > a[:, 1].max() + margin)


@njit(cache=True)
def _settle(poses, obstacles, applies, half_width, half_height, corners):
    """Part every moving plate from what it overlaps by the shortest pushes (a moving pair shares the push), until
    every gap is at least FAN_GAP; False if that does not settle (the set is jammed at this angle)."""
    k = poses.shape[0]
    for _ in range(FAN_ITERATIONS):
        calm = True
        for i in range(k):
            plate_corners(poses[i, 0], poses[i, 1], poses[i, 2], half_width, half_height, corners[i])
        for i in range(k):
            for o in range(obstacles.shape[0]):
                if applies[i, o] and not _apart(corners[i], obstacles[o], FAN_GAP):
                    depth, nx, ny = quad_push_out(corners[i], obstacles[o])
                    if depth > -FAN_GAP:
                        calm = False
                        poses[i, 0] += nx * (depth + 2 * FAN_GAP)
                        poses[i, 1] += ny * (depth + 2 * FAN_GAP)
                        plate_corners(poses[i, 0], poses[i, 1], poses[i, 2], half_width, half_height, corners[i])
            for j in range(i + 1, k):
                if _apart(corners[i], corners[j], FAN_GAP):
                    continue
                depth, nx, ny = quad_push_out(corners[i], corners[j])
                if depth > -FAN_GAP:
                    calm = False
                    half = 0.5 * (depth + 2 * FAN_GAP)
                    poses[i, 0] += nx * half
                    poses[i, 1] += ny * half
                    poses[j, 0] -= nx * half
                    poses[j, 1] -= ny * half
                    plate_corners(poses[i, 0], poses[i, 1], poses[i, 2], half_width, half_height, corners[i])
                    plate_corners(poses[j, 0], poses[j, 1], poses[j, 2], half_width, half_height, corners[j])
        if calm:
            return True
    return False


@njit(cache=True)
def _corner_travel(a, b, half_width, half_height, corners_a, corners_b):
    """The farthest any corner moves between two sets of poses."""
    travel = 0.0
    for i in range(a.shape[0]):
        plate_corners(a[i, 0], a[i, 1], a[i, 2], half_width, half_height, corners_a[i])
        plate_corners(b[i, 0], b[i, 1], b[i, 2], half_width, half_height, corners_b[i])
        for c in range(4):
            travel = max(travel, math.hypot(corners_a[i, c, 0] - corners_b[i, c, 0],
                                            corners_a[i, c, 1] - corners_b[i, c, 1]))
    return travel


@njit(cache=True)
def _clear(poses, obstacles, applies, half_width, half_height, tolerance, corners):
    k = poses.shape[0]
    for i in range(k):
        plate_corners(poses[i, 0], poses[i, 1], poses[i, 2], half_width, half_height, corners[i])
    for i in range(k):
        for o in range(obstacles.shape[0]):
            if applies[i, o] and not _apart(corners[i], obstacles[o], 0.0) and \
                    quad_penetration(corners[i], obstacles[o]) > tolerance:
                return False
        for j in range(i + 1, k):
            if not _apart(corners[i], corners[j], 0.0) and quad_penetration(corners[i], corners[j]) > tolerance:
                return False
    return True


@njit(cache=True)
def fan_turn(poses, senses, obstacles, applies, limit, half_width, half_height, tolerance, frames):
    """The paper's set rotation: several plates turn at once, plate i in sense ``senses[i]`` (±1), all by the same
    angle, each sliding as little as it must to stay clear of the walls, the plates that stay and each other.

    Each step turns every plate by at most FAN_STEP and then settles them (``_settle``); a step is taken only if no
    corner travels more than FAN_MAX_TRAVEL (less than half the thinnest wall, so nothing passes through one) and
    the poses halfway between the two frames are clear too; otherwise the step is halved, and below FAN_MIN_STEP
    the set has stopped. ``frames`` (n, k, 3) receives the poses, the start first; returns the number written (all
    n if it ran out of room before it stopped: ``moves.fan_frames`` then runs it again with more). The
    frames are the motion: straight interpolation between neighbours stays clear, because every frame keeps a gap
    of FAN_GAP and a step bends a corner's path by far less."""
    k = poses.shape[0]
    corners = np.empty((k, 4, 2))
    spare = np.empty((k, 4, 2))
    frames[0] = poses
    count, done, step = 1, 0.0, FAN_STEP
    trial = np.empty((k, 3))
    middle = np.empty((k, 3))
    while done < limit - 1e-12 and count < frames.shape[0]:
        step = min(step, limit - done)
        trial[:, :] = frames[count - 1]
        for i in range(k):
            trial[i, 2] += senses[i] * step
        ok = _settle(trial, obstacles, applies, half_width, half_height, corners)
        if ok:
            ok = _corner_travel(frames[count - 1], trial, half_width, half_height, corners, spare) <= FAN_MAX_TRAVEL
        if ok:
            for i in range(k):
                for c in range(3):
                    middle[i, c] = 0.5 * (frames[count - 1, i, c] + trial[i, c])
            ok = _clear(middle, obstacles, applies, half_width, half_height, tolerance, corners)
        if not ok:
            step *= 0.5
            if step < FAN_MIN_STEP:
                break
            continue
        frames[count] = trial
        count += 1
        done += step
        step = min(FAN_STEP, 2.0 * step)
    return count
