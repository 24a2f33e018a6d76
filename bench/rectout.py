"""Seed 003 figures: the cost of generating moves (and of one set rotation), and the search from the default start
and from near the goal, with and without duplicate detection, as A* (weight 1) and weighted A* (weight 3).

Medians of 3 runs (the searches from the start: of --runs runs, default 1, they are deterministic and long).
Usage: python bench/rectout.py [--runs N] [--quick]   (--quick: weight 3 only from the start)
"""

from __future__ import annotations

import argparse

from common import header, median_time, table

from engine.core.result import Budget, Watch
from engine.domains.rectout.motion import fan_frames
from engine.domains.rectout.moves import motions
from engine.domains.rectout.puzzle import start_state
from engine.domains.rectout.search import solve

UPRIGHT = 1.5707963267948966
NEAR_GOAL = ((1.22, 4.88, UPRIGHT), (3.66, 4.88, UPRIGHT), (11.78, 4.88, UPRIGHT), (6.2, 8.0, UPRIGHT))
#: the start after the target's first move, where plates 2 and 3 turn together a quarter turn
READY = ((4.88, 1.22, 0.0), (4.88, 3.66, 0.0), (8.12, 6.1, 0.0), (8.12, 11.78, 0.0))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    header("Rectangle-out (seed 003)")
    motions(start_state())  # compile (or load from the numba cache) outside the timings
    rows = []
    for name, state in (("start", start_state()), ("two and two", start_state((0, 0, 3.24, 3.24))),
                        ("near the goal", NEAR_GOAL)):
        seconds, found = median_time(lambda state=state: motions(state), runs=3)
        fans = sum(1 for m in found if m.kind == "fan")
        rows.append([name, len(found), fans, f"{1000 * seconds:.1f}"])
    print(table(["position", "motions", "of them pairs turning", "ms to generate"], rows))
    seconds, frames = median_time(lambda: fan_frames(READY, (1, 2), (-1, -1)), runs=3)
    print(f"\nplates 2 and 3 turning together a quarter turn: {len(frames):,} frames in {1000 * seconds:.1f} ms\n")

    rows = []
    budget = Budget(max_nodes=20_000, max_seconds=1_800)
    runs = [("start", start_state(), 3.0, True), ("start", start_state(), 3.0, False)]
    if not args.quick:
        runs += [("start", start_state(), 1.0, True), ("start", start_state(), 1.0, False)]
    runs += [("near the goal", NEAR_GOAL, 1.0, True), ("near the goal", NEAR_GOAL, 1.0, False)]
    for name, state, weight, dedupe in runs:
        def search(state=state, dedupe=dedupe, weight=weight):
            return solve(state, Watch(budget), dedupe=dedupe, weight=weight)

        seconds, result = median_time(search, runs=3 if name == "near the goal" else args.runs)
        rows.append([name, f"{weight:g}", "yes" if dedupe else "no", result.status, len(result.motions),
                     len(result.groups), f"{result.expanded:,}", f"{result.duplicates:,}", f"{seconds:.1f}"])
        print(table(["from", "weight", "duplicate detection", "status", "motions", "paper moves", "expanded",
                     "merged", "s"], rows[-1:]), flush=True)
    print()
    print(table(["from", "weight", "duplicate detection", "status", "motions", "paper moves", "expanded", "merged",
                 "s"], rows))


if __name__ == "__main__":
    main()
