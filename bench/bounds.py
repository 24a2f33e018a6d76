"""Seed 000 figures: full BFS of the 12-cell boards, max MD by the exact method and by brute force, Table 5.

Each measurement runs in its own process so that its peak memory can be read. The paper's figures are printed beside
ours. Usage: python bench/bounds.py [--quick]   (--quick skips the two 239,500,800-state searches)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys

from common import ROOT, header, table

MEASURE = """
import json, resource, sys, tempfile, time
from engine.subjects.research.fullbfs import full_bfs
from engine.subjects.research.maxmd import max_md_brute, max_md_exact
from engine.subjects.research.subproblem import solve_subproblem
start = time.perf_counter()
value = {expression}
seconds = time.perf_counter() - start
print(json.dumps({{"seconds": seconds, "peak_gb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6,
                  "value": value}}))
"""


def measure(expression: str) -> dict:
    """Run one expression in a fresh process (compiled code comes from the numba cache) and read its figures."""
    code = MEASURE.format(expression=expression)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={**os.environ}).stdout
    return json.loads(out.strip().splitlines()[-1])


def median_of(expression: str, runs: int) -> tuple[float, float, object]:
    results = sorted((measure(expression) for _ in range(runs)), key=lambda r: r["seconds"])
    middle = results[len(results) // 2]
    return middle["seconds"], max(r["peak_gb"] for r in results), middle["value"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="skip the 12-cell full searches")
    args = parser.parse_args()
    header("2xn research (seed 000)")
    runs = 3

    rows = []
    boards = [(2, 4), (2, 5), (3, 3)] + ([] if args.quick else [(2, 6), (3, 4)])
    for r, c in boards:
        big = r * c == 12
        # a fresh folder each time: a finished search's stored answer would otherwise come back at once
        seconds, peak, value = median_of(f"full_bfs({r}, {c}, directory=tempfile.mkdtemp())['diameter']",
                                         1 if big else runs)
        rows.append([f"{r}x{c}", value, f"{seconds:.2f}", f"{peak:.2f}", "1" if big else str(runs)])
    print("Full-space BFS (paper Table 1: 2x4 36, 2x5 55, 2x6 80; 3x4 53; target <= 600 s and <= 2 GB for 12 cells):")
    print(table(["board", "diameter", "seconds", "peak GB", "runs"], rows))
    print()

    seconds, peak, values = median_of("[max_md_exact(n)['max_md'] for n in range(1, 9)]", runs)
    print(f"max MD by the exact method, n = 1..8 together: {values}, median {seconds:.3f} s "
          f"(paper: brute force, 4 days for n = 8; target < 1 s)")
    seconds, peak, value = median_of("max_md_exact(100)['max_md']", runs)
    print(f"max MD by the exact method, n = 100: {value}, median {seconds:.2f} s")
    seconds, peak, value = median_of("max_md_brute(6)['max_md']", runs)
    print(f"max MD by brute force, n = 6: {value}, median {seconds:.2f} s on {os.cpu_count()} cores "
          f"(paper: 7.25 s on 16 processes)\n")

    rows = []
    for k in (1, 2, 3):
        expression = f"[solve_subproblem(n, {k})['f'] for n in range({k}, 8)]"
        seconds, peak, value = median_of(expression, 1 if k == 3 else runs)
        rows.append([k, " ".join(map(str, value)), f"{seconds:.2f}", f"{peak:.2f}"])
    print("Table 5, f_k(n) for n = k..7 (paper: 151 s for k = 3, n = 7):")
    print(table(["k", "f_k(k..7)", "seconds", "peak GB"], rows))
    print(f"\n(this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6:.2f} GB)")


if __name__ == "__main__":
    main()
