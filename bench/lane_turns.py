"""Nothing one client holds (issue 49): while one browser's batch of 1,000 positions (Korf's 100 ten times, IDA* with
Manhattan distance: many minutes of work over every long-lane worker) runs, how long another browser's long job waits
to start, and how long a third browser's 8-puzzle solve takes to end. Each round starts the batch, waits until it has
held the long lane for ``--held`` seconds, submits the two others at once, measures, then cancels the batch. One
runner on the embedded cluster, as ``make run`` has it. Prints medians of the rounds.

Usage: python bench/lane_turns.py [--rounds 3] [--held 3]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from common import header, table

from engine.domains.tiles.korf import KORF_GOAL, korf_instances
from engine.serving.cluster import JobRunner

#: seed 004's 8-puzzle position (31 moves, the 8-puzzle's farthest from its goal)
EIGHT_PUZZLE = [8, 6, 7, 2, 5, 4, 3, 0, 1]


def until(predicate, timeout: float = 600.0) -> float:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise SystemExit("timed out")
        time.sleep(0.01)
    return time.perf_counter()


def one_round(runner: JobRunner, name: str, held: float) -> tuple[float, float, float]:
    """Seconds until the other browser's long job starts, until it ends, and until the 8-puzzle solve ends."""
    boards = [list(cells) for _, _, cells in korf_instances()] * 10
    batch, _ = runner.submit("solve-batch", {"size": "4x4", "goal": KORF_GOAL, "boards": boards, "solver": "idastar",
                                             "heuristic": "manhattan"}, owner=f"batch{name}")
    until(lambda: runner.get(batch)["status"] == "running")
    time.sleep(held)  # the batch has the lane to itself for a while, as a class would find it
    start = time.perf_counter()
    other, _ = runner.submit("classic-queens", {"n": 10, "methods": ["bitmask"]}, owner=f"other{name}")
    quick, _ = runner.submit("solve", {"size": "3x3", "goal": "blank-last", "tiles": EIGHT_PUZZLE,
                                       "solver": "idastar", "heuristic": "manhattan"}, owner=f"quick{name}")
    seen: dict[str, float] = {}

    def look() -> bool:  # each moment is noted when first seen, all three in one loop
        now = time.perf_counter() - start
        if runner.get(other).get("started") is not None:
            seen.setdefault("started", now)
        if runner.get(other)["status"] == "done":
            seen.setdefault("ended", now)
        if runner.get(quick)["status"] == "done":
            seen.setdefault("solved", now)
        return len(seen) == 3

    until(look)
    started, ended, solved = seen["started"], seen["ended"], seen["solved"]
    runner.cancel(batch)
    runner.wait(batch, timeout=60)
    return started, ended, solved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--held", type=float, default=3.0, help="seconds the batch runs alone before the others ask")
    args = parser.parse_args()
    header("A batch of 1,000 positions and two other browsers' jobs on one embedded cluster")
    with tempfile.TemporaryDirectory() as folder:
        runner = JobRunner(str(Path(folder) / "jobs.sqlite"))
        try:
            rows = [one_round(runner, str(n), args.held) for n in range(args.rounds)]
        finally:
            runner.shutdown()
    print(table(["round", "long job started (s)", "long job ended (s)", "8-puzzle solved (s)"],
                [[n + 1, *(f"{v:.2f}" for v in row)] for n, row in enumerate(rows)]))
    medians = [statistics.median(column) for column in zip(*rows, strict=True)]
    print(f"\nmedian: the other browser's long job started after {medians[0]:.2f} s and ended after "
          f"{medians[1]:.2f} s; the 8-puzzle solve ended after {medians[2]:.2f} s")


if __name__ == "__main__":
    main()
