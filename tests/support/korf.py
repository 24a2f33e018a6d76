"""Korf's 100 random 15-puzzle instances (tests/data/korf100.txt) and Korf & Taylor's ten 24-puzzles
(tests/data/korf_taylor24.txt), read by the tests and the benchmarks alike."""

from __future__ import annotations

from pathlib import Path

KORF = Path(__file__).resolve().parents[1] / "data" / "korf100.txt"
KORF_TAYLOR = Path(__file__).resolve().parents[1] / "data" / "korf_taylor24.txt"


def korf_instances(path: Path = KORF) -> list[tuple[int, int, tuple[int, ...]]]:
    """Every instance as (number, optimal length, cells), goal blank-first."""
    rows = []
    for line in path.read_text().split("\n"):
        if line.strip():
            parts = [int(x) for x in line.split()]
            rows.append((parts[0], parts[1], tuple(parts[2:])))
    return rows


def korf_taylor_instances() -> list[tuple[int, int, tuple[int, ...]]]:
    """Korf & Taylor's ten 24-puzzles as (number, optimal length, cells), goal blank-first (5×5)."""
    return korf_instances(KORF_TAYLOR)
