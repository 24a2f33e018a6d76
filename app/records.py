"""Saved views and classes: rows in the job database (SQLite, WAL), beside the jobs, so they outlive the web process
and every web process that opens the same file shares them.

* ``views``: a step-through view or a race, saved as its canonical JSON (``app.links``); its id is a hash of that text,
  so the same view is one row however often it is saved.
* ``classes``: a class (``app.classroom``): its code, the hash of the lecturer's secret, the view students follow, the
  version that changes whenever what they see changes (their ETag), the open question, who started it (owner and
  address, for the limits) and when it was started and last driven.
* ``class_answers``: one row per student and question; ``class_students``: when each student last polled and whether
  they were following (written in batches, at most once a second per process: ``Presence``).
* ``allowances``: the times each network address was allowed a thing counted against a limit (a new owner cookie, a
  missed class code, a record written, the bytes it held: ``Allowance``), so that every web process on the file counts
  together.
* ``kept``: every record kept for its owner's next visit (a saved view, an own lesson, a slide's verdict: the tables
  ``retain`` names), its size and when it was last used; ``kept_bytes`` their total. Records are kept within
  ``Records.budget`` bytes: writing one past it forgets the least recently used (``keep``). Opening a record uses it
  (``used``, written at most once in ``REFRESH_SECONDS``), so a lesson a lecturer opens, the saved view a class follows
  and the verdicts of a lesson being presented stay; one written and never opened again goes first.

Times are wall-clock seconds (``time.time()``): they are compared across processes and restarts. Each thread keeps one
connection (waitress's threads live as long as the server), so a student's poll costs one primary-key read.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from flask import current_app

from engine.core.errors import PuzzleError
from engine.serving.jobs import StorageFull, disk_full_as_storage_full

log = logging.getLogger(__name__)

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS views (id TEXT PRIMARY KEY, body TEXT NOT NULL, created REAL NOT NULL)",
    "CREATE TABLE IF NOT EXISTS classes (code TEXT PRIMARY KEY, secret TEXT NOT NULL, view TEXT NOT NULL, "
    "version INTEGER NOT NULL DEFAULT 1, question TEXT, asked INTEGER NOT NULL DEFAULT 0, owner TEXT NOT NULL, "
    "address TEXT NOT NULL, created REAL NOT NULL, touched REAL NOT NULL, expires REAL NOT NULL)",
    "CREATE INDEX IF NOT EXISTS classes_expires ON classes (expires)",
    "CREATE TABLE IF NOT EXISTS class_answers (code TEXT NOT NULL, number INTEGER NOT NULL, student TEXT NOT NULL, "
    "choice INTEGER NOT NULL, name TEXT, PRIMARY KEY (code, number, student))",
    "CREATE TABLE IF NOT EXISTS class_students (code TEXT NOT NULL, student TEXT NOT NULL, seen REAL NOT NULL, "
    "following INTEGER NOT NULL, PRIMARY KEY (code, student))",
    "CREATE INDEX IF NOT EXISTS class_students_seen ON class_students (seen)",  # forgetting old polls reads no more
    "CREATE TABLE IF NOT EXISTS allowances (kind TEXT NOT NULL, key TEXT NOT NULL, at REAL NOT NULL, "
    "amount INTEGER NOT NULL DEFAULT 1)",
    "CREATE INDEX IF NOT EXISTS allowances_key ON allowances (kind, key, at)",
    "CREATE TABLE IF NOT EXISTS kept (tab TEXT NOT NULL, key TEXT NOT NULL, size INTEGER NOT NULL, used REAL NOT NULL, "
    "PRIMARY KEY (tab, key))",
    "CREATE INDEX IF NOT EXISTS kept_used ON kept (used)",
    "CREATE TABLE IF NOT EXISTS kept_bytes (one INTEGER PRIMARY KEY CHECK (one = 1), bytes INTEGER NOT NULL)",
)
#: Bytes the kept records may hold together by default (``RECORDS_BUDGET``, ``PUZZLE_RECORDS_MB``): about 4,000 saved
#: graphs of the largest size, far more of the usual few hundred bytes.
RECORDS_BUDGET = 200 * 1024 * 1024
REFRESH_SECONDS = 600.0  # how stale a record's last use may grow before opening it writes it again

ID_LENGTH = 12  # base-32 characters of the hash: 60 bits, so two different views never meet in practice
MAX_VIEW_BYTES = 48 * 1024  # a saved view's canonical JSON: a typed graph of a few hundred nodes, a 64×64 grid


class TooLarge(PuzzleError):
    """A view larger than ``MAX_VIEW_BYTES`` (the app answers 413)."""


def canonical(record: dict) -> str:
    """One text per record: keys sorted, no spaces, so equal views hash alike."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def record_id(body: str) -> str:
    return base64.b32encode(hashlib.sha256(body.encode()).digest()).decode()[:ID_LENGTH].lower()


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class Records:
    """The saved views and the classes in one SQLite file; every method is one short transaction."""

    def __init__(self, path: str, budget: int = RECORDS_BUDGET):
        self.path, self.budget = path, budget
        self.clock = time.time  # when records are written and used (a test may set its own)
        self.local = threading.local()
        self.kept_tables: dict[str, str] = {}  # a table whose rows are kept within the budget → its key column
        with self.writing() as db:
            db.execute("PRAGMA journal_mode=WAL")
            for statement in SCHEMA:
                db.execute(statement)
            if "amount" not in {row[1] for row in db.execute("PRAGMA table_info(allowances)")}:  # a file made before
                db.execute("ALTER TABLE allowances ADD COLUMN amount INTEGER NOT NULL DEFAULT 1")
        self.retain("views", "id", "body", "created")

    def retain(self, table: str, key: str, body: str, created: str) -> None:
        """Keep ``table``'s rows (keyed by ``key``) within the budget; rows written before it was kept are counted
        now, as used when they were made."""
        self.kept_tables[table] = key
        with self.writing(immediate=True) as db:
            db.execute(f"INSERT INTO kept (tab, key, size, used) SELECT ?, {key}, length(CAST({body} AS BLOB)), "
                       f"{created} FROM {table} WHERE NOT EXISTS (SELECT 1 FROM kept WHERE tab = ? AND "
                       f"kept.key = {table}.{key})", (table, table))
            db.execute("INSERT OR REPLACE INTO kept_bytes (one, bytes) SELECT 1, COALESCE(SUM(size), 0) FROM kept")

    def keep(self, db: sqlite3.Connection, table: str, key: str, size: int, now: float) -> None:
        """Count a record just written (in its transaction ``db``), and forget the least recently used records while
        the kept ones hold more than the budget (never this one)."""
        if db.execute("INSERT OR IGNORE INTO kept (tab, key, size, used) VALUES (?, ?, ?, ?)",
                      (table, key, size, now)).rowcount:
            db.execute("UPDATE kept_bytes SET bytes = bytes + ? WHERE one = 1", (size,))
        else:
            db.execute("UPDATE kept SET used = ? WHERE tab = ? AND key = ?", (now, table, key))
        (total,) = db.execute("SELECT bytes FROM kept_bytes WHERE one = 1").fetchone()
        tables = list(self.kept_tables)  # those this process has opened (another's, such as the lessons, wait)
        while total > self.budget:
            oldest = db.execute(f"SELECT tab, key, size FROM kept WHERE tab IN ({','.join('?' * len(tables))}) "
                                "AND NOT (tab = ? AND key = ?) ORDER BY used LIMIT 64",
                                (*tables, table, key)).fetchall()
            if not oldest:
                break
            for tab, old, old_size in oldest:
                if total <= self.budget:
                    break
                db.execute(f"DELETE FROM {tab} WHERE {self.kept_tables[tab]} = ?", (old,))
                db.execute("DELETE FROM kept WHERE tab = ? AND key = ?", (tab, old))
                total -= old_size
            db.execute("UPDATE kept_bytes SET bytes = ? WHERE one = 1", (total,))
        if total < 0:  # rows deleted behind the count's back: count again
            db.execute("UPDATE kept_bytes SET bytes = (SELECT COALESCE(SUM(size), 0) FROM kept) WHERE one = 1")

    def used(self, table: str, keys: list[str], now: float | None = None) -> None:
        """``keys`` of ``table`` were opened now: written only for those last used over ``REFRESH_SECONDS`` ago, so
        a page opened by a class costs one write per record in ten minutes. A disk that refuses it changes nothing
        the reader sees."""
        now = self.clock() if now is None else now
        if not keys:
            return
        marks = ",".join("?" * len(keys))
        stale = [key for (key,) in self.connection().execute(
            f"SELECT key FROM kept WHERE tab = ? AND key IN ({marks}) AND used < ?",
            (table, *keys, now - REFRESH_SECONDS))]
        if not stale:
            return
        try:
            with self.writing() as db:
                db.executemany("UPDATE kept SET used = ? WHERE tab = ? AND key = ?",
                               [(now, table, key) for key in stale])
        except (StorageFull, sqlite3.Error) as error:
            log.warning("could not mark %d %s as used (%s)", len(stale), table, error)

    def kept_size(self) -> int:
        """Bytes the kept records hold together."""
        row = self.one("SELECT bytes FROM kept_bytes WHERE one = 1", ())
        return row[0] if row else 0

    def connection(self) -> sqlite3.Connection:
        db = getattr(self.local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=30)
            db.row_factory = sqlite3.Row
            db.execute("PRAGMA synchronous=NORMAL")
            self.local.db = db
        return db

    @contextmanager
    def writing(self, immediate: bool = False) -> Iterator[sqlite3.Connection]:
        """A write transaction (``immediate``: take the write lock first, so a count and the insert it allows are
        one step for every process); ``StorageFull`` when the disk is full."""
        with disk_full_as_storage_full():
            db = self.connection()
            with db:
                if immediate:
                    db.execute("BEGIN IMMEDIATE")
                yield db

    def one(self, sql: str, args: tuple) -> sqlite3.Row | None:
        return self.connection().execute(sql, args).fetchone()

    def allow(self, kind: str, key: str, limit: int, window: float, now: float, sweep: bool, amount: int = 1) -> bool:
        """Whether ``key`` may be allowed ``amount`` more of ``kind`` (what it was allowed in the last ``window``
        seconds and this stay within ``limit``), and if so, count it: one write transaction, so two processes asking
        at once count both. ``sweep``: forget the times of this kind that have left the window (every address's)."""
        with self.writing(immediate=True) as db:
            if sweep:
                db.execute("DELETE FROM allowances WHERE kind = ? AND at <= ?", (kind, now - window))
            (count,) = db.execute("SELECT COALESCE(SUM(amount), 0) FROM allowances WHERE kind = ? AND key = ? "
                                  "AND at > ?", (kind, key, now - window)).fetchone()
            if count + amount > limit:
                return False
            db.execute("INSERT INTO allowances (kind, key, at, amount) VALUES (?, ?, ?, ?)", (kind, key, now, amount))
            return True

    # ---- views ----------------------------------------------------------------------------------------------------

    def save_view(self, record: dict, charge: Callable[[int], None] | None = None) -> str:
        """The id of ``record``: a view saved before is only marked used (nothing new is written or charged); a new
        one is first charged its size (``charge(bytes)``, which raises to refuse: ``app.quotas``), then saved."""
        body = canonical(record)
        size = len(body.encode())
        if size > MAX_VIEW_BYTES:
            raise TooLarge(f"this view is too large to save ({size:,} bytes; at most "
                           f"{MAX_VIEW_BYTES:,}): make the graph or the grid smaller")
        key = record_id(body)
        stored = self.one("SELECT body FROM views WHERE id = ?", (key,))
        if stored is None:
            if charge is not None:
                charge(size)
            try:
                with self.writing() as db:
                    now = self.clock()
                    db.execute("INSERT OR IGNORE INTO views (id, body, created) VALUES (?, ?, ?)", (key, body, now))
                    self.keep(db, "views", key, size, now)
            except StorageFull as error:
                raise StorageFull("the server's disk is full, so no view can be saved now; the long link still "
                                  "works (the operator: see the README, \"Storage\")") from error
            stored = self.one("SELECT body FROM views WHERE id = ?", (key,))
        else:
            self.used("views", [key])
        if stored is None or stored["body"] != body:  # 60 bits of a hash alike for two views: never seen, refused
            raise PuzzleError("this view could not be saved; copy the long link instead")
        return key

    def view(self, key: str) -> dict | None:
        row = self.one("SELECT body FROM views WHERE id = ?", (key,))
        if row is None:
            return None
        self.used("views", [key])
        return json.loads(row["body"])


CLASS_COLUMNS = "code, secret, view, version, question, asked, touched, expires"


class ClassRows:
    """The classes' rows (``app.classroom`` decides what they mean: limits, who may drive, what students see)."""

    def __init__(self, records: Records):
        self.records = records
        #: Writes of classes by this process: a version kept in memory (``app.class_polls``) is stale once this moves.
        self.changes = 0

    def start(self, row: dict, allow) -> None:
        """Insert a class after ending the expired ones; ``allow(db, now)`` runs first in the same transaction (it
        counts and may refuse or end classes), so every process sees the limits kept. A code already taken raises
        ``sqlite3.IntegrityError``."""
        with self.records.writing(immediate=True) as db:
            _delete_classes(db, "expires < ?", (row["created"],))
            allow(db, row["created"])
            db.execute(f"INSERT INTO classes ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                       tuple(row.values()))

    def find(self, code: str, now: float) -> sqlite3.Row | None:
        return self.records.one(f"SELECT {CLASS_COLUMNS} FROM classes WHERE code = ? AND expires >= ?", (code, now))

    def update(self, code: str, assignments: str, args: tuple, where: str = "", where_args: tuple = ()) -> int:
        """``UPDATE classes SET <assignments> WHERE code = ? <where>``: the rows changed (0 or 1)."""
        try:
            with self.records.writing() as db:
                return db.execute(f"UPDATE classes SET {assignments} WHERE code = ? {where}",
                                  (*args, code, *where_args)).rowcount
        finally:
            self.changes += 1  # once written: a version read before it is stale

    def ask(self, code: str, question: dict, view: str) -> None:
        """Put ``question`` to the class (numbered after the last one), the class at ``view``."""
        with self.records.writing(immediate=True) as db:
            (asked,) = db.execute("SELECT asked FROM classes WHERE code = ?", (code,)).fetchone() or (0,)
            number = asked + 1
            db.execute("UPDATE classes SET asked = ?, question = ?, view = ?, version = version + 1 WHERE code = ?",
                       (number, json.dumps({"number": number, "question": question, "revealed": False}), view, code))
        self.changes += 1

    def end(self, code: str) -> None:
        with self.records.writing() as db:
            _delete_classes(db, "code = ?", (code,))
        self.changes += 1

    def answer(self, code: str, number: int, student: str, choice: int, name: str | None, most: int) -> bool:
        """Record (or replace) a student's answer; False when the question already has ``most`` others."""
        with self.records.writing(immediate=True) as db:
            known = db.execute("SELECT 1 FROM class_answers WHERE code = ? AND number = ? AND student = ?",
                               (code, number, student)).fetchone()
            if known is None and db.execute("SELECT COUNT(*) FROM class_answers WHERE code = ? AND number = ?",
                                            (code, number)).fetchone()[0] >= most:
                return False
            db.execute("INSERT INTO class_answers (code, number, student, choice, name) VALUES (?, ?, ?, ?, ?) "
                       "ON CONFLICT (code, number, student) DO UPDATE SET choice = excluded.choice, "
                       "name = COALESCE(excluded.name, name)", (code, number, student, choice, name))
            return True

    def answers(self, code: str, number: int) -> list[sqlite3.Row]:
        return self.records.connection().execute(
            "SELECT choice, name FROM class_answers WHERE code = ? AND number = ?", (code, number)).fetchall()

    def seen(self, polls: list[tuple[str, str, float, int]], forget_before: float) -> None:
        """Students' latest polls (code, student, when, following), and forget polls older than ``forget_before``."""
        with self.records.writing() as db:
            # each web process writes its own batch: a student's latest poll wins, whichever process saw it
            db.executemany("INSERT INTO class_students (code, student, seen, following) VALUES (?, ?, ?, ?) "
                           "ON CONFLICT (code, student) DO UPDATE SET seen = excluded.seen, "
                           "following = excluded.following WHERE excluded.seen >= seen", polls)
            db.execute("DELETE FROM class_students WHERE seen < ?", (forget_before,))

    def followers(self, code: str, since: float) -> tuple[int, int]:
        """(students who polled since ``since``, of whom following)."""
        row = self.records.one("SELECT COUNT(*), SUM(following) FROM class_students WHERE code = ? AND seen >= ?",
                               (code, since))
        count, following = row if row is not None else (0, 0)  # an aggregate answers one row, even of no students
        return count, following or 0


def _delete_classes(db: sqlite3.Connection, where: str, args: tuple) -> None:
    codes = [row[0] for row in db.execute(f"SELECT code FROM classes WHERE {where}", args)]
    for table in ("class_answers", "class_students", "classes"):
        db.executemany(f"DELETE FROM {table} WHERE code = ?", [(code,) for code in codes])


#: re-entrant: making one extension may ask for another (the classes are made on the records)
_opening = threading.RLock()


def app_extension(name: str, make):
    """The app's one ``name`` object, made by the first request that needs it: two threads asking at once get the
    same one."""
    found = current_app.extensions.get(name)
    if found is None:
        with _opening:
            found = current_app.extensions.get(name)
            if found is None:
                found = current_app.extensions[name] = make()
    return found


def records() -> Records:
    """The app's records, on its job database (``DATABASE``), opened by the first request that needs them, kept
    within ``RECORDS_BUDGET`` bytes."""
    return app_extension("records", lambda: Records(current_app.config["DATABASE"],
                                                    current_app.config.get("RECORDS_BUDGET", RECORDS_BUDGET)))


class Allowance:
    """How often each network address may do one thing (``kind``): at most ``limit`` times in any ``window`` seconds.
    Counted in the app's records (``Records.allow``: a row per time allowed, none per refusal, the rows past the
    window swept once a window), so two web processes on one database allow the amount once between them, and a
    restart forgets nothing. A database that refuses the write (a full or read-only disk) leaves this process's own
    count to decide, so the request is still answered."""

    KEYS = 10_000  # addresses this process's own count keeps at most

    def __init__(self, kind: str, window: float):
        self.kind, self.window = kind, window
        self.clock = time.time  # wall-clock: compared across processes (a test may set its own)
        self._lock = threading.Lock()
        self._swept = self._warned = -float("inf")
        self._here: dict[str, list[tuple[float, int]]] = {}  # key → (when, amount)

    def take(self, key: str, limit: int, amount: int = 1) -> bool:
        """Whether ``key`` may do it once more now (``amount``: counted as so many times, such as a record's bytes),
        and count it."""
        now = self.clock()
        with self._lock:
            sweep = now - self._swept >= self.window
            if sweep:
                self._swept = now
        try:
            return records().allow(self.kind, key, limit, self.window, now, sweep, amount)
        except (StorageFull, sqlite3.Error) as error:
            if now - self._warned >= self.window:  # once a window, not once a request
                self._warned = now
                log.warning("counting %s in this process alone: the records refused the write (%s)", self.kind,
                            error)
            return self._take_here(key, limit, now, amount)

    def _take_here(self, key: str, limit: int, now: float, amount: int = 1) -> bool:
        with self._lock:
            times = [(at, n) for at, n in self._here.get(key, ()) if at > now - self.window]
            allowed = sum(n for _, n in times) + amount <= limit
            self._here[key] = times + [(now, amount)] if allowed else times
            if len(self._here) > self.KEYS:  # forget the addresses whose times have all left the window
                for stale in [k for k, ts in self._here.items() if not ts or ts[-1][0] <= now - self.window]:
                    del self._here[stale]
                for stalest in sorted(self._here, key=lambda k: self._here[k][-1][0])[:len(self._here) - self.KEYS]:
                    del self._here[stalest]
            return allowed
