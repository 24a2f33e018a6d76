"""The ``near-optimal`` solver on Korf & Taylor's ten 24-puzzles (optimal lengths known) and on random 6×6 boards.

Instances: R. E. Korf and L. A. Taylor, "Finding optimal solutions to the twenty-four puzzle" (AAAI 1996), the ten
random 24-puzzles and the optimal lengths they found, goal blank-first (tests/data/korf_taylor24.txt, transcribed
from the public repository sourcedennis/puzzle24, src/examples.rs). Each is solved ``--runs`` times towards the
blank-first goal (the database's own) and once more towards the blank-last goal as its half-turn (the same search
through the map, the same length). The table prints per instance the length, length/optimal, the seconds (median of
the runs) and the widest beam that ran; then the mean and worst ratio, the median and worst time. The 6×6 part solves
``--random`` seeded random boards and prints length / Manhattan lower bound.

The 6-6-6-6 and the 6×6 databases are built first if missing, in a separate process (``python -m engine tables
build``), and read into the page cache before timing; kernels are loaded before timing too (neither is counted).
The machine and the load average are printed at the start and the end: under load the solver runs narrower beams
(it stops widening when the next beam would not end within its time target), so lengths depend on the load.

Usage: python bench/near_optimal.py [--runs R] [--random N] [--goal blank-first|blank-last|both]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

from common import ROOT, header, load, table

from engine.core.registry import warm_up
from engine.core.result import Budget
from engine.domains.tiles import pdb
from engine.domains.tiles.board import Board, goal_board, half_turn
from engine.domains.tiles.heuristics import manhattan_distance
from engine.domains.tiles.random import random_solvable
from engine.domains.tiles.solving import solve_board
from tests.support.korf import korf_taylor_instances


def ensure_built(grouping: str) -> pdb.PatternDatabase:
    """The database of ``grouping`` for its blank-first goal, built first in a separate process if missing."""
    goal = goal_board(*pdb.SHAPES[grouping], "blank-first")
    if not pdb.is_built(grouping, goal):
        print(f"{grouping} is missing: building it in a separate process ...", flush=True)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "engine", "tables", "build", "--only", f"{grouping}/blank-first"],
                       cwd=ROOT, check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        print(f"built in {time.perf_counter() - start:.0f} s (wall, including the process start)\n", flush=True)
    return pdb.load(grouping, goal)


def korf_taylor(goal_name: str, runs: int) -> list[list[object]]:
    first = goal_board(5, 5, "blank-first")
    goal = goal_board(5, 5, goal_name)
    rows, ratios, times = [], [], []
    for number, optimum, cells in korf_taylor_instances():
        board = Board(5, 5, cells)
        if goal_name == "blank-last":
            board = half_turn(board)  # the same instance, turned to face the other goal
        seconds, result = [], None
        for _ in range(runs):
            result = solve_board(board, goal, "near-optimal", None, Budget(10**12, 60))
            seconds.append(result.seconds)
        assert board.apply(result.moves) == goal, number
        ratio = result.length / optimum
        ratios.append(ratio)
        times.append(statistics.median(seconds))
        widest = max((beam["width"] for beam in result.extra.get("beams", [])), default="-")
        rows.append([number, optimum, result.length, f"{ratio:.3f}", f"{statistics.median(seconds):.3f}", widest,
                     result.heuristic])
    print(f"Korf & Taylor's ten 24-puzzles, goal {goal_name} ({first == goal and 'the database' or 'half-turn'}):")
    print(table(["#", "optimal", "found", "found/optimal", "median s", "widest beam", "heuristic"], rows))
    return [goal_name, f"{statistics.mean(ratios):.3f}", f"{max(ratios):.3f}", f"{statistics.median(times):.3f}",
            f"{max(times):.3f}"]


def random_6x6(count: int) -> list[object]:
    goal = goal_board(6, 6, "blank-last")
    rows, ratios, times = [], [], []
    for seed in range(count):
        board = random_solvable(goal, seed)
        result = solve_board(board, goal, "near-optimal", None, Budget(10**12, 60))
        lower = manhattan_distance(board, goal)
        if result.status != "solved" or board.apply(result.moves) != goal:
            rows.append([seed, lower, "-", result.status, f"{result.seconds:.3f}", "-", result.message[:60]])
            continue
        ratios.append(result.length / lower)
        times.append(result.seconds)
        widest = max((beam["width"] for beam in result.extra.get("beams", [])), default="-")
        rows.append([seed, lower, result.length, f"{result.length / lower:.3f}", f"{result.seconds:.3f}", widest,
                     result.heuristic or "(fast)"])
    print("random 6x6 boards (seeds 0..), goal blank-last:")
    print(table(["seed", "Manhattan", "found", "found/Manhattan", "s", "widest beam", "heuristic"], rows))
    return ["6x6 random", f"{statistics.mean(ratios):.3f} (/Manhattan)", f"{max(ratios):.3f}",
            f"{statistics.median(times):.3f}", f"{max(times):.3f}"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--random", type=int, default=10, help="random 6x6 boards (0: none)")
    parser.add_argument("--goal", choices=("blank-first", "blank-last", "both", "none"), default="both",
                        help="the 24-puzzles' goal (none: only the 6x6 boards)")
    args = parser.parse_args()
    header("near-optimal: Korf & Taylor's 24-puzzles against their optimal lengths; random 6x6 against Manhattan")
    first = goal_board(5, 5, "blank-first")
    databases = [ensure_built("pdb-6666"), ensure_built("pdb-5555555")]
    warm = warm_up()
    start = time.perf_counter()
    for database in databases:
        int(database.tables.sum())  # disk to page cache
    # the database kernel's first call
    solve_board(Board(5, 5, korf_taylor_instances()[0][2]), first, "near-optimal", None)
    print(f"kernels loaded in {warm:.1f} s, databases read and first solve in {time.perf_counter() - start:.1f} s "
          "(not counted below)\n")
    summary = []
    for goal_name in {"both": ("blank-first", "blank-last"), "none": ()}.get(args.goal, (args.goal,)):
        summary.append(korf_taylor(goal_name, args.runs))
        print()
    if args.random:
        summary.append(random_6x6(args.random))
        print()
    print(f"# {load()} at the end")
    print(table(["set", "mean ratio", "worst ratio", "median s", "worst s"], summary))


if __name__ == "__main__":
    main()
