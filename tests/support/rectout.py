"""Helpers for the Rectangle-out tests."""

from __future__ import annotations

import math

from engine.domains.rectout.motion import Motion
from engine.domains.rectout.puzzle import overlap_depths


def overlap_along(state, motion: Motion, samples: int = 200) -> float:
    """The deepest overlap anywhere along the motion, the whole position checked at every sample: translations
    sampled finely along every leg, one-parameter turns at ``samples`` angles, set rotations at every computed frame
    and halfway between neighbours (the motion is straight between frames)."""
    def between(a, b, t):
        return tuple(tuple(u + (v - u) * t for u, v in zip(p, q, strict=True)) for p, q in zip(a, b, strict=True))

    if motion.fan:
        frames = motion.frames()
        path = frames + [between(a, b, 0.5) for a, b in zip(frames, frames[1:], strict=False)]
    elif motion.turn:
        path = motion.path(samples)
    else:
        points = motion.path()
        path = [between(a, b, k / samples) for a, b in zip(points, points[1:], strict=False)
                for k in range(samples + 1)]
    deepest = -math.inf
    for poses in path:
        moved = state
        for piece, pose in zip(motion.pieces, poses, strict=True):
            moved = moved[:piece] + (pose,) + moved[piece + 1:]
        deepest = max(deepest, max(depth for _, depth in overlap_depths(moved)))
    return deepest
