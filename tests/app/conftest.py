import os

import pytest

from app import create_app, init_jobs
from engine import store


def _app(tmp_path, scheduler_address, data_dir):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "jobs.sqlite"), "DATA_DIR": str(data_dir),
                      "SCHEDULER": scheduler_address, "BUILD_TABLES": False})
    init_jobs(app)
    yield app
    app.extensions["jobs"].shutdown()
    store.set_data_dir(os.environ["PUZZLE_DATA_DIR"])


@pytest.fixture
def app(tmp_path, scheduler_address):
    """The app on the session's cluster, with a job database and a data folder of its own: no table another test
    trained or built changes what this one sees."""
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    yield from _app(tmp_path, scheduler_address, data_dir)


@pytest.fixture
def started_app(tmp_path, scheduler_address, startup_tables_dir):
    """The app as a server is a minute after start-up: the start-up job has built the 6-6-3 databases (the 7-8 ones
    take minutes more), in a data folder of this test's own that links to the tables built once for the run."""
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    for table in startup_tables_dir.glob("*.np[y]"):
        for part in (table, table.with_suffix(".json"), table.with_name(table.name + ".crc32")):
            (data_dir / part.name).symlink_to(part)
    yield from _app(tmp_path, scheduler_address, data_dir)


def visitor(app):
    """A browser that has opened the home page, so it holds its owner cookie (as every real visitor does before it
    can press a button)."""
    client = app.test_client()
    client.get("/")
    return client


@pytest.fixture
def client(app):
    return visitor(app)
