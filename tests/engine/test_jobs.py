"""Jobs through the Dask runner: results, progress, cancel across processes, failures, restart, lanes, limits.

The runner connects to the session's cluster (one long-lane worker, one interactive worker); the job kinds used here
are registered in its workers by ``register_everywhere``.
"""

import time

import pytest

from engine import registry
from engine.cluster import JobRunner, Limits, NotOwner, QuotaExceeded
from engine.errors import PuzzleError
from engine.jobs import JobStore, canonical, checked, job_kinds
from engine.status import Status
from tests.support.job_kinds import register_everywhere
from tests.support.waiting import wait_until

#: How long a test waits, at most, for a replaced worker to come back and take a job: its preload loads every kernel
#: first, which takes minutes on a loaded machine. Only a broken test waits this long.
RESTART = 300


@pytest.fixture
def runner(tmp_path, scheduler_address):
    runner = JobRunner(str(tmp_path / "jobs.sqlite"), scheduler=scheduler_address, limits=Limits(memory=400 * 2**20))
    register_everywhere(runner.client)
    yield runner
    runner.shutdown()


def test_every_subject_registers_its_kinds():
    registry.load_all()
    names = set(job_kinds())
    assert {"solve", "compare", "classic-queens", "classic-knights", "research-bfs", "research-maxmd",
            "research-subproblem", "research-tables", "research-bounds", "rectout-solve", "meta-experiment",
            "learned-train", "learned-evaluate"} <= names


def test_parameters_are_checked_and_normalised_at_submission():
    registry.load_all()
    kind, params = checked("classic-queens", {"n": "12", "methods": ["bitmask"]})
    assert kind.lane_for(params) == "long" and params == {"n": 12, "methods": ["bitmask"]}
    with pytest.raises(PuzzleError, match="N must be a whole number from 1 to 18"):
        checked("classic-queens", {"n": 99})
    with pytest.raises(PuzzleError, match="unknown job kind"):
        checked(["solve"], {})
    with pytest.raises(PuzzleError, match="must be an object"):
        checked("solve", [1])
    kind, params = checked("solve", {"size": "3x3", "tiles": [1, 2, 3, 4, 5, 6, 7, 0, 8], "max_seconds": 5})
    assert kind.lane_for(params) == "interactive" and params["heuristic"] == "manhattan"
    kind, params = checked("solve", {"size": "3x3", "tiles": [1, 2, 3, 4, 5, 6, 7, 0, 8], "max_seconds": 600})
    assert kind.lane_for(params) == "long"  # ten minutes of search is long work, whoever asks


def test_job_runs_in_a_worker_and_keeps_its_result(runner):
    job_id, reattached = runner.submit("test-count", {"n": 5})
    job = runner.wait(job_id, timeout=180)
    assert not reattached
    assert job["status"] == "done" and job["result"] == {"status": "done", "reached": 5}
    assert job["fraction"] == 1.0 and job["params"] == {"n": 5, "sleep": 0.0, "token": ""}
    assert job["created"] <= job["started"] <= job["finished"]
    workers = runner.client.scheduler_info(n_workers=-1)["workers"]
    assert job["worker"] in workers and "long" in workers[job["worker"]]["resources"]


def test_progress_crosses_from_the_worker(runner):
    job_id, _ = runner.submit("test-count", {"n": 3000, "sleep": 0.01})
    wait_until(lambda: runner.get(job_id)["info"].get("nodes", 0) > 0)
    job = runner.get(job_id)
    assert job["status"] == "running" and 0 < job["fraction"] < 1
    runner.cancel(job_id)


def test_cancel_of_a_running_job_is_honoured_by_the_job(runner):
    job_id, _ = runner.submit("test-count", {"n": 100_000, "sleep": 0.01})
    wait_until(lambda: runner.get(job_id)["status"] == "running")
    worker = runner.get(job_id)["worker"]
    job = runner.cancel(job_id)
    job = runner.wait(job_id, timeout=180)
    assert job["status"] == "cancelled" and job["result"]["reached"] < 100_000  # it stopped itself, mid-count
    assert job["error"] is None  # not the message of a worker that had to be replaced
    assert worker in runner.client.scheduler_info(n_workers=-1)["workers"]
    assert runner.cancel(job_id)["status"] == "cancelled"  # cancelling again changes nothing


def test_cancel_of_a_job_that_started_before_its_row_says_so(runner, monkeypatch):
    monkeypatch.setattr(runner.store, "started", lambda *args: None)  # the row's "started" write still to come
    job_id, _ = runner.submit("test-count", {"n": 100_000, "sleep": 0.01})
    wait_until(lambda: runner.get(job_id)["status"] == "running")  # as the worker's event says
    assert runner.store.get(job_id)["status"] == "queued"
    runner.cancel(job_id)
    job = runner.wait(job_id, timeout=180)
    assert job["status"] == "cancelled" and job["result"]["reached"] < 100_000  # it stopped itself: not dropped


def test_cancel_of_a_queued_job(runner):
    blocker, _ = runner.submit("test-count", {"n": 100_000, "sleep": 0.01})  # the one long-lane worker is busy
    queued, _ = runner.submit("test-count", {"n": 5, "token": "second"})
    assert runner.get(queued)["status"] == "queued"
    assert runner.cancel(queued)["status"] == "cancelled"
    runner.cancel(blocker)
    assert runner.wait(blocker, timeout=180)["status"] == "cancelled"


def test_a_job_that_ignores_cancel_loses_its_worker_and_others_carry_on(runner, monkeypatch):
    monkeypatch.setattr("engine.cluster.KILL_AFTER", 1.0)
    other, _ = runner.submit("test-interactive", {"n": 400, "sleep": 0.01})  # on the other worker
    stubborn, _ = runner.submit("test-ignore-cancel", {})
    wait_until(lambda: runner.get(stubborn)["status"] == "running")
    worker = runner.get(stubborn)["worker"]
    runner.cancel(stubborn)
    job = runner.wait(stubborn, timeout=180)
    assert job["status"] == "cancelled" and "worker process was replaced" in job["error"]
    wait_until(lambda: worker not in runner.client.scheduler_info(n_workers=-1)["workers"]
               and len(runner.client.scheduler_info(n_workers=-1)["workers"]) == 2, timeout=RESTART)
    assert runner.wait(other, timeout=RESTART)["status"] == "done"
    register_everywhere(runner.client)  # the fresh worker knows only the real kinds
    assert runner.wait(runner.submit("test-count", {"n": 3})[0], timeout=RESTART)["status"] == "done"


def test_a_job_over_its_memory_limit_fails_and_the_next_job_runs(runner):
    job = runner.wait(runner.submit("test-grow", {})[0], timeout=RESTART)
    assert job["status"] == "failed" and "memory limit (0.4 GB)" in job["error"]
    assert runner.wait(runner.submit("test-count", {"n": 3})[0], timeout=RESTART)["status"] == "done"


def test_a_job_over_its_memory_limit_that_ignores_cancel_ends_its_process(runner):
    job = runner.wait(runner.submit("test-grow", {"ignore_cancel": True})[0], timeout=RESTART)
    assert job["status"] == "failed" and "memory limit" in job["error"]
    wait_until(lambda: len(runner.client.scheduler_info(n_workers=-1)["workers"]) == 2, timeout=RESTART)
    register_everywhere(runner.client)
    assert runner.wait(runner.submit("test-count", {"n": 3})[0], timeout=RESTART)["status"] == "done"


def test_interactive_jobs_do_not_wait_behind_long_ones(runner):
    long_id, _ = runner.submit("test-count", {"n": 100_000, "sleep": 0.01})
    wait_until(lambda: runner.get(long_id)["status"] == "running")
    quick = runner.wait(runner.submit("test-interactive", {"n": 3})[0], timeout=180)
    assert quick["status"] == "done" and runner.get(long_id)["status"] == "running"
    runner.cancel(long_id)


def test_failures_are_recorded_not_raised(runner):
    bad = runner.wait(runner.submit("test-fail", {"bad_input": True})[0], timeout=180)
    assert bad["status"] == "failed" and bad["error"] == "tile 7 appears twice"
    bug = runner.wait(runner.submit("test-fail", {})[0], timeout=180)
    assert bug["status"] == "failed" and "RuntimeError: boom" in bug["error"]


def test_limits_per_owner_and_identical_jobs_reattach(tmp_path, scheduler_address):
    runner = JobRunner(str(tmp_path / "jobs.sqlite"), scheduler=scheduler_address, limits=Limits(per_owner=2))
    register_everywhere(runner.client)
    try:
        first, _ = runner.submit("test-count", {"n": 100_000, "sleep": 0.01}, owner="a")
        again, reattached = runner.submit("test-count", {"n": 100_000, "sleep": 0.01}, owner="a")
        assert again == first and reattached
        second, _ = runner.submit("test-count", {"n": 100_000, "sleep": 0.01, "token": "2"}, owner="a")
        with pytest.raises(QuotaExceeded, match="2 jobs queued or running"):
            runner.submit("test-count", {"n": 5}, owner="a")
        runner.submit("test-count", {"n": 5}, owner="b")  # another browser is not held back
        with pytest.raises(NotOwner):
            runner.cancel(first, owner="b")
        for job_id in (first, second):
            assert runner.cancel(job_id, owner="a")["status"] in ("cancelled", "running")
    finally:
        runner.shutdown()


def test_the_queue_has_a_global_cap(tmp_path, scheduler_address):
    runner = JobRunner(str(tmp_path / "jobs.sqlite"), scheduler=scheduler_address,
                       limits=Limits(per_owner=10, queued=2))
    register_everywhere(runner.client)
    try:
        ids = [runner.submit("test-count", {"n": 100_000, "sleep": 0.01, "token": "0"}, owner="0")[0]]
        wait_until(lambda: runner.get(ids[0])["status"] == "running")  # the one long-lane worker is taken
        ids += [runner.submit("test-count", {"n": 100_000, "sleep": 0.01, "token": str(i)}, owner=str(i))[0]
                for i in (1, 2)]  # these two wait
        with pytest.raises(QuotaExceeded, match="queue is full"):
            runner.submit("test-count", {"n": 5, "token": "more"}, owner="x")
        for job_id in ids:
            runner.cancel(job_id)
    finally:
        runner.shutdown()


def test_restart_keeps_results_and_marks_unfinished_jobs_interrupted(tmp_path, scheduler_address):
    path = str(tmp_path / "jobs.sqlite")
    store = JobStore(path)
    store.create("done1", "test-count", {"n": 3}, "a", "long")
    store.started("done1", "tcp://w", time.time())
    store.finish("done1", Status.DONE, {"reached": 3})
    store.create("running1", "test-count", {"n": 9}, "a", "long")
    store.started("running1", "tcp://w", time.time())
    store.create("queued1", "test-count", {"n": 9}, "a", "long")
    runner = JobRunner(path, scheduler=scheduler_address)  # what a server does when it starts
    try:
        assert runner.get("done1")["result"] == {"reached": 3}
        assert runner.get("running1")["status"] == runner.get("queued1")["status"] == "interrupted"
        assert runner.latest("test-count")["id"] == "done1"
    finally:
        runner.shutdown()


def test_a_database_from_before_owners_and_lanes_is_upgraded(tmp_path):
    import sqlite3

    path = str(tmp_path / "old.sqlite")
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE jobs (id TEXT PRIMARY KEY, kind TEXT NOT NULL, params TEXT NOT NULL, status TEXT "
                   "NOT NULL, fraction REAL, info TEXT NOT NULL DEFAULT '{}', result TEXT, error TEXT, created REAL "
                   "NOT NULL, started REAL, finished REAL)")
        db.execute("INSERT INTO jobs (id, kind, params, status, created) VALUES ('old', 'solve', '{}', 'done', 1)")
    store = JobStore(path)
    assert store.get("old")["owner"] == "" and store.get("old")["lane"] == "long"


def test_newest_by_keeps_the_newest_done_job_per_key(tmp_path):
    store = JobStore(str(tmp_path / "jobs.sqlite"))
    for index, n in enumerate((3, 4, 3)):
        store.create(f"j{index}", "test-count", {"n": n}, "", "long")
        store.finish(f"j{index}", Status.DONE, {"reached": n})
        time.sleep(0.01)
    assert [j["id"] for j in store.newest_by("test-count", lambda p: p["n"])] == ["j2", "j1"]
    assert canonical({"b": 1, "a": 2}) == canonical({"a": 2, "b": 1})
