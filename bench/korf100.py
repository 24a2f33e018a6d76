"""All 100 of Korf's 15-puzzle instances with IDA* and the 6-6-3 pattern database (+ mirror lookup).

Prints per-instance length, nodes and seconds, then totals. Every length must equal the published optimum.
Usage: python bench/korf100.py [--first N] [--heuristic pdb|linear-conflict|manhattan]
"""

from __future__ import annotations

import argparse
import time

from common import header, korf_instances, table

from engine.result import Budget
from engine.solvers import solve
from engine.tiles.board import Board, goal_board
from engine.tiles.pdb import pattern_database


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--first", type=int, default=100)
    parser.add_argument("--heuristic", default="pdb")
    args = parser.parse_args()
    header(f"Korf's 100 instances, IDA* + {args.heuristic}")
    goal = goal_board(4, 4, "blank-first")
    if args.heuristic == "pdb":
        start = time.perf_counter()
        pattern_database(goal)
        print(f"pattern database ready (loaded or built) in {time.perf_counter() - start:.1f} s\n")
    rows, total_time, total_nodes, wrong = [], 0.0, 0, 0
    for number, optimum, cells in korf_instances()[:args.first]:
        result = solve(Board(4, 4, cells), goal, "idastar", args.heuristic, Budget(10**12, 3600))
        ok = result.length == optimum and goal == Board(4, 4, cells).apply(result.moves)
        wrong += not ok
        total_time += result.seconds
        total_nodes += result.nodes_expanded
        rows.append([number, optimum, result.length, "yes" if ok else "NO", f"{result.nodes_expanded:,}",
                     f"{result.seconds:.3f}", f"{result.nodes_expanded / max(result.seconds, 1e-9) / 1e6:.1f}"])
        print(" | ".join(str(c) for c in rows[-1]), flush=True)
    print()
    print(table(["#", "optimum", "found", "ok", "expanded", "seconds", "Mnodes/s"], rows))
    n = len(rows)
    print(f"\ninstances: {n}, all optimal: {wrong == 0}, total search time: {total_time:.2f} s, "
          f"mean nodes expanded: {total_nodes / n:,.0f}, rate: {total_nodes / total_time / 1e6:.1f} M nodes/s")


if __name__ == "__main__":
    main()
