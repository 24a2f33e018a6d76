
import pytest

from app import create_app, init_jobs


class RunnerOnFirstUse:
    """Stands in for ``app.extensions["jobs"]`` until something asks it for anything: only then does the app join
    the session's Dask cluster (``init_jobs``). A test that only renders pages never starts or joins the cluster."""

    def __init__(self, app, request):
        self._app, self._request, self._runner = app, request, None

    def _started(self):
        if self._runner is None:  # a test may hold this stand-in: it starts one runner, once
            self._app.config["SCHEDULER"] = self._request.getfixturevalue("scheduler_address")
            self._runner = init_jobs(self._app)  # replaces this stand-in in app.extensions
        return self._runner

    def __getattr__(self, name):
        return getattr(self._started(), name)

    def __setattr__(self, name, value):  # a test that sets the runner's limits sets the runner's
        if name.startswith("_"):
            object.__setattr__(self, name, value)
        else:
            setattr(self._started(), name, value)


def _app(request, tmp_path, data_dir):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "jobs.sqlite"), "DATA_DIR": str(data_dir),
                      "BUILD_TABLES": False})
    app.extensions["jobs"] = RunnerOnFirstUse(app, request)
    yield app
    if not isinstance(app.extensions["jobs"], RunnerOnFirstUse):
        app.extensions["jobs"].shutdown()


@pytest.fixture
def app(request, tmp_path):
    """The app with a job database and a data folder of its own (no table another test trained or built changes
    what this one sees), on the session's cluster once a job is asked for."""
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    yield from _app(request, tmp_path, data_dir)


@pytest.fixture
def started_app(request, tmp_path, startup_tables_dir):
    """The app as a server is a minute after start-up: the start-up job has built the 6-6-3 databases (the 7-8 ones
    take minutes more), in a data folder of this test's own that links to the tables built once for the run."""
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    for table in startup_tables_dir.glob("*.np[y]"):
        for part in (table, table.with_suffix(".json"), table.with_name(table.name + ".crc32")):
            (data_dir / part.name).symlink_to(part)
    yield from _app(request, tmp_path, data_dir)


def visitor(app):
    """A browser that has opened the home page, so it holds its owner cookie (as every real visitor does before it
    can press a button)."""
    client = app.test_client()
    client.get("/")
    return client


@pytest.fixture
def client(app):
    return visitor(app)
