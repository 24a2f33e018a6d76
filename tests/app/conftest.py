import os

import pytest

from app import create_app


@pytest.fixture
def app(tmp_path, scheduler_address):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "jobs.sqlite"),
                      "DATA_DIR": os.environ["PUZZLE_DATA_DIR"], "SCHEDULER": scheduler_address})
    yield app
    app.extensions["jobs"].shutdown()


def visitor(app):
    """A browser that has opened the home page, so it holds its owner cookie (as every real visitor does before it
    can press a button); requests without the cookie belong to the client's address, as curl's do."""
    client = app.test_client()
    client.get("/")
    return client


@pytest.fixture
def client(app):
    return visitor(app)

