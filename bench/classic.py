"""Seed 004 figures: N queens by each method for N = 8..16 (the seed's Node.js times beside ours), and the time to
count the knight's tours of 5×5 from a corner.

Medians of 3 runs where a run takes under 5 s, one run otherwise. Generate-and-test stops at N = 12 (N! grows past
reach: 16! is 2·10^13 arrangements). Usage: python bench/classic.py [--quick]   (--quick: N up to 13)
"""

from __future__ import annotations

import argparse
import statistics

from common import header, table

from engine.subjects.classic import knights, queens

TOP = {"generate-and-test": 12, "backtracking": 16, "bitmask": 16}


def timed(function, limit_for_repeats: float = 5.0):
    first = function()
    runs = [first["seconds"]]
    if first["seconds"] < limit_for_repeats:
        runs += [function()["seconds"] for _ in range(2)]
    return first, statistics.median(runs), len(runs)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    header("classic search (seed 004)")
    for method in queens.METHODS:
        queens.count_solutions(4, method)  # compile (or load from the numba cache) outside the timings
    rows = []
    for n in range(8, 17):
        row = [n, f"{queens.SEED_COUNTS.get(n, '-')}"]
        for method in queens.METHODS:
            if n > TOP[method] or (args.quick and n > 13):
                row += ["-", "-"]
                continue
            result, seconds, runs = timed(lambda n=n, method=method: queens.count_solutions(n, method))
            seed = queens.SEED_SECONDS.get(method, {}).get(n)
            row += [f"{result['solutions']:,}", f"{seconds:.4f}" + (f" ({seed})" if seed else "")]
        rows.append(row)
    print("N queens: solutions and median seconds per method (seed 004's Node.js seconds in brackets)")
    print(table(["N", "seed count", "g&t count", "g&t s", "backtrack count", "backtrack s", "bitmask count",
                 "bitmask s"], rows))
    knights.count_tours(3, 4, 0)  # compile
    result, seconds, runs = timed(lambda: knights.count_tours(5, 5, 0))
    print(f"\nknight's tours of 5x5 from a corner: {result['tours']} (seed: 304), {result['nodes']:,} jumps, "
          f"median {seconds:.3f} s over {runs} runs")


if __name__ == "__main__":
    main()
