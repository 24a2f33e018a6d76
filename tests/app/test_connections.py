"""Connections a server must survive: idle keep-alive sockets, headers and bodies sent a byte at a time, past the number
that used to lock every other client out (200). ``bench/connections.py`` measures the same with 300 of each."""

from __future__ import annotations

import http.client
import socket

import pytest

from app import create_app
from tests.support.served import served as serve
from tests.support.waiting import wait_until


def pages_app(tmp_path):
    """The app's pages, as ``python -m app`` serves them, with no jobs."""
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "jobs.sqlite"), "DATA_DIR": str(tmp_path),
                       "BUILD_TABLES": False})


@pytest.fixture
def served(tmp_path):
    """The app's pages served, sweeping its connections at every turn."""
    with serve(pages_app(tmp_path), threads=4, header_seconds=1, sweep_seconds=0) as port:
        yield port


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


def trickle_until_closed(slow: list, byte: bytes) -> bool:
    """One more byte from each slow client (activity that waitress's own idle timeout would count); whether the server
    has closed every one all the same."""
    for sock in slow:
        try:
            sock.send(byte)
        except OSError:
            pass
    return all(closed_by_server(sock) for sock in slow)


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

        wait_until(lambda: trickle_until_closed(slow, b"E"), what="the header deadline to close every slow socket")
        for sock in idle:
            sock.setblocking(False)
        assert not any(closed_by_server(sock) for sock in idle)  # idle keep-alive ones wait for their own timeout
    finally:
        for sock in idle + slow:
            sock.close()


def test_a_body_sent_a_byte_at_a_time_is_cut_off_while_whole_requests_are_answered(tmp_path):
    with serve(pages_app(tmp_path), threads=4, header_seconds=1, body_seconds=1, sweep_seconds=0) as port:
        slow = [socket.create_connection(("127.0.0.1", port)) for _ in range(20)]
        try:
            for sock in slow:  # whole headers, then a body that never ends
                sock.sendall(b"POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                             b"Content-Length: 60000\r\n\r\n{")
                sock.setblocking(False)

            wait_until(lambda: trickle_until_closed(slow, b" "), what="the body deadline to close every slow body")
            assert page_status(port) == 200
        finally:
            for sock in slow:
                sock.close()


def test_past_the_connection_limit_a_new_client_is_told_to_try_again_at_once(tmp_path):
    with serve(pages_app(tmp_path), threads=4, connection_limit=20, sweep_seconds=0) as port:
        held = [socket.create_connection(("127.0.0.1", port)) for _ in range(30)]
        try:
            for sock in held:
                sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")  # answered, then kept open (keep-alive)
            # a client that would otherwise wait in the listen queue until its own timeout (30 s here) gets a sentence
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("GET", "/")
            response = connection.getresponse()
            assert response.status == 503 and "try again" in response.read().decode()
            connection.close()
        finally:
            for sock in held:
                sock.close()
        wait_until(lambda: page_status(port) == 200, what="a page once the held connections are closed")
