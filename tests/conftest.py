"""Shared fixtures. Large artefacts (pattern databases, distance tables) go to one directory reused across runs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("PUZZLE_DATA_DIR", str(ROOT / ".cache" / "test-data"))
KORF = ROOT / "tests" / "data" / "korf100.txt"


def korf_instances() -> list[tuple[int, int, tuple[int, ...]]]:
    rows = []
    for line in KORF.read_text().split("\n"):
        if line.strip():
            parts = [int(x) for x in line.split()]
            rows.append((parts[0], parts[1], tuple(parts[2:])))
    return rows


@pytest.fixture(scope="session")
def korf() -> list[tuple[int, int, tuple[int, ...]]]:
    return korf_instances()
