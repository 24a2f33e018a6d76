"""A class on one server: honest students beside abusers, then SIGTERM.

Starts the real server (``python -m app``: waitress, a local Dask cluster) on a free port with a fresh job database,
lets a "teacher" start two long jobs (N = 18 queens by bitmask, the 6×6 knight's tours), then runs ``--students``
students for ``--seconds``. Each student has its own cookie and its own address (127.0.0.x: every loopback address
reaches the server, as a class's laptops would), and loops: load the home page, solve a random 8-puzzle
(``/api/solve``, auto mode), now and then a 15-puzzle scramble and the Play page, reading each answer for 0.5-1.5 s.

Beside them, unless ``--no-abusers``: two lane hogs (slow solves as the Play page sends them, again and
again: BFS on two random 2×6 positions, IDA* + linear conflict on random 5×5 ones), a cookie-rotating flood (one
address opening ``/`` with no cookie and starting a long job with each fresh cookie, without pause) and a cancel storm
(one client starting jobs and cancelling them at once).

Printed: p50/p95/p99 per request kind, the honest students' errors (5xx, no answer, 429), what the abusers got, the
longest time an honest student waited for a solve (the request's time for an answer in the request, the job's created
→ started for a job), the server's memory, and how long SIGTERM took to end the server.

``--scenario`` runs an abusive class instead: two students run the slow solves, a third floods with 80
fresh cookies, and two others each ask for 8-puzzle solves and a 2×3 BFS job.

``--follow`` runs a class that follows a lecturer instead (``app/classroom.py``): the lecturer starts a class on the
step-through and steps every 1.5-2.5 s; each student opens the class's page and the view, then polls the class's
state as the page does (``If-None-Match``, every ``poll`` ms the server names, on its kept-alive connection). Printed:
how long each step took to reach each student (from the lecturer's request to the student's answer with the new
view), the poll and page request times, and the errors.

``--sse-probe`` measures the alternative transport, server-sent events, on waitress as ``app/serve.py`` sets it up
(one process, ``THREADS`` request threads): it opens N streams that each send an event a second, then times one page
request. A stream keeps its request thread for as long as it lasts, so the pages stop once the streams outnumber the
threads; a poll answered with a 304 holds a thread for a millisecond.

Targets: GET / p95 ≤ 100 ms, 8-puzzle solve p95 ≤ 150 ms, no 5xx, longest honest wait ≤ 2 s, SIGTERM ends the server
within 10 s; a following class of 100: propagation p95 ≤ 1 s, page p95 ≤ 100 ms, no errors.
``--processes 1,2`` (with ``--follow``) runs the class on one web process, then on two (``python -m app --processes
N``: one listening socket, one cluster), and prints a row for each; ``--restart-at S`` makes a rolling restart (SIGHUP
to the supervisor) S seconds into each class of several processes. The students are one asyncio loop in this process:
the simulator of 1,000 phones shares the machine with the server.
Usage: python bench/classroom.py [--students 100] [--seconds 60] [--no-abusers] [--scenario | --follow | --sse-probe]
       python bench/classroom.py --follow --students 1000 --processes 1,2 [--restart-at 30]
"""

from __future__ import annotations

import argparse
import http.client
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

from common import ROOT, header, table

from engine.domains.tiles import goal_board, random_solvable
from engine.domains.tiles.random import scramble

SLOW_2X6 = ([1, 0, 8, 9, 6, 7, 4, 11, 5, 2, 10, 3], [10, 0, 4, 5, 8, 7, 9, 3, 6, 11, 2, 1])
FLOOD_ADDRESS = "127.0.0.250"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))] if ordered else float("nan")


class Client:
    """One browser: its own source address, its cookie once the server sets it, one kept-alive connection."""

    def __init__(self, port: int, address: str = "127.0.0.1", keep_cookie: bool = True):
        self.port, self.address, self.keep_cookie = port, address, keep_cookie
        self.cookie = ""
        self.cookies: dict[str, str] = {}
        self.connection: http.client.HTTPConnection | None = None

    def call(self, path: str, body: dict | None = None, method: str | None = None,
             extra: dict | None = None) -> tuple[float, int, bytes]:
        headers = {"Content-Type": "application/json", **(extra or {})}
        if self.cookie:
            headers["Cookie"] = self.cookie
        data = None if body is None else json.dumps(body).encode()
        start = time.perf_counter()
        for attempt in range(2):  # a kept-alive connection the server closed meanwhile is opened again once
            try:
                if self.connection is None:
                    self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30,
                                                                 source_address=(self.address, 0))
                self.connection.request(method or ("GET" if body is None else "POST"), path, data, headers)
                response = self.connection.getresponse()
                payload = response.read()
                self.last_headers = response.msg
                if self.keep_cookie:
                    for cookie in response.msg.get_all("Set-Cookie") or ():
                        name, _, value = cookie.split(";", 1)[0].partition("=")
                        self.cookies[name] = value
                    self.cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
                return time.perf_counter() - start, response.status, payload
            except (OSError, http.client.HTTPException):
                self.close()
                if attempt:
                    return time.perf_counter() - start, 0, b""
        return time.perf_counter() - start, 0, b""

    def json(self, path: str, body: dict | None = None) -> dict:
        _, status, payload = self.call(path, body)
        try:
            return json.loads(payload) if payload else {"status_code": status}
        except ValueError:
            return {"status_code": status}

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


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


class Results:
    def __init__(self):
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = {}
        self.errors: list[tuple] = []
        self.abuse: dict[str, dict[int, int]] = {}
        self.waits: list[float] = []  # honest solve waits: in-request answers and jobs' created → started
        self.memory: list[int] = []
        self.notes: list[str] = []

    def honest(self, kind: str, took: float, status: int, payload: bytes) -> None:
        with self.lock:
            if status >= 500 or status in (0, 429):
                self.errors.append((kind, status, payload[:120]))
            else:
                self.times.setdefault(kind, []).append(took)
                if kind.startswith("solve") and status == 200:
                    self.waits.append(took)

    def abuser(self, kind: str, status: int) -> None:
        with self.lock:
            counts = self.abuse.setdefault(kind, {})
            counts[status] = counts.get(status, 0) + 1
            if status >= 500 or status == 0:
                self.errors.append((kind, status, b""))


def start_server(folder: str, port: int, extra_env: dict, processes: int = 1) -> subprocess.Popen:
    env = {**os.environ, "PORT": str(port), "PUZZLE_DATABASE": os.path.join(folder, "jobs.sqlite"),
           "PUZZLE_BUILD_TABLES": "0", **extra_env}  # the class, not the one-off table build, is what is measured
    log = open(os.path.join(folder, "server.log"), "w")
    return subprocess.Popen([sys.executable, "-m", "app", "--processes", str(processes)], cwd=ROOT, env=env,
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def web_processes(server_pid: int) -> list:
    """The web processes: the server itself when it is one process (its workers left out), else the supervisor's
    web processes (``--listen-fd``)."""
    import psutil

    try:
        root = psutil.Process(server_pid)
        if "--processes" in root.cmdline() and root.cmdline()[-1] == "1":
            return [root]
        return [child for child in root.children() if "--listen-fd" in child.cmdline()]
    except psutil.Error:
        return []


def web_rss(server_pid: int) -> int:
    import psutil

    try:
        return sum(process.memory_info().rss for process in web_processes(server_pid))
    except psutil.Error:
        return 0


def cpu_seconds(processes: list) -> float:
    import psutil

    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
            total += times.user + times.system
        except psutil.Error:
            pass
    return total


def wait_for_server(port: int, server: subprocess.Popen, folder: str) -> None:
    probe = Client(port)
    deadline = time.monotonic() + 180
    while probe.call("/api/solvers?size=3x3")[1] != 200:
        if time.monotonic() > deadline or server.poll() is not None:
            raise RuntimeError("the server did not start: see " + os.path.join(folder, "server.log"))
        time.sleep(0.5)
    probe.call("/api/solve", {"size": "3x3", "tiles": [1, 2, 3, 4, 5, 6, 0, 7, 8]})
    time.sleep(5)  # the workers' warm-up


def stop_server(server: subprocess.Popen) -> str:
    """SIGTERM, then how long the server took to end (killed past 60 s)."""
    began = time.monotonic()
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=60)
        return f"{time.monotonic() - began:.1f} s (exit code {server.returncode})"
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=30)
        return "did not end within 60 s of SIGTERM: killed"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--no-abusers", action="store_true")
    parser.add_argument("--scenario", action="store_true", help="the abusive class only")
    parser.add_argument("--follow", action="store_true", help="a class following a lecturer's step-through")
    parser.add_argument("--sse-probe", action="store_true", help="how many event streams waitress holds")
    parser.add_argument("--processes", default="1",
                        help="with --follow: web processes (python -m app --processes N); a list (1,2) runs each in "
                             "turn, so they are compared in the same minutes")
    parser.add_argument("--restart-at", type=float, default=None,
                        help="with --follow and N > 1: a rolling restart (SIGHUP) this many seconds into the class")
    args = parser.parse_args()
    if args.sse_probe:
        header("server-sent events on waitress: streams held open against a page request")
        sse_probe()
        return
    what = "the abusive class" if args.scenario else f"a class of {args.students} following a lecturer for " \
        f"{args.seconds:.0f} s" if args.follow else (
        f"classroom: {args.students} students for {args.seconds:.0f} s beside two long jobs"
        + ("" if args.no_abusers else ", two lane hogs, a cookie-rotating flood and a cancel storm"))
    header(what)
    if args.follow:
        summaries = [follow_on(int(count), args) for count in args.processes.split(",")]
        print("\n" + table(["web processes", "students", "propagation p50 ms", "p95 ms", "max ms", "poll p95 ms",
                            "errors", "web memory MB (start → end)", "load at the end"], summaries))
        return
    folder = tempfile.mkdtemp(prefix="classroom-")
    port = free_port()
    server = start_server(folder, port, {})
    stopped = "not stopped"
    try:
        wait_for_server(port, server, folder)
        if args.scenario:
            scenario(port)
        else:
            run_bench(port, server.pid, args)
    except Exception as error:  # the figures so far are still worth printing; a traceback is not
        print(f"\nthe bench stopped early: {type(error).__name__}: {error}")
    finally:
        stopped = stop_server(server)
    print(f"SIGTERM → server ended: {stopped}")
    print(f"load average at the end: {os.getloadavg()}")


def run_bench(port: int, server_pid: int, args) -> None:
    teacher = Client(port, "127.0.0.2")
    long_jobs = [teacher.json("/api/jobs", body).get("job") for body in (
        {"kind": "classic-queens", "params": {"n": 18, "methods": ["bitmask"]}},
        {"kind": "classic-knights", "params": {"rows": 6, "cols": 6, "start": 0}})]
    results = Results()
    stop_at = time.monotonic() + args.seconds
    threads = [threading.Thread(target=student, args=(port, i, stop_at, results), daemon=True)
               for i in range(args.students)]
    threads.append(threading.Thread(target=sample_memory, args=(server_pid, stop_at, results), daemon=True))
    if not args.no_abusers:
        threads += [threading.Thread(target=lane_hog, args=(port, i, stop_at, results), daemon=True) for i in (0, 1)]
        threads += [threading.Thread(target=flood, args=(port, stop_at, results), daemon=True),
                    threading.Thread(target=cancel_storm, args=(port, stop_at, results), daemon=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(1.0, stop_at - time.monotonic() + 120))
    states = [teacher.json(f"/api/jobs/{job}").get("status") for job in long_jobs if job]
    report(results, states)
    for job in long_jobs:
        if job:
            teacher.call(f"/api/jobs/{job}/cancel", {})


def student_address(number: int) -> str:
    return f"127.0.{10 + number // 200}.{1 + number % 200}"


def student(port: int, number: int, stop_at: float, results: Results) -> None:
    me, rng = Client(port, student_address(number)), random.Random(number)
    goal, goal15 = goal_board(3, 3, "blank-last"), goal_board(4, 4, "blank-first")
    me.call("/")
    while time.monotonic() < stop_at:
        board = random_solvable(goal, rng.randrange(10**9))
        steps = [("GET /", "/", None),
                 ("POST /api/solve (8-puzzle)", "/api/solve", {"size": "3x3", "tiles": list(board.cells),
                                                              "solver": "idastar", "heuristic": "manhattan"})]
        if rng.random() < 0.15:
            steps.append(("GET /play", "/play?size=4x4", None))
        if rng.random() < 0.2:
            fifteen = scramble(goal15, 30, rng.randrange(10**9))[0]
            steps.append(("POST /api/solve (15-puzzle, 30-move scramble)", "/api/solve",
                          {"size": "4x4", "goal": "blank-first", "tiles": list(fifteen.cells), "solver": "idastar",
                           "heuristic": "linear-conflict"}))
        for kind, path, body in steps:
            took, status, payload = me.call(path, body)
            results.honest(("solve " if "solve" in path else "") + kind, took, status, payload)
        time.sleep(rng.uniform(0.5, 1.5))  # a student reads the answer before the next click
    jobs = me.json("/api/jobs").get("jobs", [])
    with results.lock:  # a solve that became a job: how long did it wait for a worker?
        results.waits += [job["waited"] for job in jobs if job["kind"] == "solve" and job["started"]]
    me.close()


def lane_hog(port: int, number: int, stop_at: float, results: Results) -> None:
    """Slow solves, sent as the Play page sends them, again and again."""
    me, rng = Client(port, f"127.0.0.{240 + number}"), random.Random(1000 + number)
    me.call("/")
    goal25 = goal_board(5, 5, "blank-last")
    while time.monotonic() < stop_at:
        if number == 0:
            body = {"size": "2x6", "tiles": SLOW_2X6[rng.randrange(2)], "solver": "bfs"}
        else:
            body = {"size": "5x5", "tiles": list(random_solvable(goal25, rng.randrange(10**9)).cells),
                    "solver": "idastar", "heuristic": "linear-conflict"}
        _, status, _ = me.call("/api/solve", body)
        results.abuser(f"lane hog {number + 1} ({'2×6 BFS' if number == 0 else '5×5 IDA*'})", status)
        time.sleep(0.5)
    me.close()


def flood(port: int, stop_at: float, results: Results) -> None:
    """One address, a fresh cookie for every long job, no pause."""
    count = 0
    while time.monotonic() < stop_at:
        me = Client(port, FLOOD_ADDRESS)
        me.call("/")
        _, status, _ = me.call("/api/jobs", {"kind": "classic-knights",
                                             "params": {"rows": 6, "cols": 6, "start": count % 36}})
        results.abuser("cookie-rotating flood (a long job per fresh cookie)", status)
        me.close()
        count += 1


def cancel_storm(port: int, stop_at: float, results: Results) -> None:
    me, count = Client(port, "127.0.0.245"), 0
    me.call("/")
    while time.monotonic() < stop_at:
        started = me.json("/api/jobs", {"kind": "classic-knights", "params": {"rows": 5, "cols": 6,
                                                                             "start": count % 30}})
        count += 1
        if "job" in started:
            _, status, _ = me.call(f"/api/jobs/{started['job']}/cancel", {})
            results.abuser("cancel storm (start, cancel at once)", status)
        else:
            results.abuser("cancel storm (start, cancel at once)", started.get("status_code", 429))
    me.close()


def sample_memory(server_pid: int, stop_at: float, results: Results) -> None:
    while time.monotonic() < stop_at:
        results.memory.append(tree_rss(server_pid))
        time.sleep(1)


def report(results: Results, long_states: list[str]) -> None:
    rows = []
    for kind, values in sorted(results.times.items()):
        ms = [t * 1000 for t in values]
        rows.append([kind, len(ms), f"{percentile(ms, 0.5):.1f}", f"{percentile(ms, 0.95):.1f}",
                     f"{percentile(ms, 0.99):.1f}"])
    print(table(["honest request", "count", "p50 ms", "p95 ms", "p99 ms"], rows))
    waits = results.waits
    print(f"\nlongest honest wait for a solve: {max(waits, default=float('nan')):.2f} s over {len(waits)} solves "
          "(an answer in the request: its time; a job: created → started)")
    errors = results.errors
    print(f"errors (5xx, no answer, or 429 to an honest student): {len(errors)} {errors[:5]}")
    for kind, counts in sorted(results.abuse.items()):
        print(f"  {kind}: " + ", ".join(f"{count}× {status}" for status, count in sorted(counts.items())))
    memory = results.memory or [0]
    print(f"server memory (web process + workers): median {statistics.median(memory) / 2**20:.0f} MB, "
          f"max {max(memory) / 2**20:.0f} MB")
    print(f"long jobs still running at the end: {long_states}")


def scenario(port: int) -> None:
    """Two students run the slow solves, a third floods with 80 fresh cookies; two others solve 8-puzzles and a 2×3
    BFS job."""
    rng = random.Random(7)
    hogs = [Client(port, f"127.0.0.{240 + i}") for i in range(2)]
    for hog in hogs:
        hog.call("/")
    goal25 = goal_board(5, 5, "blank-last")
    slow = [(hogs[0], {"size": "2x6", "tiles": SLOW_2X6[0], "solver": "bfs"}),
            (hogs[0], {"size": "2x6", "tiles": SLOW_2X6[1], "solver": "bfs"}),
            (hogs[1], {"size": "5x5", "tiles": list(random_solvable(goal25, 5).cells), "solver": "idastar",
                       "heuristic": "linear-conflict"})]
    for hog, body in slow:
        took, status, payload = hog.call("/api/solve", body)
        print(f"slow solve {body['size']} {body['solver']}: {status} in {took * 1000:.0f} ms "
              f"{json.loads(payload).get('status', '') if payload else ''}")
    flood_statuses: dict[int, int] = {}
    for index in range(80):
        me = Client(port, FLOOD_ADDRESS)
        me.call("/")
        _, status, _ = me.call("/api/jobs", {"kind": "classic-knights", "params": {"rows": 6, "cols": 6,
                                                                                  "start": index % 36}})
        flood_statuses[status] = flood_statuses.get(status, 0) + 1
        me.close()
    print(f"flood of 80 fresh cookies from one address: {flood_statuses}")
    goal = goal_board(3, 3, "blank-last")
    for number in range(2):
        me = Client(port, f"127.0.1.{number + 1}")
        me.call("/")
        times = []
        for _ in range(5):
            board = random_solvable(goal, rng.randrange(10**9))
            took, status, payload = me.call("/api/solve", {"size": "3x3", "tiles": list(board.cells),
                                                           "solver": "idastar", "heuristic": "manhattan"})
            times.append(f"{took * 1000:.0f} ms ({status})")
        print(f"student {number + 1}: five 8-puzzle solves: {', '.join(times)}")
        began = time.monotonic()
        started = me.json("/api/jobs", {"kind": "solve", "params": {"size": "2x3", "tiles": [4, 1, 2, 5, 0, 3],
                                                                     "solver": "bfs"}})
        job = started.get("job")
        state = started
        while job and time.monotonic() - began < 60:
            state = me.json(f"/api/jobs/{job}")
            if state.get("status") in ("done", "failed", "cancelled"):
                break
            time.sleep(0.05)
        print(f"student {number + 1}: 2×3 BFS job → {state.get('status')} in {time.monotonic() - began:.2f} s "
              f"(length {(state.get('result') or {}).get('length')}), waited {state.get('waited', 0):.2f} s for a "
              "worker")
    for hog in hogs:
        for job in hog.json("/api/jobs").get("jobs", []):
            hog.call(f"/api/jobs/{job['id']}/cancel", {})


def sse_probe(counts=(16, 31, 40, 100)) -> None:
    from waitress import create_server

    def events(environ, start_response):
        if environ["PATH_INFO"] == "/events":
            start_response("200 OK", [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")])
            return (f"data: {i}\n\n".encode() for i in range(30) if time.sleep(1 if i else 0) is None)
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"a page"]

    import logging

    logging.getLogger("waitress").setLevel(logging.ERROR)  # its queue-depth warnings are the expected outcome
    threads = int(os.environ.get("THREADS", "32"))
    server = create_server(events, host="127.0.0.1", port=0, threads=threads)
    threading.Thread(target=server.run, daemon=True).start()
    port = server.effective_port
    for count in counts:
        streams = []
        for _ in range(count):
            stream = socket.create_connection(("127.0.0.1", port))
            stream.sendall(b"GET /events HTTP/1.1\r\nHost: probe\r\n\r\n")
            streams.append(stream)
        time.sleep(1.5)  # every stream has reached the server
        page = Client(port)
        page.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        took, status, _ = page.call("/", method="GET")
        verdict = f"{took * 1000:.0f} ms ({status})" if status else "no answer within 10 s"
        print(f"{count:>4} streams open, {threads} threads: a page request → {verdict}")
        for stream in streams:
            stream.close()
        time.sleep(2)  # the threads come back as the closed streams fail to write
    server.close()


POLL = "poll GET /class/<code>/state"
JOIN_SECONDS = 5  # students open the link over this many seconds (scanning a QR code, typing the code)
FOLLOW_VIEW = "/step?problem=tiles&size=3x3&scramble=8&seed=5&algorithms=astar&step={}"


def follow_on(processes: int, args) -> list:
    """The following class on a server of ``processes`` web processes: its printed figures, and its summary row."""
    print(f"\n## {processes} web process{'es' if processes > 1 else ''}")
    folder = tempfile.mkdtemp(prefix="classroom-")
    port = free_port()
    server = start_server(folder, port, {}, processes)
    row = [processes, args.students] + ["-"] * 6 + [""]
    try:
        wait_for_server(port, server, folder)
        row = follow(port, args, server)
        row[0] = processes
    except Exception as error:
        print(f"\nthe bench stopped early: {type(error).__name__}: {error}")
    finally:
        print(f"SIGTERM → server ended: {stop_server(server)}")
    row[-1] = " ".join(f"{value:.1f}" for value in os.getloadavg())
    return row


def follow(port: int, args, server: subprocess.Popen) -> list:
    """A lecturer steps; every student's poll must bring each step within a second. The students are one asyncio
    loop (a thread of this process), so 1,000 of them cost the machine little more than their requests."""
    import asyncio

    lecturer = Client(port, "127.0.0.2")
    lecturer.call("/")
    started = lecturer.json("/class/", {"view": FOLLOW_VIEW.format(0)})
    code = started["code"]
    sent: dict[int, float] = {}  # version → when the lecturer's request that made it was sent
    seen: list[tuple[int, float]] = []  # (version, when a student's poll brought it)
    results = Results()
    stop_at = time.monotonic() + args.seconds
    joined = threading.Event()
    memory: list[int] = []

    async def students() -> None:
        count = [0]
        await asyncio.gather(*(follower(port, code, i, stop_at, results, seen, count, args.students, joined)
                               for i in range(args.students)))

    crowd = threading.Thread(target=lambda: asyncio.run(students()), daemon=True)
    crowd.start()
    joined.wait(timeout=args.seconds)
    time.sleep(1)  # every student has polled once since joining
    restart_at = None if args.restart_at is None else time.monotonic() + args.restart_at
    web = web_processes(server.pid)
    web_cpu, own_cpu, polls_before = cpu_seconds(web), time.process_time(), len(results.times.get(POLL, []))
    step = 0
    while time.monotonic() < stop_at - 3:
        if restart_at is not None and time.monotonic() >= restart_at:
            server.send_signal(signal.SIGHUP)  # the supervisor starts new web processes, then stops the old
            print(f"rolling restart (SIGHUP) {args.restart_at:.0f} s into the class")
            restart_at = None
        step += 1
        memory.append(web_rss(server.pid))
        began = time.monotonic()
        took, status, payload = lecturer.call(f"/class/{code}/view", {"view": FOLLOW_VIEW.format(step)})
        results.honest("lecturer POST /class/<code>/view", took, status, payload)
        if status == 200:
            sent[json.loads(payload)["version"]] = began
        time.sleep(random.uniform(1.5, 2.5))
    crowd.join(timeout=60)
    polls = len(results.times.get(POLL, [])) - polls_before
    if args.restart_at is None and polls:  # the same processes from start to end
        print(f"CPU per poll while the lecturer stepped ({polls} polls): web processes "
              f"{(cpu_seconds(web) - web_cpu) / polls * 1e6:.0f} µs, the simulated phones "
              f"{(time.process_time() - own_cpu) / polls * 1e6:.0f} µs")
    delays = [at - sent[version] for version, at in seen if version in sent]
    expected = len(sent) * args.students
    print(f"steps sent: {len(sent)}; arrivals measured: {len(delays)} of {expected}")
    ms = [d * 1000 for d in delays]
    print(f"propagation (lecturer's request → student's poll with the new view): p50 {percentile(ms, 0.5):.0f} ms, "
          f"p95 {percentile(ms, 0.95):.0f} ms, p99 {percentile(ms, 0.99):.0f} ms, max {max(ms, default=0):.0f} ms")
    rows = [[kind, len(values), *(f"{percentile([t * 1000 for t in values], q):.1f}" for q in (0.5, 0.95, 0.99))]
            for kind, values in sorted(results.times.items())]
    print(table(["request", "count", "p50 ms", "p95 ms", "p99 ms"], rows))
    print(f"errors (5xx, no answer, 429): {len(results.errors)} {results.errors[:5]}")
    mb = [m / 2**20 for m in memory if m] or [0.0]
    print(f"web processes' memory during the class (MB, one sample a step): {' '.join(f'{m:.0f}' for m in mb)}")
    console = lecturer.json(f"/class/{code}/console")
    print(f"the lecturer's console at the end: {console.get('students')} students, {console.get('following')} "
          "following")
    polls = [t * 1000 for t in results.times.get(POLL, [])]
    return [None, args.students, f"{percentile(ms, 0.5):.0f}", f"{percentile(ms, 0.95):.0f}",
            f"{max(ms, default=0):.0f}", f"{percentile(polls, 0.95):.0f}", len(results.errors),
            f"{mb[0]:.0f} → {mb[-1]:.0f}", ""]


class Phone:
    """One phone's kept-alive connection, from its own loopback address (asyncio, so a thousand cost little)."""

    def __init__(self, port: int, address: str):
        self.port, self.address = port, address
        self.reader = self.writer = None

    async def call(self, path: str, etag: str = "") -> tuple[float, int, dict, bytes]:
        import asyncio

        request = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                   + (f"If-None-Match: {etag}\r\n" if etag else "") + "\r\n").encode()
        start = time.perf_counter()
        for attempt in range(2):  # a kept-alive connection the server closed meanwhile is opened again once
            try:
                if self.writer is None:
                    self.reader, self.writer = await asyncio.wait_for(asyncio.open_connection(
                        "127.0.0.1", self.port, local_addr=(self.address, 0)), 30)
                self.writer.write(request)
                head = await asyncio.wait_for(self.reader.readuntil(b"\r\n\r\n"), 30)
                lines = head.decode("latin-1").split("\r\n")
                status = int(lines[0].split()[1])
                headers = {name.lower(): value.strip() for name, _, value in
                           (line.partition(":") for line in lines[1:] if line)}
                body = await self.reader.readexactly(int(headers.get("content-length", 0)))
                if headers.get("connection", "").lower() == "close":
                    self.close()
                return time.perf_counter() - start, status, headers, body
            except (TimeoutError, OSError, EOFError, ValueError, IndexError, asyncio.IncompleteReadError):
                self.close()
                if attempt:
                    return time.perf_counter() - start, 0, {}, b""
        return time.perf_counter() - start, 0, {}, b""

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.reader = self.writer = None


async def follower(port: int, code: str, number: int, stop_at: float, results: Results, seen: list, count: list,
                   students: int, joined: threading.Event) -> None:
    import asyncio

    me = Phone(port, student_address(number))
    await asyncio.sleep(random.uniform(0, JOIN_SECONDS))
    for kind, path in (("GET /class/<code>", f"/class/{code}"), ("GET /step", FOLLOW_VIEW.format(0))):
        took, status, _, payload = await me.call(path)
        results.honest(kind, took, status, payload)
    student_id, etag, version, poll = f"student{number:04d}", "", 0, 0.7
    first = True
    while time.monotonic() < stop_at:
        began = time.monotonic()
        took, status, headers, payload = await me.call(f"/class/{code}/state?student={student_id}&following=1", etag)
        results.honest(POLL, took, status, payload)
        if status == 200:
            state = json.loads(payload)
            etag, poll = headers.get("etag", ""), state["poll"] / 1000
            if state["version"] != version:
                version = state["version"]
                seen.append((version, time.monotonic()))
        if first:
            first = False
            count[0] += 1
            if count[0] == students:
                joined.set()
        await asyncio.sleep(max(0.0, poll - (time.monotonic() - began)))
    me.close()


if __name__ == "__main__":
    main()
