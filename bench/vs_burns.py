"""IDA* + Manhattan distance, side by side with Burns et al.'s C++ ``15md_solver`` on Korf's instances.

Both solve each instance to the end, alternating (ours, theirs, ours, ...), one process at a time; the table shows the
nodes expanded per second of each (medians of the runs, by CPU time, which a shared machine disturbs less than wall
time; the wall-time medians are printed beside), their ratio, and whether the nodes expanded by the end of every
completed bound are equal (the last bound differs: the two try the blank's moves in another order, so they stop at
different points).

The project does not vendor that solver; build it outside the repository:

    git clone https://github.com/eaburns/search /work/burns && cd /work/burns
    apt-get install -y libboost-dev        # its headers
    sed -i 's/#include <vector>/#include <vector>\\n#include <algorithm>/' search/lsslrtastar.hpp
    make CXX=g++ CC=gcc tiles/15md_solver  # the Makefile's flags: -O3, -std=c++0x

Usage: python bench/vs_burns.py /work/burns/tiles/15md_solver [--instances 5] [--runs 3]
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import time

from common import header, load, table

from engine.core.registry import warm_up
from engine.core.result import Budget
from engine.domains.tiles import Board, goal_board
from engine.domains.tiles.solving import solve_board
from tests.support.korf import korf_instances

GOAL = goal_board(4, 4, "blank-first")


def burns_input(cells: tuple[int, ...]) -> str:
    """Its instance format: the size, each tile's starting cell (blank first), each tile's goal cell."""
    return ("4 4\nstarting positions for each tile:\n" + " ".join(str(cells.index(t)) for t in range(16))
            + "\ngoal positions:\n" + " ".join(str(t) for t in range(16)) + "\n")


def run_burns(binary: str, cells: tuple[int, ...]) -> dict:
    out = subprocess.run([binary, "idastar"], input=burns_input(cells), capture_output=True, text=True,
                         check=True).stdout
    pairs = dict(re.findall(r'#pair\s+"([^"]+)"\s+"([^"]+)"', out))
    # each completed bound's row: its number, the bound, nodes expanded and generated so far (cumulative)
    bounds = [int(row.split()[2]) for row in re.findall(r'#altrow\s+"iter"\s+(.*)', out)]
    return {"expanded": int(pairs["total nodes expanded"]), "cpu": float(pairs["total raw cpu time"]),
            "wall": float(pairs["total wall time"]), "length": int(float(pairs["final sol cost"])),
            "per_bound": bounds}


def run_ours(cells: tuple[int, ...]) -> dict:
    cpu, wall = time.process_time(), time.perf_counter()
    result = solve_board(Board(4, 4, cells), GOAL, "idastar", "manhattan", Budget(max_nodes=10**11, max_seconds=3600))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {"expanded": result.nodes_expanded, "cpu": cpu, "wall": wall, "seconds": result.seconds,
            "length": result.length, "per_bound": [b["expanded"] for b in result.extra["bounds"]]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("solver", help="path to Burns et al.'s tiles/15md_solver (see the module docstring)")
    parser.add_argument("--instances", type=int, default=5, help="Korf's first N instances (default 5)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each solver per instance (default 3)")
    args = parser.parse_args()
    header("IDA* + Manhattan: this project against Burns et al.'s 15md_solver (C++)")
    print(f"kernels loaded in {warm_up():.1f} s (before any timing)\n")
    rows, ratios, all_ours, all_theirs = [], [], [], []
    for number, optimum, cells in korf_instances()[:args.instances]:
        ours, theirs = [], []
        for _ in range(args.runs):
            ours.append(run_ours(cells))
            theirs.append(run_burns(args.solver, cells))
        mine, burns = ours[0], theirs[0]
        assert mine["length"] == burns["length"] == optimum, (number, mine["length"], burns["length"])
        # Burns's solver prints a row per completed bound only; ours lists the last (unfinished) bound too
        same_bounds = mine["per_bound"][:-1] == burns["per_bound"]
        our_rate = statistics.median(r["expanded"] / r["cpu"] for r in ours) / 1e6
        their_rate = statistics.median(r["expanded"] / r["cpu"] for r in theirs) / 1e6
        our_wall = statistics.median(r["expanded"] / r["wall"] for r in ours) / 1e6
        their_wall = statistics.median(r["expanded"] / r["wall"] for r in theirs) / 1e6
        ratios.append(our_rate / their_rate)
        all_ours += [r["expanded"] / r["cpu"] / 1e6 for r in ours]
        all_theirs += [r["expanded"] / r["cpu"] / 1e6 for r in theirs]
        rows.append([number, optimum, f"{mine['expanded']:,}", f"{burns['expanded']:,}",
                     "equal" if same_bounds else "DIFFER", f"{our_rate:.1f}", f"{their_rate:.1f}",
                     f"{our_rate / their_rate:.2f}", f"{our_wall:.1f} / {their_wall:.1f}"])
        print(f"#{number} done ({load()})", flush=True)
    print()
    print(table(["#", "moves", "expanded (ours)", "expanded (Burns)", "per completed bound", "ours M/s (CPU)",
                 "Burns M/s (CPU)", "ratio", "wall M/s ours / Burns"], rows))
    ours, theirs = statistics.median(all_ours), statistics.median(all_theirs)
    print(f"\nmedian over every run: ours {ours:.1f} M nodes/s, Burns {theirs:.1f} M nodes/s, "
          f"ratio {ours / theirs:.2f} "
          f"(per instance {min(ratios):.2f}-{max(ratios):.2f}); {args.runs} runs each, alternating ({load()})")


if __name__ == "__main__":
    main()
