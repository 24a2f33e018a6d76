"""The classes a lecturer runs (``app.classroom`` serves them): each a row in the job database, and what this process
alone keeps about them.

A class is a row in the job database (``app.records``: its code, the hash of the secret, the view, the version, the
open question, answers, who started it, when it was started, last driven and expires), so it survives a restart of
the server and every web process that reads the same database serves it. A class expires when its lecturer has not
touched it for ``IDLE_SECONDS``.

Transport: students poll ``/class/<code>/state`` with ``If-None-Match`` (a 304 while nothing changed), answered
before Flask from the version each web process keeps for at most 0.1 s (``app.class_polls``). Which students polled
lately is kept in this process and written in one batch at most once a second (``Presence``), so a class of hundreds
costs the database one small write a second per web process; the latest poll of a student wins, whichever process
saw it, so several web processes count each student once. Short requests keep no connection or thread per student,
whatever the server's connection model, and ``bench/classroom.py --follow`` measures the propagation a class sees.

Limits: a client (the owner cookie, or every cookieless request from one address: ``app.submit``) keeps at most
``PER_CLIENT`` classes (starting another ends its least recently driven one); a network address at most
``PER_ADDRESS``; the server at most ``MAX_CLASSES``, of which the last ``KEPT_FOR_NEW_ADDRESSES`` only for an address
with no class running, so one address that started many never stops a lecturer elsewhere. A code is 8 letters from a
31-letter alphabet (8.5 × 10^11 codes); an address may miss ``MISSES_PER_MINUTE`` codes a minute (then its further
misses are refused for the minute; a known class's polls never are), so finding one of 500 live classes by guessing
takes an address about 50 years. Following a class starts no job, so it never counts against a job quota. An
"address" here is a network (``app.identity.network``: an IPv6 address's /64), so an actor holding a whole /64 has the
places of one address. Starting a class, and moving it to a view not saved before, are charged to the client as
records it writes (``app.quotas``); moving it along a view (a step, a slide) changes its row in place and is not. A
student is counted, as a follower and as an answer, by the browser's signed identity (``app.classroom.student_key``).
"""

from __future__ import annotations

import hashlib
import json
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass

from flask import abort

from app.records import Allowance, ClassRows, app_extension, records, secret_hash
from engine.core.errors import PuzzleError

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read off a projector and typed on a phone
CODE_LENGTH = 8
MAX_CLASSES = 500
KEPT_FOR_NEW_ADDRESSES = 100  # the last places: only for an address with no class running
PER_ADDRESS = 20  # classes running from one network address (a department behind one NAT)
PER_CLIENT = 3  # classes one browser keeps; a fourth ends its least recently driven one
IDLE_SECONDS = 3 * 3600  # a lecture and its break
TOUCH_EVERY = 60  # seconds: how stale the lecturer's last touch may grow before it is written again
MAX_STUDENTS = 1000  # per class: a lecture hall; answers beyond this are refused, polls beyond it not counted
FOLLOWING_SECONDS = 5  # a student who polled this recently counts as following
PRESENCE_WRITE_SECONDS = 1.0  # how often this process writes the polls it has seen
MISSES_PER_MINUTE = 60  # unknown codes one address may look up a minute (a lecture hall behind one NAT mistypes)
CODE_MISSES = Allowance("class-code-miss", 60.0)  # counted in the records: every web process on them together
SECRET_COOKIE = "pp_class"
POLL_MILLISECONDS = 700  # the student's poll: the lecturer's step reaches 95 % within about 0.7 s plus a request


@dataclass(frozen=True)
class Class:
    """A class as its row holds it (``question``: {number, question (with its answer), revealed} or None)."""

    code: str
    secret: str  # the hash of the lecturer's secret
    view: str
    version: int
    question: dict | None
    touched: float

    @classmethod
    def of(cls, row: sqlite3.Row) -> Class:
        return cls(row["code"], row["secret"], row["view"], row["version"],
                   json.loads(row["question"]) if row["question"] else None, row["touched"])


class Classes:
    """The classes in the database, and what this process alone keeps: the polls not yet written."""

    def __init__(self, rows: ClassRows):
        self.rows = rows
        self.lock = threading.Lock()
        self.polls: dict[str, dict[str, tuple[float, int]]] = {}  # code → student → (when, following)
        self.written = 0.0

    def start(self, view: str, client: str, address: str) -> tuple[Class, str]:
        """A new class on ``view`` and the lecturer's secret; a 429 past the limits (module docstring)."""
        secret = secrets.token_urlsafe(32)
        now = time.time()

        def allow(db: sqlite3.Connection, now: float) -> None:
            mine = [code for (code,) in db.execute("SELECT code FROM classes WHERE owner = ? ORDER BY touched",
                                                   (client,))]
            for code in mine[:max(0, len(mine) - PER_CLIENT + 1)]:  # the client moved on from its oldest
                for table in ("class_answers", "class_students", "classes"):
                    db.execute(f"DELETE FROM {table} WHERE code = ?", (code,))
            total, here = db.execute("SELECT COUNT(*), COALESCE(SUM(address = ?), 0) FROM classes",
                                     (address,)).fetchone()
            if here >= PER_ADDRESS:
                abort(429, f"{PER_ADDRESS} classes started from your network address are running; end one of "
                      "them (or wait for it to end) before starting another")
            if total >= MAX_CLASSES or (here and total >= MAX_CLASSES - KEPT_FOR_NEW_ADDRESSES):
                abort(429, f"{total} classes are running on this server; try again when one ends")

        for _ in range(5):  # a code already taken (one in 10^9 with 500 running): draw again
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            hashed = secret_hash(secret)
            row = {"code": code, "secret": hashed, "view": view, "version": 1, "question": None,
                   "asked": 0, "owner": client, "address": address, "created": now, "touched": now,
                   "expires": now + IDLE_SECONDS}
            try:
                self.rows.start(row, allow)
            except sqlite3.IntegrityError:
                continue
            return Class(code, hashed, view, 1, None, now), secret
        raise PuzzleError("no free class code was found; try again")

    def find(self, code: str, address: str) -> Class:
        """The class with this code; a 404 for an unknown one, a 429 once this address has missed too often (its
        misses only: a class it knows is always found)."""
        code = code.upper()
        now = time.time()
        row = self.rows.find(code, now) if len(code) == CODE_LENGTH and code.isalnum() else None
        if row is not None:
            return Class.of(row)
        if not CODE_MISSES.take(address, MISSES_PER_MINUTE):
            abort(429, "too many class codes tried from this address; wait a minute and check the code")
        abort(404, "no class has this code (it may have ended); check the code on the projector")

    def polled(self, code: str, student: str, following: bool) -> None:
        """A student's poll, written with the others at most once a second."""
        now = time.time()
        with self.lock:
            students = self.polls.setdefault(code, {})
            if student in students or len(students) < MAX_STUDENTS:
                students[student] = (now, int(following))
            due = now - self.written >= PRESENCE_WRITE_SECONDS
        if due:
            self.write_polls()

    def write_polls(self) -> None:
        with self.lock:
            polls, self.polls = self.polls, {}
            self.written = now = time.time()
        rows = [(code, student, at, following) for code, students in polls.items()
                for student, (at, following) in students.items()]
        self.rows.seen(rows, now - 60)

    def followers(self, code: str) -> tuple[int, int]:
        """(students polling lately, of whom following the lecturer), from every process's polls."""
        self.write_polls()
        return self.rows.followers(code, time.time() - FOLLOWING_SECONDS)

    def touch(self, lesson: Class) -> None:
        now = time.time()
        if now - lesson.touched > TOUCH_EVERY:
            self.rows.update(lesson.code, "touched = ?, expires = ?", (now, now + IDLE_SECONDS))

    def move(self, lesson: Class, view: str) -> int:
        """The class's view is now ``view``: its version (a new one if the view changed)."""
        self.rows.update(lesson.code, "view = ?, version = version + 1", (view,), "AND view != ?", (view,))
        row = self.rows.find(lesson.code, 0)
        return row["version"] if row is not None else lesson.version

    def end(self, code: str) -> None:
        self.rows.end(code)
        with self.lock:
            self.polls.pop(code, None)



def classes() -> Classes:
    return app_extension("classes", lambda: Classes(ClassRows(records())))


def student_key(client: str) -> str:
    """Who a student is for the tally and the count of followers, from the browser's signed identity (its owner
    cookie, or its network's one cookieless client), never from an id the request names: one browser answers a
    question once and follows as one student however many ids it makes up."""
    return hashlib.sha256(client.encode()).hexdigest()[:24]
