"""Background jobs: the registry of job kinds and the SQLite rows that record them.

A job has an id, a kind, parameters, an owner (the browser that asked for it), a lane, a status
(``engine.core.status.Status``), progress (a fraction, or None when unknown, plus an info dict such as nodes and a line
of text), a result, the address of the worker that ran it and timestamps. Where the work runs is
``engine.serving.cluster``'s business (Dask worker processes); this module only knows what a kind is and what a row
holds.

A kind is registered by its subject with ``@job_kind``: ``run(params, report, cancel) -> dict`` does the work (``report
(fraction, info)`` records progress; ``cancel`` is a ``threading.Event`` the function polls between chunks), and
``check(params) -> params`` validates and normalises the parameters when the job is submitted, so bad input is a 400
then and never a failed job later. ``lane`` says which workers may run it: ``interactive`` (solves a person is
waiting for; never queued behind long work) or ``long`` (research, experiments, training, counts).
"""

from __future__ import annotations

import errno
import functools
import json
import logging
import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass

from engine.core import registry
from engine.core.errors import PuzzleError
from engine.core.status import FINISHED, Status

JobFunction = Callable[[dict, Callable[[float | None, dict], None], threading.Event], dict]
CheckFunction = Callable[[dict], dict]

INTERACTIVE, LONG = "interactive", "long"
LANES = (INTERACTIVE, LONG)

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Placement:
    """The lane a job starts on and, for work known to be long before it starts, why (shown while it waits)."""

    lane: str
    note: str = ""


@dataclass(frozen=True)
class JobView:
    """How a job's panel speaks of it: its name for people and what its progress count counts."""

    title: str
    unit: str | None = "nodes"  # what ``info[count]`` counts; None: the kind reports no count worth a rate
    count: str = "nodes"  # the progress info key holding the count
    steady: bool = False  # each part of its fraction costs about the same, so elapsed / fraction predicts the end
    form: str = ""  # the data-job-kind of the page form that starts it, when that is not the kind's name
    #: the job's parameters under that form's field names (a page reloaded while it runs fills the form in with them);
    #: None: the fields are named as the parameters
    form_values: Callable[[dict], dict] | None = None
    #: a cancelled job's result (what it did before the cancel) is drawn by its kind's template too
    partial: bool = False


#: The longest any job runs, whatever its parameters say (``PUZZLE_MAX_JOB_SECONDS``; a kind may set its own in
#: ``job_kind``): a job's own budgets are per search, per trial or per table, so their product could hold a long-lane
#: worker for days. Two hours is far past every job a page offers at its sizes; the full-size measurements run from
#: the command line, whose budgets are the operator's.
MAX_JOB_SECONDS = float(os.environ.get("PUZZLE_MAX_JOB_SECONDS") or 2 * 3600)
#: Set to 1 by an operator whose server may run the full-size experiments as jobs (``full_size_jobs``).
FULL_SIZE_VARIABLE = "PUZZLE_FULL_SIZE_JOBS"


def full_size_jobs() -> bool:
    """Whether jobs may take the full-size parameters of the paper's experiments (hours of a long-lane worker each).
    Off by default: one click, or an empty POST from anyone, would hold a long-lane worker for hours, so the full
    size is the operator's (the command line, or this server's ``PUZZLE_FULL_SIZE_JOBS=1``)."""
    return os.environ.get(FULL_SIZE_VARIABLE, "0") not in ("", "0")


def operator_size(what: str, command: str) -> PuzzleError:
    """The refusal of parameters past a page's size: what is capped and how the operator runs the full size."""
    return PuzzleError(f"{what} on this server; the full size runs from the command line ({command}), or as a job "
                       f"once the operator sets {FULL_SIZE_VARIABLE}=1")


def within(function: JobFunction, seconds: float) -> JobFunction:
    """``function`` stopped (through its cancel) once it has run ``seconds``, and then failed with a sentence: no job
    holds a worker longer, whatever its parameters. It keeps the function's name, module and docstring: where a kind
    was registered is read from them."""
    @functools.wraps(function)
    def bounded(params: dict, report, cancel: threading.Event) -> dict:
        expired = threading.Event()

        def expire() -> None:
            expired.set()
            cancel.set()

        timer = threading.Timer(seconds, expire)
        timer.daemon = True
        timer.start()
        try:
            result = function(params, report, cancel)
        finally:
            timer.cancel()
        if expired.is_set():
            raise PuzzleError(f"this job ran for {seconds / 60:,.0f} minutes, the longest a job may run here, and was "
                              "stopped; ask for less (fewer positions, trials or walks)")
        return result

    bounded.ceiling = seconds  # type: ignore[attr-defined]
    return bounded


@dataclass(frozen=True)
class JobKind:
    name: str
    run: JobFunction
    check: CheckFunction
    lane: str | Callable[[dict], str | Placement]
    doc: str
    view: JobView | Callable[[dict], JobView]  # a function when the words depend on the parameters
    max_bytes: int | None = None  # its parameters' canonical JSON at most (None: ``MAX_PARAMS_BYTES``)
    max_seconds: float = MAX_JOB_SECONDS  # the longest one of its jobs runs (``run`` stops it then: ``within``)
    #: stopped by its cancel, it returns a partial result whose ``"resume"`` holds the parameters that go on from
    #: there: the runner may then ask it to yield its long-lane slot to another client's job and run it again later
    resumable: bool = False
    #: a resumable kind's answer when it is cancelled between two attempts (waiting for its next turn), from the
    #: parameters that attempt would have run with: what the earlier attempts found (a batch's solved positions), or
    #: None when they found nothing to show; without it such a job ends with no answer
    partial: Callable[[dict], dict | None] | None = None

    def view_for(self, params: dict) -> JobView:
        return self.view(params) if callable(self.view) else self.view

    def place(self, params: dict) -> Placement:
        chosen = self.lane(params) if callable(self.lane) else self.lane
        return chosen if isinstance(chosen, Placement) else Placement(chosen)

    def lane_for(self, params: dict) -> str:
        return self.place(params).lane

    @property
    def lane_label(self) -> str:
        return "by budget" if callable(self.lane) else self.lane


KINDS: registry.Registry[JobKind] = registry.Registry("job kind")


def _no_check(params: dict) -> dict:
    return params


def job_kind(name: str, *, check: CheckFunction | None = None, lane: str | Callable[[dict], str | Placement] = LONG,
             view: JobView | Callable[[dict], JobView] | None = None,
             max_bytes: int | None = None, max_seconds: float | None = None,
             resumable: bool = False, partial: Callable[[dict], dict | None] | None = None,
             ) -> Callable[[JobFunction], JobFunction]:
    """Decorator: register ``function`` as the runner of jobs of kind ``name``; ``view``: how its panel speaks of it
    (default: the name, counting nodes); ``max_bytes``: its parameters at most, for a kind that takes a problem's
    data (default ``MAX_PARAMS_BYTES``); ``max_seconds``: the longest one of its jobs runs (default
    ``MAX_JOB_SECONDS``: ``within``); ``resumable`` and ``partial``: see ``JobKind``."""
    if not callable(lane) and lane not in LANES:
        raise ValueError(f"lane must be one of {LANES}")

    def register(function: JobFunction) -> JobFunction:
        doc = (function.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")
        shown = view or JobView(name.replace("-", " ").capitalize())
        ceiling = MAX_JOB_SECONDS if max_seconds is None else max_seconds
        KINDS.add(JobKind(name, within(function, ceiling), check or _no_check, lane, doc, shown, max_bytes, ceiling,
                          resumable, partial))
        return function
    return register


def kept_between_attempts(kind: str, run_params: dict) -> dict | None:
    """What a job of ``kind`` cancelled while it waits for its next attempt keeps of the earlier ones (its kind's
    ``partial`` of the parameters that attempt would have run with), if anything. A cancel is never refused for it:
    a partial that fails keeps nothing, and is logged."""
    found = KINDS.all().get(kind)
    if found is None or found.partial is None:
        return None
    try:
        return found.partial(run_params)
    except Exception:
        log.exception("the partial answer of a cancelled %s job failed", kind)
        return None


def job_kinds() -> dict[str, JobKind]:
    """Every registered kind (every subject's: this loads them)."""
    return KINDS.all()


def checked(kind: str, params: object) -> tuple[JobKind, dict]:
    """The kind and its validated parameters, or a PuzzleError that says what is wrong."""
    job = KINDS.named(kind)
    if not isinstance(params, dict):
        raise PuzzleError('"params" must be an object')
    clean = job.check(dict(params))
    try:
        text = json.dumps(clean, allow_nan=False)
    except (TypeError, ValueError):
        raise PuzzleError(f"the parameters of a {kind} job must be plain JSON values") from None
    limit = job.max_bytes or MAX_PARAMS_BYTES
    if len(text) > limit:
        raise PuzzleError(f"the parameters of a {kind} job are too large ({len(text):,} bytes; at most {limit:,})")
    return job, clean


#: Largest parameters a job may store (their canonical JSON): every kind's fit in a few hundred bytes, but those
#: that carry a problem's data (``MAX_PROBLEM_BYTES``).
MAX_PARAMS_BYTES = 8 * 1024
#: Largest parameters of a kind that carries a problem (a graph, a grid) and the largest request body that sends one:
#: the README promises graphs of 500 nodes and 5,000 edges, which with 40-character names take about 650 KB of JSON.
MAX_PROBLEM_BYTES = 1024 * 1024


class StorageFull(Exception):
    """The job database could not be written because its disk is full: the app answers 507, and the runner keeps
    what it could not write in memory until space returns."""


class InsufficientStorage(StorageFull):
    """A job would need more space than the disk has free: refused when submitted (507)."""


def is_disk_full(error: BaseException) -> bool:
    if isinstance(error, sqlite3.OperationalError):
        return "full" in str(error).lower()
    return isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT)


#: Free bytes below which a disk counts as full when SQLite cannot say so (it answers "disk I/O error").
LOW_SPACE = 1024 * 1024


def _free_bytes(path: str) -> int:
    try:
        return shutil.disk_usage(os.path.dirname(os.path.abspath(path))).free
    except OSError:
        return 0


@contextmanager
def disk_full_as_storage_full():
    """Turn a write refused for want of space into ``StorageFull`` (with a message for people)."""
    try:
        yield
    except (sqlite3.OperationalError, OSError) as error:
        if is_disk_full(error):
            raise StorageFull("the server's disk is full, so no new job can be recorded; it goes on by itself once "
                              "space is freed (the operator: see the README, \"Storage\")") from error
        raise


@dataclass(frozen=True)
class Retention:
    """Which finished job rows are deleted: those finished more than ``days`` ago, and the oldest beyond ``rows``.
    Kept whatever their age: the newest done row of each long-lane kind and parameters (the research, experiment
    and learned pages show those results). ``PUZZLE_JOB_DAYS`` (7) and ``PUZZLE_JOB_ROWS`` (100,000)."""

    days: float = 7.0
    rows: int = 100_000

    @classmethod
    def from_environment(cls) -> Retention:
        days, rows = os.environ.get("PUZZLE_JOB_DAYS", "").strip(), os.environ.get("PUZZLE_JOB_ROWS", "").strip()
        return cls(float(days) if days.replace(".", "", 1).isdigit() else cls.days,
                   int(rows) if rows.isdigit() else cls.rows)


SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, params TEXT NOT NULL, status TEXT NOT NULL,
    fraction REAL, info TEXT NOT NULL DEFAULT '{}', result TEXT, error TEXT,
    created REAL NOT NULL, started REAL, finished REAL
)
"""
#: The runners (one per web process) working on the database, each until its lease lapses.
RUNNERS = "CREATE TABLE IF NOT EXISTS runners (id TEXT PRIMARY KEY, lease REAL NOT NULL)"
#: Columns added after the first schema; an older database gets them on open.
ADDED_COLUMNS = {"owner": "TEXT NOT NULL DEFAULT ''", "lane": "TEXT NOT NULL DEFAULT 'long'", "worker": "TEXT",
                 "address": "TEXT NOT NULL DEFAULT ''", "anonymous": "INTEGER NOT NULL DEFAULT 0",
                 # who takes turns and counts against the per-browser limit (``engine.serving.admission``)
                 "client": "TEXT NOT NULL DEFAULT ''",
                 # the runner (one per web process) that holds the row, and when its hold lapses unless renewed
                 "runner": "TEXT", "lease": "REAL",
                 # handed to Dask (a row still queued until the worker says it started may be dispatched already)
                 "dispatched": "REAL", "waiting_since": "REAL", "turn": "INTEGER",
                 "attempt": "INTEGER NOT NULL DEFAULT 0", "restarts": "INTEGER NOT NULL DEFAULT 0",
                 "cancel": "INTEGER NOT NULL DEFAULT 0", "run_params": "TEXT", "note": "TEXT NOT NULL DEFAULT ''"}
#: Columns that say how a job is run, not what it is: no page or answer shows them (``app.solve_api.public``).
INTERNAL_COLUMNS = ("client", "runner", "lease", "dispatched", "waiting_since", "turn", "attempt", "restarts",
                    "cancel", "run_params", "note")
#: The statuses of a job not yet ended.
ACTIVE = (Status.QUEUED.value, Status.RUNNING.value)


class JobStore:
    """The job rows in SQLite (WAL, so page reads never wait for the writer)."""

    def __init__(self, path: str):
        self.path = path
        try:
            with disk_full_as_storage_full(), self._connect() as db:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute(SCHEMA)
                present = {row["name"] for row in db.execute("PRAGMA table_info(jobs)")}
                for column, spec in ADDED_COLUMNS.items():
                    if column not in present:
                        db.execute(f"ALTER TABLE jobs ADD COLUMN {column} {spec}")
                db.execute("CREATE INDEX IF NOT EXISTS jobs_owner ON jobs (owner, status)")
                db.execute("CREATE INDEX IF NOT EXISTS jobs_kind ON jobs (kind, status, created)")
                db.execute("CREATE INDEX IF NOT EXISTS jobs_status ON jobs (status, lane)")
                db.execute("CREATE INDEX IF NOT EXISTS jobs_address_turn ON jobs (address, turn)")
                db.execute("CREATE INDEX IF NOT EXISTS jobs_client_turn ON jobs (client, turn)")
                db.execute("CREATE INDEX IF NOT EXISTS jobs_turn ON jobs (turn)")
                db.execute(RUNNERS)
        except StorageFull as error:
            raise StorageFull("the disk of the job database is full, so it cannot be opened: free some space and "
                              "start again (the operator: see the README, \"Storage\")") from error
        except (sqlite3.Error, OSError) as error:
            # An existing database on a full disk cannot make its write-ahead log: SQLite says "disk I/O error".
            full = _free_bytes(path) < LOW_SPACE
            raise StorageFull(f"the job database cannot be opened ({error})"
                              + ("; its disk is full: free some space and start again" if full else "")) from error

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=30)
        db.row_factory = sqlite3.Row
        # WAL with NORMAL sync: no fsync per commit (a power cut may lose the last rows, never corrupt the file)
        db.execute("PRAGMA synchronous=NORMAL")
        return db

    def _write(self, sql: str, args: tuple) -> int:
        """Run one writing statement; its row count. ``StorageFull`` when the disk is full."""
        with disk_full_as_storage_full():
            db = self._connect()
            try:
                with db:
                    return db.execute(sql, args).rowcount
            finally:
                db.close()

    @contextmanager
    def transaction(self):
        """One write transaction that holds SQLite's write lock from its start (``BEGIN IMMEDIATE``): what it reads
        no other process changes before it commits, so a count and the insert it allows are one step."""
        with disk_full_as_storage_full():
            db = self._connect()
            try:
                db.execute("BEGIN IMMEDIATE")
                try:
                    yield db
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
                db.execute("COMMIT")
            finally:
                db.close()

    def create(self, job_id: str, kind: str, params: dict, owner: str, lane: str, address: str = "",
               anonymous: bool = False, info: dict | None = None, *, client: str = "", note: str = "",
               runner: str | None = None, lease: float | None = None, db: sqlite3.Connection | None = None) -> None:
        """A queued row; ``address``: the client's network address, ``anonymous``: its request carried no cookie;
        ``runner`` and ``lease``: who holds it until it is dispatched; ``db``: a transaction to write it in."""
        now = time.time()
        args = (job_id, kind, canonical(params), Status.QUEUED.value, now, owner, lane, address, int(anonymous),
                json.dumps(info or {}), client or owner, note, runner, lease, now)
        sql = ("INSERT INTO jobs (id, kind, params, status, created, owner, lane, address, anonymous, info, client, "
               "note, runner, lease, waiting_since) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        if db is not None:
            db.execute(sql, args)
        else:
            self._write(sql, args)

    def started(self, job_id: str, worker: str, when: float) -> None:
        """Running on ``worker``; ``started`` keeps the first start (a job handed over to another lane starts again).
        The start and the end travel apart and are written by a pool of threads, so a start may come after the end:
        it then fills in the start and the worker the end did not know, and leaves the status alone."""
        # a queued row has no worker (``hand_over`` clears it), so COALESCE sets the worker of every start
        self._write("UPDATE jobs SET status = CASE WHEN status = ? THEN ? ELSE status END, "
                    "started = COALESCE(started, ?), worker = COALESCE(worker, ?) "
                    "WHERE id = ? AND (status = ? OR started IS NULL)",
                    (Status.QUEUED.value, Status.RUNNING.value, when, worker, job_id, Status.QUEUED.value))

    def hand_over(self, job_id: str, lane: str, info: dict) -> None:
        """Queued again, waiting for a turn on ``lane`` (its slice on the interactive lane ended, it yielded its turn
        on the long lane, or its worker was replaced): any runner may dispatch it from here."""
        self._write("UPDATE jobs SET status = ?, lane = ?, info = ?, worker = NULL, dispatched = NULL, "
                    "waiting_since = ? WHERE id = ? AND status IN (?, ?)",
                    (Status.QUEUED.value, lane, json.dumps(info), time.time(), job_id, *ACTIVE))

    def go_on_with(self, job_id: str, run_params: dict, note: str, restarts: int) -> None:
        """What the job's next attempt runs with (the rest of its budget, where it stopped) and says while it waits;
        written before ``hand_over`` makes the row one any runner may dispatch."""
        self._write("UPDATE jobs SET run_params = ?, note = ?, restarts = ? WHERE id = ? AND status IN (?, ?)",
                    (canonical(run_params), note, restarts, job_id, *ACTIVE))

    def ask_cancel(self, job_id: str) -> bool:
        """Mark a job's cancel asked, for whichever runner holds it; whether it was still unfinished."""
        return self._write("UPDATE jobs SET cancel = 1 WHERE id = ? AND status IN (?, ?)", (job_id, *ACTIVE)) == 1

    def cancel_waiting(self, job_id: str, result: dict | None = None) -> bool:
        """End a job that waits in the queue (no task runs it) as cancelled, with ``result`` if an earlier attempt
        left one (``JobKind.partial``); whether it was waiting."""
        return self._write("UPDATE jobs SET status = ?, result = ?, error = ?, finished = ?, cancel = 1 "
                           "WHERE id = ? AND status = ? AND dispatched IS NULL",
                           (Status.CANCELLED.value, json.dumps(result) if result is not None else None,
                            None if result is not None else "cancelled", time.time(), job_id,
                            Status.QUEUED.value)) == 1

    def renew(self, runner: str, lease: float) -> None:
        """Renew the lease of ``runner``, and its hold on every unfinished row it holds, until ``lease``."""
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO runners (id, lease) VALUES (?, ?)", (runner, lease))
            db.execute("DELETE FROM runners WHERE lease < ?", (time.time() - 86400,))  # processes long gone
            db.execute("UPDATE jobs SET lease = ? WHERE runner = ? AND status IN (?, ?)", (lease, runner, *ACTIVE))

    def others_alive(self, runner: str) -> bool:
        """Whether a runner other than ``runner`` works on the database (its lease has not lapsed)."""
        with self._connect() as db:
            return db.execute("SELECT 1 FROM runners WHERE id != ? AND lease >= ? LIMIT 1",
                              (runner, time.time())).fetchone() is not None

    def release(self, runner: str) -> None:
        """Let every row ``runner`` holds lapse now: the next runner that looks adopts them (a web process that stops
        while the cluster and another web process run on)."""
        with self.transaction() as db:
            db.execute("DELETE FROM runners WHERE id = ?", (runner,))
            db.execute("UPDATE jobs SET lease = 0 WHERE runner = ? AND status IN (?, ?)", (runner, *ACTIVE))

    def interrupt_runner(self, runner: str) -> None:
        """Mark the unfinished rows ``runner`` holds interrupted (nobody goes on following them)."""
        with self.transaction() as db:
            db.execute("DELETE FROM runners WHERE id = ?", (runner,))
            db.execute("UPDATE jobs SET status = ?, finished = ? WHERE runner = ? AND status IN (?, ?)",
                       (Status.INTERRUPTED.value, time.time(), runner, *ACTIVE))

    def take_lapsed(self, runner: str, lease: float) -> list[dict]:
        """Hold every unfinished row whose runner's hold has lapsed (or that no runner holds); those rows, as they
        were. A row waiting in the queue just changes hands; one that was dispatched is its new holder's to adopt
        (its task may still run) or end."""
        now = time.time()
        lapsed = ("SELECT * FROM jobs WHERE status IN (?, ?) AND (runner IS NULL OR runner != ?) "
                  "AND (lease IS NULL OR lease < ?)")
        with self._connect() as db:  # most looks find none: a read, not the write lock
            if db.execute(lapsed + " LIMIT 1", (*ACTIVE, runner, now)).fetchone() is None:
                return []
        with self.transaction() as db:
            rows = [_job(row) for row in db.execute(lapsed, (*ACTIVE, runner, now))]
            for row in rows:
                db.execute("UPDATE jobs SET runner = ?, lease = ? WHERE id = ?", (runner, lease, row["id"]))
        return rows

    def cancels_asked(self, runner: str) -> list[str]:
        """The unfinished rows ``runner`` holds whose cancel was asked (by any web process)."""
        with self._connect() as db:
            return [row[0] for row in db.execute("SELECT id FROM jobs WHERE runner = ? AND cancel = 1 "
                                                 "AND status IN (?, ?)", (runner, *ACTIVE))]

    def waiting_clients(self, lane: str, stalled: float = 1.0) -> set[str]:
        """The clients with a job waiting for a turn on ``lane``: in the queue, or handed to Dask ``stalled`` seconds
        ago and not started (its worker's threads busy with another job's spread tasks, which no lane counts)."""
        with self._connect() as db:
            return {row[0] for row in db.execute(
                "SELECT DISTINCT client FROM jobs WHERE status = ? AND lane = ? AND (dispatched IS NULL OR "
                "dispatched < ?)", (Status.QUEUED.value, lane, time.time() - stalled))}

    def held(self, lane: str | None = None) -> list[dict]:
        """The unfinished rows handed to Dask (running, or dispatched and not yet started), of ``lane`` or every."""
        where = "status IN (?, ?) AND (dispatched IS NOT NULL OR status = ?)"
        args: tuple = (*ACTIVE, Status.RUNNING.value)
        if lane is not None:
            where, args = where + " AND lane = ?", (*args, lane)
        return self.select(where, args, limit=10_000)

    def waiting(self, lane: str | None = None) -> list[dict]:
        """The rows waiting in the queue for a turn, oldest first."""
        args: tuple[str, ...]
        where, args = "status = ? AND dispatched IS NULL", (Status.QUEUED.value,)
        if lane is not None:
            where, args = where + " AND lane = ?", (*args, lane)
        return sorted(self.select(where, args, limit=10_000), key=lambda row: (row["waiting_since"] or 0, row["id"]))

    def progress(self, job_id: str, fraction: float | None, info: dict) -> None:
        self._write("UPDATE jobs SET fraction = ?, info = ? WHERE id = ? AND status IN (?, ?)",
                    (fraction, json.dumps(info), job_id, Status.QUEUED.value, Status.RUNNING.value))

    def finish(self, job_id: str, status: Status, result: dict | None = None, error: str | None = None,
               info: dict | None = None, started: tuple[str | None, float] | None = None) -> bool:
        """Record the end of a job once; False if it had already ended (the first ending wins). ``started``: the
        worker and time the runner saw it start, written if the start's own write has not come first."""
        worker, when = started or (None, None)
        return self._write(
            "UPDATE jobs SET status = ?, result = ?, error = ?, finished = ?, "
            "fraction = CASE WHEN ? THEN 1.0 ELSE fraction END, info = COALESCE(?, info), "
            "started = COALESCE(started, ?), worker = COALESCE(worker, ?) "
            "WHERE id = ? AND status IN (?, ?)",
            (status.value, json.dumps(result) if result is not None else None, error, time.time(),
             status == Status.DONE, json.dumps(info) if info is not None else None, when, worker, job_id,
             Status.QUEUED.value, Status.RUNNING.value)) == 1

    def interrupt_unfinished(self) -> int:
        """Mark every job left queued or running by a server that stopped; returns how many."""
        return self.interrupt_unfinished_except(())

    def interrupt_unfinished_except(self, following: list[str] | tuple[str, ...]) -> int:
        """The same, sparing the jobs a running server follows (``following``: their ids)."""
        spared = f" AND id NOT IN ({', '.join('?' * len(following))})" if following else ""
        return self._write(f"UPDATE jobs SET status = ?, finished = ? WHERE status IN (?, ?){spared}",
                           (Status.INTERRUPTED.value, time.time(), Status.QUEUED.value, Status.RUNNING.value,
                            *following))

    def prune(self, retention: Retention, kept_kinds: tuple[str, ...]) -> int:
        """Delete the finished rows ``retention`` no longer keeps; returns how many. ``kept_kinds``: the kinds whose
        newest done row per parameters stays whatever its age."""
        finished = tuple(status.value for status in FINISHED)
        marks = ", ".join("?" * len(kept_kinds)) or "NULL"
        kept = (f"SELECT id FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY kind, params ORDER BY created DESC) AS n "
                f"FROM jobs WHERE status = ? AND kind IN ({marks})) WHERE n = 1")
        base = (f"status IN ({', '.join('?' * len(finished))}) AND id NOT IN ({kept})",
                (*finished, Status.DONE.value, *kept_kinds))
        old = self._write(f"DELETE FROM jobs WHERE {base[0]} AND finished < ?",
                          (*base[1], time.time() - retention.days * 86400))
        beyond = self._write(f"DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE {base[0]} "
                             "ORDER BY created DESC LIMIT -1 OFFSET ?)", (*base[1], retention.rows))
        return old + beyond

    def get(self, job_id: str) -> dict | None:
        with self._connect() as db:
            row = db.execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return None if row is None else _job(row)

    def select(self, where: str, args: tuple, limit: int = 200) -> list[dict]:
        with self._connect() as db:
            rows = db.execute(f"SELECT * FROM jobs WHERE {where} ORDER BY created DESC LIMIT ?", (*args, limit))
            return [_job(row) for row in rows]

    def active(self, owner: str | None = None, kind: str | None = None, params: dict | None = None) -> list[dict]:
        """Queued and running jobs, optionally of one owner, kind and exact parameters."""
        where, args = "status IN (?, ?)", [Status.QUEUED.value, Status.RUNNING.value]
        for column, value in (("owner", owner), ("kind", kind),
                              ("params", canonical(params) if params is not None else None)):
            if value is not None:
                where += f" AND {column} = ?"
                args.append(value)
        return self.select(where, tuple(args), limit=1000)

    def count_queued(self) -> int:
        with self._connect() as db:
            return db.execute("SELECT COUNT(*) FROM jobs WHERE status = ?", (Status.QUEUED.value,)).fetchone()[0]

    def latest(self, kind: str, where: Callable[[dict], bool] | None = None) -> dict | None:
        """The newest finished-and-done job of ``kind`` whose params pass ``where`` (stored results reused)."""
        for job in self.select("kind = ? AND status = ?", (kind, Status.DONE.value)):
            if where is None or where(job["params"]):
                return job
        return None

    def newest_by(self, kind: str, key: Callable[[dict], object]) -> list[dict]:
        """The newest done job of ``kind`` for each distinct ``key(params)``, newest first."""
        seen, jobs = set(), []
        for job in self.select("kind = ? AND status = ?", (kind, Status.DONE.value), limit=500):
            if key(job["params"]) not in seen:
                seen.add(key(job["params"]))
                jobs.append(job)
        return jobs


def canonical(params: dict) -> str:
    """The parameters as one JSON text, keys sorted, so equal parameters compare equal in SQL."""
    return json.dumps(params, sort_keys=True, separators=(",", ":"))


def _job(row: sqlite3.Row) -> dict:
    job = {key: row[key] for key in row.keys()}
    job["params"] = json.loads(job["params"])
    job["info"] = json.loads(job["info"] or "{}")
    job["result"] = json.loads(job["result"]) if job["result"] else None
    if "run_params" in job:
        job["run_params"] = json.loads(job["run_params"]) if job["run_params"] else job["params"]
    end = job["finished"] or time.time()
    job["elapsed"] = end - job["started"] if job["started"] else 0.0
    job["waited"] = (job["started"] or end) - job["created"]
    return job
