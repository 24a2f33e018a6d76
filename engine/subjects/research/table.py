"""The bounds table of seed 000 (Table 4), corrected and extended.

For each n: the lower bound (Thm 1.1's formula and the exact max MD), the exact diameter where known, the paper's
upper bound and ours.

* Paper's upper bound: UB(3) = 21, UB(n) = f_1(n) + UB(n−1) with the paper's sub-problem (blank home).
* Ours: UB*(n) = min over k of [f*_k(n) + UB*(n−k)], from the same base UB*(n) = D(n) for n ≤ 3 (our BFS), where
  f*_k is the k-column sub-problem with the blank allowed anywhere (engine/subjects/research/subproblem.py). It is a
  valid upper bound because any solvable position can first be brought, in at most f*_k(n) moves, to one whose rightmost
  k columns are home; those columns never move again, and the rest is a solvable 2×(n−k) position, which needs at most
  D(n−k) ≤ UB*(n−k) moves. Every k is a valid choice, so the minimum is too.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core.result import Watch
from engine.core.status import Status
from engine.subjects.research.maxmd import lower_bound_formula, max_md_exact
from engine.subjects.research.subproblem import MAX_STATES, solve_subproblem, state_count

#: Seed 000, Table 1 (row m = 2): known diameters of 2×n, the larger ones from the literature.
KNOWN_DIAMETERS = {1: 1, 2: 6, 3: 21, 4: 36, 5: 55, 6: 80, 7: 108, 8: 140}
#: The 2×7 puzzle's positions per distance from a corner goal, a(0..38) of OEIS A346736 (Korf 2008, recomputed by
#: Rokicki): the published check of the partitioned BFS layer by layer. The same sequence ends at a(108) = 1.
OEIS_2X7_FIRST = [1, 2, 3, 6, 11, 20, 37, 67, 117, 198, 329, 557, 942, 1575, 2597, 4241, 6724, 10535, 16396, 25515,
                  39362, 60532, 92089, 138969, 207274, 307725, 453000, 664240, 964874, 1392975, 1992353, 2832063,
                  3988528, 5586275, 7756511, 10698721, 14621717, 19840724, 26676629]
OEIS_2X7_LAST = {"diameter": 108, "at_diameter": 1}
#: Seed 000, Table 4 as printed (n = 4..10).
PAPER_TABLE_4 = {
    "lower": {4: 21, 5: 31, 6: 44, 7: 58, 8: 75, 9: 93, 10: 144},
    "exact": {4: 36, 5: 55, 6: 80, 7: 108, 8: 140},
    "upper": {4: 58, 5: 84, 6: 129, 7: 183, 8: 246, 9: 318, 10: 399},
}
BASE = {1: 1, 2: 6, 3: 21}  # exact, by the full BFS (tests check it)


def paper_upper_bounds(n_max: int, f1: Callable[[int], int]) -> dict[int, int]:
    bounds = {3: 21}
    for n in range(4, n_max + 1):
        bounds[n] = f1(n) + bounds[n - 1]
    return bounds


def improved_upper_bounds(n_max: int, f_star: dict[tuple[int, int], int]) -> dict[int, tuple[int, int]]:
    """UB*(n) and the k that achieves it, for n = 1..n_max."""
    bounds: dict[int, tuple[int, int]] = {n: (d, 0) for n, d in BASE.items()}
    for n in range(4, n_max + 1):
        options = [(f_star[(n, k)] + bounds[n - k][0], k) for k in (1, 2, 3) if (n, k) in f_star and n - k >= 1]
        bounds[n] = min(options)
    return bounds


def bounds_table(n_max: int = 20, k_limits: dict[int, int] | None = None, progress=None, cancel=None) -> dict:
    """Compute every column of the table for n = 1..n_max. ``k_limits`` caps n for each k (cost grows fast)."""
    k_limits = k_limits or {1: n_max, 2: min(n_max, 12), 3: min(n_max, 7)}
    jobs = [(n, k) for k, limit in k_limits.items() for n in range(max(k, 1), limit + 1)
            if state_count(n, k) <= MAX_STATES]
    f_paper: dict[int, int] = {}
    f_star: dict[tuple[int, int], int] = {}
    watch = Watch.cancel_only(cancel)
    for index, (n, k) in enumerate(jobs):
        if cancel is not None and cancel.is_set():
            return {"status": Status.CANCELLED}
        if progress:
            progress(index / (len(jobs) + 1), {"nodes": index, "text": f"sub-problem k={k}, n={n}"})
        results = [solve_subproblem(n, k, watch, blank_home=False)]
        if k == 1 and n >= 4:
            results.append(solve_subproblem(n, 1, watch, blank_home=True))
        if any(r.get("status") == Status.CANCELLED for r in results):
            return {"status": Status.CANCELLED}
        f_star[(n, k)] = results[0]["f"]
        if len(results) == 2:
            f_paper[n] = results[1]["f"]
    paper = paper_upper_bounds(n_max, lambda n: f_paper[n])
    ours = improved_upper_bounds(n_max, f_star)
    rows = []
    for n in range(1, n_max + 1):
        max_md = max_md_exact(n)["max_md"]
        row = {"n": n, "lower_formula": lower_bound_formula(n), "max_md": max_md,
               "exact": KNOWN_DIAMETERS.get(n), "paper_upper": paper.get(n), "upper": ours[n][0],
               "upper_k": ours[n][1], "f1_paper": f_paper.get(n), "f_star": {k: f_star.get((n, k)) for k in (1, 2, 3)},
               "printed": {key: PAPER_TABLE_4[key].get(n) for key in PAPER_TABLE_4}, "flags": []}
        if row["printed"]["lower"] is not None and row["printed"]["lower"] != row["lower_formula"]:
            row["flags"].append(f"the paper prints lower bound {row['printed']['lower']}; Thm 1.1 gives "
                                f"n² + ⌊3n/2⌋ − 1 = {row['lower_formula']} (and the exact max MD is {max_md})")
        if row["printed"]["upper"] is not None and row["printed"]["upper"] != row["paper_upper"]:
            row["flags"].append(f"the paper prints upper bound {row['printed']['upper']}; its own recursion "
                                f"9(n−1) + UB(n−1) from UB(3) = 21 gives {row['paper_upper']} (and its next entry, "
                                f"{PAPER_TABLE_4['upper'].get(n + 1)}, is {row['paper_upper']} + f(n+1))")
        rows.append(row)
    return {"status": Status.DONE, "n_max": n_max, "k_limits": {str(k): v for k, v in k_limits.items()}, "rows": rows}
