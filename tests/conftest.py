"""Shared fixtures: one Dask cluster for the whole session (every app in the tests connects to it), the Korf
instances. Large artefacts (pattern databases, distance tables) go to a fresh directory for each test run, removed at
the end, so no test can depend on what an earlier run left behind; a test that needs a table builds it
(tests/engine/conftest.py builds the 6-6-3 database in a session fixture; each app test has a data folder of its
own).

``startup_tables_dir`` holds the tables a server has a minute after start-up (the 6-6-3 databases for both goals,
built by the command the server's start-up job runs), for the tests that run the app as it serves: when a collected
test asks for it, its build starts in a separate, niced process as soon as collection ends and runs beside the other
tests, into a directory of its own (the other tests never see it appear: which heuristic ``pdb`` picks must not
depend on how far a build has got)."""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
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


@pytest.fixture(autouse=True)
def _engine_data_dir_restored():
    """Every app points the engine at its own data folder (a process-wide setting): after each test it points at the
    run's again, so a test's tables are where the next test's session fixtures built them, whichever file ran
    before it in this worker."""
    yield
    from engine.serving import store

    store.set_data_dir(os.environ["PUZZLE_DATA_DIR"])


#: What each directory-of-tables fixture holds: the tables built into it.
BACKGROUND_TABLES = {"startup_tables_dir": ("pdb-663/blank-first", "pdb-663/blank-last")}
#: Under pytest-xdist every worker collects every test, but a table is built once per run: the first worker to
#: claim a fixture's directory (named by the controller, the workers' parent process) starts the build; every worker
#: waits for its exit file, and the controller removes the directories when the run ends.
RUN_ID = os.getppid() if os.environ.get("PYTEST_XDIST_WORKER") else None
SHARED_TEMP = Path(tempfile.gettempdir())


def _build_dir(fixture: str) -> Path:
    if RUN_ID:
        return SHARED_TEMP / f"puzzle-test-run{RUN_ID}-{fixture}"
    return Path(tempfile.mkdtemp(prefix=f"puzzle-test-{fixture}-"))


_build_dirs: dict[str, Path] = {}


def pytest_collection_modifyitems(config, items):
    wanted = {name for item in items for name in getattr(item, "fixturenames", ())}
    for fixture, tables in BACKGROUND_TABLES.items():
        if fixture in wanted:
            _build_dirs[fixture] = _start_build(fixture, tables)


def _start_build(fixture: str, tables: tuple[str, ...]) -> Path:
    directory = _build_dir(fixture)
    try:
        directory.mkdir(exist_ok=not RUN_ID)
    except FileExistsError:
        return directory  # another worker of this run builds it
    if not RUN_ID:
        atexit.register(shutil.rmtree, directory, True)  # under xdist the controller removes it at the end
    only = [arg for table in tables for arg in ("--only", table)]
    # the exit code is written when the build ends, so that any process can wait for it
    script = ("import subprocess, sys; code = subprocess.call(sys.argv[2:]); "
              "open(sys.argv[1] + '.tmp', 'w').write(str(code)); "
              "import os; os.replace(sys.argv[1] + '.tmp', sys.argv[1])")
    with open(directory / "build.log", "w") as log:
        process = subprocess.Popen([sys.executable, "-c", script, str(directory / "exit-code"), sys.executable, "-m",
                                    "engine", "tables", "build", *only], cwd=ROOT,
                                   env={**os.environ, "PUZZLE_DATA_DIR": str(directory)}, stdout=log, stderr=log,
                                   preexec_fn=lambda: (os.setsid(), os.nice(5)))
    if RUN_ID:  # the worker that started it may finish first: the controller ends it (see pytest_sessionfinish)
        (directory / "pid").write_text(str(process.pid))
    else:
        atexit.register(_end_build, process.pid)  # an interrupted run leaves no build behind
    return directory


def _end_build(pid: int) -> None:
    """Kill a build and the command it runs (its own process group)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _built(fixture: str) -> Path:
    """The fixture's directory once its background build has finished."""
    directory = _build_dirs[fixture]
    deadline = time.monotonic() + 3600
    while not (directory / "exit-code").exists():
        assert time.monotonic() < deadline, f"the {fixture} build did not end within an hour"
        time.sleep(0.5)
    code = (directory / "exit-code").read_text()
    assert code == "0", (directory / "build.log").read_text()[-2000:]
    return directory


def pytest_sessionfinish(session):
    if not hasattr(session.config, "workerinput"):  # the controller (or a run without xdist), once every test is done
        for directory in SHARED_TEMP.glob(f"puzzle-test-run{os.getpid()}-*"):
            if (directory / "pid").exists() and not (directory / "exit-code").exists():
                _end_build(int((directory / "pid").read_text()))  # an interrupted run leaves no build behind
            shutil.rmtree(directory, True)


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
    from engine.core import registry
    from engine.serving.lanes import LocalWorkers, start_local_cluster

    # This process compiles every kernel first (a fresh clone has no numba cache): the workers then load the cache
    # instead of each compiling the same kernels at the same time on a two-core machine.
    registry.warm_up()
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


def pytest_configure(config):
    """With pytest-xdist, the controller loads (on a fresh clone: compiles) every kernel once before the workers
    start, so the workers and their Dask workers read numba's cache instead of each compiling the same kernels."""
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        subprocess.run([sys.executable, "-c", "from engine.core import registry; registry.warm_up()"], cwd=ROOT,
                       check=True)
