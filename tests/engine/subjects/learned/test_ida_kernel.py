"""The learned table in the compiled searches: its IDA* kernel against the reference kernel of its h of a whole board,
and the compiled IDA* and A* against the readable ones with the plain V = MD + DB, node for node."""

from types import SimpleNamespace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.result import Watch
from engine.domains.tiles import goal_board, scramble
from engine.domains.tiles.astar import astar_fast, supports
from engine.domains.tiles.goal_arrays import goal_tables
from engine.domains.tiles.heuristic_kernels import manhattan_sum
from engine.domains.tiles.heuristics import heuristic, manhattan_distance
from engine.domains.tiles.problem import SlidingTileProblem
from engine.domains.tiles.solving import solve_board
from engine.search import astar_search, idastar_search
from engine.serving import store
from engine.subjects.learned import catalogue
from engine.subjects.learned.catalogue import TrainingParams
from engine.subjects.learned.ida_kernel import learned_value
from engine.subjects.learned.pattern import Pattern, rank_reference
from engine.subjects.learned.train import train
from tests.support.ida import one_iteration

GOAL = goal_board(4, 4, "blank-first")


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**9), quota=st.sampled_from([5, 10**9]))
def test_the_generated_learned_kernel_is_the_reference_kernel_node_for_node(seed, quota):
    board, _ = scramble(GOAL, 26, seed)
    pattern = Pattern(16, (13, 14, 15))  # 16·15·14·13 keys: a small table of random values
    learned = SimpleNamespace(key_slot=pattern.key_slot(), key_radix=pattern.key_radix(),
                              table=np.random.default_rng(seed).integers(0, 6, pattern.size).astype(np.uint8))
    _, h = heuristic("learned").compiled().inputs(board, GOAL, {"learned": learned}, 2)
    start = np.array(board.cells, dtype=np.int64)
    db = int(learned.table[rank_reference(board.cells, pattern)])
    assert learned_value(start, learned.key_slot, learned.key_radix, learned.table) == db
    assert h == manhattan_sum(start, goal_tables(GOAL).manhattan) + db == manhattan_distance(board, GOAL) + db
    bound = h + 4
    assert one_iteration("compiled", "learned", board, GOAL, bound, quota, {"learned": learned}) == one_iteration(
        "reference", "learned", board, GOAL, bound, quota, {"learned": learned})


def test_the_compiled_searches_with_v_are_the_readable_ones_node_for_node(tmp_path, monkeypatch):
    monkeypatch.setattr(store, "_data_dir", tmp_path)
    monkeypatch.setattr(catalogue, "_cache", {})
    # three tiles and the blank: 43,680 keys, a third of them reached by these walks; a walk's count is far above MD
    # (the values at the fewest steps are large), so V differs from MD
    table = train(GOAL, TrainingParams(walks=3000, length=60, tiles=(13, 14, 15), value_rule="at-min-steps"))
    boards = [scramble(GOAL, 24, seed)[0] for seed in range(4)]
    assert any(table.value(board) > 0 for board in boards)
    for board in boards:
        compiled = solve_board(board, GOAL, "idastar", "learned")
        readable = idastar_search(SlidingTileProblem(board, GOAL, "learned"))
        assert compiled.status == "solved" and board.apply(compiled.moves) == GOAL
        assert compiled.moves == readable.moves
        assert (compiled.nodes_expanded, compiled.nodes_generated) == (readable.nodes_expanded,
                                                                       readable.nodes_generated)
        loaded = heuristic("learned").inputs(GOAL, {})[1]
        compiled = astar_fast(board, GOAL, "learned", Watch(), loaded)
        readable = astar_search(SlidingTileProblem(board, GOAL, "learned"))
        assert compiled.status == "solved" and compiled.moves == readable.moves
        assert (compiled.nodes_expanded, compiled.nodes_generated, compiled.peak_frontier) == (
            readable.nodes_expanded, readable.nodes_generated, readable.peak_frontier)
    assert supports(GOAL, "learned")  # so the astar solver runs this kernel
