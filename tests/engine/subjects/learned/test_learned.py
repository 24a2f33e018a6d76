import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import PuzzleError
from engine.domains.tiles import goal_board, random_solvable
from engine.domains.tiles.heuristics import manhattan_distance
from engine.domains.tiles.random import scramble
from engine.domains.tiles.ranking_kernels import pattern_rank
from engine.domains.tiles.solving import solve_board
from engine.serving import store
from engine.subjects.learned.catalogue import TrainingParams, check_params
from engine.subjects.learned.kernels import EMPTY, new_entries, record_state, train_reference, update_entry
from engine.subjects.learned.pattern import Pattern, pattern_for, rank_reference, unrank
from engine.subjects.learned.train import train

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
    for item, cell in zip(PATTERN.items, where, strict=True):
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
        for item, cell in zip(small.items, where, strict=True):
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


@pytest.mark.parametrize("rule", ["min-diff", "at-min-steps"])
def test_the_value_rules_on_a_hand_made_pair_of_walks(rule):
    """Two walks given as the (key, MD) of the states they visit; key 0 is the goal's pattern (count 0, value 0)."""
    min_diff = rule == "min-diff"
    walk_1 = [(1, 1), (2, 0), (3, 3)]
    walk_2 = [(3, 6), (2, 1), (1, 4), (0, 4), (1, 1)]
    counts = {}
    for update in ("kernel", "reference"):
        entries = np.full((4, 2), EMPTY, dtype=np.uint8)
        entries[0] = 0
        seen = []
        for walk in (walk_1, walk_2):
            n = 0
            for key, md in walk:
                if update == "kernel":
                    n = update_entry(entries, key, n + 1, md, min_diff)
                else:
                    n = record_state(entries, key, n + 1, md, rule)
                seen.append(n)
        counts[update] = (seen, entries.tolist())
    assert counts["kernel"] == counts["reference"]
    seen, table = counts["kernel"]
    # walk 1 stores counts 1, 2, 3 (values 0, 2, 0); walk 2 lowers key 3 to count 1 (|1 − 6| = 5), meets key 2 at
    # the same count 2 (|2 − 1| = 1), is lowered to key 1's count 1 (line 10), then to 0 at the goal's pattern
    assert seen == [1, 2, 3, 1, 2, 1, 0, 1]
    if min_diff:  # the smallest |s − MD| of any visit
        assert table == [[0, 0], [1, 0], [2, 1], [1, 0]]
    else:  # the |s − MD| of the visit with the fewest steps: key 3 takes walk 2's 5, key 2 keeps walk 1's 2
        assert table == [[0, 0], [1, 0], [2, 2], [1, 5]]


def test_the_training_kernel_agrees_with_the_plain_python_algorithm_1():
    for rule, undo in (("min-diff", False), ("at-min-steps", True)):
        params = TrainingParams(walks=45, length=30, value_rule=rule, allow_undo=undo, seed=4)  # a partial batch
        reference = train_reference(GOAL, params)
        entries = new_entries(PATTERN, GOAL)
        from engine.core.fastrandom import generator
        from engine.domains.tiles.goal_arrays import goal_tables
        from engine.subjects.learned.kernels import LANES, train_walks

        tables = goal_tables(GOAL)
        train_walks(entries, params.walks, params.length, generator(params.seed), np.array(GOAL.cells), GOAL.blank,
                    tables.neighbors, tables.manhattan, PATTERN.key_slot(), PATTERN.key_radix(), undo,
                    rule == "min-diff", np.empty((LANES, 16), dtype=np.int64), np.empty((LANES, 7), dtype=np.int64),
                    np.zeros((LANES, 5), dtype=np.int64))
        assert np.array_equal(entries, reference)
        assert np.count_nonzero(entries[:, 0] != EMPTY) > 100


def trained(tmp_path, monkeypatch, **changes):
    monkeypatch.setattr(store, "_data_dir", tmp_path)
    return train(GOAL, TrainingParams(**{"walks": 3000, "length": 60, **changes}))


def test_training_is_deterministic_from_its_seed(tmp_path, monkeypatch):
    first = trained(tmp_path / "a", monkeypatch, seed=5)
    second = trained(tmp_path / "b", monkeypatch, seed=5)
    other = trained(tmp_path / "c", monkeypatch, seed=6)
    assert np.array_equal(first.table, second.table) and first.info["filled"] == second.info["filled"] > 0
    assert not np.array_equal(first.table, other.table)
    assert first.info["fill"] < 0.01 and sum(first.info["value_histogram"]) == first.info["filled"]
    assert first.info["steps_histogram"][0] == 1  # the goal's pattern, and only it, has count 0
    # reused, not retrained
    assert trained(tmp_path / "a", monkeypatch, seed=5).info == first.info


def test_the_two_value_rules_differ_only_where_they_should(tmp_path, monkeypatch):
    at_min = trained(tmp_path / "a", monkeypatch, seed=1, value_rule="at-min-steps")
    min_diff = trained(tmp_path / "b", monkeypatch, seed=1)
    assert at_min.info["filled"] == min_diff.info["filled"]  # same walks, same keys
    filled = at_min.table > 0
    assert (min_diff.table <= at_min.table).all() and (min_diff.table[filled] < at_min.table[filled]).any()


@pytest.mark.parametrize("rule", ["min-diff", "at-min-steps"])
def test_db_of_the_goal_is_0_and_v_solves_every_position_one_move_away_in_one_move(tmp_path, monkeypatch, rule):
    table = trained(tmp_path, monkeypatch, walks=20000, length=200, value_rule=rule)
    from engine.subjects.learned import catalogue
    monkeypatch.setattr(catalogue, "_cache", {})
    assert table.value(GOAL) == 0 and table.table[rank_reference(GOAL.cells, PATTERN)] == 0
    # with DB(goal) = 2 (walks never storing the start) the first bound V(p) = 1 + DB(p) would be below the goal's
    # f = 1 + 2, so IDA* would need a second iteration and could return a longer answer
    for move in "UDLR":
        try:
            board = GOAL.apply(move)
        except PuzzleError:
            continue  # the blank is in a corner: two of the four moves leave the board
        result = solve_board(board, GOAL, "idastar", "learned")
        assert result.status == "solved" and result.length == 1
        assert len(result.extra["bounds"]) == 1  # found in the first iteration: V(goal) = 0 fits under any bound


def test_ida_star_with_v_is_legal_never_shorter_and_v_is_md_where_the_table_is_empty(tmp_path, monkeypatch):
    table = trained(tmp_path, monkeypatch, walks=20000, length=80)
    from engine.subjects.learned import catalogue
    monkeypatch.setattr(catalogue, "_cache", {})
    for seed in range(4):
        board, _ = scramble(GOAL, 30, seed)
        v = solve_board(board, GOAL, "idastar", "learned")
        optimum = solve_board(board, GOAL, "idastar", "linear-conflict")
        assert v.status == "solved" and board.apply(v.moves).cells == GOAL.cells
        assert v.length >= optimum.length and not v.optimal
    empty = 0
    for seed in range(40):
        board = random_solvable(GOAL, seed)
        if table.value(board) == 0:
            empty += 1
            from engine.domains.tiles.heuristics import heuristic_function
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


@pytest.mark.slow
def test_the_m_curve_evaluates_every_table_on_the_same_positions_and_reuses_the_baseline(monkeypatch, db663):
    from engine.core.result import Budget
    from engine.subjects.learned import curve

    # Seed 12's two positions are 37 and 60 moves from the goal: the pattern database solves both within the node
    # budget, Manhattan distance only the first (679 k nodes), so the curve has one position both finished and one
    # that Manhattan ran out on, in two length groups. Only nodes decide (the time budget is far out of reach).
    budget = Budget(max_nodes=3_000_000, max_seconds=3_600)
    path = curve._baseline_path(2, 12, budget)
    path.unlink(missing_ok=True)  # computed here, not left over from an earlier run
    result = curve.m_curve((300, 3000), count=2, seed=12, budget=budget)
    assert result["status"] == "done" and path.exists()
    assert [p["walks"] for p in result["points"]] == [300, 3000]
    for p in result["points"]:
        o = p["overall"]
        assert o["positions"] == o["with_optimum"] == 2 and o["both_finished"] == 1
        assert o["manhattan_over_budget"] == 1 and o["never_shorter"]
        assert [c["key"] for c in p["paper"]] == ["node_reduction", "time_reduction", "optimal_share"]
        assert o["node_reduction"] is not None and o["node_reduction"] < 1
        # the same positions, so the same groups, for every M
        assert [(g["low"], g["positions"], g["both_finished"]) for g in p["groups"]] == [(30, 1, 1), (50, 1, 0)]
    # the second time the Manhattan and PDB searches are read back, not run: only V is solved
    calls = []
    original = curve.evaluate
    monkeypatch.setattr(curve, "evaluate", lambda *a, **k: calls.append(k.get("heuristics")) or original(*a, **k))
    again = curve.m_curve((300,), count=2, seed=12, budget=budget)
    assert calls == [("learned",)]
    first, repeated = result["points"][0]["overall"], again["points"][0]["overall"]
    for key in ("with_optimum", "both_finished", "node_reduction", "learned_mean_nodes"):  # node counts repeat
        assert repeated[key] == first[key], key
    # what `learned curve --record` writes has the shape of the curve the Learned page shows from the repository
    from engine.core.records import load_record, shape

    written = {**curve.recordable_curve(result), "command": "", "measured": ""}
    assert shape(written) == shape(load_record("learned", "m-curve-uniform"))


def test_the_curve_job_checks_its_parameters(monkeypatch):
    from engine.serving.jobs import FULL_SIZE_VARIABLE
    from engine.subjects.learned.jobs import check_curve

    monkeypatch.setenv(FULL_SIZE_VARIABLE, "1")
    assert check_curve({"walks": "700000, 2000000", "positions": "10"})["walks"] == [700_000, 2_000_000]
    assert check_curve({})["walks"] == [700_000, 2_000_000, 10_000_000, 100_000_000]
    for params, message in [({"walks": "0"}, "walks"), ({"walks": "1 2 3 4 5 6 7 8 9"}, "1 to 8"),
                            ({"positions": "0"}, "positions"), ({"max_seconds": "5000"}, "max_seconds"),
                            ({"max_nodes": "-1"}, "max_nodes"), ({"positions_from": "walk"}, "positions_from"),
                            ({"positions_from": "walk:0"}, "positions_from"), ({"positions_from": "gauss"}, "uniform")]:
        with pytest.raises(PuzzleError, match=message):
            check_curve(params)
    assert check_curve({})["positions_from"] == "uniform"
    assert check_curve({"positions_from": " Walk:060 "})["positions_from"] == "walk:60"


def test_a_curve_job_past_the_pages_size_is_the_operators(monkeypatch):
    """An empty request once started the paper's curve (M up to 10^8, each search an hour): hours of a worker."""
    from engine.serving.jobs import FULL_SIZE_VARIABLE
    from engine.subjects.learned.jobs import check_curve

    monkeypatch.delenv(FULL_SIZE_VARIABLE, raising=False)
    empty = check_curve({})
    assert max(empty["walks"]) == 10_000_000 and empty["max_seconds"] <= 60 and empty["positions"] <= 100
    for params in ({"walks": "100000000"}, {"positions": "500"}, {"max_seconds": "3600"}):
        with pytest.raises(PuzzleError, match="python -m engine learned curve"):
            check_curve(params)
    monkeypatch.setenv(FULL_SIZE_VARIABLE, "1")
    assert check_curve({"walks": "100000000", "positions": "500"})["walks"] == [100_000_000]


def test_positions_by_random_sliding_are_that_many_slides_from_the_goal_and_reproducible():
    from engine.domains.tiles.random import random_solvable
    from engine.domains.tiles.solving import solve_board
    from engine.subjects.learned.evaluate import make_positions

    goal = goal_board(4, 4, "blank-first")
    walked = make_positions(goal, 4, 3, "walk:12")
    assert walked == make_positions(goal, 4, 3, "walk:12") != make_positions(goal, 4, 4, "walk:12")
    for board in walked:
        assert solve_board(board, goal, "idastar", "manhattan").length <= 12
    assert make_positions(goal, 3, 5) == [random_solvable(goal, 5 * 1_000_003 + i) for i in range(3)]


@pytest.mark.slow
def test_the_m_curve_job_stopped_in_its_second_m_keeps_the_first_point(db663):
    """Seed 12's two positions (as above): the job cancelled as it starts on M = 3,000 answers M = 300's
    point; given back, only M = 3,000 is measured, and the curve is the uninterrupted one's."""
    import json
    import threading

    from engine.subjects.learned import curve
    from engine.subjects.learned.jobs import check_curve, curve_job

    params = check_curve({"walks": [300, 3000], "positions": 2, "seed": 12, "max_nodes": 3_000_000})
    whole = curve_job(params, lambda *_: None, threading.Event())
    cancel = threading.Event()

    def progress(fraction, info):
        if "M = 3,000" in info.get("text", ""):  # training it, or (a table trained before) evaluating it
            cancel.set()
    stopped = curve_job(params, progress, cancel)
    assert stopped["status"] == "cancelled" and [p["walks"] for p in stopped["points"]] == [300]
    measured = []
    original = curve.point
    curve.point = lambda name, *a, **k: measured.append(name) or original(name, *a, **k)
    try:
        again = curve_job({**params, **json.loads(json.dumps(stopped["resume"]))}, lambda *_: None,
                          threading.Event())
    finally:
        curve.point = original
    assert len(measured) == 1 and again["status"] == "done"
    assert [(p["walks"], p["overall"]["node_reduction"]) for p in again["points"]] == [
        (p["walks"], p["overall"]["node_reduction"]) for p in whole["points"]]
