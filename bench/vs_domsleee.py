"""IDA* with the 6-6-6-6 database, side by side with domsleee/15puzzle (C++) on Korf & Taylor's 24-puzzles.

The yardstick of the 24-puzzle kernel (issue 45): both solvers search the same instances, one core each, one
process at a time, alternating (ours, theirs, ours, ...). A 24-puzzle takes minutes to hours to solve, so each run
stops once every bound up to ``--bound`` is complete (default: the instance's first ``--bounds`` bounds, counted from
our root's h): both sides then finish the same bounds. Printed per instance: the nodes expanded in each bound by
each side and their ratio; then the nodes expanded per second of each (medians of the runs, by CPU time, which a
shared machine disturbs less than wall time; wall beside) and the CPU seconds each needs for the bounds up to
``--bound`` (its nodes over its rate). With ``--korf N`` Korf's first N 15-puzzles are solved to the end as well,
6-6-3 on both sides (one process of theirs solves the N in a row; nodes and CPU are summed over the N).

What each side counts: a node is expanded when its f is within the bound and its children are generated, the root
once per bound; their counter is the same (``Idastar::dfs``), printed as ``limit, nodes`` (cumulative) when each
bound starts. The searches are the same kind but not the same search, so counts per bound are expected to differ:

- Their heuristic is max(direct 6-6-6-6 sum, mirrored sum, walking distance); ours is max(direct, mirrored). Their
  tables are built by moving the group's tiles into any cell outside the group, blank or not; ours count the same
  moves but let the blank walk to them (a breadth-first search over the group's cells and the blank's, the fewest
  over blank cells), so ours are never smaller. The split is the same (Korf & Felner's, given as ``6666-reg`` for
  the blank-last goal, ``CELLS_6666`` here for blank-first; turned half a turn they coincide), likewise 6-6-3.
- They prune duplicate move sequences by a finite-state machine of forbidden words learned to depth 14 (Taylor &
  Korf); our kernel prunes only the move that undoes the last one unless it has such a machine too.

Counts are equal only when both compute the same h and prune the same sequences; the ratio column shows how far
apart they are (theirs/ours below 1: their search is smaller). The instances: Korf & Taylor's (tests/data/
korf_taylor24.txt, blank-first); theirs is given each turned half a turn with tile t renamed 25 - t, which is their
goal's frame (their ``boards/24-10problems`` holds exactly these ten in this order).

The project does not vendor that solver; build it outside the repository (here: Debian 12, g++ 12; the Makefile
asks for g++-11 and ``-O2 -std=c++17``; ``include/Memory.h`` is included but missing from the repository, unused):

    # fetch https://github.com/domsleee/15puzzle (commit 5345005) into /work/domsleee
    apt-get install -y libtbb-dev                 # -ltbb (for <execution>)
    cd /work/domsleee && touch include/Memory.h && mkdir -p obj bin && make -j2 CXX=g++
    ./bin/puzzle -d databases/6666-reg -b boards/24-reg    # builds the tables, the FSM words, walking distance
    ./bin/puzzle -d databases/663-reg -b boards/15-reg     # the same for 4x4 (only for --korf; stop it once the
                                                           # tables are written: it goes on to solve nine boards)

What the first command writes to ``databases/`` under the solver's folder (the solver is run from there; times of
28 November 2026 on the project machine, load 15-20): the forbidden words to depth 14 (fsm-idfs-5x5-14, 41 s), the
four tables (6666-reg-0..3.dat, 127,512,000 bytes each, 44 min) and the 5x5 walking-distance table (5-wd.dat,
6.96 GB, 11 min): 56 min 46 s wall, 1,199 s user + 63 s system CPU, peak resident 20.4 GB. Each run of theirs then
reads the 7 GB file again (about 8 GB resident). Their load and FSM time is not counted: their CPU time is taken
from /proc between the first bound's line and the line of the bound after ``--bound`` (read as it is printed, so
their rate can be slightly low by the time it takes to read a line).

Usage: python bench/vs_domsleee.py /work/domsleee [--instances 1 2] [--bounds 6 | --bound B] [--runs 3] [--korf N]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from common import header, load, table

from engine.core.registry import warm_up
from engine.core.result import Budget
from engine.domains.tiles import pdb
from engine.domains.tiles.board import Board, goal_board
from engine.domains.tiles.solving import solve_board
from tests.support.korf import korf_instances, korf_taylor_instances

TICK = os.sysconf("SC_CLK_TCK")
LIMIT_LINE = re.compile(r"^ (\d+), (\d+)$")


def their_board(cells: tuple[int, ...]) -> list[int]:
    """A blank-first instance in their frame (blank-last goal): turned half a turn, tile t renamed size - t."""
    size = len(cells)
    return [0 if t == 0 else size - t for t in reversed(cells)]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime


def run_theirs(folder: str, database: str, boards: list[tuple[int, ...]], last_bound: int | None) -> list[dict]:
    """Their single-threaded search on ``boards`` in one process. Per board: cumulative nodes at the start of each
    bound, the nodes and CPU/wall seconds of the search, the length when solved. ``last_bound``: stop the process
    once the bound after it starts (one board only)."""
    side = round(len(boards[0]) ** 0.5)
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as file:
        file.write(f"{side} {side} {len(boards)}\n\n" + "\n\n".join(
            "\n".join(" ".join(map(str, b[r * side:(r + 1) * side])) for r in range(side)) for b in boards) + "\n")
        file.flush()
        process = subprocess.Popen(["stdbuf", "-oL", f"{folder}/bin/puzzle", "-d", f"databases/{database}",
                                    "-b", file.name], cwd=folder, stdout=subprocess.PIPE, text=True)
        runs, current = [], None
        try:
            for line in process.stdout:
                if line.startswith("Limit, Nodes:"):
                    current = {"starts": [], "cpu": cpu_seconds(process.pid), "wall": time.perf_counter()}
                elif current is not None and (match := LIMIT_LINE.match(line)):
                    bound, nodes = int(match[1]), int(match[2])
                    if last_bound is not None and bound > last_bound:
                        current.update(cpu=cpu_seconds(process.pid) - current["cpu"],
                                       wall=time.perf_counter() - current["wall"], nodes=nodes - 1, length=None)
                        runs.append(current)
                        break
                    current["starts"].append((bound, nodes))
                elif current is not None and line.startswith("Nodes expanded:"):
                    current.update(cpu=cpu_seconds(process.pid) - current["cpu"],
                                   wall=time.perf_counter() - current["wall"], nodes=int(line.split(":")[1]) - 1)
                elif current is not None and line.startswith("Solution:"):
                    current["length"] = int(line.split()[1])
                    runs.append(current)
                    current = None
                    if len(runs) == len(boards):
                        break
        finally:
            process.kill()
            process.wait()
    for run in runs:
        # the counter starts at 1 before the first bound; each bound's line holds the count so far
        cumulative = [nodes - 1 for _, nodes in run["starts"][1:]] + [run["nodes"]]
        run["per_bound"] = dict(zip([b for b, _ in run["starts"]], cumulative, strict=True))
        if run["length"] is not None:  # the last bound stopped at the goal: not complete
            run["per_bound"].popitem()
    return runs


def run_ours(board: Board, goal: Board, heuristic: str, last_bound: int | None) -> dict:
    """Our IDA*; ``last_bound``: cancel once a bound after it is under way (reported between kernel slices)."""
    cancel = threading.Event()

    def progress(_fraction, info: dict) -> None:
        if last_bound is not None and info.get("bound", 0) > last_bound:
            cancel.set()

    cpu, wall = time.process_time(), time.perf_counter()
    result = solve_board(board, goal, "idastar", heuristic, Budget(max_nodes=10**14, max_seconds=10**6), progress,
                         cancel)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    per_bound = {b["bound"]: b["expanded"] for b in result.extra["bounds"]}
    if result.status == "solved":
        per_bound.popitem()  # the goal's bound, stopped at the goal
    return {"nodes": result.nodes_expanded, "cpu": cpu, "wall": wall, "per_bound": per_bound,
            "length": result.length if result.status == "solved" else None}


def first_bound(board: Board, goal: Board) -> int:
    """Our root's h: the first bound (a search cancelled at its first report)."""
    seen, cancel = [], threading.Event()
    result = solve_board(board, goal, "idastar", "pdb-6666", Budget(max_nodes=10**14, max_seconds=10**6),
                   lambda _f, info: (seen.append(info["bound"]), cancel.set()) if "bound" in info else None, cancel)
    # a slice can end several small bounds before the first report
    return result.extra["bounds"][0]["bound"] if result.extra.get("bounds") else seen[0]


def per_bound_rows(ours: dict, theirs: dict, last_bound: int | None) -> list[list[object]]:
    """Nodes expanded within each bound both completed (the cumulative counts differenced)."""
    rows, before = [], {"ours": 0, "theirs": 0}
    for bound in sorted(set(ours) | set(theirs)):
        if last_bound is not None and bound > last_bound:
            break
        cells = []
        for side, counts in (("ours", ours), ("theirs", theirs)):
            if bound in counts:
                cells.append(counts[bound] - before[side])
                before[side] = counts[bound]
            else:
                cells.append(None)
        mine, yours = cells
        rows.append([bound, f"{mine:,}" if mine is not None else "-", f"{yours:,}" if yours is not None else "-",
                     f"{yours / mine:.3f}" if mine and yours is not None else "-"])
    return rows


def rates(runs: list[dict]) -> tuple[float, float]:
    """Medians of nodes per CPU second and per wall second, in millions."""
    return (statistics.median(r["nodes"] / r["cpu"] for r in runs) / 1e6,
            statistics.median(r["nodes"] / r["wall"] for r in runs) / 1e6)


def same_counts(runs: list[dict]) -> None:
    first = runs[0]["per_bound"]
    for run in runs[1:]:
        common = first.keys() & run["per_bound"].keys()
        assert all(first[b] == run["per_bound"][b] for b in common), "a solver's counts changed between runs"


def twenty_four(folder: str, numbers: list[int], bounds: int, bound: int | None, runs: int) -> list[list[object]]:
    goal = goal_board(5, 5, "blank-first")
    summary = []
    for number, optimum, cells in korf_taylor_instances():
        if number not in numbers:
            continue
        board = Board(5, 5, cells)
        last = bound if bound is not None else first_bound(board, goal) + 2 * (bounds - 1)
        ours, theirs = [], []
        for _ in range(runs):
            ours.append(run_ours(board, goal, "pdb-6666", last))
            theirs += run_theirs(folder, "6666-reg", [tuple(their_board(cells))], last)
            print(f"  #{number} run {len(ours)}: ours {ours[-1]['cpu']:.1f} s CPU, theirs {theirs[-1]['cpu']:.1f} s "
                  f"CPU ({load()})", flush=True)
        same_counts(ours)
        same_counts(theirs)
        print(f"\nKorf & Taylor #{number} ({optimum} moves), bounds up to {last}: nodes expanded per bound")
        print(table(["bound", "ours", "domsleee", "domsleee/ours"],
                    per_bound_rows(ours[0]["per_bound"], theirs[0]["per_bound"], last)))
        our_cpu, our_wall = rates(ours)
        their_cpu, their_wall = rates(theirs)
        mine, yours = ours[0]["per_bound"].get(last), theirs[0]["per_bound"].get(last)
        seconds = [f"{n / 1e6 / r:.1f}" if n else "-" for n, r in ((mine, our_cpu), (yours, their_cpu))]
        summary.append([f"24: #{number} to {last}", f"{mine:,}" if mine else "-", f"{yours:,}" if yours else "-",
                        f"{our_cpu:.2f}", f"{their_cpu:.2f}", f"{our_cpu / their_cpu:.2f}",
                        f"{our_wall:.2f} / {their_wall:.2f}", " / ".join(seconds),
                        f"{float(seconds[1]) / float(seconds[0]):.2f}" if "-" not in seconds else "-"])
    return summary


def fifteen(folder: str, count: int, runs: int) -> list[object]:
    """Korf's first ``count`` instances, solved to the end by both with 6-6-3 (theirs in one process)."""
    goal = goal_board(4, 4, "blank-first")
    instances = korf_instances()[:count]
    ours, theirs = [], []
    for _ in range(runs):
        mine = [run_ours(Board(4, 4, cells), goal, "pdb-663", None) for _, _, cells in instances]
        yours = run_theirs(folder, "663-reg", [tuple(their_board(cells)) for _, _, cells in instances], None)
        for (number, optimum, _), a, b in zip(instances, mine, yours, strict=True):
            assert a["length"] == b["length"] == optimum, (number, a["length"], b["length"])
        ours.append({key: sum(r[key] for r in mine) for key in ("nodes", "cpu", "wall")} | {"each": mine})
        theirs.append({key: sum(r[key] for r in yours) for key in ("nodes", "cpu", "wall")} | {"each": yours})
    # completed bounds only (the goal's bound stops where each finds the goal first)
    completed = [sum(r["per_bound"][max(r["per_bound"])] if r["per_bound"] else 0 for r in side[0]["each"])
                 for side in (ours, theirs)]
    our_cpu, our_wall = rates(ours)
    their_cpu, their_wall = rates(theirs)
    mine, yours = statistics.median(r["cpu"] for r in ours), statistics.median(r["cpu"] for r in theirs)
    return [f"15: Korf 1-{count} solved", f"{ours[0]['nodes']:,} ({completed[0]:,})",
            f"{theirs[0]['nodes']:,} ({completed[1]:,})", f"{our_cpu:.2f}", f"{their_cpu:.2f}",
            f"{our_cpu / their_cpu:.2f}", f"{our_wall:.2f} / {their_wall:.2f}", f"{mine:.2f} / {yours:.2f}",
            f"{yours / mine:.2f}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", help="domsleee/15puzzle built with its tables (see the module docstring)")
    parser.add_argument("--instances", type=int, nargs="*", default=[1, 2],
                        help="Korf & Taylor numbers (default 1 2; none: only --korf)")
    parser.add_argument("--bounds", type=int, default=6, help="bounds to complete from our root's h (default 6)")
    parser.add_argument("--bound", type=int, help="complete every bound up to this one instead")
    parser.add_argument("--runs", type=int, default=3, help="runs of each solver per instance (default 3)")
    parser.add_argument("--korf", type=int, default=0, help="also Korf's first N 15-puzzles with 6-6-3 (default 0)")
    args = parser.parse_args()
    folder = str(Path(args.folder).resolve())
    header("IDA* with 6-6-6-6: this project against domsleee/15puzzle (C++), one core each")
    start = time.perf_counter()
    warm = warm_up()
    for grouping, shape in (("pdb-6666", (5, 5)), ("pdb-663", (4, 4))):
        if (grouping == "pdb-6666" and args.instances) or (grouping == "pdb-663" and args.korf):
            goal = goal_board(*shape, "blank-first")
            int(pdb.load(grouping, goal).tables.sum())  # disk to page cache
            solve_board(goal.move(goal.legal_moves()[0]), goal, "idastar", grouping)  # the kernel's first call
    print(f"kernels loaded in {warm:.1f} s, tables read in {time.perf_counter() - start:.1f} s (not counted)\n")
    summary = twenty_four(folder, args.instances, args.bounds, args.bound, args.runs)
    if args.korf:
        summary.append(fifteen(folder, args.korf, args.runs))
    print(f"\n{args.runs} runs each, alternating; M nodes/s are medians; CPU s = nodes of the completed bounds over "
          "the CPU rate (15: the median CPU of the whole solves); nodes in brackets: completed bounds only")
    print(table(["search", "nodes ours", "nodes domsleee", "ours M/s (CPU)", "domsleee M/s (CPU)", "ratio",
                 "wall M/s ours / domsleee", "CPU s ours / domsleee", "domsleee s / ours s"], summary))
    print(f"\n# {load()} at the end")


if __name__ == "__main__":
    main()
