"""Serving the playground: ``python -m app``, ``make run`` and ``puzzle-playground serve``.

The server is waitress: a production WSGI server in pure Python, one process of threads. One process suits this app
because every heavy computation runs in Dask worker processes, and it keeps the Dask client (and, by default, the
local cluster's scheduler) in a single place; waitress also runs unchanged wherever Python does. gunicorn would fork
several copies of the app, each with its own Dask client and cluster, for no gain here.

Settings come from options or the environment: ``HOST`` (default 127.0.0.1; 0.0.0.0 opens it to the network),
``PORT`` (5000), ``PUZZLE_SCHEDULER`` (a Dask scheduler's address; default: start a local cluster), ``THREADS`` (32).
"""

from __future__ import annotations

import argparse
import errno
import logging
import os
import signal
import socket
import sys
import threading
import time


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="puzzle-playground serve", description="Serve Puzzle Playground.")
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"),
                        help="address to listen on (env HOST; default 127.0.0.1, 0.0.0.0 for a class)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "5000")),
                        help="port (env PORT; default 5000)")
    parser.add_argument("--scheduler", default=os.environ.get("PUZZLE_SCHEDULER") or None,
                        help="a Dask scheduler, tcp://HOST:PORT (env PUZZLE_SCHEDULER; default: a local cluster)")
    parser.add_argument("--threads", type=int, default=int(os.environ.get("THREADS", "32")),
                        help="request threads (env THREADS; default 32: most wait on a job, idle)")
    return parser.parse_args(argv)


def port_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on host:port, in words, or None if it can."""
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            return (f"port {port} is already in use (is the playground already running?). "
                    f"Stop the other program or choose another port: PORT={port + 1} make run")
        if error.errno == errno.EACCES:
            return f"this user may not listen on port {port}; choose a port above 1023, e.g. PORT=5000"
        return f"cannot listen on {host}:{port}: {error.strerror}"
    return None


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    problem = port_problem(args.host, args.port)
    if problem:
        print(f"puzzle-playground: {problem}", file=sys.stderr)
        return 2
    from waitress import create_server

    from app import create_app, init_jobs
    from app.solving import warm_quick_solves

    logging.getLogger("distributed").setLevel(logging.WARNING)  # the cluster's routine chatter stays out of the log

    app = create_app({"SCHEDULER": args.scheduler})
    runner = init_jobs(app)
    threading.Thread(target=warm_quick_solves, daemon=True, name="warm-quick-solves").start()
    server = create_server(app, host=args.host, port=args.port, threads=args.threads, channel_timeout=30,
                           connection_limit=200, cleanup_interval=10)
    stopping = threading.Event()

    def stop(signum, frame):  # SIGTERM ends the server as Ctrl-C does: unfinished jobs are marked interrupted
        if not stopping.is_set():  # a second signal must not interrupt the shutdown the first one started
            stopping.set()
            raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    where = "the local Dask cluster" if not args.scheduler else f"the Dask cluster at {args.scheduler}"
    print(f"Puzzle Playground on http://{args.host}:{args.port}/ (jobs on {where}); Ctrl-C stops it", flush=True)
    try:
        server.run()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        stopping.set()
        threading.Thread(target=_end_by_deadline, args=(runner.store,), daemon=True, name="stop-deadline").start()
        server.close()
        runner.shutdown()
    return 0


#: Seconds an orderly stop may take; past them the process marks its jobs interrupted and ends its workers itself
#: (a worker busy in a kernel, or a hundred open connections, must not keep the server alive).
STOP_WITHIN = 7.0


def _end_by_deadline(store) -> None:
    time.sleep(STOP_WITHIN)
    import psutil

    try:
        store.interrupt_unfinished()
    finally:
        children = psutil.Process().children(recursive=True)
        for child in children:
            try:
                child.kill()
            except psutil.Error:
                pass
        print("puzzle-playground: stopped without waiting any longer for its workers", file=sys.stderr, flush=True)
        os._exit(0)


def command(argv: list[str] | None = None) -> int:
    """The ``puzzle-playground`` command: ``serve`` starts the web app; everything else is the engine's CLI."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["serve"]:
        return main(argv[1:])
    from engine.cli import main as engine_main

    return engine_main(argv)
