"""The real server as a process: stopped by SIGTERM or SIGKILL during jobs, and run against a separate Dask cluster
started with Dask's own commands. Slow (each start brings up worker processes), run in CI all the same."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.support.waiting import wait_until

pytestmark = pytest.mark.slow
PYTHON = sys.executable
DASK = str(Path(sys.executable).with_name("dask"))
ONE_MOVE_4X4 = list(range(1, 15)) + [0, 15]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def call(base: str, path: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


class Server:
    """``python -m app`` in its own process, with its own instance folder."""

    def __init__(self, tmp_path: Path, extra_env: dict | None = None):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "PORT": str(self.port), "HOST": "127.0.0.1", "PUZZLE_BUILD_TABLES": "0",
               **(extra_env or {})}
        self.log = open(tmp_path / f"server-{self.port}.log", "w")
        env["PUZZLE_DATABASE"] = str(tmp_path / "jobs.sqlite")  # both servers of a test share it, nobody else
        self.process = subprocess.Popen([PYTHON, "-m", "app"], env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        wait_until(lambda: call(self.base, "/api/solvers?size=3x3"), 180, "the server to answer", ignore=(OSError,))

    def stop(self, sig: int) -> int:
        os.killpg(self.process.pid, sig) if sig == signal.SIGKILL else self.process.send_signal(sig)
        return self.process.wait(timeout=60)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_a_stopped_server_keeps_finished_results_and_marks_the_rest_interrupted(tmp_path, sig):
    server = Server(tmp_path)
    solve = call(server.base, "/api/solve", {"size": "4x4", "tiles": ONE_MOVE_4X4, "mode": "job"})["job"]
    wait_until(lambda: call(server.base, f"/api/jobs/{solve}")["status"] == "done", 120, "the solve to finish",
               ignore=(OSError,))
    running = call(server.base, "/api/jobs", {"kind": "classic-queens", "params": {"n": 18, "methods": ["bitmask"]}})
    wait_until(lambda: call(server.base, f"/api/jobs/{running['job']}")["status"] == "running", 120, "the job to run",
               ignore=(OSError,))
    finished = [j for j in call(server.base, "/api/jobs")["jobs"] if j["status"] == "done"]
    assert server.stop(sig) in (0, -signal.SIGKILL)
    if sig == signal.SIGKILL:  # nothing ran at exit; the workers, cut off from their scheduler, end themselves
        wait_until(lambda: not _processes_of(server.process.pid), 60, "the worker processes to end")
    again = Server(tmp_path)
    try:
        # a killed server's rows wait out its lease (``JobRunner.LEASE``) before another takes them: its task is gone
        wait_until(lambda: call(again.base, f"/api/jobs/{running['job']}")["status"] == "interrupted", 60,
                   "the killed server's job to be marked interrupted")
        kept = call(again.base, f"/api/jobs/{finished[0]['id']}")
        assert kept["status"] == "done" and kept["result"]["length"] == 1
    finally:
        again.stop(signal.SIGTERM)


def _processes_of(session_id: int) -> list[int]:
    """Processes still alive in the server's session (its workers, nannies and their helpers)."""
    alive = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == session_id and fields[0] != "Z":
                alive.append(int(entry.name))
    return alive


def test_the_app_runs_its_jobs_on_a_separate_dask_cluster(tmp_path):
    scheduler_file = tmp_path / "scheduler.json"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    processes = [subprocess.Popen([DASK, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                   "--scheduler-file", str(scheduler_file)], env=env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, start_new_session=True)]
    try:
        address = wait_until(lambda: scheduler_file.exists() and json.loads(scheduler_file.read_text())["address"],
                             60, "the scheduler", ignore=(OSError, ValueError))  # written, not yet complete
        for lane, name in (("long", "class-long"), ("interactive", "class-interactive")):
            processes.append(subprocess.Popen(
                [DASK, "worker", address, "--name", name, "--nworkers", "1", "--nthreads", "1", "--resources",
                 f"{lane}=1", "--preload", "engine.serving.worker", "--no-dashboard"], env=env,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))
        server = Server(tmp_path, {"PUZZLE_SCHEDULER": address})
        try:
            log = (tmp_path / f"server-{server.port}.log").read_text()
            assert f"the Dask cluster at {address}" in log
            started = call(server.base, "/api/jobs", {"kind": "research-maxmd", "params": {"n": 8}})
            job = wait_until(lambda: (lambda j: j if j["status"] not in ("queued", "running") else None)(
                call(server.base, f"/api/jobs/{started['job']}")), 120, "the job on the cluster", ignore=(OSError,))
            assert job["status"] == "done" and job["result"]["max_md"] == 75, job
            # workers register one by one: the solve goes to the interactive one, so wait until it is there
            workers = wait_until(lambda: (lambda w: w if "class-interactive" in w.values() else None)(
                _worker_names(address)), 120, "the interactive worker", ignore=(OSError,))
            assert workers[_worker_of(tmp_path, job["id"])] == "class-long"
            solved = call(server.base, "/api/solve", {"size": "4x4", "tiles": ONE_MOVE_4X4, "heuristic": "pdb",
                                                      "mode": "sync"})  # a job, not the web process's own
            assert solved["length"] == 1
            solve_job = call(server.base, "/api/jobs")["jobs"][0]
            assert workers[_worker_of(tmp_path, solve_job["id"])] == "class-interactive"
        finally:
            server.stop(signal.SIGTERM)
    finally:
        for process in processes:
            os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            process.wait(timeout=60)


def _worker_names(address: str) -> dict[str, str]:
    from distributed import Client

    with Client(address, timeout="10s") as client:
        return {addr: info["name"] for addr, info in client.scheduler_info(n_workers=-1)["workers"].items()}


def test_a_taken_port_is_a_clear_message(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run([PYTHON, "-m", "app"], env={**os.environ, "PORT": str(port)}, capture_output=True,
                                text=True, timeout=60)
    assert result.returncode == 2
    assert re.search(rf"port {port} is already in use .* PORT={port + 1} make run", result.stderr)
    assert "Traceback" not in result.stderr


def test_sigterm_under_load_ends_the_server_and_marks_its_jobs_interrupted(tmp_path):
    import threading

    from engine.serving.jobs import JobStore

    server = Server(tmp_path)
    jobs = [call(server.base, "/api/jobs", {"kind": "classic-knights", "params": {"rows": 6, "cols": 6,
                                                                                  "start": start}})["job"]
            for start in range(3)]  # one runs on each long-lane worker, one waits its turn
    stop = threading.Event()

    def busy_student(number: int) -> None:
        while not stop.is_set():
            try:
                call(server.base, "/api/solve", {"size": "4x4", "tiles": ONE_MOVE_4X4, "heuristic": "pdb",
                                                 "max_seconds": 60 - number})
                call(server.base, "/")
            except (OSError, ValueError):
                pass  # the server is going away: what counts is that it goes

    students = [threading.Thread(target=busy_student, args=(i,), daemon=True) for i in range(16)]
    for thread in students:
        thread.start()
    wait_until(lambda: call(server.base, f"/api/jobs/{jobs[0]}")["status"] == "running", 120, "a long job to run",
               ignore=(OSError,))
    try:
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=30) == 0  # the server's own deadline is 7 s; 30 leaves room for a loaded CI
    finally:
        stop.set()
    statuses = {JobStore(str(tmp_path / "jobs.sqlite")).get(job)["status"] for job in jobs}
    assert statuses == {"interrupted"}
    wait_until(lambda: not _processes_of(server.process.pid), 60, "the worker processes to end")


def _worker_of(tmp_path: Path, job_id: str) -> str:
    """The worker that ran a job, read from the job database: the answers people see leave workers' addresses out."""
    import sqlite3

    with sqlite3.connect(tmp_path / "jobs.sqlite") as connection:
        return connection.execute("SELECT worker FROM jobs WHERE id = ?", (job_id,)).fetchone()[0]
