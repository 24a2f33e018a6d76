import threading
import time

import pytest

from engine.errors import PuzzleError
from engine.jobs import JobRunner, job_kind


@job_kind("test-count")
def count_job(params, report, cancel):
    for i in range(params["n"]):
        if cancel.is_set():
            return {"status": "cancelled", "reached": i}
        report(i / params["n"], {"nodes": i, "text": f"{i} of {params['n']}"})
        time.sleep(params.get("sleep", 0.0))
    return {"status": "done", "reached": params["n"]}


@job_kind("test-fail")
def failing_job(params, report, cancel):
    if params.get("bad_input"):
        raise PuzzleError("tile 7 appears twice")
    raise RuntimeError("boom")


@pytest.fixture
def runner(tmp_path):
    runner = JobRunner(str(tmp_path / "jobs.sqlite"), workers=2)
    yield runner
    runner.shutdown()


def test_job_runs_and_keeps_its_result(runner):
    job_id = runner.submit("test-count", {"n": 5})
    job = runner.wait(job_id, timeout=5)
    assert job["status"] == "done" and job["result"] == {"status": "done", "reached": 5}
    assert job["fraction"] == 1.0 and job["params"] == {"n": 5}
    assert job["created"] <= job["started"] <= job["finished"]


def test_progress_is_visible_while_running(runner):
    job_id = runner.submit("test-count", {"n": 200, "sleep": 0.01})
    time.sleep(0.3)
    job = runner.get(job_id)
    assert job["status"] == "running"
    assert 0 < job["info"]["nodes"] < 200 and 0 < job["fraction"] < 1
    runner.cancel(job_id)


def test_cancel(runner):
    job_id = runner.submit("test-count", {"n": 10_000, "sleep": 0.01})
    time.sleep(0.2)
    assert runner.cancel(job_id)
    job = runner.wait(job_id, timeout=5)
    assert job["status"] == "cancelled" and job["result"]["reached"] < 10_000
    assert not runner.cancel(job_id)  # finished jobs cannot be cancelled again


def test_failures_are_recorded_not_raised(runner):
    bad = runner.wait(runner.submit("test-fail", {"bad_input": True}), timeout=5)
    assert bad["status"] == "failed" and bad["error"] == "tile 7 appears twice"
    bug = runner.wait(runner.submit("test-fail", {}), timeout=5)
    assert bug["status"] == "failed" and "RuntimeError: boom" in bug["error"]


def test_unknown_kind(runner):
    with pytest.raises(PuzzleError, match="unknown job kind"):
        runner.submit("nope", {})


def test_restart_keeps_results_and_marks_running_jobs_interrupted(tmp_path):
    path = str(tmp_path / "jobs.sqlite")
    first = JobRunner(path, workers=2)
    done = first.wait(first.submit("test-count", {"n": 3}), timeout=5)
    running = first.submit("test-count", {"n": 100_000, "sleep": 0.01})
    time.sleep(0.2)
    # The process "stops" without finishing its jobs: a second runner opens the same database.
    second = JobRunner(path, workers=1)
    assert second.get(done["id"])["result"] == {"status": "done", "reached": 3}
    assert second.get(running)["status"] == "interrupted"
    assert second.latest("test-count")["id"] == done["id"]
    first.shutdown()
    second.shutdown()


def test_two_jobs_run_at_once(runner):
    started = threading.Event()
    ids = [runner.submit("test-count", {"n": 30, "sleep": 0.01}) for _ in range(2)]
    time.sleep(0.15)
    assert [runner.get(i)["status"] for i in ids] == ["running", "running"]
    for i in ids:
        runner.wait(i, timeout=5)
    assert not started.is_set()


def test_newest_by_keeps_the_newest_finished_job_per_key(runner):
    ids = []
    for n in (3, 4, 3):
        ids.append(runner.submit("test-count", {"n": n}))
        runner.wait(ids[-1], timeout=10)
    newest = runner.newest_by("test-count", lambda p: p["n"])
    assert [j["id"] for j in newest] == [ids[2], ids[1]]
