"""Engine speed figures: IDA*+Manhattan nodes/s, A* times (compiled and readable), the fast solver on 5×5 and 6×6,
8-puzzle BFS and solves, the 6-6-3 database build and numba compile time.

Medians of several runs; the machine and its load average are printed first and after each section (the machine may
be shared: single-core nodes/s figures are the meaningful ones). Compilation is done before any timing and reported
apart. Usage: python bench/engine_speed.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

from common import ROOT, header, load, median_time, table

from engine.core.registry import warm_up
from engine.core.result import Budget, Watch
from engine.domains.tiles import Board, goal_board, random_solvable
from engine.domains.tiles.kernel_drivers import bfs_distances
from engine.domains.tiles.problem import SlidingTileProblem
from engine.domains.tiles.reduction import fast_solve
from engine.domains.tiles.solving import solve_board
from engine.search import astar_search
from tests.support.korf import korf_instances

HARDEST_8 = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))


def ida_rate(heuristic: str, instances: int, nodes: int, runs: int) -> list[list[object]]:
    goal = goal_board(4, 4, "blank-first")
    rows = []
    for number, _optimum, cells in korf_instances()[:instances]:
        rates, result = [], None
        for _ in range(runs):
            result = solve_board(Board(4, 4, cells), goal, "idastar", heuristic,
                                 Budget(max_nodes=nodes, max_seconds=600))
            rates.append(result.nodes_expanded / result.seconds / 1e6)
        rows.append([number, f"{result.nodes_expanded:,}", f"{statistics.median(rates):.1f}",
                     " ".join(f"{r:.1f}" for r in rates)])
    return rows


def in_subprocess(code: str, env: dict[str, str]) -> tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(ROOT), **env}, cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - start, out.strip()


def astar_times(runs: int) -> None:
    goal = goal_board(3, 3, "blank-last")
    for heuristic in ("manhattan", "linear-conflict"):
        fast = [solve_board(HARDEST_8, goal, "astar", heuristic) for _ in range(runs)]
        readable = [astar_search(SlidingTileProblem(HARDEST_8, goal, heuristic)) for _ in range(max(1, runs // 3))]
        print(f"8-puzzle hardest (8 6 7 2 5 4 3 0 1), A* + {heuristic}: compiled median "
              f"{statistics.median(r.seconds for r in fast) * 1000:.2f} ms, readable median "
              f"{statistics.median(r.seconds for r in readable) * 1000:.0f} ms "
              f"({fast[0].nodes_expanded:,} nodes expanded by both, {fast[0].length} moves)")


def fast_figures(count: int) -> None:
    from engine.domains.tiles import reduction

    rows = []
    for size in ((4, 4), (5, 5), (6, 6)):
        goal = goal_board(*size, "blank-last")
        boards = [random_solvable(goal, seed) for seed in range(count)]
        for label, group, cells in (("pairs", 2, 0), ("threes", 3, 99), ("mix (the solver)", 3, 25)):
            saved = reduction.GROUP_CELLS
            reduction.GROUP_CELLS = cells
            try:
                results = [fast_solve(b, goal, Watch(), group) for b in boards]
            finally:
                reduction.GROUP_CELLS = saved
            lengths = [r.length for r in results]
            bounds = [r.extra["lower_bound"] for r in results]
            times = [r.seconds * 1000 for r in results]
            rows.append([f"{size[0]}x{size[1]}", label, statistics.median(lengths), statistics.median(bounds),
                         f"{statistics.median(lengths) / statistics.median(bounds):.2f}",
                         f"{statistics.median(times):.1f}", f"{max(times):.1f}"])
    print(f"fast solver on {count} random boards per size (goal blank-last):")
    print(table(["board", "groups", "median length", "median Manhattan bound", "ratio", "median ms", "max ms"], rows))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer runs")
    args = parser.parse_args()
    header("engine speed")
    runs = 3 if args.quick else 5
    warm = warm_up()
    print(f"kernels loaded/compiled in {warm:.1f} s (before any timing)\n")

    for heuristic, nodes in (("manhattan", 30_000_000 if args.quick else 100_000_000),
                             ("linear-conflict", 2_000_000 if args.quick else 10_000_000)):
        rows = ida_rate(heuristic, runs, nodes, 3)
        print(f"IDA* + {heuristic} on Korf instances (one core, stopped at a node budget; 3 runs each):")
        print(table(["#", "expanded", "median M nodes/s", "runs"], rows))
        print(f"median: {statistics.median(float(r[2]) for r in rows):.1f} M nodes expanded per second ({load()})\n")

    astar_times(runs * 4)
    print(f"({load()})\n")

    fast_figures(10 if args.quick else 30)
    print(f"({load()})\n")

    goal = goal_board(3, 3, "blank-last")
    seconds, _ = median_time(lambda: bfs_distances(goal), runs)
    print(f"8-puzzle full BFS (181,440 positions): median {seconds:.3f} s over {runs} runs")
    boards = [random_solvable(goal, seed) for seed in range(200)]
    for solver, heuristic in [("idastar", "linear-conflict"), ("idastar", "manhattan"), ("table", "perfect"),
                              ("astar", "manhattan"), ("astar", "linear-conflict")]:
        solve_board(boards[0], goal, solver, heuristic)  # load tables first
        times = [solve_board(b, goal, solver, heuristic).seconds for b in boards]
        print(f"8-puzzle optimal solve, {solver}+{heuristic}: median {statistics.median(times) * 1000:.2f} ms, "
              f"max {max(times) * 1000:.1f} ms over {len(boards)} random positions")
    print(f"({load()})\n")

    with tempfile.TemporaryDirectory() as data, tempfile.TemporaryDirectory() as cache:
        build = ("import resource, time; from engine.domains.tiles import goal_board, pdb_build; "
                 "t = time.perf_counter(); "
                 "pdb_build.build_database('pdb-663', goal_board(4, 4, 'blank-first')); "
                 "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6; "
                 "print(f'{time.perf_counter() - t:.1f} {peak:.2f}')")
        _, out = in_subprocess(build, {"PUZZLE_DATA_DIR": data})
        build_seconds, peak = out.split()
        print(f"pattern database 6-6-3 build (both cores): {build_seconds} s, peak memory {peak} GB ({load()})")
        first = ("from engine.domains.tiles.solving import solve_board; from engine.domains.tiles import Board, "
                 "goal_board; solve_board(Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1)), goal_board(3, 3), 'idastar', "
                 "'linear-conflict')")
        cold, _ = in_subprocess(first, {"NUMBA_CACHE_DIR": cache})
        warm = statistics.median(in_subprocess(first, {"NUMBA_CACHE_DIR": cache})[0] for _ in range(3))
        print(f"first solve in a fresh process: {cold:.2f} s with an empty numba cache (compiling), "
              f"{warm:.2f} s with the cache (cache=True)")


if __name__ == "__main__":
    main()
