"""Shared fixtures: one Dask cluster for the whole session (every app in the tests connects to it), the Korf
instances. Large artefacts (pattern databases, distance tables) go to a fresh directory for each test run, removed at
the end, so no test can depend on what an earlier run left behind; a test that needs a table builds it
(tests/engine/conftest.py builds the 6-6-3 database in a session fixture; each app test has a data folder of its
own)."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import pytest
from hypothesis import settings

from tests.support.korf import korf_instances

os.environ["PUZZLE_DATA_DIR"] = tempfile.mkdtemp(prefix="puzzle-test-data-")
atexit.register(shutil.rmtree, os.environ["PUZZLE_DATA_DIR"], True)
# Hypothesis would replay the examples an earlier run saved in .hypothesis/; every run starts from nothing instead.
settings.register_profile("no-saved-examples", database=None)
settings.load_profile("no-saved-examples")


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
