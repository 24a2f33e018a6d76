"""A student's poll of a class, answered before Flask.

Every phone of a class polls ``/class/<code>/state`` every ``POLL_MILLISECONDS``: for a class of 1,000 some 1,400
requests a second, nearly all answered 304 (the class's version is still the one the student's ``If-None-Match``
names), and after each step of the lecturer's 1,000 answers of the same new state. The Flask stack (routing, the
owner cookie, the before/after hooks, the error handlers) costs several times what these answers need, so the app's
WSGI callable gives them itself: each class polled here is kept in memory, with its state's JSON made once per
version. A 304 is answered from memory read at most ``REFRESH_SECONDS`` ago (at once after this process wrote a
class), so a step the lecturer takes through another web process reaches this one's students within that; a new
state is sent as the database has it at that moment (one primary-key read, never Flask). The poll
still counts the student as present (``Classes.polled``, as the route does). Anything else (another path or method,
an unknown or ended class, a student id the route would refuse) goes on to Flask, which answers it as before.
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass
from urllib.parse import parse_qs

from app import CSP
from app.class_model import CODE_LENGTH, Class, classes, student_key
from app.identity import network, owner_of
from engine.serving.cluster import anonymous_owner

#: Seconds a class is served from memory before the database is asked again.
REFRESH_SECONDS = 0.1
#: Classes kept at most (the server runs 500 at most; past this the memory starts afresh).
KEPT = 2000
STATE_PATH = re.compile(rf"/class/([A-Za-z0-9]{{{CODE_LENGTH}}})/state")
STUDENT = re.compile(r"[A-Za-z0-9]{8,40}")
#: What the app's own hooks add to every answer (``app.install_request_guards``).
HEADERS = [("Cache-Control", "no-cache"), ("Content-Security-Policy", CSP), ("X-Content-Type-Options", "nosniff"),
           ("Referrer-Policy", "same-origin")]


@dataclass
class Kept:
    lesson: Class
    read: float  # when it was read from the database (``clock``)
    changes: int  # the process's writes of classes then (``ClassRows.changes``)
    body: bytes | None = None  # the students' state as JSON, made by the first poll that needs it


class PollAnswers:
    """WSGI middleware in front of the Flask app (``app.classroom`` installs it)."""

    def __init__(self, wsgi_app, flask_app):
        self.wsgi_app, self.flask_app = wsgi_app, flask_app
        self.lock = threading.Lock()
        self.kept: dict[str, Kept] = {}
        self._classes = None
        self.clock = time.monotonic

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") == "GET":
            match = STATE_PATH.fullmatch(environ.get("PATH_INFO", ""))
            if match:
                answered = self.answer(match.group(1).upper(), environ, start_response)
                if answered is not None:
                    return answered
        return self.wsgi_app(environ, start_response)

    def answer(self, code: str, environ, start_response):
        query = parse_qs(environ.get("QUERY_STRING", ""))
        student = query.get("student", [None])[0]
        if student is not None and not STUDENT.fullmatch(student):
            return None  # the route refuses it, in its words
        kept = self.find(code)
        if kept is None:
            return None
        if student:
            self.classes().polled(code, self.student(environ), query.get("following", ["1"])[0] == "1")
        etag = f'"{code}-{kept.lesson.version}"'
        if etag not in environ.get("HTTP_IF_NONE_MATCH", ""):  # a new state to send: as the database has it now
            kept = self.find(code, fresh=True)
            if kept is None:
                return None
            etag = f'"{code}-{kept.lesson.version}"'
        if etag in environ.get("HTTP_IF_NONE_MATCH", ""):
            start_response("304 Not Modified", [("ETag", etag), ("Cache-Control", "no-cache")])
            return []
        if kept.body is None:
            from app.classroom import student_state

            kept.body = json.dumps(student_state(kept.lesson), separators=(",", ":")).encode()
        start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(kept.body))),
                                  ("ETag", etag), *HEADERS])
        return [kept.body]

    def student(self, environ) -> str:
        """The poll's student as the route counts one (``app.classroom.student_key``): the browser's signed owner
        cookie, or its network's one cookieless client; never the id the query names."""
        from werkzeug.http import parse_cookie

        from app import OWNER_COOKIE

        owner = owner_of(parse_cookie(environ).get(OWNER_COOKIE, ""), self.flask_app.secret_key)
        return student_key(owner or anonymous_owner(network(environ.get("REMOTE_ADDR") or "")))

    def classes(self):
        if self._classes is None:
            with self.flask_app.app_context():
                self._classes = classes()
        return self._classes

    def find(self, code: str, fresh: bool = False) -> Kept | None:
        """The class, at most ``REFRESH_SECONDS`` old (``fresh``: read now); None for a class the database does not
        hold (it is not kept, so unknown codes cost no memory)."""
        now, rows = self.clock(), self.classes().rows
        changes = rows.changes  # read before the row: a write meanwhile leaves the kept class stale, not wrong
        with self.lock:
            kept = self.kept.get(code)
        if kept is not None and not fresh and now - kept.read < REFRESH_SECONDS and kept.changes == changes:
            return kept
        row = rows.find(code, time.time())
        with self.lock:
            if row is None:
                self.kept.pop(code, None)
                return None
            lesson = Class.of(row)
            if kept is not None and kept.lesson == lesson:  # unchanged: its JSON is still right
                kept.read, kept.changes = now, changes
                return kept
            if len(self.kept) >= KEPT:
                self.kept.clear()
            self.kept[code] = kept = Kept(lesson, now, changes)
        return kept


def install(app) -> None:
    app.wsgi_app = PollAnswers(app.wsgi_app, app)
