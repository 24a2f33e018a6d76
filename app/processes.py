"""Several web processes on one port, one database and one Dask cluster (docs/several-processes.md).

``python -m app cluster`` runs the cluster alone, in the foreground: a Dask scheduler on a fixed port and the embedded
shape's workers (``engine.serving.lanes``), until SIGTERM or Ctrl-C. Web processes on this or other machines reach it
by ``PUZZLE_SCHEDULER``, and other machines may add workers to it (``dask worker``, docs/several-processes.md).

``python -m app --processes N`` is a supervisor: it listens on the port itself, starts the cluster once (unless
``PUZZLE_SCHEDULER`` names one already running), and runs N web processes (``app.serve``, waitress) that all accept
from its one listening socket. The socket is never closed while the supervisor lives, so a web process that stops
loses no connection waiting in the queue: the others accept it. SIGHUP is a rolling restart: N new web processes
start (on the code as it is now), and once each says it is ready the old ones are stopped one by one (each answers
what it has received first: ``app.serve.drain``). A web process that ends by itself is started again. SIGTERM or
Ctrl-C stops the web processes, then the cluster.

Why not gunicorn: its threaded worker reads a request's headers in a request thread, so a slow client holds a thread,
where waitress's one event loop per process holds only a socket (``app.serve``); and waitress's pre-bound
``sockets=`` gives the pre-fork model's one listening socket without it. Why not N processes each binding the port
with SO_REUSEPORT: each has a queue of its own, and a process that closes its listener resets the connections
waiting in it, which a rolling restart under load does every time.
"""

from __future__ import annotations

import argparse
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time

#: The port the cluster command's scheduler listens on unless told otherwise (Dask's usual one).
SCHEDULER_PORT = 8786
#: Seconds a new web process may take to say it is ready (it imports the engine and connects to the cluster).
READY_WITHIN = 180.0
#: Seconds an old web process may take to stop before it is killed (its own deadline is app.serve.STOP_WITHIN).
STOPPED_WITHIN = 15.0
#: Connections waiting in the listening socket's queue at most (the kernel caps it at net.core.somaxconn).
BACKLOG = 4096


def cluster_command(argv: list[str] | None = None) -> int:
    """``python -m app cluster``: the scheduler and the embedded shape's workers, in the foreground."""
    parser = argparse.ArgumentParser(prog="python -m app cluster",
                                     description="Run the Dask cluster the web processes share, in the foreground.")
    parser.add_argument("--host", default=os.environ.get("SCHEDULER_HOST", "127.0.0.1"),
                        help="the scheduler's address (env SCHEDULER_HOST; default 127.0.0.1; 0.0.0.0 lets workers "
                             "on other machines join)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("SCHEDULER_PORT") or SCHEDULER_PORT),
                        help=f"the scheduler's port (env SCHEDULER_PORT; default {SCHEDULER_PORT}; 0: any free one)")
    args = parser.parse_args(argv)
    import logging

    from app import create_app
    from engine.serving.lanes import kill_local_workers, start_local_cluster

    logging.getLogger("distributed").setLevel(logging.WARNING)
    config = create_app().config  # the data folder and the workers' shape, as the web processes read them
    stopping = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stopping.set())
    cluster = start_local_cluster(config["LOCAL_WORKERS"], config["JOB_LIMITS"].memory,
                                  {"PUZZLE_DATA_DIR": config["DATA_DIR"]}, host=args.host, port=args.port)
    stop_with_supervisor(stopping)
    try:
        print(f"Dask cluster: PUZZLE_SCHEDULER={cluster.scheduler_address} ({len(cluster.workers)} workers); "
              "Ctrl-C stops it", flush=True)
        while not stopping.wait(0.5):
            pass
    finally:
        kill_local_workers(cluster)  # the web processes have stopped following their jobs: nothing to wait for
        cluster.close(timeout=3)
    return 0


class Supervisor:
    """The listening socket, the cluster (when it started it) and the web processes."""

    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.listener = listening_socket(args.host, args.port)
        self.cluster: subprocess.Popen | None = None
        self.scheduler = args.scheduler
        self.web: list[subprocess.Popen] = []

    def start_cluster(self) -> None:
        cluster = subprocess.Popen([sys.executable, "-m", "app", "cluster", "--port", "0"],
                                   stdout=subprocess.PIPE, text=True, **child_options())
        self.cluster, output = cluster, cluster.stdout
        assert output is not None  # stdout=PIPE
        line = ""
        deadline = time.monotonic() + READY_WITHIN
        while "PUZZLE_SCHEDULER=" not in line:
            if cluster.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the cluster did not start (its output is above)")
            line = output.readline()
        print(line, end="", flush=True)
        self.scheduler = line.split("PUZZLE_SCHEDULER=", 1)[1].split()[0]
        # its later output goes on to ours, so its pipe never fills
        threading.Thread(target=lambda: [print(rest, end="", flush=True) for rest in output],
                         daemon=True, name="cluster-output").start()

    def start_web(self) -> subprocess.Popen | None:
        """One more web process, once it says it is ready (None if it ended or took too long)."""
        read, write = os.pipe()
        args = self.args
        command = [sys.executable, "-m", "app", "--processes", "1", "--listen-fd", str(self.listener.fileno()),
                   "--ready-fd", str(write), "--host", args.host, "--port", str(args.port),
                   "--scheduler", self.scheduler, "--threads", str(args.threads),
                   "--connection-limit", str(args.connection_limit), "--trusted-proxies", str(args.trusted_proxies),
                   "--proxy-address", args.proxy_address]
        process = subprocess.Popen(command, pass_fds=(self.listener.fileno(), write), **child_options())
        os.close(write)
        try:
            ready, _, _ = select.select([read], [], [], READY_WITHIN)
            if ready and os.read(read, 16).startswith(b"ready"):
                return process
        finally:
            os.close(read)
        stop_process(process)
        return None

    def start_all(self, count: int) -> list[subprocess.Popen]:
        started = [process for process in (self.start_web() for _ in range(count)) if process is not None]
        if len(started) < count:
            print(f"puzzle-playground: {count - len(started)} of {count} web processes did not start",
                  file=sys.stderr, flush=True)
        return started

    def rolling_restart(self) -> None:
        """New web processes first, then the old ones stopped one by one: the port never goes unanswered."""
        fresh = self.start_all(self.args.processes)
        if not fresh:
            print("puzzle-playground: the restart started no web process; the old ones go on", file=sys.stderr,
                  flush=True)
            return
        old, self.web = self.web, self.web + fresh
        for process in old:
            stop_process(process)
            self.web.remove(process)
        print(f"puzzle-playground: restarted; web processes {[p.pid for p in self.web]}", flush=True)

    def run(self) -> int:
        restart, stopping = threading.Event(), threading.Event()
        signal.signal(signal.SIGHUP, lambda *_: restart.set())
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stopping.set())
        try:
            if not self.scheduler:
                self.start_cluster()
            self.web = self.start_all(self.args.processes)
            if not self.web:
                return 2
            print(f"Puzzle Playground on http://{self.args.host}:{self.args.port}/: {len(self.web)} web processes "
                  f"{[p.pid for p in self.web]} (supervisor pid {os.getpid()}: kill -HUP restarts them one by one; "
                  "Ctrl-C stops them)", flush=True)
            while not stopping.wait(0.5):
                if restart.is_set():
                    restart.clear()
                    self.rolling_restart()
                for process in [p for p in self.web if p.poll() is not None]:  # ended by itself: replaced
                    self.web.remove(process)
                    print(f"puzzle-playground: web process {process.pid} ended ({process.returncode}); starting "
                          "another", file=sys.stderr, flush=True)
                    self.web += self.start_all(1)
            return 0
        finally:
            for process in self.web:
                process.send_signal(signal.SIGTERM)  # all at once: each drains its own connections
            for process in self.web:
                stop_process(process)
            if self.cluster is not None:
                stop_process(self.cluster)
            self.listener.close()


def child_options() -> dict:
    """A child of the supervisor gets signals from it alone (a terminal's Ctrl-C or hangup goes to the supervisor,
    which stops or restarts them in order) and stops when the supervisor is gone (``stop_with_supervisor``)."""
    return {"start_new_session": True, "env": {**os.environ, SUPERVISOR: str(os.getpid())}}


#: The environment variable that tells a child of the supervisor its supervisor's pid.
SUPERVISOR = "PUZZLE_SUPERVISOR"


def stop_with_supervisor(stopping: threading.Event) -> None:
    """In a child of the supervisor: set ``stopping`` once the supervisor has ended (killed, say), so no web process
    or cluster is left running on its own."""
    supervisor = os.environ.get(SUPERVISOR)
    if not supervisor:
        return

    def watch() -> None:
        while not stopping.wait(1.0):
            if os.getppid() != int(supervisor):
                stopping.set()

    threading.Thread(target=watch, daemon=True, name="supervisor-watch").start()


def stop_process(process: subprocess.Popen) -> None:
    """SIGTERM, and SIGKILL past ``STOPPED_WITHIN``."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=STOPPED_WITHIN)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def listening_socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, port))
    listener.listen(BACKLOG)
    listener.set_inheritable(True)
    return listener


def supervise(args: argparse.Namespace) -> int:
    """``python -m app --processes N`` (``app.serve.main`` calls this for N > 1)."""
    from app.serve import port_problem

    problem = port_problem(args.host, args.port)
    if problem:
        print(f"puzzle-playground: {problem}", file=sys.stderr)
        return 2
    return Supervisor(args).run()
