"""Shared fixtures. Large artefacts (pattern databases, distance tables) go to a fresh directory for each test run,
removed at the end, so no test can depend on what an earlier run left behind; a test that needs a table builds it
(tests/engine/test_pdb.py builds the pattern databases it reads in session fixtures)."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
os.environ["PUZZLE_DATA_DIR"] = tempfile.mkdtemp(prefix="puzzle-test-data-")
atexit.register(shutil.rmtree, os.environ["PUZZLE_DATA_DIR"], True)
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
