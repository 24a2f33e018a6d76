"""Shared fixtures: one Dask cluster for the whole session (every app in the tests connects to it), the Korf
instances. Large artefacts (pattern databases, distance tables) go to a fresh directory for each test run, removed at
the end, so no test can depend on what an earlier run left behind; a test that needs a table builds it
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


@pytest.fixture(scope="session")
def dask_cluster():
    """The embedded cluster's shape at its smallest: one long-lane worker and one interactive worker."""
    from engine.cluster import LocalWorkers, start_local_cluster

    cluster = start_local_cluster(LocalWorkers(long=1, interactive=1, interactive_threads=2), memory_limit=2**30,
                                  env={"PUZZLE_DATA_DIR": os.environ["PUZZLE_DATA_DIR"]})
    from distributed import Client

    with Client(cluster, set_as_default=False) as client:
        # Compile (on a fresh machine) or load every kernel in every worker before the first test: a test that waits
        # a moment for an answer must not be measuring the first compilation instead.
        client.run(_warm_worker)
    yield cluster
    cluster.close(timeout=20)


def _warm_worker() -> bool:
    from engine import registry

    registry.warm_up()
    return True


@pytest.fixture(scope="session")
def scheduler_address(dask_cluster) -> str:
    return dask_cluster.scheduler_address
