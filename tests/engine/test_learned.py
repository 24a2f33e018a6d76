import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import store
from engine.errors import PuzzleError
from engine.learned.pattern import Pattern, pattern_for, rank_reference, unrank
from engine.learned.train import EMPTY, TrainingParams, check_params, train, update_entry
from engine.solvers import solve
from engine.tiles import goal_board, random_solvable
from engine.tiles.heuristics import manhattan_distance
from engine.tiles.kernels import pattern_rank
from engine.tiles.random import scramble

GOAL = goal_board(4, 4, "blank-first")
PATTERN = pattern_for()


def test_the_key_space_has_the_papers_size():
    assert PATTERN.size == 16 * 15 * 14 * 13 * 12 * 11 * 10 == 57_657_600
    assert PATTERN.items == (0, 10, 11, 12, 13, 14, 15)


@settings(max_examples=200, deadline=None)
@given(rank=st.integers(0, 57_657_599))
def test_the_index_is_a_bijection_on_the_key_space(rank):
    where = unrank(rank, PATTERN)
    assert len(set(where)) == 7 and all(0 <= c < 16 for c in where)
    cells = [1] * 16  # fill the other cells with non-key tiles; only the key items matter
    for item, cell in zip(PATTERN.items, where):
        cells[cell] = item
    others = iter(range(1, 10))
    cells = [next(others) if c == 1 and i not in where else c for i, c in enumerate(cells)]
    board = tuple(cells)
    assert rank_reference(board, PATTERN) == rank
    assert pattern_rank(np.array(board), PATTERN.key_slot(), PATTERN.key_radix()) == rank


def test_every_index_is_reached_exactly_once_on_a_small_key_space():
    small = Pattern(6, (4, 5))  # 6·5·4 = 120 keys
    ranks = set()
    for where in itertools.permutations(range(6), 3):
        cells = [1, 2, 3, 1, 2, 3]
        for item, cell in zip(small.items, where):
            cells[cell] = item
        filler = iter([1, 2, 3])
        cells = [next(filler) if i not in where else c for i, c in enumerate(cells)]
        ranks.add(pattern_rank(np.array(cells), small.key_slot(), small.key_radix()))
    assert ranks == set(range(small.size)) == set(range(120))


def test_algorithm_1_on_a_hand_made_walk():
    entries = np.full((4, 2), EMPTY, dtype=np.uint8)
    # the walk meets key 0 at step 1 (MD 1), key 1 at step 2 (MD 2), key 0 again at step 3 (MD 1)
    assert update_entry(entries, 0, 1, 1, False) == 1          # new: stored count 1, value |1 − 1| = 0
    assert update_entry(entries, 1, 2, 2, False) == 2
    assert update_entry(entries, 0, 3, 1, False) == 1          # stored count 1 < 3: the walk's count drops to 1
    assert entries[0].tolist() == [1, 0] and entries[1].tolist() == [2, 0]
    assert update_entry(entries, 1, 2, 0, False) == 2          # equal count: nothing changes for at-min-steps
    assert entries[1].tolist() == [2, 0]
    assert update_entry(entries, 2, 9, 3, False) == 9          # new: value |9 − 3| = 6
    assert update_entry(entries, 2, 5, 4, False) == 5          # smaller count: lowered, value now |5 − 4| = 1
    assert entries[2].tolist() == [5, 1]
    # min-diff keeps the least |s − MD| of any visit, even one with a larger count
    assert update_entry(entries, 3, 4, 0, True) == 4           # value 4
    assert update_entry(entries, 3, 6, 5, True) == 4           # count lowered to 4; |4 − 5| = 1 < 4
    assert entries[3].tolist() == [4, 1]


def trained(tmp_path, monkeypatch, **changes):
    monkeypatch.setattr(store, "_data_dir", tmp_path)
    return train(GOAL, TrainingParams(**{"walks": 3000, "length": 60, **changes}))


def test_training_is_deterministic_from_its_seed(tmp_path, monkeypatch):
    first = trained(tmp_path / "a", monkeypatch, seed=5)
    second = trained(tmp_path / "b", monkeypatch, seed=5)
    other = trained(tmp_path / "c", monkeypatch, seed=6)
    assert np.array_equal(first.table, second.table) and first.info["filled"] == second.info["filled"] > 0
    assert not np.array_equal(first.table, other.table)
    # the goal's own pattern is reached by every walk that returns to it; its step count is small and its value even
    assert first.info["fill"] < 0.01 and sum(first.info["value_histogram"]) == first.info["filled"]
    # reused, not retrained
    assert trained(tmp_path / "a", monkeypatch, seed=5).info == first.info


def test_the_two_value_rules_differ_only_where_they_should(tmp_path, monkeypatch):
    at_min = trained(tmp_path / "a", monkeypatch, seed=1)
    min_diff = trained(tmp_path / "b", monkeypatch, seed=1, value_rule="min-diff")
    assert at_min.info["filled"] == min_diff.info["filled"]  # same walks, same keys
    filled = at_min.table > 0
    assert (min_diff.table <= at_min.table).all() and (min_diff.table[filled] < at_min.table[filled]).any()


def test_ida_star_with_v_is_legal_never_shorter_and_v_is_md_where_the_table_is_empty(tmp_path, monkeypatch):
    table = trained(tmp_path, monkeypatch, walks=20000, length=80)
    from engine.learned import train as train_module
    monkeypatch.setattr(train_module, "_cache", {})
    for seed in range(4):
        board, _ = scramble(GOAL, 30, seed)
        v = solve(board, GOAL, "idastar", "learned")
        optimum = solve(board, GOAL, "idastar", "linear-conflict")
        assert v.status == "solved" and board.apply(v.moves).cells == GOAL.cells
        assert v.length >= optimum.length and not v.optimal
    empty = 0
    for seed in range(40):
        board = random_solvable(GOAL, seed)
        if table.value(board) == 0:
            empty += 1
            from engine.tiles.heuristics import heuristic_function
            assert heuristic_function("learned", GOAL)(board) == manhattan_distance(board, GOAL)
    assert empty > 0


def test_bad_training_parameters():
    with pytest.raises(PuzzleError, match="walks"):
        check_params({"walks": 0})
    with pytest.raises(PuzzleError, match="1 to 254"):
        check_params({"length": 300})
    with pytest.raises(PuzzleError, match="value_rule"):
        check_params({"value_rule": "max"})
    with pytest.raises(PuzzleError, match="from 1 to 15"):
        check_params({"tiles": "10 16"})
    with pytest.raises(PuzzleError, match="4x4"):
        train(goal_board(3, 3), TrainingParams(walks=1))
