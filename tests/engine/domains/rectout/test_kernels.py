"""The Rectangle-out kernels agree with the plain-Python geometry, and the turn kernels keep their contacts."""

import math
import random

import numpy as np
import pytest

from engine.domains.rectout.collision_kernels import quad_contact_time, quad_penetration, quad_push_out
from engine.domains.rectout.geometry import TOLERANCE, Plate, contact_time, penetration, push_out
from engine.domains.rectout.puzzle import HALF_HEIGHT, HALF_WIDTH, corners
from engine.domains.rectout.turn_kernels import TWO_CONTACTS, pose_at


def random_plate(rng):
    return Plate(rng.uniform(-3, 3), rng.uniform(-3, 3), rng.uniform(-math.pi, math.pi), rng.uniform(0.3, 3),
                 rng.uniform(0.3, 3))


def test_kernels_agree_with_the_python_reference():
    rng = random.Random(7)
    for _ in range(300):
        a, b = random_plate(rng), random_plate(rng)
        ca, cb = np.array(a.corners()), np.array(b.corners())
        assert quad_penetration(ca, cb) == pytest.approx(penetration(a.corners(), b.corners()), abs=1e-12)
        angle = rng.uniform(-math.pi, math.pi)
        v = (math.cos(angle), math.sin(angle))
        assert quad_contact_time(ca, v[0], v[1], cb, TOLERANCE) == pytest.approx(
            contact_time(a.corners(), v, b.corners()), abs=1e-12)
        depth, (nx, ny) = push_out(a.corners(), b.corners())
        assert quad_push_out(ca, cb) == pytest.approx((depth, nx, ny), abs=1e-12)


def test_push_out_parts_two_overlapping_squares_the_short_way():
    a, b = Plate(0, 0, 0, 1, 1), Plate(1.9, 0.5, 0, 1, 1)  # overlapping by 0.1 across x, 1.5 across y
    depth, (nx, ny) = push_out(a.corners(), b.corners())
    assert depth == pytest.approx(0.1) and (nx, ny) == pytest.approx((-1.0, 0.0))


def test_wall_slide_keeps_both_contacts():
    # a plate's left edge as a ladder: its bottom-left corner on the floor, its top-left corner on the left wall
    floor = (0.0, -HALF_WIDTH, -HALF_HEIGHT, 0.0, 1.0, 0.0, -10.0, 0.0, 20.0, 0.0)
    wall = (0.0, -HALF_WIDTH, HALF_HEIGHT, 1.0, 0.0, 0.0, 0.0, -10.0, 0.0, 20.0)
    params = np.array(floor + wall)
    pose = np.empty(3)
    for phi in (0.1, 0.3, 0.6):
        assert pose_at(TWO_CONTACTS, params, 0.0, 0.0, -math.pi / 2, phi, pose)
        c = corners(tuple(pose))
        assert c[0, 1] == pytest.approx(0.0, abs=1e-12) and c[3, 0] == pytest.approx(0.0, abs=1e-12)
