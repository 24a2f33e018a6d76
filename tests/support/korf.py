"""Korf's 100 random 15-puzzle instances (shipped with the engine: ``engine.domains.tiles.korf``) and Korf & Taylor's
ten 24-puzzles (tests/data/korf_taylor24.txt), read by the tests and the benchmarks alike."""

from __future__ import annotations

from pathlib import Path

from engine.domains.tiles.korf import KORF_100, korf_instances

KORF = KORF_100
KORF_TAYLOR = Path(__file__).resolve().parents[1] / "data" / "korf_taylor24.txt"

__all__ = ["KORF", "KORF_TAYLOR", "korf_instances", "korf_taylor_instances"]


def korf_taylor_instances() -> list[tuple[int, int, tuple[int, ...]]]:
    """Korf & Taylor's ten 24-puzzles as (number, optimal length, cells), goal blank-first (5×5)."""
    return korf_instances(KORF_TAYLOR)
