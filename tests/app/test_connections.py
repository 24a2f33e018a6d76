"""Connections a server must survive: idle keep-alive sockets and headers sent a byte at a time, past the number
that used to lock every other client out (200). ``bench/connections.py`` measures the same with 300 of each."""

from __future__ import annotations

import http.client
import socket
import threading

import pytest

from app import create_app
from app.serve import make_server
from tests.support.waiting import wait_until


@pytest.fixture
def served(tmp_path):
    """The app's pages served as ``python -m app`` serves them (no jobs), sweeping its connections at every turn."""

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "jobs.sqlite"), "DATA_DIR": str(tmp_path),
                      "BUILD_TABLES": False})
    server = make_server(app, "127.0.0.1", 0, threads=4, header_seconds=1, sweep_seconds=0)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield server.effective_port
    server.close()


def page_status(port: int) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/")
    status = connection.getresponse().status
    connection.close()
    return status


def closed_by_server(sock: socket.socket) -> bool:
    try:
        return sock.recv(65536) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def test_headers_sent_a_byte_at_a_time_are_cut_off_while_idle_sockets_wait_and_others_get_in(served):
    idle = [socket.create_connection(("127.0.0.1", served)) for _ in range(150)]
    slow = [socket.create_connection(("127.0.0.1", served)) for _ in range(150)]
    try:
        for sock in idle:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")  # a whole request, then silence (keep-alive)
        for sock in slow:
            sock.sendall(b"G")
            sock.setblocking(False)
        assert page_status(served) == 200  # 300 held sockets: past the old limit of 200, another client gets in

        def slow_ones_cut_off() -> bool:
            # each keeps sending (activity that waitress's own idle timeout would count), and is closed all the same
            for sock in slow:
                try:
                    sock.send(b"E")
                except OSError:
                    pass
            return all(closed_by_server(sock) for sock in slow)

        wait_until(slow_ones_cut_off, what="the header deadline to close every slow socket")
        for sock in idle:
            sock.setblocking(False)
        assert not any(closed_by_server(sock) for sock in idle)  # idle keep-alive ones wait for their own timeout
    finally:
        for sock in idle + slow:
            sock.close()
