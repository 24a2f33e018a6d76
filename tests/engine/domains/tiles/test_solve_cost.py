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


def test_which_solves_are_quick_is_read_from_the_heuristic_records():
    """A heuristic is tried here because its record says it is quick, not by its name: the same compiled kernel
    registered twice, once quick and once not, is tried under the node cap only as the quick one."""
    from engine.domains.tiles import goal_board
    from engine.domains.tiles.astar import supports
    from engine.domains.tiles.heuristics import HEURISTICS, Heuristic, heuristics, linear_conflict_distance
    from engine.domains.tiles.solve_cost import quick_solves

    for record in heuristics().values():  # what a quick heuristic promises: nothing to load, both compiled searches
        if record.quick:
            assert record.kernel_inputs is None and supports(goal_board(4, 4), record.name), record.name
    names = {True: "conflicts-quick", False: "conflicts-not-quick"}
    for quick, name in names.items():
        HEURISTICS.add(Heuristic(name, name, "Linear conflict again.", True,
                                 lambda goal, options: lambda board: linear_conflict_distance(board, goal),
                                 kernel="engine.domains.tiles.ida_kernels:LINEAR_CONFLICT", quick=quick))
    try:
        for quick, name in names.items():
            _, eight = placed(size="3x3", tiles=[8, 6, 7, 2, 5, 4, 3, 0, 1], solver="idastar", heuristic=name)
            _, fifteen = placed(size="4x4", tiles=list(range(1, 15)) + [0, 15], solver="astar", heuristic=name)
            assert (quick_nodes(eight), quick_nodes(fifteen)) == ((QUICK_NODES, QUICK_TRY_NODES) if quick else (0, 0))
            tried = {(request["size"], request["solver"]) for request in quick_solves() if request["heuristic"] == name}
            assert tried == ({(size, solver) for size in ("3x3", "4x4") for solver in ("astar", "idastar")}
                             if quick else set())
    finally:
        for name in names.values():
            HEURISTICS.forget(name)
