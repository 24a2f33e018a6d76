"""The moves of Rectangle-out: each stops where the geometry says, by hand computation, and stays clear."""

import math
import random

import pytest

from engine.domains.rectout.by_hand import turn_together_by_hand
from engine.domains.rectout.geometry import TOLERANCE
from engine.domains.rectout.motion import apply
from engine.domains.rectout.moves import fans, motions
from engine.domains.rectout.puzzle import (
    HALF_HEIGHT,
    HALF_WIDTH,
    TARGET,
    blocking_plates,
    corners,
    heuristic,
    is_out,
    overlap_report,
    start_state,
)
from tests.support.rectout import overlap_along

START = start_state()  # plates flat and centred


def test_the_start_is_legal_and_blocked_three_times():
    state = start_state()
    assert overlap_report(state) == []
    assert blocking_plates(state) == 3 and heuristic(state) == 4 and not is_out(state)
    assert corners(state[TARGET])[:, 1].max() == pytest.approx(4 * 2.44)


def test_diagonal_translation_stops_at_the_wall_exactly_and_slides_on_into_the_corner():
    found = {m.label.split(",")[0]: m for m in motions(START) if m.pieces == (TARGET,)}
    up_left = found["target: up-left"]
    # the target's left end is 1.62 from the wall, its top 3.24 from the ceiling: the wall comes first, exactly
    (at_wall,) = up_left.waypoints
    assert at_wall[0] == pytest.approx((HALF_WIDTH, 4 * 2.44 - HALF_HEIGHT + 1.62, 0.0), abs=1e-12)
    assert corners(at_wall[0])[:, 0].min() == pytest.approx(0.0, abs=1e-12)
    # then up along the wall until the ceiling stops it: the top-left corner, no freedom left up and to the left
    assert up_left.after[0] == pytest.approx((HALF_WIDTH, 13 - HALF_HEIGHT, 0.0), abs=1e-12)
    # plate 1, between the floor and plate 2, cannot go up or down: its diagonals slide it along to a wall, and
    # the ways that end in the same place are one motion
    bottom = [m for m in motions(START) if m.pieces == (0,)]
    assert sorted(m.after[0][0] for m in bottom) == pytest.approx([HALF_WIDTH, 13 - HALF_WIDTH])
    assert all(m.kind == "diagonal" and m.after[0][1] == HALF_HEIGHT for m in bottom)


def test_pivot_turn_stops_where_the_corner_meets_the_ceiling():
    turns = [m for m in motions(START) if m.pieces == (TARGET,) and m.kind == "pivot" and m.turn[2] < 0]
    assert len(turns) == 1  # clockwise about the top-right corner of the plate below
    # by hand: the far corner (-9.76, 2.44) from the pivot rises 9.76 sin a + 2.44 cos a = 13 - 7.32
    expected = math.asin(5.68 / math.hypot(9.76, 2.44)) - math.atan2(2.44, 9.76)
    # it stops where the overlap reaches the tolerance: 1e-6 cm at a lever of about 10 cm is 1e-7 rad past contact
    assert turns[0].turn[3] == pytest.approx(expected, abs=2e-7)
    assert corners(turns[0].after[0])[:, 1].max() == pytest.approx(13.0, abs=1e-6)


#: plates 1 and 2 against the left wall, 3 against the right, the target in the top-right corner: where the answer
#: from the start (its first move, four diagonals) leaves them to turn two together
READY = ((HALF_WIDTH, 1.22, 0.0), (HALF_WIDTH, 3.66, 0.0), (13 - HALF_WIDTH, 6.1, 0.0), (13 - HALF_WIDTH, 11.78, 0.0))


def test_two_plates_turn_together_where_one_at_a_time_cannot():
    assert overlap_report(READY) == []
    found = {m.pieces + (m.label.split()[-2],): m for m in fans(READY)}
    fan = found[(1, 2, "clockwise,")]
    assert fan.kind == "fan" and fan.family == "turn"
    # a quarter turn, both plates ending upright: plate 2 against the left side, plate 3 against the right
    assert fan.after[0][2] == pytest.approx(-math.pi / 2) and fan.after[1][2] == pytest.approx(-math.pi / 2)
    assert fan.after[0][0] < 6.5 < fan.after[1][0]
    assert overlap_along(READY, fan) <= TOLERANCE
    assert overlap_report(apply(READY, fan)) == []
    # neither plate alone gets past 45° from here (their own turns stop short)
    alone = [m for m in motions(READY) if m.pieces in ((1,), (2,)) and m.turn]
    assert all(m.turn[3] < math.pi / 4 for m in alone)
    # plates 1 and 2 lie under plate 3 against the left wall: a pair with no room does not turn at all
    assert not [m for m in fans(READY) if m.pieces == (0, 1)]


def test_a_pair_turned_by_hand_goes_as_far_as_asked():
    # plate 3 and the target turn in a tight place, in ever smaller steps: the turn must not stop where the first
    # frames run out (at 0.479 rad): fan_frames makes room and runs the kernel again
    poses, turned = turn_together_by_hand(START, (2, TARGET), 0.5)
    assert turned == pytest.approx(0.5) and poses[0][2] == pytest.approx(0.5) and poses[1][2] == pytest.approx(0.5)
    assert overlap_report(START[:2] + poses) == []


@pytest.mark.slow
def test_every_motion_near_the_start_stays_clear():
    rng = random.Random(3)
    state = start_state()
    for _ in range(6):  # a random walk of motions, checking every motion on the way
        options = motions(state)
        assert options
        for motion in options:
            assert overlap_along(state, motion) <= TOLERANCE, motion.label
            assert overlap_report(apply(state, motion)) == []
        state = apply(state, rng.choice(options))
