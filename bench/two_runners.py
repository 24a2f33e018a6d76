"""Two web processes' runners on one job database and one Dask cluster (issue 49): how long a cancel sent to the
process that does not hold a job takes to end it (its row says cancelled) and to free its worker (the next job waiting
for that worker starts). Each round: runner A starts the 18-queens count (minutes of work) and, behind it on the one
long-lane worker, an 8-queens count; runner B cancels the first. Prints medians of the rounds.

Usage: python bench/two_runners.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from common import header

from engine.serving.cluster import JobRunner
from engine.serving.lanes import LocalWorkers, start_local_cluster


def warm_up() -> bool:
    from engine.core import registry

    registry.warm_up()
    return True


def until(predicate, timeout: float = 120.0) -> float:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise SystemExit("timed out")
        time.sleep(0.005)
    return time.perf_counter()


def one_round(a: JobRunner, b: JobRunner, name: str) -> tuple[float, float]:
    """Seconds from B's cancel to the row's ending, and to the next job's start on the freed worker."""
    long_id, _ = a.submit("classic-queens", {"n": 18, "methods": ["bitmask"]}, owner=f"x{name}")
    until(lambda: a.get(long_id)["info"].get("nodes"))  # counting: past its worker's warm-up, watching its cancel
    next_id, _ = a.submit("classic-queens", {"n": 8, "methods": ["bitmask"]}, owner=f"y{name}")
    start = time.perf_counter()
    b.cancel(long_id, owner=f"x{name}")
    ended = until(lambda: b.store.get(long_id)["status"] == "cancelled") - start
    freed = until(lambda: b.store.get(next_id)["started"] is not None) - start
    a.wait(next_id, timeout=300)
    return ended, freed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    header("a cancel sent to the other web process")
    cluster = start_local_cluster(LocalWorkers(long=1, interactive=1, interactive_threads=1), 2**30)
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "jobs.sqlite")
        a, b = (JobRunner(path, scheduler=cluster.scheduler_address) for _ in range(2))
        a.client.run(warm_up)  # a job arriving before its worker has loaded the kernels waits for that first
        try:
            ended, freed = zip(*(one_round(a, b, str(index)) for index in range(args.rounds)), strict=True)
        finally:
            a.shutdown()
            b.shutdown()
            cluster.close(timeout=10)
    print(f"rounds: {args.rounds}")
    print(f"cancel sent to B until the row of A's job says cancelled: median {statistics.median(ended):.3f} s, "
          f"max {max(ended):.3f} s")
    print(f"until the next job starts on the freed worker: median {statistics.median(freed):.3f} s, "
          f"max {max(freed):.3f} s")


if __name__ == "__main__":
    main()
