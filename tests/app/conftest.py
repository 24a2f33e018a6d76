import os

import pytest

from app import create_app


@pytest.fixture
def app(tmp_path, scheduler_address):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "jobs.sqlite"),
                      "DATA_DIR": os.environ["PUZZLE_DATA_DIR"], "SCHEDULER": scheduler_address})
    yield app
    app.extensions["jobs"].shutdown()


@pytest.fixture
def client(app):
    return app.test_client()

