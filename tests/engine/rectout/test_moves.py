import math
import random

import numpy as np
import pytest

from engine.rectout import kernels
from engine.rectout.geometry import TOLERANCE, Plate, contact_time, penetration, push_out
from engine.rectout.moves import Motion, apply, fans, motions, turn_together_by_hand
from engine.rectout.puzzle import (HALF_HEIGHT, HALF_WIDTH, TARGET, Quantum, blocking_plates, corners, heuristic,
                                   is_out, overlap_depths, overlap_report, start_state)
from engine.rectout.search import paper_moves, solve
from engine.result import Budget

START = start_state()  # plates flat and centred


def random_plate(rng):
    return Plate(rng.uniform(-3, 3), rng.uniform(-3, 3), rng.uniform(-math.pi, math.pi), rng.uniform(0.3, 3),
                 rng.uniform(0.3, 3))


def test_kernels_agree_with_the_python_reference():
    rng = random.Random(7)
    for _ in range(300):
        a, b = random_plate(rng), random_plate(rng)
        ca, cb = np.array(a.corners()), np.array(b.corners())
        assert kernels.quad_penetration(ca, cb) == pytest.approx(penetration(a.corners(), b.corners()), abs=1e-12)
        angle = rng.uniform(-math.pi, math.pi)
        v = (math.cos(angle), math.sin(angle))
        assert kernels.quad_contact_time(ca, v[0], v[1], cb, TOLERANCE) == pytest.approx(
            contact_time(a.corners(), v, b.corners()), abs=1e-12)
        depth, (nx, ny) = push_out(a.corners(), b.corners())
        assert kernels.quad_push_out(ca, cb) == pytest.approx((depth, nx, ny), abs=1e-12)


def test_push_out_parts_two_overlapping_squares_the_short_way():
    a, b = Plate(0, 0, 0, 1, 1), Plate(1.9, 0.5, 0, 1, 1)  # overlapping by 0.1 across x, 1.5 across y
    depth, (nx, ny) = push_out(a.corners(), b.corners())
    assert depth == pytest.approx(0.1) and (nx, ny) == pytest.approx((-1.0, 0.0))


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


def test_wall_slide_keeps_both_contacts():
    # a plate's left edge as a ladder: its bottom-left corner on the floor, its top-left corner on the left wall
    floor = (0.0, -HALF_WIDTH, -HALF_HEIGHT, 0.0, 1.0, 0.0, -10.0, 0.0, 20.0, 0.0)
    wall = (0.0, -HALF_WIDTH, HALF_HEIGHT, 1.0, 0.0, 0.0, 0.0, -10.0, 0.0, 20.0)
    params = np.array(floor + wall)
    pose = np.empty(3)
    for phi in (0.1, 0.3, 0.6):
        assert kernels.pose_at(kernels.TWO_CONTACTS, params, 0.0, 0.0, -math.pi / 2, phi, pose)
        c = corners(tuple(pose))
        assert c[0, 1] == pytest.approx(0.0, abs=1e-12) and c[3, 0] == pytest.approx(0.0, abs=1e-12)


def test_quantum_merges_near_states_only():
    quantum = Quantum()
    state = start_state()
    near = tuple((x + 1e-5, y - 1e-5, a + 1e-5) for x, y, a in state)
    far = tuple((x + 1e-2, y, a) for x, y, a in state)
    swapped = (state[1], state[0], state[2], state[3])
    turned = state[:TARGET] + ((state[TARGET][0], state[TARGET][1], math.pi),)
    assert quantum.key(near) == quantum.key(state) == quantum.key(swapped) == quantum.key(turned)
    assert quantum.key(far) != quantum.key(state)
    target_swapped = (state[3], state[1], state[2], state[0])
    assert quantum.key(target_swapped) != quantum.key(state)


def overlap_along(state, motion: Motion, samples: int = 200) -> float:
    """The deepest overlap anywhere along the motion, the whole position checked at every sample: translations
    sampled finely along every leg, one-parameter turns at ``samples`` angles, set rotations at every computed frame
    and halfway between neighbours (the motion is straight between frames)."""
    def between(a, b, t):
        return tuple(tuple(u + (v - u) * t for u, v in zip(p, q)) for p, q in zip(a, b))

    if motion.fan:
        frames = motion.frames()
        path = frames + [between(a, b, 0.5) for a, b in zip(frames, frames[1:])]
    elif motion.turn:
        path = motion.path(samples)
    else:
        points = motion.path()
        path = [between(a, b, k / samples) for a, b in zip(points, points[1:]) for k in range(samples + 1)]
    deepest = -math.inf
    for poses in path:
        moved = state
        for piece, pose in zip(motion.pieces, poses):
            moved = moved[:piece] + (pose,) + moved[piece + 1:]
        deepest = max(deepest, max(depth for _, depth in overlap_depths(moved)))
    return deepest


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
    # plate 3 and the target turn in a tight place, in ever smaller steps: the turn must not stop where its frames ran
    # out (it did, at 0.479 rad, before fan_frames made room)
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


def test_paper_moves_group_sets_of_plates():
    def fake(pieces, family):
        turn = (0, (), 1, 0.1, None) if family == "turn" else ()
        return Motion(pieces, "x", (), (), "x", turn)

    sequence = [fake((0,), "translation"), fake((1,), "translation"), fake((1,), "translation"), fake((2,), "turn"),
                fake((3,), "turn"), fake((0, 1), "translation"), fake((1,), "translation")]
    assert paper_moves(sequence) == [[0, 1], [2], [3, 4], [5], [6]]


UPRIGHT = math.pi / 2
#: three plates standing, the target upright in the air beside the hole: a few motions from the way out
NEAR_GOAL = ((1.22, 4.88, UPRIGHT), (3.66, 4.88, UPRIGHT), (11.78, 4.88, UPRIGHT), (6.2, 8.0, UPRIGHT))


def test_the_search_gets_the_target_out_from_near_the_goal():
    result = solve(NEAR_GOAL, Budget(max_nodes=2_000, max_seconds=120))
    assert result.status == "solved" and 1 <= len(result.motions) <= 6
    state = NEAR_GOAL
    for motion in result.motions:  # every motion legal from where the previous one ended, and clear all along
        assert motion.before == tuple(state[p] for p in motion.pieces)
        assert overlap_along(state, motion, samples=400) <= TOLERANCE, motion.label
        state = apply(state, motion)
    assert is_out(state) and heuristic(state) == 0
    assert result.duplicates > 0
    # the paper's tree search (no duplicate detection) does not get there with the same number of expansions
    plain = solve(NEAR_GOAL, Budget(max_nodes=result.expanded, max_seconds=120), dedupe=False)
    assert plain.status == "budget_exhausted"


def test_the_search_stops_when_cancelled_and_reports_progress():
    import threading

    cancel = threading.Event()
    reports = []

    def progress(fraction, info):
        reports.append(info["nodes"])
        if info["nodes"] >= 20:
            cancel.set()

    result = solve(START, Budget(max_nodes=10_000, max_seconds=600), progress=progress, cancel=cancel)
    assert result.status == "cancelled" and result.expanded == 30  # checked every PROGRESS_EVERY = 10 expansions
    assert reports == [0, 10, 20]


@pytest.mark.slow
def test_the_search_gets_the_target_out_from_the_default_start():
    result = solve(START, Budget(max_nodes=2_000, max_seconds=900), weight=3)
    assert result.status == "solved"
    state = START
    for motion in result.motions:
        assert motion.before == tuple(state[p] for p in motion.pieces)
        assert overlap_along(state, motion) <= TOLERANCE, motion.label
        state = apply(state, motion)
    assert is_out(state)
    # the paper's count, 6 moves; the first is four diagonals, the second two plates turning together
    assert len(result.groups) == 6
    first, second = (result.groups[0], result.groups[1])
    assert sorted(result.motions[i].pieces for i in first) == [(0,), (1,), (2,), (TARGET,)]
    assert [result.motions[i].pieces for i in second] == [(1, 2)] and result.motions[second[0]].kind == "fan"
    # without duplicate detection the same number of expansions is not enough
    plain = solve(START, Budget(max_nodes=result.expanded, max_seconds=900), weight=3, dedupe=False)
    assert plain.status == "budget_exhausted"
