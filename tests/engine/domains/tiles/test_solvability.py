import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import PuzzleError
from engine.domains.tiles import Board, check_solvable, goal_board, random_solvable, require_solvable, scramble
from engine.domains.tiles.kernel_drivers import bfs_distances


def test_seed_004_position_is_solvable():
    board = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))
    assert check_solvable(board, goal_board(3, 3, "blank-last")).solvable


def test_swapping_two_tiles_makes_it_unsolvable_with_an_explanation():
    goal = goal_board(3, 3, "blank-last")
    board = Board(3, 3, (2, 1, 3, 4, 5, 6, 7, 8, 0))
    verdict = check_solvable(board, goal)
    assert not verdict.solvable
    assert verdict.permutation_parity == 1 and verdict.blank_distance == 0
    assert "unsolvable" in verdict.explanation and "odd" in verdict.explanation
    with pytest.raises(PuzzleError, match="this position is unsolvable"):
        require_solvable(board, goal)


@pytest.mark.parametrize("rows, cols, convention", [(2, 2, "blank-first"), (2, 3, "blank-last"), (3, 2, "blank-first")])
def test_parity_rule_matches_reachability(rows, cols, convention):
    """Exactly the positions the BFS reaches from the goal are the ones the parity rule calls solvable: half of all."""
    goal = goal_board(rows, cols, convention)
    distance, _ = bfs_distances(goal)
    solvable_count = 0
    for index, perm in enumerate(itertools.permutations(range(rows * cols))):
        reachable = distance[index] != 255  # itertools yields permutations in lexicographic (rank) order
        assert check_solvable(Board(rows, cols, perm), goal).solvable == reachable
        solvable_count += reachable
    assert solvable_count * 2 == len(distance)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.sampled_from([(3, 3), (4, 4), (2, 5), (5, 6)]))
def test_random_positions_are_solvable_and_reproducible(seed, size):
    goal = goal_board(*size, "blank-first")
    board = random_solvable(goal, seed)
    assert check_solvable(board, goal).solvable
    assert random_solvable(goal, seed) == board


def test_random_solvable_is_uniform_on_2x2():
    """2x2 has 12 solvable positions; 12,000 draws put each within a generous band of 1,000."""
    goal = goal_board(2, 2, "blank-last")
    rng = random.Random(5)
    counts: dict[tuple, int] = {}
    for _ in range(12_000):
        board = random_solvable(goal, rng.randrange(10**9))
        counts[board.cells] = counts.get(board.cells, 0) + 1
    assert len(counts) == 12
    assert all(800 < c < 1200 for c in counts.values())


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 60))
def test_scramble_never_revisits_and_replays(seed, moves):
    goal = goal_board(4, 4, "blank-last")
    board, path = scramble(goal, moves, seed)
    assert len(path) == moves
    seen = {goal.cells}
    current = goal
    for move in path:
        current = current.move(move)
        assert current.cells not in seen
        seen.add(current.cells)
    assert current == board
    assert scramble(goal, moves, seed) == (board, path)
