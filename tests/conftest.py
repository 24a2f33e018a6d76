"""Shared fixtures: one Dask cluster for the whole session (every app in the tests connects to it), the Korf
instances. Large artefacts (pattern databases, distance tables) go to a fresh directory for each test run, removed at
the end, so no test can depend on what an earlier run left behind; a test that needs a table builds it
(tests/engine/conftest.py builds the 6-6-3 database in a session fixture; each app test has a data folder of its
own).

The 7-8 pattern database takes minutes on two cores, so when a collected test asks for ``pdb78_dir`` its build starts
in a separate, niced process as soon as collection ends and runs beside the other tests, into a directory of its own
(the other tests never see it appear: which heuristic ``pdb`` picks must not depend on how far a build has got).
``startup_tables_dir`` is built the same way: the tables a server has a minute after start-up (the 6-6-3 databases
for both goals, built by the command the server's start-up job runs), for the tests that run the app as it serves."""

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


#: What each directory-of-tables fixture holds: the tables built into it.
BACKGROUND_TABLES = {"pdb78_dir": ("pdb-78/blank-first",),
                     "startup_tables_dir": ("pdb-663/blank-first", "pdb-663/blank-last")}


def pytest_collection_modifyitems(config, items):
    wanted = {name for item in items for name in getattr(item, "fixturenames", ())}
    for fixture, tables in BACKGROUND_TABLES.items():
        if fixture in wanted:
            _start_build(fixture, tables)


def _start_build(fixture: str, tables: tuple[str, ...]) -> None:
    directory = Path(tempfile.mkdtemp(prefix=f"puzzle-test-{fixture}-"))
    atexit.register(shutil.rmtree, directory, True)
    log = open(directory / "build.log", "w")  # left open: the build writes to it after this returns
    only = [arg for table in tables for arg in ("--only", table)]
    process = subprocess.Popen([sys.executable, "-m", "engine", "tables", "build", *only], cwd=ROOT,
                               env={**os.environ, "PUZZLE_DATA_DIR": str(directory)}, stdout=log, stderr=log,
                               preexec_fn=lambda: os.nice(5))
    atexit.register(process.kill)  # an interrupted run leaves no build behind
    _background_builds[fixture] = (process, directory)


def _built(fixture: str) -> Path:
    """The fixture's directory once its background build has finished."""
    process, directory = _background_builds[fixture]
    code = process.wait(timeout=3600)
    assert code == 0, (directory / "build.log").read_text()[-2000:]
    return directory


@pytest.fixture(scope="session")
def pdb78_dir() -> Path:
    """The directory holding a 7-8 database for blank-first built in this run (waits for the background build)."""
    return _built("pdb78_dir")


@pytest.fixture(scope="session")
def startup_tables_dir() -> Path:
    """The directory holding the 6-6-3 databases for both goals built in this run (seconds; waits for the build)."""
    return _built("startup_tables_dir")


@pytest.fixture(scope="session")
def korf() -> list[tuple[int, int, tuple[int, ...]]]:
    return korf_instances()


@pytest.fixture(scope="session")
def dask_cluster():
    """The embedded cluster's shape at its smallest: one long-lane worker and one interactive worker."""
    from engine.serving.lanes import LocalWorkers, start_local_cluster

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
    from engine.core import registry

    registry.warm_up()
    return True


@pytest.fixture(scope="session")
def scheduler_address(dask_cluster) -> str:
    return dask_cluster.scheduler_address
