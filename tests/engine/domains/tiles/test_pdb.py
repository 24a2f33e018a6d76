"""Pattern databases: the groupings, the ranking, the parallel build against a plain-Python search, admissibility of
direct and mirrored values against Korf's optimal lengths, the IDA* kernel against the readable search, fallbacks,
and the tables API.

Every table read here is built in this run (session fixtures, in the run's fresh data directory). The 6-6-3 tables
build in seconds. The 7-8 database is built by the same ``build_group_table`` as every other, but its 8-tile table
alone takes about 500 s of CPU, more than half of what the whole suite may spend on two cores: the suite checks the
7-8 split's groups and everything it shares with the 6-6-3 (the build against a plain search, admissibility on
Korf's 100, the kernel against the readable IDA*, both goals through the half-turn), and ``bench/korf100.py`` checks
the built 7-8 database against all 100 published optimal lengths.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import PuzzleError
from engine.domains.tiles import Board, goal_board, pdb, pdb_build, pdb_catalogue, scramble
from engine.domains.tiles.board import half_turn, half_turn_moves
from engine.domains.tiles.pdb_kernel import child_order
from engine.domains.tiles.problem import SlidingTileProblem
from engine.domains.tiles.ranking import lexicographic_radix, partial_rank
from engine.domains.tiles.ranking_kernels import moved_rank, rank_of_positions, unrank_positions
from engine.domains.tiles.solving import solve_board
from engine.search import idastar_search
from engine.serving import store
from engine.serving.jobs import checked

FIRST = goal_board(4, 4, "blank-first")
LAST = goal_board(4, 4, "blank-last")


def transposed(groups, goal):
    mirror = pdb.mirror_tiles(goal)
    return {tuple(sorted(mirror[t] for t in g)) for g in groups}


@pytest.mark.parametrize("goal_name", ["blank-first", "blank-last"])
@pytest.mark.parametrize("grouping, sizes", [("pdb-663", [3, 6, 6]), ("pdb-78", [7, 8]), ("pdb-6666", [6] * 4),
                                             ("pdb-5555555", [5] * 7)])
def test_groupings_cover_the_tiles_and_their_mirror_is_another_split(goal_name, grouping, sizes):
    goal = goal_board(*pdb.SHAPES[grouping], goal_name)
    groups = pdb.groups_of(grouping, goal)
    assert sorted(len(g) for g in groups) == sizes
    assert sorted(t for g in groups for t in g) == list(range(1, goal.size))
    assert transposed(groups, goal) != {tuple(sorted(g)) for g in groups}  # else the mirror could never prune


def test_only_4x4():
    with pytest.raises(PuzzleError, match="4x4"):
        pdb.groups_of("pdb-78", goal_board(3, 3))
    with pytest.raises(PuzzleError, match="unknown pattern database"):
        pdb.groups_of("pdb-555", FIRST)


@settings(max_examples=60, deadline=None)
@given(cells=st.permutations(range(16)), k=st.integers(1, 8), slot=st.integers(0, 7),
       move=st.sampled_from([-4, -1, 1, 4]))
def test_rank_kernels_agree_with_the_reference(cells, k, slot, move):
    where = np.array(cells[:k], dtype=np.int64)
    radix = lexicographic_radix(k, 16)
    rank = rank_of_positions(where, radix)
    assert rank == partial_rank(list(where)) < math.perm(16, k)
    out = np.empty(k, dtype=np.int64)
    unrank_positions(rank, radix, out)
    assert out.tolist() == where.tolist()
    slot %= k
    target = int(where[slot]) + move
    on_board = 0 <= target < 16 and (abs(move) == 4 or target // 4 == where[slot] // 4)
    if on_board and target not in where.tolist():
        moved = where.copy()
        moved[slot] = target
        assert moved_rank(rank, where, slot, target, radix) == partial_rank(list(moved))


@pytest.mark.parametrize("goal", [FIRST, LAST], ids=["blank-first", "blank-last"])
def test_the_parallel_build_equals_the_plain_search(goal):
    group = pdb.groups_of("pdb-663", goal)[2]  # the 3-tile row: small enough for plain Python
    built = pdb_build.build_group_table(goal, group)
    assert np.array_equal(built, pdb_build.group_table_reference(goal, group))
    assert built.max() < pdb_build.UNSEEN  # every arrangement is reachable


@pytest.mark.slow
def test_the_parallel_build_equals_the_plain_search_on_four_tiles():
    group = (5, 6, 9, 10)  # a 2x2 block in the middle: blank regions split and merge often
    assert np.array_equal(pdb_build.build_group_table(FIRST, group), pdb_build.group_table_reference(FIRST, group))


@pytest.mark.parametrize("group", [(6, 31), (29, 34)])
def test_the_parallel_build_equals_the_plain_search_on_36_cells(group):
    """A 6×6 board's codes take two words per arrangement (cells 0–30 and 31–35): these tiles' cells and the blank's
    fall on both sides of the boundary, and tiles 29 and 34 beside the corner cell 35 cut the blank's cells in two
    (the blank in the corner, or anywhere else)."""
    goal = goal_board(6, 6, "blank-first")
    built = pdb_build.build_group_table(goal, group)
    assert np.array_equal(built, pdb_build.group_table_reference(goal, group))
    assert built.max() < pdb_build.UNSEEN


def test_goal_is_zero_and_one_move_is_one(db663):
    assert db663.value(FIRST) == 0
    assert db663.value(FIRST.move("R")) == db663.value(FIRST.move("D")) == 1


@pytest.mark.slow
def test_663_direct_and_mirrored_are_admissible_and_differ_on_korf(db663, korf):
    differ = 0
    for _, optimum, cells in korf:
        direct, mirrored = db663.group_values(Board(4, 4, cells))
        assert sum(direct) <= optimum and sum(mirrored) <= optimum
        differ += sum(direct) != sum(mirrored)
    assert differ >= 50  # the mirror prunes: on most instances one of the two sums is larger


def test_663_solves_korfs_easiest_instances_optimally_for_both_goals(db663, korf):
    """The published optimal lengths, for blank-first and, through the half-turn, blank-last from the same file."""
    for number, optimum, cells in sorted(korf, key=lambda instance: instance[1])[:3]:
        board = Board(4, 4, cells)
        result = solve_board(board, FIRST, "idastar", "pdb-663")
        assert result.optimal and result.length == optimum and board.apply(result.moves) == FIRST, number
        turned = half_turn(board)
        result = solve_board(turned, LAST, "idastar", "pdb-663")
        assert result.optimal and result.length == optimum and turned.apply(result.moves) == LAST, number


@pytest.mark.parametrize("seed", range(4))
def test_kernel_equals_the_readable_search_node_for_node(db663, seed):
    board, _ = scramble(FIRST, 30, seed)
    fast = solve_board(board, FIRST, "idastar", "pdb-663")
    reference = idastar_search(SlidingTileProblem(board, FIRST, "pdb-663"), order_by=child_order(FIRST))
    assert fast.heuristic == "pdb-663" and fast.moves == reference.moves
    assert (fast.nodes_expanded, fast.nodes_generated) == (reference.nodes_expanded, reference.nodes_generated)


def test_the_ordered_kernel_paused_every_few_nodes_finds_the_same_path(db663, korf, monkeypatch):
    """The kernel keeps each depth's ordered children in its stack between calls: a search paused every 7
    expansions (the driver's chunk) expands, generates and answers exactly as one that never pauses."""
    from engine.domains.tiles import kernel_drivers

    board = Board(4, 4, korf[1][2])
    whole = solve_board(board, FIRST, "idastar", "pdb-663")
    monkeypatch.setattr(kernel_drivers, "CHUNK", 7)
    paused = solve_board(board, FIRST, "idastar", "pdb-663")
    assert whole.length == korf[1][1] and (paused.moves, paused.nodes_expanded, paused.nodes_generated) == (
        whole.moves, whole.nodes_expanded, whole.nodes_generated)


@pytest.mark.slow
def test_korf_instances_are_solved_optimally_with_663(db663, korf):
    for number, optimum, cells in korf[:6]:
        board = Board(4, 4, cells)
        result = solve_board(board, FIRST, "idastar", "pdb")
        assert result.length == optimum and board.apply(result.moves) == FIRST, number


#: A goal whose database (and its half-turn's) no test builds.
ELSEWHERE = Board(4, 4, (1, 2, 3, 4, 5, 0, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))


def test_missing_tables_fall_back_and_say_so(db663):
    board, _ = scramble(ELSEWHERE, 20, 5)
    assert not pdb.is_built("pdb-663", ELSEWHERE)
    result = solve_board(board, ELSEWHERE, "idastar", "pdb")
    assert result.status == "solved" and result.heuristic == "linear-conflict"
    assert "tables build" in result.message
    if not pdb.is_built("pdb-78", FIRST):
        board, _ = scramble(FIRST, 20, 5)
        result = solve_board(board, FIRST, "idastar", "pdb-78")
        assert result.heuristic == "pdb-663" and "7-8" in result.message
        result = solve_board(board, FIRST, "astar", "pdb")
        assert result.heuristic == "pdb-663" and result.optimal and not result.message


def test_one_build_serves_both_goals_through_the_half_turn(db663, korf):
    """The blank-last goal reads the blank-first tables: the same search on the half-turned position, the same
    counts, the moves turned back; the readable value agrees with the kernel's."""
    served = pdb.load("pdb-663", LAST)
    assert isinstance(served, pdb.HalfTurned) and served.stored is db663 and served.goal == LAST
    assert sorted(t for g in served.groups for t in g) == list(range(1, 16))
    assert served.value(LAST) == 0 and served.value(LAST.move("U")) == 1
    for number, optimum, cells in korf[:3]:
        board = Board(4, 4, cells)
        first = solve_board(board, FIRST, "idastar", "pdb-663")
        last = solve_board(half_turn(board), LAST, "idastar", "pdb-663")
        assert last.heuristic == "pdb-663" and last.length == first.length == optimum, number
        assert half_turn(board).apply(last.moves) == LAST and last.moves == half_turn_moves(first.moves)
        assert (last.nodes_expanded, last.nodes_generated) == (first.nodes_expanded, first.nodes_generated)
        assert served.value(half_turn(board)) == db663.value(board)
    board, _ = scramble(LAST, 24, 2)
    readable = solve_board(board, LAST, "astar", "pdb-663")
    assert readable.heuristic == "pdb-663" and readable.length == solve_board(board, LAST, "idastar", "pdb-663").length


def test_the_tables_api(db663):
    names = [row["name"] for row in pdb_catalogue.status()]
    fifteen = ["pdb-663/blank-first", "pdb-663/blank-last", "pdb-78/blank-first", "pdb-78/blank-last"]
    assert names[:4] == fifteen and pdb_catalogue.FIFTEEN_PUZZLE == tuple(fifteen)  # the 15-puzzle's come first
    assert {"pdb-6666/blank-first", "pdb-6666/blank-last", "pdb-5555555/blank-first", "pdb-5555555/blank-last"} <= set(
        names) and len(set(names)) == len(names)
    first, last = pdb_catalogue.status(["pdb-663/blank-first", "pdb-663/blank-last"])
    assert last["built"] and last["served_by"] == "pdb-663/blank-first" and last["path"] == first["path"]
    assert "pdb-663/blank-last" not in pdb_catalogue.missing()
    assert pdb_catalogue.status(["pdb-6666/blank-first"])[0]["expected_bytes"] == 4 * 127_512_000
    assert pdb_catalogue.status(["pdb-5555555/blank-last"])[0]["expected_bytes"] == 7 * 45_239_040
    row = first
    assert row["built"] and row["bytes"] > row["expected_bytes"] == 2 * 5_765_760 + 3360
    assert row["build_seconds"] > 0 and row["peak_bytes"] > 0 and not row["building"]
    assert "pdb-663/blank-first" not in pdb_catalogue.missing()
    from engine.core.registry import load_all

    load_all()
    assert checked("tables-build", {"names": ["pdb-78/blank-last"]})[1] == {"names": ["pdb-78/blank-last"]}
    with pytest.raises(PuzzleError, match="unknown table"):
        checked("tables-build", {"names": ["pdb-78"]})
    with pytest.raises(PuzzleError, match="unknown table"):
        pdb_catalogue.build(["pdb-99/blank-first"])


def test_a_cancelled_build_stops_and_leaves_nothing(tmp_path, monkeypatch):

    monkeypatch.setattr(store, "_data_dir", tmp_path)
    seen = []

    def cancel():  # asked between pieces of the build: record what status() says meanwhile, then stop
        seen.append(pdb_catalogue.status(["pdb-663/blank-last"])[0]["building"])
        return True

    with pytest.raises(PuzzleError, match="cancelled"):
        pdb_catalogue.build(["pdb-663/blank-last"], cancel=cancel)
    assert seen == [True]
    assert pdb_catalogue.missing(["pdb-663/blank-last"]) == ["pdb-663/blank-last"]
    assert not pdb_catalogue.status(["pdb-663/blank-last"])[0]["building"]
    assert not list(tmp_path.iterdir())
