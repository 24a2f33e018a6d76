"""Duplicate pruning by the learned move automaton (engine/domains/tiles/move_automaton.py): its forbidden strings
replay to the same board as their lesser equivalents from every cell of real boards (edges included), the machine
forbids exactly the strings containing one, and IDA* pruned by it stays optimal (BFS, the parent-pruned search),
expands no more nodes per completed bound and fewer on 15-puzzle scrambles, equals its reference kernel node for node
and is spread bound by bound as it runs serially."""

import itertools
import random

import pytest

from engine.core.result import Watch
from engine.domains.tiles import Board, goal_board, random_solvable, scramble
from engine.domains.tiles.board import MOVES
from engine.domains.tiles.heuristics import manhattan_distance
from engine.domains.tiles.kernel_drivers import goal_distance_table, idastar
from engine.domains.tiles.move_automaton import (
    LEARN_DEPTH,
    duplicate_strings,
    learned,
    machine,
    parent_only,
)
from engine.domains.tiles.parallel_ida import spread_idastar
from engine.domains.tiles.pdb import kernel_inputs
from engine.domains.tiles.pools import ThreadPool
from engine.domains.tiles.ranking_kernels import board_rank
from tests.support.ida import one_iteration


@pytest.fixture(scope="module")
def pairs():
    return duplicate_strings(LEARN_DEPTH)


def visited(cell: int, moves: str, board: Board) -> set[int]:
    cells = {cell}
    for move in moves:
        cell = board.neighbor(cell, move)
        cells.add(cell)
    return cells


@pytest.mark.slow
def test_each_forbidden_string_replays_as_its_lesser_equivalent_from_every_cell_where_it_fits(pairs):
    """On a 6×6 and a 2×6 board, from every cell: wherever the forbidden string can be played, so can its equivalent,
    to the same board; the equivalent is shorter, or as long and earlier in U < D < L < R."""
    rank = {move: i for i, move in enumerate(MOVES)}
    assert {("UD", ""), ("DU", ""), ("LR", ""), ("RL", "")} <= set(pairs)  # parent pruning is among them
    played = set()
    for rows, cols in ((6, 6), (2, 6)):
        goal = goal_board(rows, cols)
        for cell in range(rows * cols):
            cells = list(goal.cells)
            cells[goal.blank], cells[cell] = cells[cell], 0
            start = Board(rows, cols, tuple(cells))
            for forbidden, equivalent in pairs:
                assert (len(equivalent), [rank[m] for m in equivalent]) < (len(forbidden), [rank[m] for m in forbidden])
                try:
                    after = start.apply(forbidden)
                except Exception:
                    continue  # leaves this board from this cell
                assert start.apply(equivalent) == after, (forbidden, equivalent, rows, cols, cell)
                assert visited(cell, equivalent, start) <= visited(cell, forbidden, start)
                played.add(forbidden)
    assert len(played) == len(pairs)  # every one was played somewhere


@pytest.mark.slow
def test_the_machine_forbids_exactly_the_strings_that_contain_a_forbidden_one(pairs):
    """Every string of up to 7 moves and random ones of 8 to 16, against a substring search of the patterns."""
    patterns = [forbidden for forbidden, _ in pairs]
    table, start = machine(patterns)
    ours = learned()
    assert (ours.start, ours.next.tolist()) == (start, table.tolist())
    rng = random.Random(45)
    strings = ["".join(moves) for length in range(8) for moves in itertools.product(MOVES, repeat=length)]
    strings += ["".join(rng.choice(MOVES) for _ in range(rng.randint(8, 16))) for _ in range(20_000)]
    for text in strings:
        assert (ours.walk(text) < 0) == any(p in text for p in patterns), text
    assert ours.walk("LURDLU") == -1 and ours.walk("ULDRUL") >= 0
    for state in range(parent_only().states):  # the parent-only machine: every move but the one back
        assert [parent_only().walk(m, state) < 0 for m in MOVES] == [
            state < 4 and m == "DURL"[state] for m in MOVES]


def bfs_length(board: Board, goal: Board) -> int:
    return int(goal_distance_table(goal)[board_rank(board.cells)])


@pytest.mark.parametrize("shape", [(3, 3), (2, 4), (2, 5)])
def test_pruned_idastar_finds_the_bfs_optimal_length(shape):
    goal = goal_board(*shape, "blank-last")
    for seed in range(25):
        board = random_solvable(goal, seed)
        result = idastar(board, goal, "manhattan", Watch(), pruning="fsm")
        assert result.extra["pruning"] == "fsm" and goal == board.apply(result.moves)
        assert result.length == bfs_length(board, goal), seed


def test_pruned_idastar_on_3x4_has_the_parent_pruned_length_and_never_more_nodes_per_bound():
    goal = goal_board(3, 4, "blank-first")
    for seed in range(12):
        board = random_solvable(goal, seed)
        parent = idastar(board, goal, "linear-conflict", Watch(), pruning="parent")
        pruned = idastar(board, goal, "linear-conflict", Watch(), pruning="fsm")
        assert pruned.length == parent.length and goal == board.apply(pruned.moves)
        assert_no_more_per_bound(pruned, parent)


def assert_no_more_per_bound(pruned, parent):
    """The same bounds; each completed one (all but the last) expands no more nodes than parent pruning's."""
    assert [b["bound"] for b in pruned.extra["bounds"]] == [b["bound"] for b in parent.extra["bounds"]]
    done = zip(pruned.extra["bounds"][:-1], parent.extra["bounds"][:-1], strict=True)
    assert all(ours["expanded"] <= theirs["expanded"] for ours, theirs in done)


def test_pruning_expands_fewer_nodes_on_15_puzzle_scrambles():
    goal = goal_board(4, 4, "blank-first")
    fewer = 0
    for seed in range(6):
        board, _ = scramble(goal, 50, seed)
        parent = idastar(board, goal, "manhattan", Watch(), pruning="parent")
        pruned = idastar(board, goal, "manhattan", Watch(), pruning="fsm")
        assert pruned.length == parent.length
        assert_no_more_per_bound(pruned, parent)
        bounds = pruned.extra["bounds"]
        fewer += len(bounds) > 1 and bounds[-2]["expanded"] < parent.extra["bounds"][-2]["expanded"]
    assert fewer >= 4


@pytest.mark.parametrize(("heuristic", "shape"), [("manhattan", (4, 4)), ("linear-conflict", (3, 5)),
                                                  ("manhattan", (5, 5))])
def test_the_pruned_kernel_is_the_pruned_reference_node_for_node(heuristic, shape):
    goal = goal_board(*shape, "blank-first")
    rng = random.Random(45)
    for _ in range(3):
        board, _ = scramble(goal, 40, rng.randrange(10**9))
        h = manhattan_distance(board, goal)
        for bound in (h, h + 2, h + 4):
            for quota in (7, 10**9):
                assert one_iteration("compiled", heuristic, board, goal, bound, quota, pruning="fsm") == one_iteration(
                    "reference", heuristic, board, goal, bound, quota, pruning="fsm")


def test_the_24_puzzle_prunes_by_the_machine_by_default_and_smaller_boards_by_the_parent():
    for shape, name in (((5, 5), "fsm"), ((4, 4), "parent"), ((3, 3), "parent")):
        goal = goal_board(*shape)
        assert idastar(goal.apply("ULUL"), goal, "manhattan", Watch()).extra["pruning"] == name


@pytest.mark.parametrize(("shape", "moves", "seed"), [((4, 4), 44, 3), ((5, 5), 40, 1)])
def test_the_spread_search_carries_the_machine_state_into_its_tasks(shape, moves, seed):
    goal = goal_board(*shape, "blank-first")
    board, _ = scramble(goal, moves, seed)
    serial = idastar(board, goal, "linear-conflict", Watch(), pruning="fsm")
    pool = ThreadPool(2)
    try:
        spread = spread_idastar(board, goal, "linear-conflict", Watch(), pool, pruning="fsm")
    finally:
        pool.close()
    assert spread.extra["pruning"] == "fsm" and any(spread.extra["tasks"])
    assert spread.length == serial.length and goal == board.apply(spread.moves)
    assert spread.extra["bounds"][:-1] == serial.extra["bounds"][:-1]


def test_the_ordered_database_kernel_pruned_solves_korf_instances_at_their_published_lengths(db663, korf):
    """Korf's instances 2 and 4 (55 and 56 moves; Korf 1985) with the 6-6-3 database: the ordered kernel, its
    children sorted by h, pruned by the machine, reaches the published optimum and expands no more per bound."""
    goal = goal_board(4, 4, "blank-first")
    for number, optimum, cells in (korf[1], korf[3]):
        board = Board(4, 4, cells)
        loaded = kernel_inputs(db663)
        parent = idastar(board, goal, "pdb-663", Watch(), loaded, pruning="parent")
        pruned = idastar(board, goal, "pdb-663", Watch(), loaded, pruning="fsm")
        assert pruned.length == parent.length == optimum and goal == board.apply(pruned.moves), number
        assert_no_more_per_bound(pruned, parent)
