"""Background jobs: run, report progress, cancel, persist (DESIGN.md, "Jobs").

A job has an id, a kind, parameters, a status (queued, running, done, failed, cancelled, interrupted), progress
(a fraction, or None when unknown, plus an info dict such as nodes and a line of text), a result and timestamps.
Rows live in SQLite; live progress is kept in memory and written through at most twice a second. A job that was
queued or running when the process stopped is marked ``interrupted`` at the next start, never shown as running.

Job functions are registered by kind: ``fn(params, report, cancel) -> dict``. ``report(fraction, info)`` records
progress; ``cancel`` is a threading.Event the function must poll (every engine search does, between chunks).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

from engine.errors import PuzzleError

JobFunction = Callable[[dict, Callable[[float | None, dict], None], threading.Event], dict]
_KINDS: dict[str, JobFunction] = {}
FINISHED = ("done", "failed", "cancelled", "interrupted")


def job_kind(name: str) -> Callable[[JobFunction], JobFunction]:
    """Decorator: register a function as the runner of jobs of kind ``name``."""
    def register(function: JobFunction) -> JobFunction:
        _KINDS[name] = function
        return function
    return register


def known_kinds() -> tuple[str, ...]:
    return tuple(_KINDS)


SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, params TEXT NOT NULL, status TEXT NOT NULL,
    fraction REAL, info TEXT NOT NULL DEFAULT '{}', result TEXT, error TEXT,
    created REAL NOT NULL, started REAL, finished REAL
)
"""


class JobRunner:
    def __init__(self, db_path: str, workers: int | None = None):
        self.db_path = db_path
        self._lock = threading.Lock()
        self._live: dict[str, dict] = {}
        self._cancel: dict[str, threading.Event] = {}
        self._pool = ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 2, thread_name_prefix="job")
        with self._connect() as db:
            db.execute(SCHEMA)
            db.execute("UPDATE jobs SET status = 'interrupted', finished = ? WHERE status IN ('queued', 'running')",
                       (time.time(),))

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.db_path, timeout=30)
        db.row_factory = sqlite3.Row
        return db

    def submit(self, kind: str, params: dict) -> str:
        if kind not in _KINDS:
            raise PuzzleError(f"unknown job kind {kind!r}")
        job_id = uuid.uuid4().hex[:12]
        with self._connect() as db:
            db.execute("INSERT INTO jobs (id, kind, params, status, created) VALUES (?, ?, ?, 'queued', ?)",
                       (job_id, kind, json.dumps(params), time.time()))
        cancel = threading.Event()
        with self._lock:
            self._cancel[job_id] = cancel
            self._live[job_id] = {"fraction": 0.0, "info": {}, "written": 0.0}
        self._pool.submit(self._run, job_id, kind, params, cancel)
        return job_id

    def _run(self, job_id: str, kind: str, params: dict, cancel: threading.Event) -> None:
        if cancel.is_set():
            self._finish(job_id, "cancelled", None, None)
            return
        with self._connect() as db:
            db.execute("UPDATE jobs SET status = 'running', started = ? WHERE id = ?", (time.time(), job_id))

        def report(fraction: float | None, info: dict) -> None:
            now = time.time()
            with self._lock:
                live = self._live[job_id]
                live["fraction"], live["info"] = fraction, info
                due = now - live["written"] >= 0.5
                if due:
                    live["written"] = now
            if due:
                with self._connect() as db:
                    db.execute("UPDATE jobs SET fraction = ?, info = ? WHERE id = ?",
                               (fraction, json.dumps(info), job_id))

        try:
            result = _KINDS[kind](params, report, cancel)
        except PuzzleError as exc:
            self._finish(job_id, "cancelled" if cancel.is_set() else "failed", None, str(exc))
        except Exception as exc:  # a bug in a job must not take the worker down; it is shown as failed
            self._finish(job_id, "failed", None, f"internal error: {type(exc).__name__}: {exc}")
        else:
            status = "cancelled" if cancel.is_set() or result.get("status") == "cancelled" else "done"
            self._finish(job_id, status, result, None)

    def _finish(self, job_id: str, status: str, result: dict | None, error: str | None) -> None:
        with self._lock:
            live = self._live.pop(job_id, {})
            self._cancel.pop(job_id, None)
        with self._connect() as db:
            db.execute("UPDATE jobs SET status = ?, result = ?, error = ?, finished = ?, fraction = ?, info = ? "
                       "WHERE id = ?", (status, json.dumps(result) if result is not None else None, error,
                                        time.time(), 1.0 if status == "done" else live.get("fraction"),
                                        json.dumps(live.get("info", {})), job_id))

    def cancel(self, job_id: str) -> bool:
        """Ask a job to stop; True if it was queued or running."""
        with self._lock:
            event = self._cancel.get(job_id)
        if event is None:
            return False
        event.set()
        return True

    def get(self, job_id: str) -> dict | None:
        with self._connect() as db:
            row = db.execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone()
        if row is None:
            return None
        job = {key: row[key] for key in row.keys()}
        job["params"] = json.loads(job["params"])
        job["info"] = json.loads(job["info"] or "{}")
        job["result"] = json.loads(job["result"]) if job["result"] else None
        with self._lock:
            live = self._live.get(job_id)
            if live is not None and job["status"] not in FINISHED:
                job["fraction"], job["info"] = live["fraction"], live["info"]
        end = job["finished"] or time.time()
        job["elapsed"] = end - job["started"] if job["started"] else 0.0
        return job

    def latest(self, kind: str, status: str = "done", where: Callable[[dict], bool] | None = None) -> dict | None:
        """The newest job of ``kind`` with ``status`` whose params pass ``where`` (stored results reused)."""
        with self._connect() as db:
            ids = [r["id"] for r in db.execute(
                "SELECT id FROM jobs WHERE kind = ? AND status = ? ORDER BY created DESC LIMIT 200", (kind, status))]
        for job_id in ids:
            job = self.get(job_id)
            if job and (where is None or where(job["params"])):
                return job
        return None

    def newest_by(self, kind: str, key: Callable[[dict], object]) -> list[dict]:
        """The newest finished job of ``kind`` for each distinct ``key(params)``, newest first (stored results that
        pages show without recomputing)."""
        with self._connect() as db:
            ids = [r["id"] for r in db.execute("SELECT id FROM jobs WHERE kind = ? AND status = 'done' "
                                               "ORDER BY created DESC LIMIT 500", (kind,))]
        seen, jobs = set(), []
        for job_id in ids:
            job = self.get(job_id)
            if job is not None and key(job["params"]) not in seen:
                seen.add(key(job["params"]))
                jobs.append(job)
        return jobs

    def wait(self, job_id: str, timeout: float = 60.0) -> dict | None:
        """Block until the job finishes (for tests and the CLI)."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            job = self.get(job_id)
            if job is None or job["status"] in FINISHED:
                return job
            time.sleep(0.05)
        return self.get(job_id)

    def shutdown(self) -> None:
        with self._lock:
            for event in self._cancel.values():
                event.set()
        self._pool.shutdown(wait=True, cancel_futures=True)
