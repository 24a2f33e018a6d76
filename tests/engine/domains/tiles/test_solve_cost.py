"""Where a solve starts, from its cost estimated before it starts, and which solves the web process tries itself."""

import pytest

from engine.domains.tiles.solve_cost import QUICK_NODES, QUICK_TRY_NODES, quick_nodes
from engine.serving.jobs import checked

SLOW_2X6 = [1, 0, 8, 9, 6, 7, 4, 11, 5, 2, 10, 3]
FIVE_BY_FIVE = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 0, 24]


def placed(**params):
    kind, clean = checked(params.pop("kind", "solve"), params)
    return kind.place(clean), clean


@pytest.mark.parametrize("params, lane, note", [
    ({"size": "2x6", "tiles": SLOW_2X6, "solver": "bfs"}, "long", "239,500,800 positions"),
    ({"size": "5x5", "tiles": FIVE_BY_FIVE, "solver": "idastar", "heuristic": "linear-conflict"}, "long",
     "optimal solve of 5x5"),
    ({"size": "5x5", "tiles": FIVE_BY_FIVE, "solver": "fast", "heuristic": ""}, "interactive", ""),
    ({"size": "2x6", "tiles": SLOW_2X6, "solver": "astar", "heuristic": "linear-conflict"}, "interactive", ""),
    ({"size": "2x5", "tiles": [1, 2, 3, 4, 5, 6, 7, 8, 0, 9], "solver": "bfs"}, "interactive", ""),
    ({"size": "3x3", "tiles": [1, 2, 3, 4, 5, 6, 7, 0, 8], "max_seconds": 600}, "long", "600 s"),
    ({"kind": "compare", "size": "5x5", "tiles": FIVE_BY_FIVE, "solvers": ["fast:", "idastar:manhattan"]}, "long",
     "optimal solve"),
])
def test_costly_solves_start_on_the_long_lane_and_say_why(params, lane, note):
    placement, _ = placed(**params)
    assert placement.lane == lane and note in placement.note and bool(placement.note) == bool(note)


def test_the_web_process_answers_only_small_searches_under_a_node_cap():
    _, eight = placed(size="3x3", tiles=[8, 6, 7, 2, 5, 4, 3, 0, 1], solver="bfs")
    _, fifteen = placed(size="4x4", tiles=list(range(1, 15)) + [0, 15], solver="idastar", heuristic="linear-conflict")
    _, fifteen_pdb = placed(size="4x4", tiles=list(range(1, 15)) + [0, 15], solver="idastar", heuristic="pdb")
    _, two_by_six = placed(size="2x6", tiles=SLOW_2X6, solver="bfs")
    _, big = placed(size="5x5", tiles=FIVE_BY_FIVE, solver="idastar", heuristic="manhattan")
    assert quick_nodes(eight) == QUICK_NODES and quick_nodes(fifteen) == QUICK_TRY_NODES
    assert quick_nodes(fifteen_pdb) == quick_nodes(two_by_six) == quick_nodes(big) == 0
