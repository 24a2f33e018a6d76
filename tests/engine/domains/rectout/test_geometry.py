import math

import pytest

from engine.domains.rectout.geometry import (
    TOLERANCE,
    Plate,
    box,
    contact_time,
    overlaps,
    penetration,
    slide,
    turn_until_contact,
)


def square(x, y, half=1.0, angle=0.0):
    return Plate(x, y, angle, half, half)


def test_touching_is_not_overlapping_and_a_hair_is():
    a = square(0, 0).corners()
    assert penetration(a, square(2, 0).corners()) == pytest.approx(0, abs=1e-12)  # edge to edge
    assert not overlaps(a, square(2, 0).corners())
    assert not overlaps(a, square(2 - TOLERANCE / 2, 0).corners())  # within the tolerance
    assert overlaps(a, square(2 - 1e-5, 0).corners())
    assert penetration(a, square(3, 0).corners()) == pytest.approx(-1)  # a gap of 1


def test_rotated_squares_by_hand():
    # a unit-half square turned 45° reaches sqrt(2) from its centre along x
    diamond = square(0, 0, angle=math.pi / 4).corners()
    assert not overlaps(diamond, square(1 + math.sqrt(2) + 1e-3, 0).corners())
    assert overlaps(diamond, square(1 + math.sqrt(2) - 1e-3, 0).corners())
    # corner of the diamond against a wall face at x = sqrt(2): touching
    assert not overlaps(diamond, box(math.sqrt(2), -5, 10, 5))
    assert overlaps(diamond, box(math.sqrt(2) - 1e-4, -5, 10, 5))


def test_a_translation_stops_exactly_at_first_contact():
    wall = box(5, -10, 6, 10)
    plate, travelled = slide(square(0, 0), (1, 0), [wall])
    assert travelled == pytest.approx(4, abs=2 * TOLERANCE) and plate.x == pytest.approx(4, abs=2 * TOLERANCE)
    # diagonal: the corner region; moving up-right toward a ceiling at y = 3 and the wall at x = 5
    ceiling = box(-10, 3, 10, 4)
    plate, travelled = slide(square(0, 0), (1, 1), [wall, ceiling])
    assert travelled == pytest.approx(2 * math.sqrt(2), abs=1e-5)  # the ceiling first (2 up), not the wall (4 right)
    assert not overlaps(plate.corners(), ceiling) and overlaps(plate.moved(0, 1e-4).corners(), ceiling)
    assert contact_time(square(0, 0).corners(), (-1, 0), wall) == math.inf  # moving away


def test_a_rotation_stops_at_contact():
    # a 4×1 plate between two walls 4.06 apart cannot turn far: it stops when its corners reach the walls
    plate = Plate(0, 0, 0.0, 2.0, 0.5)
    walls = [box(-10, -10, -2.03, 10), box(2.03, -10, 10, 10)]
    turned, angle = turn_until_contact(plate, 0.01, walls)
    assert 0 < angle < math.pi / 2
    corners = turned.corners()
    assert max(x for x, _ in corners) == pytest.approx(2.03, abs=1e-6)
    assert not any(overlaps(corners, w) for w in walls)
    # the half-extent along x equals the half gap: 2 cos a + 0.5 sin a = 2.03 (the first root)
    assert 2 * math.cos(angle) + 0.5 * math.sin(angle) == pytest.approx(2.03, abs=1e-6)
