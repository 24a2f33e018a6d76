"""Seed 003 figures: the cost of generating moves, the search from a position near the goal with and without duplicate
detection, and the search from the start within a budget (it does not reach the goal yet: docs/rectout.md).

Medians of 3 runs. Usage: python bench/rectout.py [--start-seconds S]   (default 120; 0 skips the start search)
"""

from __future__ import annotations

import argparse
import math

from common import header, median_time, table

from engine.rectout.moves import motions
from engine.rectout.puzzle import start_state
from engine.rectout.search import solve
from engine.result import Budget

UPRIGHT = math.pi / 2
NEAR_GOAL = ((1.22, 4.88, UPRIGHT), (3.66, 4.88, UPRIGHT), (11.78, 4.88, UPRIGHT), (6.2, 8.0, UPRIGHT))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--start-seconds", type=float, default=120)
    args = parser.parse_args()
    header("Rectangle-out (seed 003)")
    motions(start_state())  # compile (or load from the numba cache) outside the timings
    rows = []
    for name, state in (("start", start_state()), ("near the goal", NEAR_GOAL)):
        for pairs in (False, True):
            seconds, found = median_time(lambda: motions(state, pairs), runs=3)
            rows.append([name, "one plate + pairs" if pairs else "one plate", len(found), f"{1000 * seconds:.1f}"])
    print(table(["position", "bodies", "motions", "ms to generate"], rows))
    rows = []
    budget = Budget(max_nodes=5_000, max_seconds=300)
    for dedupe in (True, False):
        seconds, result = median_time(lambda: solve(NEAR_GOAL, budget, dedupe=dedupe), runs=3)
        rows.append(["near the goal", "yes" if dedupe else "no", result.status, len(result.motions),
                     len(result.groups), f"{result.expanded:,}", f"{result.duplicates:,}", f"{seconds:.2f}"])
    if args.start_seconds > 0:
        result = solve(start_state(), Budget(max_nodes=10 ** 7, max_seconds=args.start_seconds))
        rows.append(["start", "yes", result.status, len(result.motions), len(result.groups),
                     f"{result.expanded:,}", f"{result.duplicates:,}", f"{result.seconds:.0f}"])
    print(table(["from", "duplicate detection", "status", "motions", "paper moves", "expanded", "merged", "s"], rows))


if __name__ == "__main__":
    main()
