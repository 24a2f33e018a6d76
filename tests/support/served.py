"""An app served by waitress on loopback, as ``python -m app`` serves it, and plain HTTP calls to it."""

from __future__ import annotations

import contextlib
import http.client
import json
import threading


@contextlib.contextmanager
def served(app, **options):
    """``app`` behind ``app.serve.make_server`` (with ``options``) on a free port of 127.0.0.1: yields the port."""
    from app.serve import make_server

    server = make_server(app, "127.0.0.1", 0, **{"threads": 8, **options})
    threading.Thread(target=server.run, daemon=True).start()
    try:
        yield server.effective_port
    finally:
        # the requests being answered end first: their writes need the trigger that ``close`` closes, and a write
        # after it fails on its thread, its traceback logged while a later test runs
        server.task_dispatcher.shutdown()
        server.close()


def call(port: int, method: str, path: str, headers: dict | None = None, body: dict | None = None):
    """(status, headers as a Message, the body's text) of one request on a connection of its own."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = dict(headers or {})
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    try:
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        return response.status, response.headers, response.read().decode()
    finally:
        connection.close()


def owner_cookie(headers) -> str | None:
    """The ``pp_owner`` cookie a response sets, whole (its attributes too), or None."""
    for header in headers.get_all("Set-Cookie") or []:
        if header.startswith("pp_owner="):
            return header
    return None
