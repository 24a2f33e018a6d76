"""Serving the playground: ``python -m app``, ``make run`` and ``puzzle-playground serve``.

The server is waitress: a production WSGI server in pure Python, one process of threads. By default one process
serves everything, with the local cluster's scheduler inside it: every heavy computation runs in Dask worker
processes. ``--processes N`` (``app.processes``, docs/several-processes.md) runs N such web processes on one
listening socket, one database and one cluster started once, for a lecture hall one process's GIL cannot answer.

Settings come from options or the environment: ``HOST`` (default 127.0.0.1; 0.0.0.0 opens it to the network),
``PORT`` (5000), ``PUZZLE_SCHEDULER`` (a Dask scheduler's address; default: start a local cluster), ``THREADS`` (32),
``CONNECTION_LIMIT`` (2000, per web process), ``PROCESSES`` (1).

Stopping (SIGTERM, Ctrl-C): the process stops accepting, answers the requests it has received (``drain``: at most
``DRAIN_SECONDS``), closes its idle kept-alive connections, then stops following its jobs; past ``STOP_WITHIN`` it
ends regardless.

Connections (``make_server``): waitress reads every socket in one event loop and hands only whole requests to its
threads, so an idle or slow socket costs a file descriptor and a few kilobytes, never a thread. What locks a server
out is its connection limit: past it waitress stops accepting. So the limit is high (2000: a class of 100 phones
holds about 200), the event loop uses poll (select stops at descriptor 1024), the process's descriptor limit is
raised to cover it, an idle keep-alive connection is closed after ``CHANNEL_TIMEOUT`` seconds, and a request whose
headers have not all arrived ``HEADER_SECONDS`` after its first byte is closed (a socket that sends a byte a second
is active, so waitress's own idle timeout never ends it), and so is one whose body has not all arrived
``BODY_SECONDS`` after its first byte. Past the connection limit a new client is told at once (a 503 saying to try
again, and the socket closed) instead of waiting unanswered in the listen queue. No per-address cap: a class behind
one NAT address is exactly the many connections from one address that must get in. ``bench/connections.py``
measures it.

Behind reverse proxies (``PUZZLE_TRUSTED_PROXIES``: how many; ``PUZZLE_PROXY_ADDRESS``: the address the nearest
connects from, default 127.0.0.1, a proxy on this machine) waitress believes their ``X-Forwarded-For``, ``-Proto``,
``-Host`` and ``-Port``, so the app sees each client's address (the per-client limits count them, not the proxy)
and scheme (the cookie is ``Secure`` behind HTTPS); from anyone else, or with no proxy set, it drops those headers.
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
    parser.add_argument("--connection-limit", type=int, default=int(os.environ.get("CONNECTION_LIMIT", "2000")),
                        help="open connections at most (env CONNECTION_LIMIT; default 2000)")
    parser.add_argument("--trusted-proxies", type=int, default=int(os.environ.get("PUZZLE_TRUSTED_PROXIES") or 0),
                        help="reverse proxies in front whose X-Forwarded-* headers are believed (env "
                             "PUZZLE_TRUSTED_PROXIES; default 0: none)")
    parser.add_argument("--proxy-address", default=os.environ.get("PUZZLE_PROXY_ADDRESS") or "127.0.0.1",
                        help="the address the nearest proxy connects from (env PUZZLE_PROXY_ADDRESS; default "
                             "127.0.0.1; * for any, only when nothing but the proxy can reach this port)")
    parser.add_argument("--processes", type=int, default=int(os.environ.get("PROCESSES") or 1),
                        help="web processes on the port (env PROCESSES; default 1; see docs/several-processes.md)")
    # A web process of several: the listening socket its supervisor (``app.processes``) made, and where to say ready.
    parser.add_argument("--listen-fd", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--ready-fd", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.processes < 1:
        parser.error("--processes must be 1 or more")
    return args


#: Seconds an idle keep-alive connection is kept.
CHANNEL_TIMEOUT = 30
#: Seconds a request's headers may take to arrive, from its first byte.
HEADER_SECONDS = 10
#: Seconds a whole request (headers and body) may take to arrive, from its first byte: a 64 KB upload from a phone
#: on a poor connection (10 KB/s) needs 7.
BODY_SECONDS = 30
#: Seconds between waitress's sweeps of its connections (idle ones, slow headers).
SWEEP_SECONDS = 5
#: Bytes of a request body waitress takes at most (the app refuses more than 64 KB, or 1 MB for a problem's data, with
#: a sentence; past this waitress stops reading, so no client makes it buffer more).
MAX_BODY = 2 * 1024 * 1024
#: The X-Forwarded-* headers believed from a trusted proxy (waitress's names).
PROXY_HEADERS = {"x-forwarded-for", "x-forwarded-proto", "x-forwarded-host", "x-forwarded-port"}
#: What a client past the connection limit is told before its socket closes.
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nRetry-After: 10\r\n"
        b"Connection: close\r\nContent-Length: 73\r\n\r\n"
        b"The playground has too many open connections; try again in a few seconds\n")


def make_server(app, host: str, port: int, threads: int = 32, connection_limit: int = 2000,
                header_seconds: float = HEADER_SECONDS, channel_timeout: int = CHANNEL_TIMEOUT,
                sweep_seconds: int = SWEEP_SECONDS, body_seconds: float = BODY_SECONDS, trusted_proxies: int = 0,
                proxy_address: str = "127.0.0.1", sockets: list[socket.socket] | None = None):
    """The waitress server for ``app`` with the connection model above, listening on host:port, or on ``sockets``
    already listening (a supervisor's, shared by several web processes)."""
    from waitress import create_server

    proxy = {}
    if trusted_proxies > 0:
        proxy = dict(trusted_proxy=proxy_address, trusted_proxy_count=trusted_proxies,
                     trusted_proxy_headers=PROXY_HEADERS)
    raise_descriptor_limit(connection_limit + 512)  # the cluster, the database and the tables need some too
    where = {"sockets": sockets} if sockets else {"host": host, "port": port}
    server = create_server(app, **where, threads=threads, channel_timeout=channel_timeout,
                           connection_limit=connection_limit, cleanup_interval=sweep_seconds,
                           asyncore_use_poll=True, max_request_body_size=MAX_BODY, **proxy)
    for listener in [server] if hasattr(server, "maintenance") else list(server.map.values()):
        if hasattr(listener, "maintenance"):
            listener.maintenance = _RequestDeadline(listener.maintenance, listener.active_channels, header_seconds,
                                                    body_seconds)
            _refuse_past_limit(listener, connection_limit)
    return server


def _refuse_past_limit(listener, limit: int) -> None:
    """Past ``limit`` connections, accept a new one only to answer it ``BUSY`` and close it. waitress itself stops
    accepting there, which leaves every new client waiting in the listen queue until it gives up."""
    readable, accept = listener.readable, listener.handle_accept

    def keep_accepting() -> bool:
        readable()  # waitress's: its sweeps run from here
        return listener.accepting

    def accept_or_refuse() -> None:
        if len(listener._map) < limit:
            accept()
            return
        try:
            pair = listener.accept()
        except OSError:
            return
        if pair is None:
            return
        conn = pair[0]
        try:
            conn.setblocking(False)
            try:
                conn.recv(65536)  # what the client sent already: unread, it would turn the close into a reset
            except OSError:
                pass
            conn.send(BUSY)
            conn.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        finally:
            conn.close()

    listener.readable, listener.handle_accept = keep_accepting, accept_or_refuse


class _RequestDeadline:
    """waitress's sweep of idle connections, plus: close a connection whose request's headers are still incomplete
    ``headers`` seconds, or its body ``body`` seconds, after the sweep first saw that request."""

    def __init__(self, sweep, channels: dict, headers: float, body: float):
        import weakref

        self.sweep, self.channels, self.headers, self.body = sweep, channels, headers, body
        # a request being received → when a sweep first saw it
        self.first_seen: weakref.WeakKeyDictionary[object, float] = weakref.WeakKeyDictionary()

    def __call__(self, now: float) -> None:
        self.sweep(now)
        for channel in list(self.channels.values()):
            request = channel.request
            if request is None or request.completed:
                continue
            waited = now - self.first_seen.setdefault(request, now)
            if waited >= (self.body if request.headers_finished else self.headers):
                channel.will_close = True


def raise_descriptor_limit(wanted: int) -> None:
    """Raise this process's open-file limit towards ``wanted`` (as far as the hard limit allows)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


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
    if args.processes > 1:
        from app.processes import supervise

        return supervise(args)
    sockets = None
    if args.listen_fd is not None:  # one of several web processes: the supervisor listens, this process accepts
        sockets = [socket.socket(fileno=args.listen_fd)]
    else:
        problem = port_problem(args.host, args.port)
        if problem:
            print(f"puzzle-playground: {problem}", file=sys.stderr)
            return 2
    from app import create_app, init_jobs
    from app.submit import warm_quick_solves
    from engine.serving.jobs import StorageFull

    logging.getLogger("distributed").setLevel(logging.WARNING)  # the cluster's routine chatter stays out of the log

    app = create_app({"SCHEDULER": args.scheduler})
    try:
        runner = init_jobs(app)
    except StorageFull as error:  # a new job database on a full disk: nothing can be recorded
        print(f"puzzle-playground: {error}. The job database: {app.config['DATABASE']}", file=sys.stderr)
        return 2
    threading.Thread(target=warm_quick_solves, daemon=True, name="warm-quick-solves").start()
    server = make_server(app, args.host, args.port, args.threads, args.connection_limit,
                         trusted_proxies=args.trusted_proxies, proxy_address=args.proxy_address, sockets=sockets)
    stopping = threading.Event()

    def stop(signum, frame):  # the loop below sees it within LOOP_SECONDS; a second signal changes nothing
        stopping.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    if args.listen_fd is not None:
        from app.processes import stop_with_supervisor

        stop_with_supervisor(stopping)
    where = "the local Dask cluster" if not args.scheduler else f"the Dask cluster at {args.scheduler}"
    print(f"Puzzle Playground on http://{args.host}:{args.port}/ (pid {os.getpid()}; jobs on {where}); "
          "Ctrl-C stops it", flush=True)
    if args.ready_fd is not None:
        os.write(args.ready_fd, b"ready\n")
        os.close(args.ready_fd)
    try:
        serve_until(server, stopping)
    finally:
        stopping.set()
        threading.Thread(target=_end_by_deadline, args=(runner,), daemon=True, name="stop-deadline").start()
        drain(server, DRAIN_SECONDS)
        runner.shutdown()
    return 0


#: Seconds waitress's loop waits for a socket before it looks whether the server is stopping.
LOOP_SECONDS = 0.5
#: Seconds a stopping server goes on answering the requests it has already received.
DRAIN_SECONDS = 3.0
#: Seconds a stopping server waits for the first request of a connection it has accepted.
FIRST_REQUEST = 1.0


def _channels(server) -> dict:
    return server.map if hasattr(server, "map") else server._map  # several listening addresses, or one


def serve_until(server, stopping: threading.Event) -> None:
    """waitress's loop, until ``stopping`` is set."""
    from waitress import wasyncore

    channels = _channels(server)
    while not stopping.is_set():
        wasyncore.loop(timeout=LOOP_SECONDS, map=channels, use_poll=True, count=1)


def drain(server, seconds: float) -> None:
    """Stop as a rolling restart needs: stop accepting (the listening socket, when several processes share it, stays
    open in the others, with the connections waiting in its queue), answer every request already received (for at
    most ``seconds``), close each kept-alive connection once it is idle, then close the rest and end the threads.
    A client whose next request meets a closed idle connection sends it again on a new one, as browsers and HTTP
    libraries do for a connection the server closed."""
    from waitress import wasyncore
    from waitress.channel import HTTPChannel
    from waitress.server import BaseWSGIServer

    channels = _channels(server)
    for listener in [each for each in list(channels.values()) if isinstance(each, BaseWSGIServer)]:
        wasyncore.dispatcher.close(listener)  # its socket alone: its trigger still wakes the loop for the answers
    deadline = time.monotonic() + seconds
    while True:
        busy, now = False, time.time()
        for channel in list(channels.values()):
            if isinstance(channel, HTTPChannel):
                # a connection accepted just now has its first request on the way: it is answered, not closed
                unread = channel.last_activity == channel.creation_time and now - channel.creation_time < FIRST_REQUEST
                if channel.requests or channel.total_outbufs_len or channel.request is not None or unread:
                    busy = True
                else:
                    channel.will_close = True
        wasyncore.loop(timeout=0.05, map=channels, use_poll=True, count=1)
        if not busy or time.monotonic() >= deadline:
            break
    server.task_dispatcher.shutdown()
    wasyncore.close_all(channels, ignore_all=True)


#: Seconds an orderly stop may take; past them the process leaves its jobs (``JobRunner.leave``) and ends its workers
#: itself (a worker busy in a kernel, or a hundred open connections, must not keep the server alive).
STOP_WITHIN = 7.0


def _end_by_deadline(runner) -> None:
    time.sleep(STOP_WITHIN)
    import psutil

    try:
        runner.leave()
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
    """The ``puzzle-playground`` command: ``serve`` starts the web app, ``cluster`` the Dask cluster alone
    (``app.processes``); everything else is the engine's CLI."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["serve"]:
        return main(argv[1:])
    if argv[:1] == ["cluster"]:
        from app.processes import cluster_command

        return cluster_command(argv[1:])
    from engine.cli import main as engine_main

    return engine_main(argv)
