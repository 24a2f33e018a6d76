"""Jobs through the Dask runner: results, progress, cancel across processes, failures, restart, lanes, limits.

The runner connects to the session's cluster (one long-lane worker, one interactive worker); the job kinds used here
are registered in its workers by ``register_everywhere``.
"""

import itertools
import re
import time
from types import SimpleNamespace

import pytest

from engine.core import registry
from engine.core.errors import PuzzleError
from engine.core.status import Status
from engine.serving.cluster import JobRunner, Limits, NotOwner, QuotaExceeded
from engine.serving.jobs import JobStore, canonical, checked, job_kinds
from tests.support.job_kinds import register_everywhere
from tests.support.waiting import wait_until

#: How long a test waits, at most, for a replaced worker to come back and take a job: its preload loads every kernel
#: first, which takes minutes on a loaded machine. Only a broken test waits this long.
RESTART = 300


@pytest.fixture
def runner(tmp_path, scheduler_address):
    # slices long enough that no job here is handed over to the long lane but the one testing it
    runner = JobRunner(str(tmp_path / "jobs.sqlite"), scheduler=scheduler_address,
                       limits=Limits(memory=400 * 2**20, slice_seconds=60))
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
    # no solver named: the strongest ready, on the 8-puzzle its exact distance table
    assert kind.lane_for(params) == "interactive" and (params["solver"], params["heuristic"]) == ("table", "perfect")
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


def test_a_waiting_job_names_what_holds_its_lane_and_how_many_wait_before_it(runner):
    """A job queued behind a long one (at start-up, the table build) says what runs on its lane, for how long so
    far, and how many others wait; not only "waiting for a worker"."""
    blocker, _ = runner.submit("test-count", {"n": 100_000, "sleep": 0.01})  # the one long-lane worker is busy
    wait_until(lambda: runner.get(blocker)["status"] == "running")
    first, _ = runner.submit("test-count", {"n": 5, "token": "first"}, owner="a")
    second, _ = runner.submit("test-count", {"n": 5, "token": "second"}, owner="b")
    text = runner.get(second)["info"]["text"]
    assert text.startswith("waiting for a worker of the long lane; busy with: test count, ")
    assert re.search(r"test count, [0-9.]+ (ms|s) so far", text) and "1 other job waits" in text
    for job in (first, second, blocker):
        runner.cancel(job)
    assert runner.wait(blocker, timeout=180)["status"] == "cancelled"


def test_a_job_that_ignores_cancel_loses_its_worker_and_others_carry_on(runner, monkeypatch):
    monkeypatch.setattr("engine.serving.cancelling.KILL_AFTER", 1.0)
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
    # on a loaded machine the job may grow past its grace before it reads the cancel: its process then ends, and
    # the worker that comes back knows only the real kinds
    wait_until(lambda: len(runner.client.scheduler_info(n_workers=-1)["workers"]) == 2, timeout=RESTART)
    register_everywhere(runner.client)
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
        with pytest.raises(QuotaExceeded, match="queue of long jobs is full"):
            runner.submit("test-count", {"n": 5, "token": "more"}, owner="x")
        for job_id in ids:
            runner.cancel(job_id)
    finally:
        runner.shutdown()


def test_a_start_written_after_the_end_fills_in_the_start_and_leaves_the_status(tmp_path):
    """The start and the end of a job are written by a pool of threads, in either order."""
    store = JobStore(str(tmp_path / "jobs.sqlite"))
    store.create("late-start", "test-count", {"n": 3}, "a", "long")
    assert store.finish("late-start", Status.DONE, {"reached": 3})
    store.started("late-start", "tcp://w", 100.0)
    row = store.get("late-start")
    assert (row["status"], row["started"], row["worker"]) == ("done", 100.0, "tcp://w")
    store.create("known-start", "test-count", {"n": 3}, "a", "long")
    assert store.finish("known-start", Status.DONE, {"reached": 3}, started=("tcp://v", 50.0))
    store.started("known-start", "tcp://w", 60.0)  # the first start stays, as for a job handed over
    row = store.get("known-start")
    assert (row["status"], row["started"], row["worker"]) == ("done", 50.0, "tcp://v")


def test_restart_keeps_results_and_takes_over_the_rows_a_vanished_server_left(tmp_path, scheduler_address):
    """A server that stopped without handing its rows on (its lease lapsed): the next one keeps the results, marks
    interrupted the job whose task is gone with it and runs the one that was still waiting in the queue."""
    from distributed import Client

    path = str(tmp_path / "jobs.sqlite")
    store = JobStore(path)
    gone = {"runner": "vanished", "lease": time.time() - 1}
    store.create("done1", "test-count", {"n": 3}, "a", "long", **gone)
    store.started("done1", "tcp://w", time.time())
    store.finish("done1", Status.DONE, {"reached": 3})
    store.create("running1", "test-count", {"n": 9}, "a", "long", **gone)
    store._write("UPDATE jobs SET dispatched = ?, attempt = 1 WHERE id = 'running1'", (time.time(),))
    store.started("running1", "tcp://w", time.time())
    store.create("queued1", "test-count", checked("test-count", {"n": 9})[1], "a", "long", **gone)
    with Client(scheduler_address, set_as_default=False) as client:
        register_everywhere(client)
    runner = JobRunner(path, scheduler=scheduler_address)  # what a server does when it starts
    try:
        assert runner.get("done1")["result"] == {"reached": 3}
        assert runner.get("running1")["status"] == "interrupted"
        assert runner.wait("queued1", timeout=180)["result"] == {"status": "done", "reached": 9}
        assert runner.latest("test-count", lambda params: params["n"] == 3)["id"] == "done1"
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


def test_newest_by_keeps_the_newest_done_job_per_key(tmp_path, monkeypatch):
    import engine.serving.jobs

    store = JobStore(str(tmp_path / "jobs.sqlite"))
    clock = itertools.count(1_000_000)  # one second apart, whatever the machine's clock resolution
    monkeypatch.setattr(engine.serving.jobs, "time", SimpleNamespace(time=lambda: float(next(clock))))
    for index, n in enumerate((3, 4, 3)):
        store.create(f"j{index}", "test-count", {"n": n}, "", "long")
        store.finish(f"j{index}", Status.DONE, {"reached": n})
    assert [j["id"] for j in store.newest_by("test-count", lambda p: p["n"])] == ["j2", "j1"]
    assert canonical({"b": 1, "a": 2}) == canonical({"a": 2, "b": 1})


LONG_WORK = {"n": 100_000, "sleep": 0.01}  # minutes: still there when the test looks


def test_limits_per_address_and_the_global_cap_never_refuse_an_idle_browsers_solve(tmp_path, scheduler_address):
    runner = JobRunner(str(tmp_path / "jobs.sqlite"), scheduler=scheduler_address,
                       limits=Limits(per_owner=4, per_address=2, queued=1))
    register_everywhere(runner.client)
    try:
        started = [runner.submit("test-count", {**LONG_WORK, "token": owner}, owner=owner, address="10.0.0.9")[0]
                   for owner in ("flood-1", "flood-2")]
        with pytest.raises(QuotaExceeded, match="your network address already has 2 jobs .* PUZZLE_PER_ADDRESS"):
            runner.submit("test-count", {**LONG_WORK, "token": "3"}, owner="flood-3", address="10.0.0.9")
        # the two long jobs fill the one long-lane worker and the queue of one: a third browser's long job waits no
        # more, but its solve (it has nothing running) is taken, from the crowded address as from any other
        with pytest.raises(QuotaExceeded, match="queue of long jobs is full"):
            runner.submit("test-count", {**LONG_WORK, "token": "s"}, owner="student", address="10.0.0.2")
        solve, _ = runner.submit("test-interactive", {"n": 3, "token": "s"}, owner="student", address="10.0.0.2")
        flood_solve, _ = runner.submit("test-interactive", {"n": 3, "token": "f"}, owner="flood-4",
                                       address="10.0.0.9")
        assert runner.wait(solve, timeout=180)["status"] == runner.wait(flood_solve, timeout=180)["status"] == "done"
        row = runner.store.get(started[0])
        assert row["address"] == "10.0.0.9" and not row["anonymous"]
        for job_id in started:
            runner.cancel(job_id)
    finally:
        runner.shutdown()


def test_a_browser_with_nothing_running_starts_before_another_clients_running_and_queued_jobs(tmp_path,
                                                                                             scheduler_address):
    """Issue 43: 100 cookieless jobs from one address, then a browser's solve at the same address. The flood's first
    job holds an interactive slot (its slice outlasts the test) and its other three wait; the browser's job starts
    and ends while the flood's are still where they were: it was served next, not after the flood's slice."""
    runner = JobRunner(str(tmp_path / "jobs.sqlite"), scheduler=scheduler_address,
                       limits=Limits(memory=400 * 2**20, slice_seconds=3600))
    register_everywhere(runner.client)
    try:
        answers = []
        for i in range(100):
            try:
                answers.append(runner.submit("test-interactive", {**LONG_WORK, "token": str(i)}, owner=f"cookie-{i}",
                                             address="10.0.0.7", anonymous=True)[0])
            except QuotaExceeded:
                pass
        assert len(answers) == Limits().per_owner
        wait_until(lambda: runner.get(answers[0])["status"] == "running")
        browser, _ = runner.submit("test-interactive", {"n": 3}, owner="browser", address="10.0.0.7")
        assert runner.wait(browser, timeout=180)["status"] == "done"
        flood = [runner.get(job) for job in answers]
        assert [(job["status"], job["lane"]) for job in flood] == [("running", "interactive")] + [
            ("queued", "interactive")] * 3
        for job in answers:
            runner.cancel(job)
    finally:
        runner.shutdown()


def test_a_job_past_its_slice_goes_on_in_the_long_lane(tmp_path, scheduler_address, monkeypatch):
    from engine.serving.cluster import BACKGROUND_TEXT

    runner = JobRunner(str(tmp_path / "jobs.sqlite"), scheduler=scheduler_address,
                       limits=Limits(slice_seconds=0.5))
    register_everywhere(runner.client)
    handed_over = []
    hand_over = runner.store.hand_over
    monkeypatch.setattr(runner.store, "hand_over",
                        lambda job_id, lane, info: (handed_over.append((lane, info)), hand_over(job_id, lane, info)))
    try:
        job = runner.wait(runner.submit("test-interactive", {"n": 150, "sleep": 0.02})[0], timeout=180)
        assert [(lane, info["text"]) for lane, info in handed_over] == [("long", BACKGROUND_TEXT)]
        assert job["status"] == "done" and job["result"]["reached"] == 150  # it ran to its end, in the other lane
        workers = runner.client.scheduler_info(n_workers=-1)["workers"]
        assert "long" in workers[job["worker"]]["resources"]
        quick = runner.wait(runner.submit("test-interactive", {"n": 2})[0], timeout=180)
        assert quick["status"] == "done" and quick["lane"] == "interactive"  # a quick one stays where it started
    finally:
        runner.shutdown()


def test_a_slice_stops_the_job_as_a_cancel_would():
    import threading

    from engine.serving.worker import _Watchers

    class NeverCancelled:
        def wait(self, timeout):
            threading.Event().wait(timeout)
            return False

    cancel, finished = threading.Event(), threading.Event()
    watch = _Watchers(NeverCancelled(), cancel, finished, 0, lambda message: None, slice_seconds=0.05)
    watch.start()
    assert cancel.wait(30) and watch.sliced
    finished.set()


def test_a_worker_without_the_preload_or_lanes_runs_jobs(tmp_path):
    from distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        runner = JobRunner(str(tmp_path / "jobs.sqlite"), scheduler=cluster.scheduler_address)
        try:
            register_everywhere(runner.client)
            job = runner.wait(runner.submit("test-interactive", {"n": 3})[0], timeout=120)
            assert job["status"] == "done" and job["result"]["reached"] == 3
        finally:
            runner.shutdown()


def test_a_lane_no_worker_serves_is_refused_with_how_to_start_one(tmp_path, monkeypatch):
    from distributed import LocalCluster

    from engine.serving.cluster import NoWorker
    from engine.serving.lanes import LaneCensus

    monkeypatch.setattr(LaneCensus, "STARTING", 0.0)  # past the start-up grace: the lane is known to be missing

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None,
                      resources={"long": 1}) as cluster:
        runner = JobRunner(str(tmp_path / "jobs.sqlite"), scheduler=cluster.scheduler_address)
        try:
            register_everywhere(runner.client)
            with pytest.raises(NoWorker, match=r"dask worker \S+ --resources interactive=1 --preload"):
                runner.submit("test-interactive", {"n": 3})
            assert runner.wait(runner.submit("test-count", {"n": 3})[0], timeout=120)["status"] == "done"
        finally:
            runner.shutdown()



def test_a_job_waiting_for_its_lane_starts_when_a_worker_of_that_lane_joins(tmp_path):
    """Submitted while the cluster is still starting (no worker of its lane yet), the job is taken by the worker that
    joins later, though no other job ends to set off a dispatch."""
    from distributed import LocalCluster, Worker

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None,
                      resources={"long": 1}) as cluster:
        runner = JobRunner(str(tmp_path / "jobs.sqlite"), scheduler=cluster.scheduler_address)
        try:
            job_id = runner.submit("test-interactive", {"n": 3})[0]
            assert runner.get(job_id)["status"] == "queued"
            cluster.new_spec = {"cls": Worker, "options": {"nthreads": 1, "resources": {"interactive": 1}}}
            cluster.scale(2)
            job = runner.wait(job_id, timeout=120)
            assert job["status"] == "done" and job["result"]["reached"] == 3
        finally:
            runner.shutdown()


def test_the_per_address_limit_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("PUZZLE_PER_ADDRESS", "120")
    assert Limits.from_environment().per_address == 120
    monkeypatch.setenv("PUZZLE_PER_ADDRESS", "lots")  # not a number: the default, not a crash at start-up
    assert Limits.from_environment().per_address == Limits().per_address == 16


def cluster(*workers):
    """A client whose scheduler knows ``workers``."""
    identity = SimpleNamespace(identity=lambda n_workers: {"workers": dict(enumerate(workers))})
    return SimpleNamespace(sync=lambda call, **arguments: call(**arguments), scheduler=identity)


def test_a_cluster_with_no_worker_yet_takes_no_job_and_a_late_lane_keeps_its_jobs():
    """Workers register one by one: before any has, a job handed over would carry no lane and go to the first worker
    that comes (a long job on the interactive one); while only the interactive lane is there, the long lane has no
    slot, and a bare worker (no lanes at all) takes anything."""
    from engine.serving.lanes import LaneCensus

    assert LaneCensus().slots(cluster()) == {"interactive": 0, "long": 0}
    interactive = {"resources": {"interactive": 2}, "nthreads": 2}
    assert LaneCensus().slots(cluster(interactive)) == {"interactive": 2, "long": 0}
    census = LaneCensus()
    assert census.slots(cluster({"resources": {}, "nthreads": 3})) == {"interactive": 3, "long": 3}
    assert census.resources("long") is None


def test_a_lane_runs_as_many_jobs_as_its_workers_have_units_and_threads_whichever_is_fewer(runner):
    """Each job takes one unit of its lane's resource: a worker of two threads advertising one unit runs one job at a
    time, so the runner must count one slot there, else the job it hands over waits inside Dask behind another's."""
    from engine.serving.lanes import LaneCensus

    workers = cluster({"resources": {"interactive": 1}, "nthreads": 2}, {"resources": {"long": 4}, "nthreads": 1},
                      {"resources": {"long": 1}, "nthreads": 1})
    assert LaneCensus().slots(workers) == {"interactive": 1, "long": 2}
    # the embedded cluster (the session's is one: ``start_local_cluster``) gives each worker one unit per thread
    shapes = [(w["nthreads"], sum(w["resources"].values()))
              for w in runner.client.scheduler_info(n_workers=-1)["workers"].values()]
    assert shapes and all(threads == units for threads, units in shapes) and (2, 2) in shapes


def test_a_job_whose_worker_was_replaced_for_another_jobs_cancel_starts_again_and_finishes(runner):
    """The bystander of a worker restart: its task fails as Dask fails it (the worker went away), and it is queued
    again rather than failed. Its worker's replacement is stood in for (a real one takes minutes to come back:
    ``test_a_job_that_ignores_cancel_loses_its_worker_and_others_carry_on``)."""
    from engine.serving.cluster import RESTARTED_TEXT, Job

    job_id, params = "bystander01", checked("test-count", {"n": 3})[1]
    held = {"runner": runner.id, "lease": time.time() + 600}  # dispatched by this runner, as its record says
    runner.store.create(job_id, "test-count", params, "someone", "long", "10.0.0.5", **held)
    runner.store._write("UPDATE jobs SET dispatched = ? WHERE id = ?", (time.time(), job_id))
    job = Job(job_id, "test-count", params, "someone", "10.0.0.5", "long", params, worker="tcp://gone:1")
    with runner._lock:
        runner._jobs[job_id] = job
        runner._replaced.add("tcp://gone:1")  # as _enforce_cancel marks the worker it replaces
    lost = SimpleNamespace(status="error", exception=lambda: RuntimeError("KilledWorker: the worker went away"),
                           result=lambda: None)
    runner._end(job, lost)
    assert job.restarts == 1 and job.note == RESTARTED_TEXT  # what its row says while it waits again
    finished = runner.wait(job_id, timeout=RESTART)
    assert finished["status"] == "done" and finished["result"]["reached"] == 3
    # a job on a worker nobody replaced that fails is failed, as before
    other = Job("failing0001", "test-count", params, "someone", "10.0.0.5", "long", params, worker="tcp://w:2")
    runner.store.create(other.id, "test-count", params, "someone", "long", "10.0.0.5", **held)
    runner.store._write("UPDATE jobs SET dispatched = ? WHERE id = ?", (time.time(), other.id))
    with runner._lock:
        runner._jobs[other.id] = other
    runner._end(other, lost)
    assert runner.get(other.id)["status"] == "failed"


def test_a_job_whose_worker_died_before_it_started_waits_again(runner):
    """Handed to a worker that was being replaced (by this or another web process, for another job's ignored cancel):
    Dask fails it with ``KilledWorker`` before it ever started, and it is queued again rather than failed."""
    from engine.serving.cluster import Job

    class KilledWorker(Exception):  # what distributed raises, by its name
        pass

    job_id, params = "neverstart1", checked("test-count", {"n": 3})[1]
    runner.store.create(job_id, "test-count", params, "someone", "long", "10.0.0.5", runner=runner.id,
                        lease=time.time() + 600)
    runner.store._write("UPDATE jobs SET dispatched = ? WHERE id = ?", (time.time(), job_id))
    job = Job(job_id, "test-count", params, "someone", "10.0.0.5", "long", params)  # no worker said it started
    lost = SimpleNamespace(status="error", exception=lambda: KilledWorker("1 workers died"), result=lambda: None)
    runner._end(job, lost)
    assert job.restarts == 1
    finished = runner.wait(job_id, timeout=RESTART)
    assert finished["status"] == "done" and finished["result"]["reached"] == 3


def test_a_job_handed_to_dask_that_has_not_started_still_waits_for_its_lane(tmp_path):
    """A batch's crew holds every long-lane worker's thread while its job holds one slot, so another client's job
    handed to Dask for the free slot does not start: it still waits, and a resumable job is asked to yield to it."""
    store = JobStore(str(tmp_path / "jobs.sqlite"))
    store.create("queued0", "test-count", {"n": 1}, owner="a", lane="long")
    store.create("handed0", "test-count", {"n": 1}, owner="b", lane="long")
    store.create("handed1", "test-count", {"n": 1}, owner="c", lane="long")
    with store.transaction() as db:
        db.execute("UPDATE jobs SET dispatched = ? WHERE id = 'handed0'", (time.time() - 5,))  # not started since
        db.execute("UPDATE jobs SET dispatched = ? WHERE id = 'handed1'", (time.time(),))  # on its way to a thread
    assert store.waiting_clients("long") == {"a", "b"}
