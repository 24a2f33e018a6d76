"""Latency of POST /api/solve through the Flask app (test client; each solve a job on the local Dask cluster's
interactive lane): median and 95th percentile.

8-puzzle: optimal solves of random positions (target p95 <= 20 ms). 15-puzzle: random positions with IDA* and the
pattern database (target median <= 200 ms). Usage: python bench/api_latency.py [--n 200] [--n15 30]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

from common import header

from app import create_app, init_jobs
from engine.domains.tiles import goal_board, random_solvable


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def measure(client, bodies: list[dict]) -> tuple[list[float], list[dict]]:
    times, answers = [], []
    for body in bodies:
        start = time.perf_counter()
        response = client.post("/api/solve", json=body)
        times.append(time.perf_counter() - start)
        answers.append(response.get_json())
    return times, answers


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--n15", type=int, default=30)
    args = parser.parse_args()
    header("POST /api/solve latency (Flask test client, one request at a time)")
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": f"{tmp}/jobs.sqlite", "BUILD_TABLES": False})
        init_jobs(app)
        client = app.test_client()
        goal3 = goal_board(3, 3, "blank-last")
        for solver, heuristic in [("idastar", "linear-conflict"), ("table", "perfect"), ("idastar", "manhattan")]:
            bodies = [{"size": "3x3", "goal": "blank-last", "tiles": list(random_solvable(goal3, s).cells),
                       "solver": solver, "heuristic": heuristic} for s in range(args.n)]
            measure(client, bodies[:3])  # load kernels and tables
            times, answers = measure(client, bodies)
            assert all(a["status"] == "solved" and a["optimal"] for a in answers)
            print(f"8-puzzle {solver}+{heuristic}: median {statistics.median(times) * 1000:.2f} ms, "
                  f"p95 {percentile(times, 0.95) * 1000:.2f} ms over {len(times)} random positions")
        goal4 = goal_board(4, 4, "blank-first")
        bodies = [{"size": "4x4", "goal": "blank-first", "tiles": list(random_solvable(goal4, s).cells),
                   "solver": "idastar", "heuristic": "pdb", "mode": "sync"} for s in range(args.n15)]
        measure(client, bodies[:1])
        times, answers = measure(client, bodies)
        lengths = [a["length"] for a in answers]
        print(f"15-puzzle idastar+pdb: median {statistics.median(times) * 1000:.0f} ms, "
              f"p95 {percentile(times, 0.95) * 1000:.0f} ms over {len(times)} random positions "
              f"(mean optimal length {statistics.mean(lengths):.1f})")
        app.extensions["jobs"].shutdown()


if __name__ == "__main__":
    main()
