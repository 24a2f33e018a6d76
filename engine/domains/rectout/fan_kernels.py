"""numba kernel of Rectangle-out's set rotation (``fan_turn``): several plates turn at once, each sliding as little
as it must to stay clear.

It has no Python twin: it is tested on the case worked out by hand in docs/rectout.md (two plates through the Z
between two parked ones), with every frame and every midpoint between frames checked clear
(tests/engine/domains/rectout/test_moves.py).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.domains.rectout.collision_kernels import apart, plate_corners, quad_penetration, quad_push_out

# Plates are kept FAN_GAP apart, so the straight line between two frames (whose corner paths bend by at most
# r·step²/8 ≈ 4e-6 cm) never closes the gap; FAN_MAX_TRAVEL is below half the 0.05 cm frame beside the hole, so a
# push cannot carry the target through it.
FAN_STEP = 2.5e-3  # radians
FAN_MIN_STEP = 2e-5  # radians: a set that needs a smaller step is wedged (its corners outrun the turn 200 to 1)
FAN_GAP = 1e-5
FAN_MAX_TRAVEL = 0.02  # cm
FAN_ITERATIONS = 30


@njit(cache=True, nogil=True)
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
                if applies[i, o] and not apart(corners[i], obstacles[o], FAN_GAP):
                    depth, nx, ny = quad_push_out(corners[i], obstacles[o])
                    if depth > -FAN_GAP:
                        calm = False
                        poses[i, 0] += nx * (depth + 2 * FAN_GAP)
                        poses[i, 1] += ny * (depth + 2 * FAN_GAP)
                        plate_corners(poses[i, 0], poses[i, 1], poses[i, 2], half_width, half_height, corners[i])
            for j in range(i + 1, k):
                if apart(corners[i], corners[j], FAN_GAP):
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


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def _clear(poses, obstacles, applies, half_width, half_height, tolerance, corners):
    k = poses.shape[0]
    for i in range(k):
        plate_corners(poses[i, 0], poses[i, 1], poses[i, 2], half_width, half_height, corners[i])
    for i in range(k):
        for o in range(obstacles.shape[0]):
            if applies[i, o] and not apart(corners[i], obstacles[o], 0.0) and \
                    quad_penetration(corners[i], obstacles[o]) > tolerance:
                return False
        for j in range(i + 1, k):
            if not apart(corners[i], corners[j], 0.0) and quad_penetration(corners[i], corners[j]) > tolerance:
                return False
    return True


@njit(cache=True, nogil=True)
def fan_turn(poses, senses, obstacles, applies, limit, half_width, half_height, tolerance, frames):
    """The paper's set rotation: several plates turn at once, plate i in sense ``senses[i]`` (±1), all by the same
    angle, each sliding as little as it must to stay clear of the walls, the plates that stay and each other.

    Each step turns every plate by at most FAN_STEP and then settles them (``_settle``); a step is taken only if no
    corner travels more than FAN_MAX_TRAVEL (less than half the thinnest wall, so nothing passes through one) and
    the poses halfway between the two frames are clear too; otherwise the step is halved, and below FAN_MIN_STEP
    the set has stopped. ``frames`` (n, k, 3) receives the poses, the start first; returns the number written (all
    n if it ran out of room before it stopped: ``motion.fan_frames`` then runs it again with more). The
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
