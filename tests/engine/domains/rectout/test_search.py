"""The Rectangle-out search: duplicate detection, the paper's moves, budgets, cancel, and the way out."""

import itertools
import math
import threading

import pytest

from engine.core.result import Budget, Watch
from engine.domains.rectout.geometry import TOLERANCE
from engine.domains.rectout.motion import Motion, apply
from engine.domains.rectout.puzzle import TARGET, Quantum, heuristic, is_out, start_state
from engine.domains.rectout.search import paper_moves, solve
from tests.support.rectout import overlap_along

START = start_state()  # plates flat and centred


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


def test_paper_moves_group_sets_of_plates():
    def fake(pieces, family):
        turn = (0, (), 1, 0.1, None) if family == "turn" else ()
        return Motion(pieces, "x", (), (), "x", turn)

    sequence = [fake((0,), "translation"), fake((1,), "translation"), fake((1,), "translation"), fake((2,), "turn"),
                fake((3,), "turn"), fake((0, 1), "translation"), fake((1,), "translation")]
    assert paper_moves(sequence) == [[0, 1], [2], [3, 4], [5], [6]]


UPRIGHT = math.pi / 2
#: A budget only its node count decides: no machine is slow enough to reach its seconds.
NODES_ONLY = 3_600

#: Four motions from the way out, on the path the search finds from the start: the bottom plate flat, plates 2 and 3
#: standing against the walls, the target flat under the ceiling; the bottom plate and the target turn together.
#: (The search from here takes 29 expansions, from the start 400.)
NEAR_GOAL = ((4.88, 1.22, 0.0), (1.2200000000000002, 8.120000000000001, -UPRIGHT), (11.78, 4.88, -UPRIGHT),
             (8.11998, 11.685948213907192, 0.0))


def test_the_search_gets_the_target_out_from_near_the_goal():
    result = solve(NEAR_GOAL, Watch(Budget(max_nodes=2_000, max_seconds=NODES_ONLY)))
    assert result.status == "solved"
    assert [m.pieces for m in result.motions] == [(0, TARGET), (1,), (0, TARGET), (TARGET,)]
    state = NEAR_GOAL
    for motion in result.motions:  # every motion legal from where the previous one ended, and clear all along
        assert motion.before == tuple(state[p] for p in motion.pieces)
        assert overlap_along(state, motion, samples=400) <= TOLERANCE, motion.label
        state = apply(state, motion)
    assert is_out(state) and heuristic(state) == 0
    assert result.duplicates > 0
    # the paper's tree search (no duplicate detection) does not get there with the same number of expansions
    plain = solve(NEAR_GOAL, Watch(Budget(max_nodes=result.expanded, max_seconds=NODES_ONLY)), dedupe=False)
    assert plain.status == "budget_exhausted"


def test_the_search_stops_when_cancelled_and_reports_progress():
    cancel = threading.Event()
    reports = []

    def progress(fraction, info):
        reports.append(info["nodes"])
        if info["nodes"] >= 20:
            cancel.set()

    result = solve(START, Watch(Budget(max_nodes=10_000, max_seconds=NODES_ONLY), cancel, progress))
    # progress every PROGRESS_EVERY = 10 expansions; the cancel is seen before the next expansion
    assert result.status == "cancelled" and result.expanded == 20
    assert reports == [0, 10, 20]


#: The start after the paper's first move, its four plates sliding diagonally (checked below): the paper's other five
#: moves remain, the two pairs of plates turning together among them.
AFTER_FIRST_MOVE = ((4.88, 1.22, 0.0), (4.88, 3.66, 0.0), (8.12, 6.1, 0.0), (8.12, 11.78, 0.0))


def reached_by_four_diagonal_slides(start, end) -> bool:
    """Each plate slides diagonally once, in some order, from ``start`` to its pose in ``end``."""
    from engine.domains.rectout.moves import motions

    for order in itertools.permutations(range(len(start))):
        state = start
        for piece in order:
            step = next((m for m in motions(state) if m.pieces == (piece,) and m.kind == "diagonal"
                         and m.after[0] == pytest.approx(end[piece], abs=1e-6)), None)
            if step is None:
                break
            state = apply(state, step)
        else:
            return True
    return False


@pytest.mark.slow
def test_the_search_gets_the_target_out_in_the_papers_count_of_moves():
    assert reached_by_four_diagonal_slides(START, AFTER_FIRST_MOVE)
    result = solve(AFTER_FIRST_MOVE, Watch(Budget(max_nodes=2_000, max_seconds=NODES_ONLY)), weight=3)
    assert result.status == "solved"
    state = AFTER_FIRST_MOVE
    for motion in result.motions:
        assert motion.before == tuple(state[p] for p in motion.pieces)
        assert overlap_along(state, motion) <= TOLERANCE, motion.label
        state = apply(state, motion)
    assert is_out(state)
    # the paper's count, 6 moves, the first of them taken: 5, two plates turning together among them
    assert len(result.groups) == 5
    assert any([result.motions[i].pieces for i in group] == [(1, 2)] and result.motions[group[0]].kind == "fan"
               for group in result.groups)
