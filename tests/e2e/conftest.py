"""A live server in a thread and Debian's Chromium driven by Playwright (its own browser download fails here)."""

from __future__ import annotations

import os
import shutil

import pytest

from app import create_app, init_jobs
from tests.support.served import served

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def live_server(tmp_path_factory, scheduler_address):
    """The app as ``make run`` serves it (waitress), its jobs on the session's Dask cluster."""
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path_factory.mktemp("e2e") / "jobs.sqlite"),
                      "DATA_DIR": os.environ["PUZZLE_DATA_DIR"], "SCHEDULER": scheduler_address, "BUILD_TABLES": False})
    init_jobs(app)
    with served(app, threads=8) as port:
        yield f"http://127.0.0.1:{port}"
    app.extensions["jobs"].shutdown()


@pytest.fixture(scope="session")
def browser():
    if not shutil.which(CHROMIUM):
        pytest.fail(f"Chromium not found at {CHROMIUM}: run `make browser` (installs Debian's chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # A 4xx page (bad input shown to the user) is logged by Chromium as a failed load; that is expected.
    page.on("console", lambda m: errors.append(m.text)
            if m.type == "error" and "status of 4" not in m.text else None)
    yield page
    context.close()
    assert not errors, f"browser errors: {errors}"
