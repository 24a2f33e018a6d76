"""Seed 000's figures, recomputed."""

import numpy as np
import pytest

from engine.core.errors import PuzzleError
from engine.domains.tiles import MOVES, Board, goal_board
from engine.domains.tiles.goal_arrays import neighbor_table
from engine.domains.tiles.ranking import lexicographic_radix
from engine.domains.tiles.ranking_kernels import rank_of_positions, unrank_positions
from engine.subjects.research.fullbfs import full_bfs
from engine.subjects.research.maxmd import lower_bound_formula, max_md_brute, max_md_exact, pattern_best
from engine.subjects.research.subproblem import solve_subproblem, state_count
from engine.subjects.research.table import KNOWN_DIAMETERS, bounds_table


@pytest.mark.parametrize("rows, cols, diameter", [(2, 2, 6), (2, 3, 21), (2, 4, 36), (2, 5, 55), (3, 3, 31)])
def test_full_bfs_diameters(rows, cols, diameter):
    result = full_bfs(rows, cols)
    assert result["diameter"] == diameter
    assert sum(result["histogram"]) == result["positions"]


def test_3x3_histogram_sums_to_181440_and_has_two_hardest():
    result = full_bfs(3, 3)
    assert sum(result["histogram"]) == 181_440
    assert result["hardest_count"] == 2 and len(result["hardest"]) == 2
    # The hardest positions really are 31 moves from the blank-first goal.
    from engine.domains.tiles.solving import solve_board

    goal = goal_board(3, 3, "blank-first")
    for cells in result["hardest"]:
        assert solve_board(Board(3, 3, tuple(cells)), goal, "idastar", "linear-conflict").length == 31


def test_full_bfs_refuses_large_boards():
    with pytest.raises(PuzzleError, match="at most 14 cells"):
        full_bfs(4, 4)


PAPER_TABLE_2 = {1: 1, 2: 6, 3: 12, 4: 21, 5: 31, 6: 44, 7: 58, 8: 75}


@pytest.mark.parametrize("n", range(1, 7))
def test_max_md_brute_force_equals_exact_method_and_paper(n):
    brute = max_md_brute(n)
    exact = max_md_exact(n)
    assert brute["max_md"] == exact["max_md"] == PAPER_TABLE_2[n]
    cells = exact["position"]
    assert sum(abs(c // n - t // n) + abs(c % n - t % n) for c, t in enumerate(cells) if t) == exact["max_md"]


def test_the_max_md_job_reports_progress_and_honours_a_cancel_between_batches():
    import threading

    from engine.subjects.research.jobs import max_md_job

    fractions = []
    result = max_md_job({"n": 4, "method": "brute"}, lambda fraction, info: fractions.append(fraction),
                        threading.Event())
    assert result["max_md"] == 21 and fractions[-1] == 1.0 and fractions == sorted(fractions) and len(fractions) > 1
    cancel = threading.Event()
    seen = []

    def report(fraction, info):  # a person cancels while the first batch's result is being reported
        seen.append(fraction)
        cancel.set()

    assert max_md_job({"n": 4, "method": "brute"}, report, cancel) == {"status": "cancelled", "n": 4}
    assert seen == [fractions[0]] and seen[0] < 1.0  # it stopped after one batch of the eight last tiles


@pytest.mark.parametrize("n", [7, 8])
def test_max_md_exact_beyond_brute_force(n):
    assert max_md_exact(n)["max_md"] == PAPER_TABLE_2[n]


@pytest.mark.parametrize("n", [2, 3, 9, 10, 25, 60])
def test_max_md_equals_the_formula_and_the_pattern_reaches_it(n):
    exact = max_md_exact(n)
    assert exact["max_md"] == lower_bound_formula(n)
    assert pattern_best(n)["max_md"] == exact["max_md"]
    # The maximizing position is solvable towards the blank-first goal (Thm 2.1's parity rule).
    from engine.domains.tiles.solvability import permutation_parity

    cells = exact["position"]
    blank = cells.index(0)
    assert permutation_parity(cells) == (blank // n + blank % n) % 2


def test_subproblem_rank_is_a_bijection():
    n, m = 3, 3
    seen = set()
    items = np.empty(m, dtype=np.int64)
    radix = lexicographic_radix(m, 2 * n)
    for rank in range(state_count(n, 1)):
        unrank_positions(rank, radix, items)
        assert len(set(items)) == m
        assert rank_of_positions(items, radix) == rank
        seen.add(tuple(items))
    assert len(seen) == 6 * 5 * 4


PAPER_TABLE_3 = [1, 6, 20, 27, 36, 45, 54, 63, 72, 81, 90, 99]


def test_table_3_k1_for_n_up_to_12():
    assert [solve_subproblem(n, 1)["f"] for n in range(1, 13)] == PAPER_TABLE_3


@pytest.mark.slow
def test_table_3_n_100_is_891():
    assert solve_subproblem(100, 1)["f"] == 891


@pytest.mark.parametrize("k, values", [(2, {2: 6, 3: 21, 4: 35, 5: 48, 6: 61}), (3, {3: 21, 4: 36, 5: 54, 6: 71})])
def test_table_5(k, values):
    assert {n: solve_subproblem(n, k)["f"] for n in values} == values


def test_hardest_k1_state_for_n4_matches_fig_8_and_the_papers_path_is_optimal():
    result = solve_subproblem(4, 1)
    # Fig. 8: both target tiles (3 and 7) in the leftmost column, the blank top-right.
    assert result["hardest"][0] in (3, 7) and result["hardest"][4] in (3, 7) and result["hardest"][3] == 0
    assert len(result["blank_path"]) == 27
    paper_path = "DLLLU RRDLLU RRDRULDLURDRU LLL".replace(" ", "")
    assert len(paper_path) == 27
    # Replay both paths on the sub-problem: they end with 3 and 7 home and the blank in cell 0.
    neighbors = neighbor_table(2, 4)
    for path in (paper_path, result["blank_path"]):
        cells = list(result["hardest"])
        for move in path:
            blank = cells.index(0)
            target = int(neighbors[blank, MOVES.index(move)])
            assert target >= 0
            cells[blank], cells[target] = cells[target], 0
        assert cells[3] == 3 and cells[7] == 7 and cells[0] == 0


def test_blank_anywhere_goal_saves_the_walk_home():
    assert [solve_subproblem(n, 1, blank_home=False)["f"] for n in range(4, 9)] == [8 * (n - 1) for n in range(4, 9)]


def test_bounds_table_flags_the_papers_two_inconsistencies_and_stays_above_known_diameters():
    table = bounds_table(12, {1: 12, 2: 10, 3: 6})
    rows = {r["n"]: r for r in table["rows"]}
    assert rows[4]["paper_upper"] == 48 and any("58" in f for f in rows[4]["flags"])
    assert rows[10]["lower_formula"] == 114 and any("144" in f for f in rows[10]["flags"])
    assert [rows[n]["paper_upper"] for n in range(4, 11)] == [48, 84, 129, 183, 246, 318, 399]
    flagged = [n for n, r in rows.items() if r["flags"]]
    assert flagged == [4, 10]
    for n, diameter in KNOWN_DIAMETERS.items():
        if n in rows:
            assert rows[n]["lower_formula"] <= diameter <= rows[n]["upper"] <= (rows[n]["paper_upper"] or 10**9)
    assert all(rows[n]["upper"] <= rows[n]["paper_upper"] for n in range(4, 13))
