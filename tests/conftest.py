"""Shared fixtures: one Dask cluster for the whole session (every app in the tests connects to it), the Korf
instances. Large artefacts (pattern databases, distance tables) go to a fresh directory for each test run, removed at
the end, so no test can depend on what an earlier run left behind; a test that needs a table builds it
(tests/engine/conftest.py builds the 6-6-3 database in a session fixture; each app test has a data folder of its
own).

The 7-8 pattern database takes minutes on two cores, so when a collected test asks for ``pdb78_dir`` its build starts
in a separate, niced process as soon as collection ends and runs beside the other tests, into a directory of its own
(the other tests never see it appear: which heuristic ``pdb`` picks must not depend on how far a build has got)."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

from tests.support.korf import korf_instances

ROOT = Path(__file__).resolve().parents[1]
os.environ["PUZZLE_DATA_DIR"] = tempfile.mkdtemp(prefix="puzzle-test-data-")
atexit.register(shutil.rmtree, os.environ["PUZZLE_DATA_DIR"], True)
# Hypothesis would replay the examples an earlier run saved in .hypothesis/; every run starts from nothing instead.
settings.register_profile("no-saved-examples", database=None)
settings.load_profile("no-saved-examples")


_background_builds: dict[str, tuple[subprocess.Popen, Path]] = {}


def pytest_collection_modifyitems(config, items):
    if any("pdb78_dir" in getattr(item, "fixturenames", ()) for item in items):
        _start_build("pdb-78/blank-first")


def _start_build(table: str) -> None:
    directory = Path(tempfile.mkdtemp(prefix="puzzle-test-pdb78-"))
    atexit.register(shutil.rmtree, directory, True)
    log = open(directory / "build.log", "w")  # left open: the build writes to it after this returns
    process = subprocess.Popen([sys.executable, "-m", "engine", "tables", "build", "--only", table], cwd=ROOT,
                               env={**os.environ, "PUZZLE_DATA_DIR": str(directory)}, stdout=log, stderr=log,
                               preexec_fn=lambda: os.nice(5))
    atexit.register(process.kill)  # an interrupted run leaves no build behind
    _background_builds[table] = (process, directory)


@pytest.fixture(scope="session")
def pdb78_dir() -> Path:
    """The directory holding a 7-8 database for blank-first built in this run (waits for the background build)."""
    process, directory = _background_builds["pdb-78/blank-first"]
    code = process.wait(timeout=3600)
    assert code == 0, (directory / "build.log").read_text()[-2000:]
    return directory


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
