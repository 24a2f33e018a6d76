"""Several web processes on one job database and one Dask cluster (issue 49): two runners share the session's cluster
(one long-lane worker, one interactive worker) and one database file, as two web processes of one server do.

Each job here names who runs it only through the database: what one runner starts, the other follows, cancels,
counts against the limits and adopts when the first goes away."""


import pytest

from engine.core.status import Status
from engine.serving.cluster import JobRunner, Limits, QuotaExceeded
from tests.support.job_kinds import register_everywhere
from tests.support.waiting import wait_until

#: Minutes of counting: still running when the test looks, unless something stops it.
FOREVER = {"n": 100_000, "sleep": 0.01}


def runner_on(path, scheduler_address, **limits) -> JobRunner:
    runner = JobRunner(str(path), scheduler=scheduler_address,
                       limits=Limits(memory=400 * 2**20, slice_seconds=60, **limits))
    register_everywhere(runner.client)
    return runner


@pytest.fixture
def pair(tmp_path, scheduler_address):
    """Two runners on one database file and one cluster; whatever a test leaves running is cancelled."""
    runners = [runner_on(tmp_path / "jobs.sqlite", scheduler_address) for _ in range(2)]
    yield runners
    first = runners[0]
    if not first._closed:
        for row in first.store.active():
            first.cancel(row["id"])
            first.wait(row["id"], timeout=60)
    for runner in runners:
        runner.shutdown()


def test_a_long_job_keeps_running_and_its_result_while_another_process_starts_and_stops(pair, tmp_path,
                                                                                        scheduler_address):
    a, _ = pair
    running, _ = a.submit("test-count", {"n": 300, "sleep": 0.01}, owner="x")
    queued, _ = a.submit("test-count", {"n": 5, "token": "after"}, owner="y")  # behind it: one long-lane worker
    wait_until(lambda: a.get(running)["status"] == "running", timeout=180)
    b = runner_on(tmp_path / "jobs.sqlite", scheduler_address)  # a second web process starts
    assert a.store.get(running)["status"] == "running" and a.store.get(queued)["status"] == "queued"
    b.shutdown()  # and stops
    assert a.store.get(running)["status"] in ("running", "done") and a.store.get(queued)["status"] != "interrupted"
    job = a.wait(running, timeout=180)
    assert job["status"] == "done" and job["result"] == {"status": "done", "reached": 300}
    assert a.wait(queued, timeout=180)["status"] == "done"
    assert not a.store.finish(running, Status.INTERRUPTED)
    assert a.store.get(running)["status"] == "done"  # an ending is written once


def test_a_cancel_sent_to_the_other_process_stops_the_job_and_frees_its_worker(pair):
    a, b = pair
    job_id, _ = a.submit("test-count", FOREVER, owner="x")
    wait_until(lambda: a.get(job_id)["status"] == "running", timeout=180)
    worker = a.get(job_id)["worker"]
    following, _ = a.submit("test-count", {"n": 5, "token": "next"}, owner="y")  # waits for that worker
    b.cancel(job_id, owner="x")
    job = b.wait(job_id, timeout=60)
    assert job["status"] == "cancelled" and job["error"] is None  # ended by the job itself, not by a replaced worker
    assert job["result"]["reached"] < FOREVER["n"]  # the worker's count stopped, and its partial result is kept
    after = a.wait(following, timeout=120)
    assert after["status"] == "done" and after["worker"] == worker  # the freed worker took the next job


def test_one_browsers_job_limit_holds_across_both_processes(tmp_path, scheduler_address):
    a, b = (runner_on(tmp_path / "jobs.sqlite", scheduler_address, per_owner=2, per_address=3) for _ in range(2))
    try:
        first, _ = a.submit("test-count", {**FOREVER, "token": "1"}, owner="browser", address="10.0.0.1")
        again, reattached = b.submit("test-count", {**FOREVER, "token": "1"}, owner="browser", address="10.0.0.1")
        assert (again, reattached) == (first, True)  # the same request on the other process joins the same job
        b.submit("test-count", {**FOREVER, "token": "2"}, owner="browser", address="10.0.0.1")
        for runner in (a, b):
            with pytest.raises(QuotaExceeded, match="you already have 2 jobs"):
                runner.submit("test-count", {**FOREVER, "token": "3"}, owner="browser", address="10.0.0.1")
        a.submit("test-count", {**FOREVER, "token": "4"}, owner="neighbour", address="10.0.0.1")
        with pytest.raises(QuotaExceeded, match="your network address already has 3 jobs"):
            b.submit("test-count", {**FOREVER, "token": "5"}, owner="third", address="10.0.0.1")
    finally:
        for row in a.store.active():
            a.cancel(row["id"])
            a.wait(row["id"], timeout=60)
        a.shutdown()
        b.shutdown()


def test_a_job_whose_process_vanished_is_adopted_by_another_and_keeps_its_result(tmp_path, scheduler_address,
                                                                                 monkeypatch):
    monkeypatch.setattr(JobRunner, "LEASE", 3.0)
    a = runner_on(tmp_path / "jobs.sqlite", scheduler_address)
    job_id, _ = a.submit("test-count", {"n": 600, "sleep": 0.01}, owner="x")
    wait_until(lambda: a.get(job_id)["status"] == "running", timeout=180)
    # the process dies: no orderly stop, its lease is no longer renewed and its client goes away
    a._closed = True
    a.stopped.set()
    a.client.close()
    b = runner_on(tmp_path / "jobs.sqlite", scheduler_address)
    try:
        assert b.store.get(job_id)["status"] == "running"  # its lease has not lapsed yet: not b's to touch
        job = b.wait(job_id, timeout=180)
        assert job["status"] == "done" and job["result"] == {"status": "done", "reached": 600}
        assert job["runner"] == b.id
    finally:
        b.shutdown()


def test_a_process_that_stops_hands_its_running_job_to_another(pair, tmp_path, scheduler_address):
    """The rolling restart: the old process stops in order while the job runs; the new one finishes following it."""
    a, b = pair
    job_id, _ = a.submit("test-count", {"n": 600, "sleep": 0.01}, owner="x")
    wait_until(lambda: a.get(job_id)["status"] == "running", timeout=180)
    a.shutdown()
    wait_until(lambda: b.store.get(job_id)["runner"] == b.id, timeout=60, what="b adopting the job")
    job = b.wait(job_id, timeout=180)
    assert job["status"] == "done" and job["result"] == {"status": "done", "reached": 600}


def test_a_resumable_long_job_yields_its_turn_to_another_browsers_job_and_goes_on(tmp_path, scheduler_address,
                                                                                 monkeypatch):
    monkeypatch.setattr("engine.serving.dispatch.TURN", 0.5)
    runner = runner_on(tmp_path / "jobs.sqlite", scheduler_address)
    try:
        batch, _ = runner.submit("test-resumable", {"n": 1500, "sleep": 0.01}, owner="batch")
        wait_until(lambda: runner.get(batch)["info"].get("nodes", 0) > 0, timeout=180)
        other, _ = runner.submit("test-count", {"n": 5}, owner="other")
        assert runner.wait(other, timeout=180)["status"] == "done"
        assert runner.get(batch)["status"] in ("queued", "running")  # the other went first, between its turns
        job = runner.wait(batch, timeout=300)
        assert job["status"] == "done" and job["result"]["reached"] == 1500
        assert job["result"]["last_start"] > 0  # it went on from where it yielded rather than starting again
    finally:
        runner.shutdown()


#: The 15-puzzle's blank-first goal and four positions 1, 2, 2 and 3 moves from it (straight lines and an L: their
#: Manhattan distance, which no shorter path beats), then Korf's instance 88 (65 moves, minutes of Manhattan IDA*)
EASY_THEN_KORF_88 = [list(range(16)), [1, 0, *range(2, 16)], [1, 2, 0, *range(3, 16)],
                     [4, 1, 2, 3, 8, 5, 6, 7, 0, *range(9, 16)], [1, 2, 3, 0, *range(4, 16)],
                     *[[15, 2, 12, 11, 14, 13, 9, 5, 1, 3, 8, 7, 0, 10, 6, 4]] * 3]


def test_a_batch_cancelled_while_it_waits_for_its_next_turn_keeps_what_it_solved(tmp_path, scheduler_address,
                                                                                monkeypatch):
    """The batch yields its turn to another browser's job and waits in the queue; cancelled there, it answers with
    the positions its first attempt solved (their lengths and total), not with nothing."""
    monkeypatch.setattr("engine.serving.dispatch.TURN", 0.5)
    runner = runner_on(tmp_path / "jobs.sqlite", scheduler_address)
    try:
        batch, _ = runner.submit("solve-batch", {"size": "4x4", "goal": "blank-first", "boards": EASY_THEN_KORF_88,
                                                 "solver": "idastar", "heuristic": "manhattan",
                                                 "max_nodes": 20 * 10**9, "max_seconds": 900}, owner="batch")
        # the first chunk holds the first four (one worker: half the boards); the fifth shares a chunk with Korf's
        wait_until(lambda: runner.get(batch)["info"].get("boards", 0) >= 4, timeout=180, what="the first four solved")
        other, _ = runner.submit("test-count", FOREVER, owner="other")
        wait_until(lambda: (row := runner.store.get(batch))["status"] == Status.QUEUED
                   and "resume_from" in row["run_params"], timeout=180, what="the batch waiting for its next turn")
        job = runner.cancel(batch, owner="batch")
        job = runner.wait(batch, timeout=60)
        assert job["status"] == Status.CANCELLED and job["result"] is not None
        results = job["result"]["results"]
        assert [result["tiles"] for result in results] == EASY_THEN_KORF_88
        solved = [index for index, result in enumerate(results) if result["status"] == Status.SOLVED]
        assert solved[:4] == [0, 1, 2, 3] and len(solved) < len(results)  # the first chunk's, and not all
        assert all(result["status"] == Status.CANCELLED for index, result in enumerate(results) if index not in solved)
        published = [0, 1, 2, 2, 3, 65, 65, 65]  # by hand, and Korf's for instance 88
        assert [results[index]["length"] for index in solved] == [published[index] for index in solved]
        assert job["result"]["solved"] == len(solved)
        assert job["result"]["moves"] == sum(published[index] for index in solved)
        runner.cancel(other, owner="other")
    finally:
        runner.shutdown()


def test_a_long_job_that_cannot_resume_is_never_asked_to_yield(tmp_path, scheduler_address, monkeypatch):
    monkeypatch.setattr("engine.serving.dispatch.TURN", 0.5)
    runner = runner_on(tmp_path / "jobs.sqlite", scheduler_address)
    try:
        first, _ = runner.submit("test-count", {"n": 300, "sleep": 0.01}, owner="first")
        wait_until(lambda: runner.get(first)["info"].get("nodes", 0) > 0, timeout=180)
        other, _ = runner.submit("test-count", {"n": 5}, owner="other")
        done, after = runner.wait(first, timeout=180), runner.wait(other, timeout=180)
        assert done["result"] == {"status": "done", "reached": 300}  # one attempt, to its end
        assert after["status"] == "done" and after["started"] >= done["finished"]
    finally:
        runner.shutdown()


@pytest.mark.slow
def test_a_cancel_sent_to_the_other_process_is_enforced_by_the_process_that_holds_the_job(pair, monkeypatch):
    """The job ignores its cancel: the runner whose lease it carries replaces its worker, whoever was asked."""
    monkeypatch.setattr("engine.serving.cancelling.KILL_AFTER", 1.0)
    a, b = pair
    stubborn, _ = a.submit("test-ignore-cancel", {}, owner="x")
    wait_until(lambda: a.get(stubborn)["status"] == "running", timeout=180)
    worker = a.get(stubborn)["worker"]
    b.cancel(stubborn, owner="x")
    job = b.wait(stubborn, timeout=180)
    assert job["status"] == "cancelled" and "worker process was replaced" in job["error"]
    assert worker in a._replaced and not b._replaced  # a, which holds it, replaced the worker
    wait_until(lambda: worker not in a.client.scheduler_info(n_workers=-1)["workers"]
               and len(a.client.scheduler_info(n_workers=-1)["workers"]) == 2, timeout=300)
    register_everywhere(a.client)  # the fresh worker knows only the real kinds
