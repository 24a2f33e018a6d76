"""Storage that is bounded and recovers: a full disk answers 507 and loses no ending, rows are pruned by a rule,
parameters are bounded, and the biggest search is the operator's and checks the free space first."""

from __future__ import annotations

import dataclasses
import sqlite3
import time

import pytest

from engine.core.errors import PuzzleError
from engine.core.status import Status
from engine.serving.jobs import JobStore, Retention, checked
from tests.app.conftest import visitor
from tests.support.pages import job_id
from tests.support.waiting import wait_until

EIGHTEEN_QUEENS = {"n": 18, "methods": ["bitmask"]}  # minutes of work: still running when the disk fills
WRITES = ("INSERT", "UPDATE", "DELETE")


class FullDisk:
    """Every write to the job database fails as SQLite fails on a full disk, while ``full`` is set."""

    def __init__(self, monkeypatch):
        self.full = False
        connect = JobStore._connect
        disk = self

        class Connection:
            def __init__(self, real):
                self.real = real

            def execute(self, sql, args=()):
                if disk.full and sql.lstrip().upper().startswith(WRITES):
                    raise sqlite3.OperationalError("database or disk is full")
                return self.real.execute(sql, args)

            def __enter__(self):
                self.real.__enter__()
                return self

            def __exit__(self, *exc):
                return self.real.__exit__(*exc)

            def close(self):
                self.real.close()

        monkeypatch.setattr(JobStore, "_connect", lambda store: Connection(connect(store)))


def test_a_full_disk_answers_507_keeps_every_ending_and_recovers_without_a_restart(app, monkeypatch):
    disk = FullDisk(monkeypatch)
    runner = app.extensions["jobs"]
    student = visitor(app)
    running = job_id(student.post("/api/jobs", json={"kind": "classic-queens", "params": EIGHTEEN_QUEENS}))
    # the row's start, which a pool of threads writes after the worker says it started, is on disk first
    wait_until(lambda: runner.store.get(running)["status"] == "running")
    disk.full = True
    refused = student.post("/api/jobs", json={"kind": "research-maxmd", "params": {"n": 3}})
    assert refused.status_code == 507 and "disk is full" in refused.get_json()["error"]
    page = student.post("/research/start/maxmd", data={"n": "3"})
    assert page.status_code == 507 and "disk is full" in page.get_data(as_text=True)
    # the running job ends while nothing can be written: it ends all the same, and says so
    assert student.post(f"/api/jobs/{running}/cancel").get_json()["status"] == "cancelled"
    assert runner.store.get(running)["status"] == "running"  # the row could not be written yet
    disk.full = False  # space is freed: the ending is written and jobs run again, by themselves
    wait_until(lambda: runner.store.get(running)["status"] == "cancelled", timeout=10, what="the ending written")
    again = job_id(student.post("/api/jobs", json={"kind": "research-maxmd", "params": {"n": 3}}))
    assert runner.wait(again, timeout=60)["status"] == "done"


def test_a_job_that_ends_while_the_disk_is_full_frees_its_lane(app, monkeypatch):
    disk = FullDisk(monkeypatch)
    runner = app.extensions["jobs"]
    student = visitor(app)
    disk.full = False
    first = job_id(student.post("/api/jobs", json={"kind": "research-maxmd", "params": {"n": 4}}))
    disk.full = True
    ended = runner.wait(first, timeout=60)  # served from memory: done, though its row still says otherwise
    assert ended["status"] == "done" and ended["result"]["n"] == 4
    assert runner.store.get(first)["status"] in ("queued", "running")
    assert first not in runner._jobs  # it no longer holds its lane
    disk.full = False
    wait_until(lambda: runner.store.get(first)["status"] == "done", timeout=10, what="the ending written")


def test_the_retention_rule_deletes_old_and_surplus_rows_and_keeps_the_results_pages_show(tmp_path):
    rows = JobStore(str(tmp_path / "jobs.sqlite"))
    day = 86400
    now = time.time()

    def job(name: str, kind: str, params: dict, status: Status, age_days: float) -> None:
        rows.create(name, kind, params, "someone", "long")
        rows.finish(name, status, {} if status == Status.DONE else None)
        rows._write("UPDATE jobs SET created = ?, finished = ? WHERE id = ?",
                    (now - age_days * day, now - age_days * day, name))

    job("old-solve", "solve", {"tiles": 1}, Status.DONE, 10)
    job("old-failed-research", "research-maxmd", {"n": 3}, Status.FAILED, 10)
    job("older-research", "research-maxmd", {"n": 3}, Status.DONE, 12)
    job("newest-research", "research-maxmd", {"n": 3}, Status.DONE, 10)  # the page's result: kept whatever its age
    job("recent-solve", "solve", {"tiles": 2}, Status.DONE, 1)
    rows.create("running", "solve", {"tiles": 3}, "someone", "interactive")
    assert rows.prune(Retention(days=7, rows=1000), ("research-maxmd",)) == 3
    left = {row["id"] for row in rows.select("1 = 1", ())}
    assert left == {"newest-research", "recent-solve", "running"}
    for index in range(5):
        job(f"solve-{index}", "solve", {"tiles": 10 + index}, Status.DONE, 0.1 * (5 - index))
    assert rows.prune(Retention(days=7, rows=3), ("research-maxmd",)) == 3  # the three newest finished stay
    left = {row["id"] for row in rows.select("1 = 1", ())}
    assert left == {"newest-research", "running", "solve-2", "solve-3", "solve-4"}


def test_parameters_keep_only_what_the_kind_reads_and_are_bounded(monkeypatch):
    import engine.serving.jobs

    board = {"size": "3x3", "tiles": [8, 6, 7, 2, 5, 4, 3, 0, 1]}
    _, clean = checked("solve", {**board, "solver": "dpso", "params": {"iterations": 5, "junk": "x" * 50_000},
                                 "more_junk": [1] * 1000})
    assert clean["params"] == {"iterations": 5} and "more_junk" not in clean
    monkeypatch.setattr(engine.serving.jobs, "MAX_PARAMS_BYTES", 5)
    with pytest.raises(PuzzleError, match="too large"):
        checked("classic-queens", {"n": 8})
    # the solve and compare kinds carry a problem's data (a graph, a grid): bounded by the larger limit
    compare = engine.serving.jobs.KINDS.named("compare")
    monkeypatch.setitem(engine.serving.jobs.KINDS._entries, "compare", dataclasses.replace(compare, max_bytes=100))
    with pytest.raises(PuzzleError, match="too large"):
        checked("compare", {**board, "solvers": ["bfs", "idastar"]})


def test_the_biggest_search_is_the_operators_and_checks_the_free_space(client, monkeypatch):
    import shutil
    from collections import namedtuple

    refused = client.post("/api/jobs", json={"kind": "research-bfs", "params": {"rows": 2, "cols": 7}})
    assert refused.status_code == 400 and "PUZZLE_BIG_SEARCHES=1" in refused.get_json()["error"]
    monkeypatch.setenv("PUZZLE_BIG_SEARCHES", "1")
    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(2**40, 2**40 - 2**30, 2**30))  # 1 GB free
    full = client.post("/api/jobs", json={"kind": "research-bfs", "params": {"rows": 2, "cols": 7}})
    assert full.status_code == 507 and "10.9 GB more" in full.get_json()["error"]  # 14 files × 13!/2 × 2 bits


@pytest.fixture
def tiny_disk(tmp_path):
    """A 256 KB file system of its own (tmpfs; root only, as CI runs)."""
    import os
    import subprocess

    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mount = tmp_path / "tiny"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)]).returncode != 0:
        pytest.skip("this machine cannot mount a tmpfs")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=True)


def test_the_job_rows_on_a_full_256_kb_file_system_refuse_clearly_and_recover(tiny_disk):
    import os

    from engine.serving.jobs import StorageFull

    rows = JobStore(str(tiny_disk / "jobs.sqlite"))
    rows.create("before", "solve", {}, "someone", "interactive")
    filler = os.open(tiny_disk / "filler", os.O_WRONLY | os.O_CREAT)
    with pytest.raises(OSError):
        while True:
            os.write(filler, b"x" * 4096)
    os.close(filler)
    with pytest.raises(StorageFull, match="disk is full"):
        for index in range(1000):  # past whatever room SQLite's pages still had
            rows.create(f"job-{index}", "solve", {"padding": "x" * 500}, "someone", "interactive")
    os.remove(tiny_disk / "filler")
    assert rows.finish("before", Status.DONE, {"moves": ""})  # written as soon as there is room, same process
    assert rows.get("before")["status"] == "done"


def test_a_start_on_a_full_disk_with_an_existing_job_database_says_so_in_a_sentence(tiny_disk, monkeypatch, capsys):
    import gc
    import os

    from app.serve import main

    database = tiny_disk / "jobs.sqlite"
    rows = JobStore(str(database))
    rows.create("before", "solve", {}, "someone", "interactive")
    del rows
    gc.collect()  # its last connection closes: SQLite folds the write-ahead log back in and deletes it, as at a stop
    filler = os.open(tiny_disk / "filler", os.O_WRONLY | os.O_CREAT)
    with pytest.raises(OSError):
        while True:
            os.write(filler, b"x" * 4096)
    os.close(filler)
    monkeypatch.setenv("PUZZLE_DATABASE", str(database))
    monkeypatch.setenv("PUZZLE_BUILD_TABLES", "0")
    assert main(["--port", "0"]) == 2
    said = capsys.readouterr().err
    assert "disk is full" in said and "Traceback" not in said and str(database) in said
