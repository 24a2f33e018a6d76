"""A web process that stops, as one of several sharing a listening socket (``app.serve.drain``): it answers the
request it is serving, closes its idle kept-alive connections, and leaves new connections in the socket's queue for
the other processes."""

from __future__ import annotations

import http.client
import socket
import threading

from app.processes import listening_socket
from app.serve import drain, make_server, serve_until
from tests.support.waiting import wait_until


def test_a_stopping_web_process_answers_what_it_has_and_leaves_new_connections_to_the_others():
    release, serving = threading.Event(), threading.Event()

    def app(environ, start_response):
        if environ["PATH_INFO"] == "/slow":
            serving.set()
            release.wait(30)
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [environ["PATH_INFO"].encode()]

    shared = listening_socket("127.0.0.1", 0)  # the supervisor's: it outlives the process that stops
    port = shared.getsockname()[1]
    server = make_server(app, "127.0.0.1", 0, threads=4, sockets=[shared.dup()])
    stopping = threading.Event()
    stopped = threading.Thread(target=lambda: (serve_until(server, stopping), drain(server, 10)), daemon=True)
    stopped.start()
    idle = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    idle.request("GET", "/page")
    assert idle.getresponse().read() == b"/page"  # kept alive, idle from now on
    slow = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    slow.request("GET", "/slow")
    wait_until(serving.is_set, 30, "the slow request to be served")

    stopping.set()
    wait_until(lambda: not any(each is server for each in server._map.values()), 30, "the process to stop accepting")
    late = socket.create_connection(("127.0.0.1", port), timeout=30)  # queued in the shared socket, not refused
    shared.settimeout(30)
    accepted, _ = shared.accept()  # another process (here: this test) accepts it
    release.set()
    answer = slow.getresponse()
    assert answer.status == 200 and answer.read() == b"/slow"
    stopped.join(30)
    assert not stopped.is_alive()
    assert idle.sock.recv(1) == b""  # the idle connection was closed, not left open
    for each in (accepted, late, shared):
        each.close()
    idle.close()
    slow.close()
