"""Korf's 100 random 15-puzzle instances (R. E. Korf, "Depth-first iterative-deepening: an optimal admissible tree
search", Artificial Intelligence 27, 1985), the standard benchmark of optimal 15-puzzle solvers: shipped with the
engine (``data/korf100.txt``) so the batch page can fill them in; the tests and the benchmarks read them here too.

One instance per line: ``id optimal_length t0 … t15``, tiles row by row, 0 the blank, goal ``0 1 2 … 15``
(blank-first)."""

from __future__ import annotations

from pathlib import Path

KORF_100 = Path(__file__).resolve().parent / "data" / "korf100.txt"
#: the goal the instances are stated for
KORF_GOAL = "blank-first"


def korf_instances(path: Path = KORF_100) -> list[tuple[int, int, tuple[int, ...]]]:
    """Every instance of a file in this layout as (number, optimal length, cells)."""
    rows = []
    for line in path.read_text().split("\n"):
        if line.strip():
            parts = [int(x) for x in line.split()]
            rows.append((parts[0], parts[1], tuple(parts[2:])))
    return rows
