"""Engine speed figures: IDA*+Manhattan nodes/s, pattern database build, 8-puzzle BFS and solves, numba compile time.

Medians of several runs; the machine is printed first. Usage: python bench/engine_speed.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

from common import ROOT, header, korf_instances, median_time, table

from engine.result import Budget
from engine.solvers import solve
from engine.tiles import Board, goal_board, random_solvable
from engine.tiles.fast import bfs_distances


def ida_manhattan_rate(runs: int, nodes: int) -> list[list[object]]:
    goal = goal_board(4, 4, "blank-first")
    rows = []
    for number, optimum, cells in korf_instances()[:runs]:
        result = solve(Board(4, 4, cells), goal, "idastar", "manhattan", Budget(max_nodes=nodes, max_seconds=600))
        rows.append([number, f"{result.nodes_expanded:,}", f"{result.seconds:.2f}",
                     f"{result.nodes_expanded / result.seconds / 1e6:.1f}"])
    return rows


def in_subprocess(code: str, env: dict[str, str]) -> tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, **env}, cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    return time.perf_counter() - start, out.strip()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer runs")
    args = parser.parse_args()
    header("engine speed")
    runs = 3 if args.quick else 5

    rows = ida_manhattan_rate(runs, 30_000_000 if args.quick else 100_000_000)
    print("IDA* + Manhattan on Korf instances (one core, stopped at a node budget):")
    print(table(["#", "expanded", "seconds", "M nodes/s"], rows))
    print(f"median: {statistics.median(float(r[3]) for r in rows):.1f} M nodes expanded per second\n")

    goal = goal_board(3, 3, "blank-last")
    seconds, _ = median_time(lambda: bfs_distances(goal), runs)
    print(f"8-puzzle full BFS (181,440 positions): median {seconds:.3f} s over {runs} runs")
    boards = [random_solvable(goal, seed) for seed in range(200)]
    for solver, heuristic in [("idastar", "linear-conflict"), ("idastar", "manhattan"), ("table", "perfect"),
                              ("astar", "linear-conflict")]:
        solve(boards[0], goal, solver, heuristic)  # load tables and compiled code first
        times = [solve(b, goal, solver, heuristic).seconds for b in boards]
        print(f"8-puzzle optimal solve, {solver}+{heuristic}: median {statistics.median(times) * 1000:.2f} ms, "
              f"max {max(times) * 1000:.1f} ms over {len(boards)} random positions")
    print()

    with tempfile.TemporaryDirectory() as data, tempfile.TemporaryDirectory() as cache:
        build = ("import resource, time; from engine.tiles import goal_board; from engine.tiles.pdb import "
                 "pattern_database; t = time.perf_counter(); pattern_database(goal_board(4, 4, 'blank-first')); "
                 "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6; "
                 "print(f'{time.perf_counter() - t:.1f} {peak:.2f}')")
        _, out = in_subprocess(build, {"PUZZLE_DATA_DIR": data})
        build_seconds, peak = out.split()
        print(f"pattern database 6-6-3 build: {build_seconds} s, peak memory {peak} GB (target <= 300 s, <= 4 GB)")
        first = ("from engine.solvers import solve; from engine.tiles import Board, goal_board; "
                 "solve(Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1)), goal_board(3, 3), 'idastar', 'linear-conflict')")
        cold, _ = in_subprocess(first, {"NUMBA_CACHE_DIR": cache})
        warm = statistics.median(in_subprocess(first, {"NUMBA_CACHE_DIR": cache})[0] for _ in range(3))
        print(f"first solve in a fresh process: {cold:.2f} s with an empty numba cache (compiling), "
              f"{warm:.2f} s with the cache (cache=True)")


if __name__ == "__main__":
    main()
