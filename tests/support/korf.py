"""Korf's 100 random 15-puzzle instances (tests/data/korf100.txt), read by the tests and the benchmarks alike."""

from __future__ import annotations

from pathlib import Path

KORF = Path(__file__).resolve().parents[1] / "data" / "korf100.txt"


def korf_instances() -> list[tuple[int, int, tuple[int, ...]]]:
    """Every instance as (number, optimal length, cells), goal blank-first."""
    rows = []
    for line in KORF.read_text().split("\n"):
        if line.strip():
            parts = [int(x) for x in line.split()]
            rows.append((parts[0], parts[1], tuple(parts[2:])))
    return rows
