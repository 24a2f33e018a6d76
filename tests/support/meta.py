"""A made-up result of the seed-001 experiment, for the tests of the claims it is judged by (engine and page)."""

from __future__ import annotations


def synthetic_experiment(solved: dict, optimal: dict, trials: int = 30) -> dict:
    """A result with ``solved[depth]`` trials solved (at iteration 80, or 6,000 for the last one of depth 30) and
    ``optimal[depth]`` of them "optimal" at iteration 40."""
    rows = []
    for depth in (10, 30, 50):
        for t in range(trials):
            solved_at = (6_000 if depth == 30 and t == solved[depth] - 1 else 80) if t < solved[depth] else None
            optimal_at = 40 if t < optimal[depth] else None
            rows.append({"depth": depth, "trial": t,
                         "dpso": {"solved_at": solved_at, "optimal_at": optimal_at, "seconds": 2.0},
                         "ga": {"solved_at": 30_000 if t < solved[depth] // 2 else None, "optimal_at": None,
                                "seconds": 1.0}})
    return {"trials": trials, "rows": rows, "dpso": {"iterations": 10_000}, "ga": {"generations": 50_000}}
