"""A command line solve's cold start: the whole process, run again and again, each time a new interpreter.

Prints the medians of the wall time, the process's CPU time (user + system, which a loaded machine inflates far
less than the clock) and its ``load_seconds`` (loading the kernels before the search's clock starts), with the load
average: a busy machine shares its cores, so the wall time is then an upper bound.

    PYTHONPATH=. python bench/cold_start.py [--runs 9] [--root DIR] [-- solve --size 3x3 "8 6 7 2 5 4 3 0 1" ...]

``--root`` runs another checkout's engine (a before-and-after comparison, alternating run by run when given twice).
Bytecode is written as a user's first run would (``PYTHONDONTWRITEBYTECODE`` is dropped): one untimed run first.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

from common import ROOT, header, load, table

COMMAND = ["solve", "--size", "3x3", "8 6 7 2 5 4 3 0 1", "--solver", "astar", "--json"]


def run_once(root: str, command: list[str]) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, load_seconds) of one ``python -m engine`` process."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = root
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "engine", *command], cwd=root, env=env, capture_output=True,
                          text=True, check=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    loaded = json.loads(done.stdout).get("load_seconds", float("nan")) if "--json" in command else float("nan")
    return wall, cpu, loaded


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--root", action="append", help="a checkout to run (default this one); twice to compare")
    parser.add_argument("command", nargs="*", default=COMMAND)
    args = parser.parse_args()
    roots = args.root or [str(ROOT)]
    header(f"cold start: python -m engine {' '.join(args.command)}")
    for root in roots:
        run_once(root, args.command)  # bytecode written, kernels' cache in place
    times: dict[str, list[tuple[float, float, float]]] = {root: [] for root in roots}
    for _ in range(args.runs):
        for root in roots:
            times[root].append(run_once(root, args.command))
    rows = [[root, f"{statistics.median(t[0] for t in runs):.3f}", f"{min(t[0] for t in runs):.3f}",
             f"{statistics.median(t[1] for t in runs):.3f}", f"{statistics.median(t[2] for t in runs):.3f}"]
            for root, runs in times.items()]
    print(table(["checkout", "wall s (median)", "wall s (least)", "CPU s (median)", "load_seconds (median)"], rows))
    print(f"\n# {args.runs} runs each, alternating; {load()} at the end")


if __name__ == "__main__":
    main()
