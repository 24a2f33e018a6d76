"""What a player asks of the engine (engine/domains/tiles/player.py): the strongest solver ready, a hint whose move
lowers the distance by one (checked by breadth-first search and by other solvers), and positions exactly d moves from
solved."""

import os
import random

import numpy as np
import pytest

from engine.core.errors import PuzzleError
from engine.domains.tiles import Board, goal_board, pdb, random_solvable
from engine.domains.tiles.kernel_drivers import bfs_distances
from engine.domains.tiles.player import hint, position_at_distance, strongest_solver
from engine.domains.tiles.ranking import partial_rank, partial_unrank
from engine.domains.tiles.ranking_kernels import board_rank
from engine.domains.tiles.solving import solve_board
from engine.serving import store

GOAL_3x3 = goal_board(3, 3, "blank-last")


@pytest.fixture(scope="module")
def bfs_3x3():
    """Every 8-puzzle position's distance from the goal, by breadth-first search."""
    return bfs_distances(GOAL_3x3)[0]


def test_unranking_inverts_ranking():
    rng = random.Random(5)
    for m, n in [(9, 9), (4, 16), (1, 3), (16, 16)]:
        for _ in range(200):
            where = rng.sample(range(n), m)
            assert partial_unrank(partial_rank(where, n), m, n) == where


def test_without_tables_the_strongest_solver_is_the_distance_table_then_idastar_then_the_beam(tmp_path, monkeypatch):
    # an empty data folder: other tests of the run may have built a database in the shared one
    monkeypatch.setattr("engine.serving.store._data_dir", tmp_path)
    assert not pdb.is_ready(goal_board(4, 4))
    expected = {(3, 3): "table:perfect", (2, 5): "table:perfect", (3, 4): "idastar:linear-conflict",
                (4, 4): "idastar:linear-conflict", (5, 5): "near-optimal:", (2, 12): "near-optimal:"}
    for (rows, cols), choice in expected.items():
        goal = goal_board(rows, cols)
        assert ":".join(strongest_solver(goal, goal)[:2]) == choice


def test_a_hint_on_random_8_puzzles_lowers_the_bfs_distance_by_one(bfs_3x3):
    rng = random.Random(11)
    for _ in range(25):
        board = random_solvable(GOAL_3x3, rng.randrange(10**9))
        answer = hint(board, GOAL_3x3)
        d = int(bfs_3x3[board_rank(board.cells)])
        after = board.move(answer.move)
        assert answer.optimal and (answer.before, answer.after) == (d, d - 1)
        assert int(bfs_3x3[board_rank(after.cells)]) == d - 1
        assert after.cells[board.blank] == answer.tile  # the tile named is the one that slid into the blank


def test_a_hint_on_the_goal_and_on_an_unsolvable_position():
    assert hint(GOAL_3x3, GOAL_3x3).move is None
    with pytest.raises(PuzzleError, match="unsolvable"):
        hint(Board(3, 3, (2, 1, 3, 4, 5, 6, 7, 8, 0)), GOAL_3x3)


def test_a_hint_beyond_16_cells_is_near_optimal_and_says_so():
    goal = goal_board(5, 5)
    board = random_solvable(goal, 4)
    answer = hint(board, goal)
    assert not answer.optimal and "not proven shortest" in answer.text and "at most" in answer.text
    assert solve_board(board.move(answer.move), goal, "fast", "").status == "solved"


@pytest.mark.parametrize("distance", [1, 14, 31])
def test_an_8_puzzle_position_at_a_distance_is_that_far_by_bfs(bfs_3x3, distance):
    board = position_at_distance(GOAL_3x3, distance, seed=distance)
    assert int(bfs_3x3[board_rank(board.cells)]) == distance
    assert position_at_distance(GOAL_3x3, distance, seed=distance) == board  # reproducible from the seed


def test_a_15_puzzle_position_at_a_distance_is_that_far_by_another_optimal_solver():
    goal = goal_board(4, 4)
    board = position_at_distance(goal, 18, seed=3)
    assert solve_board(board, goal, "idastar", "manhattan").length == 18


def test_distances_that_no_position_has_are_refused_with_the_farthest():
    with pytest.raises(PuzzleError, match="farthest are 31 moves"):
        position_at_distance(GOAL_3x3, 32)
    with pytest.raises(PuzzleError, match="16 cells"):
        position_at_distance(goal_board(5, 5), 10)


@pytest.mark.slow
def test_with_a_pattern_database_a_15_puzzle_hint_is_checked_by_solving_both_positions(db663, korf):
    """Korf's published optimal lengths give d; an optimal solve of the hinted position gives d − 1."""
    goal = goal_board(4, 4, "blank-first")
    assert strongest_solver(goal, goal)[:2] == ("idastar", "pdb")
    for _, optimum, cells in sorted(korf, key=lambda instance: instance[1])[:3]:
        board = Board(4, 4, cells)
        answer = hint(board, goal)
        assert answer.optimal and answer.heuristic == "pdb-663"
        assert (answer.before, answer.after) == (optimum, optimum - 1)
        after = solve_board(board.move(answer.move), goal, "idastar", "pdb")
        assert after.optimal and after.length == optimum - 1


def test_a_second_hint_reads_its_distance_table_from_memory_until_the_file_changes(tmp_path, monkeypatch):
    store.set_data_dir(tmp_path)
    reads = []
    load = store.load
    monkeypatch.setattr(store, "load", lambda name, mmap=False: reads.append(name) or load(name, mmap))
    goal = goal_board(2, 3)
    board = random_solvable(goal, 7)
    exact = int(bfs_distances(goal)[0][board_rank(board.cells)])
    assert hint(board, goal).before == exact and len(reads) == 1  # not built yet: read (missing), built, saved
    assert hint(board, goal).before == exact and hint(goal.move(goal.legal_moves()[0]), goal).before == 1
    assert len(reads) == 1
    path = store.path_of(reads[0])
    store.save(reads[0], np.load(path))  # the table rebuilt: a new file, read again
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert hint(board, goal).before == exact and len(reads) == 2
    assert hint(board, goal).before == exact and len(reads) == 2
    monkeypatch.setattr(store, "KEPT_BYTES", 100)  # no room: every hint reads the file
    store._kept.clear()
    hint(board, goal)
    hint(board, goal)
    assert len(reads) == 4
