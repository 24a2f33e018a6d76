"""Several web processes as an operator runs them (docs/several-processes.md), real processes on loopback: a rolling
restart under load loses no class, no answer and no limit and gives students polling meanwhile no error; a job
started through one web process outlives it. Slow (each start brings up worker processes), run in CI all the same."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from app import class_model
from tests.support.waiting import wait_until

pytestmark = pytest.mark.slow
PYTHON = sys.executable
VIEW = "/step?problem=tiles&size=3x3&scramble=6&seed=3&algorithms=bfs&step={}"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def environment(tmp_path: Path) -> dict:
    return {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2]), "HOST": "127.0.0.1",
            "PUZZLE_BUILD_TABLES": "0", "PUZZLE_DATABASE": str(tmp_path / "jobs.sqlite")}


class Browser:
    """One browser: its cookies, one kept-alive connection from its own loopback address, and a request the server
    closed the connection under sent again once on a new one (as browsers do)."""

    def __init__(self, port: int, address: str = "127.0.0.1"):
        self.port, self.address = port, address
        self.cookies: dict[str, str] = {}
        self.connection: http.client.HTTPConnection | None = None

    def call(self, path: str, body: dict | None = None, headers: dict | None = None):
        """(status, headers, parsed JSON or text); status 0 when no answer came."""
        headers = {**(headers or {}), "Content-Type": "application/json"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        for attempt in range(2):
            try:
                if self.connection is None:
                    self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30,
                                                                 source_address=(self.address, 0))
                self.connection.request("GET" if body is None else "POST", path,
                                        None if body is None else json.dumps(body).encode(), headers)
                response = self.connection.getresponse()
                payload = response.read()
                for cookie in response.headers.get_all("Set-Cookie") or ():
                    name, _, value = cookie.split(";", 1)[0].partition("=")
                    self.cookies[name] = value
                parsed = payload.decode()
                if response.headers.get_content_type() == "application/json":
                    parsed = json.loads(payload)
                return response.status, response.headers, parsed
            except (OSError, http.client.HTTPException):
                self.close()
                if attempt:
                    return 0, None, None
        return 0, None, None

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


class Students:
    """Students polling a class without pause from threads of their own, as phones do, until stopped."""

    def __init__(self, port: int, code: str, count: int):
        self.port, self.code = port, code
        self.errors: list[tuple] = []
        self.polls = 0
        self.versions: dict[str, int] = {}
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self.poll, args=(n,), daemon=True) for n in range(count)]
        for thread in self.threads:
            thread.start()

    def poll(self, number: int) -> None:
        me, student, etag = Browser(self.port, f"127.0.3.{number + 1}"), f"student{number:04d}", ""
        while not self.stop.is_set():
            status, headers, state = me.call(f"/class/{self.code}/state?student={student}",
                                             headers={"If-None-Match": etag} if etag else None)
            self.polls += 1
            if status == 200:
                etag, self.versions[student] = headers["ETag"], state["version"]
            elif status != 304:
                self.errors.append((student, status, state))
            self.stop.wait(0.1)
        me.close()

    def end(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=60)


class Supervisor:
    """``python -m app --processes N``: one port, one cluster, N web processes."""

    def __init__(self, tmp_path: Path, processes: int):
        self.port = free_port()
        self.log_path = tmp_path / f"supervisor-{self.port}.log"
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen([PYTHON, "-m", "app", "--processes", str(processes), "--port",
                                         str(self.port)], env=environment(tmp_path), stdout=self.log,
                                        stderr=subprocess.STDOUT, start_new_session=True)
        wait_until(lambda: self.web_processes(), 240, "the web processes to start")

    def web_processes(self) -> list[int]:
        """The pids of the web processes the supervisor last said it runs."""
        found = re.findall(r"web processes \[([\d, ]+)\]", self.log_path.read_text())
        return [int(pid) for pid in found[-1].split(",")] if found else []

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=60)


def test_a_rolling_restart_under_load_loses_no_class_answer_or_limit_and_no_poll(tmp_path):
    server = Supervisor(tmp_path, 2)
    try:
        old = server.web_processes()
        assert len(old) == 2
        lecturer = Browser(server.port, "127.0.0.2")
        lecturer.call("/")
        status, _, started = lecturer.call("/class/", {"view": VIEW.format(0)})
        assert status == 200, started
        code = started["code"]
        students = Students(server.port, code, 12)
        _, _, asked = lecturer.call(f"/class/{code}/ask", {"kind": "next"})
        question = asked["question"]
        for number in range(5):
            answer = {"student": f"student{number:04d}", "question": question["number"], "choice": 0}
            assert Browser(server.port, f"127.0.3.{number + 1}").call(f"/class/{code}/answer", answer)[0] == 200
        guesser = Browser(server.port, "127.0.4.1")  # misses of class codes are a limit per address
        before = [guesser.call(f"/class/AAAA{n:04d}/state")[0] for n in range(40)]
        assert before == [404] * 40

        server.process.send_signal(signal.SIGHUP)
        step, deadline = 0, time.monotonic() + 300
        while set(server.web_processes()) & set(old):  # the lecturer steps on while the processes change
            assert time.monotonic() < deadline, "the rolling restart did not end within 5 minutes"
            step += 1
            moved = lecturer.call(f"/class/{code}/view", {"view": VIEW.format(step)})
            assert moved[0] == 200, moved
            time.sleep(0.5)  # the lecturer's pace, not a wait for something
        new = server.web_processes()
        assert len(new) == 2 and not set(new) & set(old)
        assert not any(_alive(pid) for pid in old)
        final = lecturer.call(f"/class/{code}/view", {"view": VIEW.format(step + 1)})[2]["version"]
        wait_until(lambda: set(students.versions.values()) == {final}, 30, "every student to see the last step")
        students.end()
        assert students.errors == [] and students.polls > 100

        _, _, console = lecturer.call(f"/class/{code}/console")  # the class and its answers, through new processes
        assert console["view"].endswith(f"step={step + 1}") and console["students"] == 12
        assert console["question"]["tally"][0] == 5 and console["question"]["answers"] == 5
        after = [guesser.call(f"/class/AAAB{n:04d}/state")[0] for n in range(class_model.MISSES_PER_MINUTE - 39)]
        assert after == [404] * (class_model.MISSES_PER_MINUTE - 40) + [429]
    finally:
        assert server.stop() == 0


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"


class WebProcess:
    """``python -m app`` on a port of its own, on the shared cluster (``PUZZLE_SCHEDULER``) and database."""

    def __init__(self, tmp_path: Path, scheduler: str):
        self.port = free_port()
        self.log = open(tmp_path / f"web-{self.port}.log", "w")
        self.process = subprocess.Popen([PYTHON, "-m", "app", "--port", str(self.port), "--scheduler", scheduler],
                                        env=environment(tmp_path), stdout=self.log, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        self.browser = Browser(self.port)
        wait_until(lambda: self.browser.call("/api/solvers?size=3x3")[0] == 200, 180, "the web process")

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=60)


def test_a_long_job_started_through_one_web_process_outlives_it_and_is_read_through_another(tmp_path):
    cluster = subprocess.Popen([PYTHON, "-m", "app", "cluster", "--port", "0"], env=environment(tmp_path),
                               stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        line = wait_until(lambda: (lambda text: text if "PUZZLE_SCHEDULER=" in text else None)(
            cluster.stdout.readline()), 180, "the cluster")
        scheduler = line.split("PUZZLE_SCHEDULER=", 1)[1].split()[0]
        first, second = WebProcess(tmp_path, scheduler), WebProcess(tmp_path, scheduler)
        try:
            status, _, started = first.browser.call(
                "/api/jobs", {"kind": "classic-queens", "params": {"n": 16, "methods": ["bitmask"]}})
            assert status in (200, 202), started
            job = started["job"]
            wait_until(lambda: first.browser.call(f"/api/jobs/{job}")[2]["status"] == "running", 120,
                       "the job to run")
            assert first.stop() == 0
            second.browser.cookies = dict(first.browser.cookies)  # the same browser, now answered by the other
            assert second.browser.call(f"/api/jobs/{job}")[2]["status"] in ("queued", "running", "done")
            ended = wait_until(lambda: (lambda j: j if j["status"] not in ("queued", "running") else None)(
                second.browser.call(f"/api/jobs/{job}")[2]), 600, "the job to end")
            assert ended["status"] == "done"
            assert ended["result"]["rows"][0]["solutions"] == 14_772_512  # 16 queens: the published count
        finally:
            for web in (first, second):
                if web.process.poll() is None:
                    web.stop()
    finally:
        cluster.send_signal(signal.SIGTERM)
        cluster.wait(timeout=60)
