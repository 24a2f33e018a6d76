"""A student's poll of a class that has not changed, answered before Flask.

Nearly every poll of ``/class/<code>/state`` is answered 304: the class's version is still the one the student's
``If-None-Match`` names. For a class of 1,000 phones polling every ``POLL_MILLISECONDS`` that is some 1,400 requests a
second, and the Flask stack (routing, the owner cookie, the before/after hooks, the error handlers) costs several
times what the answer needs. So the app's WSGI callable answers such a poll itself: the versions of the classes polled
here are kept in memory and read again from the database at most every ``REFRESH_SECONDS`` (at once after this process
wrote a class), so a step the lecturer takes through another web process reaches this one's students within that; the
poll still counts the student as present
(``Classes.polled``, as the route does). Anything else (another path, no or another ETag, an unknown or ended class,
a student id the route would refuse) goes on to Flask, which answers it as before.
"""

from __future__ import annotations

import re
import threading
import time
from urllib.parse import parse_qs

from app.class_model import CODE_LENGTH, classes

#: Seconds a class's version is served from memory before the database is asked again.
REFRESH_SECONDS = 0.1
#: Classes whose versions are kept at most (the server runs 500 at most; past this the memory starts afresh).
KEPT = 2000
STATE_PATH = re.compile(rf"/class/([A-Za-z0-9]{{{CODE_LENGTH}}})/state")
STUDENT = re.compile(r"[A-Za-z0-9]{8,40}")


class PollAnswers:
    """WSGI middleware in front of the Flask app (``app.classroom`` installs it)."""

    def __init__(self, wsgi_app, flask_app):
        self.wsgi_app, self.flask_app = wsgi_app, flask_app
        self.lock = threading.Lock()
        self.versions: dict[str, tuple[int, float, int]] = {}  # code → (version, when read, ``changes`` then)
        self._classes = None
        self.clock = time.monotonic

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") == "GET" and "HTTP_IF_NONE_MATCH" in environ:
            match = STATE_PATH.fullmatch(environ.get("PATH_INFO", ""))
            if match:
                answered = self.unchanged(match.group(1).upper(), environ, start_response)
                if answered is not None:
                    return answered
        return self.wsgi_app(environ, start_response)

    def unchanged(self, code: str, environ, start_response):
        query = parse_qs(environ.get("QUERY_STRING", ""))
        student = query.get("student", [None])[0]
        if student is not None and not STUDENT.fullmatch(student):
            return None  # the route refuses it, in its words
        version = self.version(code)
        etag = f'"{code}-{version}"'
        if version is None or etag not in environ["HTTP_IF_NONE_MATCH"]:
            return None
        if student:
            self.classes().polled(code, student, query.get("following", ["1"])[0] == "1")
        start_response("304 Not Modified", [("ETag", etag), ("Cache-Control", "no-cache")])
        return []

    def classes(self):
        if self._classes is None:
            with self.flask_app.app_context():
                self._classes = classes()
        return self._classes

    def version(self, code: str) -> int | None:
        """The class's version, at most ``REFRESH_SECONDS`` old; None for a class the database does not hold (it is
        not kept, so unknown codes cost no memory)."""
        now, rows = self.clock(), self.classes().rows
        changes = rows.changes  # read before the row: a write meanwhile leaves the kept version stale, not wrong
        with self.lock:
            kept = self.versions.get(code)
        if kept is not None and now - kept[1] < REFRESH_SECONDS and kept[2] == changes:
            return kept[0]
        row = rows.find(code, time.time())
        with self.lock:
            if row is None:
                self.versions.pop(code, None)
                return None
            if len(self.versions) >= KEPT:
                self.versions.clear()
            self.versions[code] = (row["version"], now, changes)
        return row["version"]


def install(app) -> None:
    app.wsgi_app = PollAnswers(app.wsgi_app, app)
