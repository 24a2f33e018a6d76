"""A class on one server: 30 simulated students while two long jobs run.

Starts the real server (``python -m app``: waitress, a local Dask cluster) on a free port with a fresh job database,
lets a "teacher" start two long jobs (N = 18 queens by bitmask: the backtracking count is offered up to N = 16;
the 6×6 knight's tours), then runs 30 students for ``--seconds``. Each student has its own cookie and loops: load the
home page, solve a random 8-puzzle (``/api/solve``, auto mode), now and then a 15-puzzle scramble and the Play page.
Printed: p50/p95/p99 of ``GET /`` and of the solves, errors, how long solve jobs waited for a worker (each job's own
``waited``: created → started), and the server's memory (web process and its workers, sampled each second).

Targets (issue 14): GET / p95 ≤ 100 ms, 8-puzzle solve p95 ≤ 100 ms, no errors, a solve job starts within 1 s.
Usage: python bench/classroom.py [--students 30] [--seconds 60]
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from common import ROOT, header, table

from engine.tiles import goal_board, random_solvable
from engine.tiles.random import scramble


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))] if ordered else float("nan")


class Student:
    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def call(self, path: str, body: dict | None = None) -> tuple[float, int, bytes]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, headers={"Content-Type": "application/json"})
        start = time.perf_counter()
        try:
            with self.opener.open(request, timeout=30) as response:
                payload, status = response.read(), response.status
        except urllib.error.HTTPError as error:
            payload, status = error.read(), error.code
        except OSError:
            payload, status = b"", 0
        return time.perf_counter() - start, status, payload


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def tree_rss(pid: int) -> int:
    import psutil

    try:
        root = psutil.Process(pid)
        return sum(p.memory_info().rss for p in [root, *root.children(recursive=True)])
    except psutil.Error:
        return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=60)
    args = parser.parse_args()
    header(f"classroom: {args.students} students for {args.seconds:.0f} s beside two long jobs")
    folder = tempfile.mkdtemp(prefix="classroom-")
    port = free_port()
    env = {**os.environ, "PORT": str(port), "PUZZLE_DATABASE": os.path.join(folder, "jobs.sqlite"),
           "PUZZLE_BUILD_TABLES": "0"}  # the class, not the one-off table build, is what is measured
    log = open(os.path.join(folder, "server.log"), "w")
    server = subprocess.Popen([sys.executable, "-m", "app"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                              start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    teacher = Student(base)
    try:
        deadline = time.monotonic() + 180
        while teacher.call("/api/solvers?size=3x3")[1] != 200:
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start: see " + log.name)
            time.sleep(0.5)
        time.sleep(5)  # the workers' warm-up
        long_jobs = [json.loads(teacher.call("/api/jobs", body)[2])["job"] for body in (
            {"kind": "classic-queens", "params": {"n": 18, "methods": ["bitmask"]}},
            {"kind": "classic-knights", "params": {"rows": 6, "cols": 6, "start": 0}})]
        results = run_class(base, args.students, args.seconds, server.pid)
        states = [json.loads(teacher.call(f"/api/jobs/{job}")[2])["status"] for job in long_jobs]
        report(results, states, args)
        for job in long_jobs:
            teacher.call(f"/api/jobs/{job}/cancel", {})
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)


def run_class(base: str, students: int, seconds: float, server_pid: int) -> dict:
    results = {"home": [], "solve8": [], "solve15": [], "play": [], "errors": [], "waits": [], "memory": []}
    lock = threading.Lock()
    goal = goal_board(3, 3, "blank-last")
    goal15 = goal_board(4, 4, "blank-first")
    stop_at = time.monotonic() + seconds

    def student(number: int) -> None:
        me, rng = Student(base), random.Random(number)
        me.call("/")
        while time.monotonic() < stop_at:
            board = random_solvable(goal, rng.randrange(10**9))
            steps = [("home", "/", None),
                     ("solve8", "/api/solve", {"size": "3x3", "tiles": list(board.cells), "solver": "idastar",
                                               "heuristic": "manhattan"})]
            if rng.random() < 0.15:
                steps.append(("play", "/play?size=4x4", None))
            if rng.random() < 0.2:
                fifteen = scramble(goal15, 30, rng.randrange(10**9))[0]
                steps.append(("solve15", "/api/solve", {"size": "4x4", "goal": "blank-first",
                                                        "tiles": list(fifteen.cells), "solver": "idastar",
                                                        "heuristic": "linear-conflict"}))
            for name, path, body in steps:
                took, status, payload = me.call(path, body)
                with lock:
                    if status >= 500 or status in (0, 429):
                        results["errors"].append((name, status, payload[:120]))
                    else:
                        results[name].append(took)
            time.sleep(rng.uniform(0.5, 1.5))  # a student reads the answer before the next click
        took, status, payload = me.call("/api/jobs")
        with lock:  # every solve is a job on the interactive lane: how long did each wait for a worker?
            if status != 200:
                results["errors"].append(("jobs", status, payload[:120]))
                return
            results["waits"] += [job["waited"] for job in json.loads(payload)["jobs"]
                                 if job["kind"] == "solve" and job["started"]]

    def sample_memory() -> None:
        while time.monotonic() < stop_at:
            results["memory"].append(tree_rss(server_pid))
            time.sleep(1)

    threads = [threading.Thread(target=student, args=(i,)) for i in range(students)]
    threads.append(threading.Thread(target=sample_memory))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def report(results: dict, long_states: list[str], args) -> None:
    rows = []
    for name, label in (("home", "GET /"), ("solve8", "POST /api/solve (8-puzzle)"),
                        ("solve15", "POST /api/solve (15-puzzle, 30-move scramble)"), ("play", "GET /play")):
        values = [t * 1000 for t in results[name]]
        rows.append([label, len(values), f"{percentile(values, 0.5):.1f}", f"{percentile(values, 0.95):.1f}",
                     f"{percentile(values, 0.99):.1f}"])
    waits = [w * 1000 for w in results["waits"]]
    rows.append(["solve job: created → started", len(waits), f"{percentile(waits, 0.5):.1f}",
                 f"{percentile(waits, 0.95):.1f}", f"{max(waits, default=float('nan')):.1f} (max)"])
    print(table(["what", "count", "p50 ms", "p95 ms", "p99 ms"], rows))
    memory = results["memory"]
    print(f"\nerrors: {len(results['errors'])} {results['errors'][:5]}")
    print(f"server memory (web process + workers): median {statistics.median(memory) / 2**20:.0f} MB, "
          f"max {max(memory) / 2**20:.0f} MB")
    print(f"long jobs still running at the end: {long_states}")
    print(f"load average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
