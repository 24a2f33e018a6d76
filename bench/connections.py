"""Idle and slow sockets against the web server: does another client still get its page?

Serves the app (pages only, no job cluster) in a child process on a free loopback port, opens ``--idle`` keep-alive
connections that made one request and then say nothing, and ``--slow`` connections that send a request's headers a
byte a second and never finish them (a connection the server closes is opened again at once, as an attacker's
would be). Meanwhile another client opens a fresh connection and GETs / every ``--every`` seconds. Prints that
client's latency (median, p95, max) and failures, and how many of the held sockets the server closed. Loopback
only; it stops by itself after ``--seconds``.

    python bench/connections.py                       # the server as app/serve.py makes it
    python bench/connections.py --legacy              # waitress as it was: connection_limit=200, select()
    python bench/connections.py --connection-limit 200 --header-seconds 1000   # one option at a time
"""

from __future__ import annotations

import argparse
import http.client
import os
import socket
import statistics
import subprocess
import sys
import threading
import time

from common import ROOT, header

REQUEST = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
SLOW_HEADER = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 4000


def serve(port: int, legacy: bool, connection_limit: int, header_seconds: float) -> None:
    """The child: the app's pages served as ``app.serve`` serves them (or as waitress was configured before)."""
    from app import create_app
    from app.serve import make_server

    app = create_app({"BUILD_TABLES": False})
    if legacy:
        from waitress import create_server

        server = create_server(app, host="127.0.0.1", port=port, threads=32, channel_timeout=30,
                               connection_limit=200, cleanup_interval=10)
    else:
        server = make_server(app, "127.0.0.1", port, 32, connection_limit, header_seconds)
    server.run()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get_page(port: int, timeout: float) -> float | None:
    """Seconds a fresh client takes to GET / (None: it failed or timed out)."""
    began = time.perf_counter()
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        connection.request("GET", "/")
        response = connection.getresponse()
        response.read()
        connection.close()
        return time.perf_counter() - began if response.status == 200 else None
    except OSError:
        return None


class Holder:
    """Keeps ``count`` sockets of one kind open, reopening any the server closes."""

    def __init__(self, port: int, count: int, slow: bool):
        self.port, self.slow = port, slow
        self.sockets: list[tuple[socket.socket, int]] = [self._open() for _ in range(count)]
        self.closed_by_server = 0

    def _open(self) -> tuple[socket.socket, int]:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        sock.setblocking(False)
        if not self.slow:
            sock.sendall(REQUEST)  # one request, then silence: an idle keep-alive connection
        return sock, 0

    def _closed(self, sock: socket.socket) -> bool:
        try:
            while True:
                data = sock.recv(65536)
                if not data:
                    return True
        except BlockingIOError:
            return False
        except OSError:
            return True

    def tick(self) -> None:
        for index, (sock, sent) in enumerate(self.sockets):
            if self._closed(sock):
                sock.close()
                self.closed_by_server += 1
                try:
                    self.sockets[index] = self._open()
                except OSError:
                    pass
                continue
            if self.slow and sent < len(SLOW_HEADER):
                try:
                    sock.send(SLOW_HEADER[sent:sent + 1])
                    self.sockets[index] = (sock, sent + 1)
                except OSError:
                    pass

    def close(self) -> None:
        for sock, _ in self.sockets:
            sock.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--idle", type=int, default=300)
    parser.add_argument("--slow", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the sockets are held (at most 600)")
    parser.add_argument("--every", type=float, default=0.25, help="seconds between the other client's GETs")
    parser.add_argument("--legacy", action="store_true", help="waitress as configured before: limit 200, select()")
    parser.add_argument("--connection-limit", type=int, default=2000)
    parser.add_argument("--header-seconds", type=float, default=10.0)
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.legacy, args.connection_limit, args.header_seconds)
        return 0
    seconds = min(args.seconds, 600.0)
    header(f"{args.idle} idle and {args.slow} slow-header sockets for {seconds:g} s; another client GETs / every "
           f"{args.every:g} s")
    print("server:", "legacy (connection_limit=200, select)" if args.legacy else
          f"app.serve.make_server (connection_limit={args.connection_limit}, poll, "
          f"header deadline {args.header_seconds:g} s)")
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PUZZLE_BUILD_TABLES": "0"}
    child = subprocess.Popen([sys.executable, __file__, "--serve", str(port), "--connection-limit",
                              str(args.connection_limit), "--header-seconds", str(args.header_seconds)]
                             + (["--legacy"] if args.legacy else []), env=env)
    try:
        deadline = time.monotonic() + 60
        while get_page(port, 2.0) is None:
            if time.monotonic() > deadline or child.poll() is not None:
                print("the server did not start")
                return 1
            time.sleep(0.2)
        baseline = [get_page(port, 5.0) for _ in range(20)]
        idle, slow = Holder(port, args.idle, False), Holder(port, args.slow, True)
        stop = threading.Event()

        def hold() -> None:
            while not stop.wait(1.0):
                idle.tick()
                slow.tick()

        holder = threading.Thread(target=hold, daemon=True)
        holder.start()
        latencies: list[float | None] = []
        ends = time.monotonic() + seconds
        while time.monotonic() < ends:
            latencies.append(get_page(port, 5.0))
            time.sleep(args.every)
        stop.set()
        holder.join()
        idle.close()
        slow.close()
    finally:
        child.terminate()
        child.wait(10)
    answered = sorted(x for x in latencies if x is not None)
    quiet = sorted(x for x in baseline if x is not None)
    failures = len(latencies) - len(answered)

    def ms(values: list[float], q: float) -> str:
        return f"{1000 * values[min(len(values) - 1, int(q * len(values)))]:.0f}" if values else "-"

    print(f"quiet server first: GET / median {1000 * statistics.median(quiet):.0f} ms, p95 {ms(quiet, 0.95)} ms")
    print(f"under the sockets:  {len(latencies)} GETs, {failures} failed; median "
          f"{ms(answered, 0.5)} ms, p95 {ms(answered, 0.95)} ms, max {ms(answered, 1.0)} ms")
    print(f"sockets the server closed (and the bench reopened): idle {idle.closed_by_server}, "
          f"slow {slow.closed_by_server}")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
