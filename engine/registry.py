"""The one place that loads every subject's solvers, heuristics and job kinds, and warms their kernels.

Each subject registers its own when its module is imported: solvers with ``engine.solvers.register_solver``,
heuristics with ``engine.tiles.heuristics.register_heuristic``, job kinds with ``@engine.jobs.job_kind``, and the
function that compiles (or loads) its kernels with ``@warms_up``. ``load_all()`` imports them all, so the web app, the
CLI, a Dask worker and a notebook see the same registry; the lookups (``engine.solvers.solvers()``,
``engine.tiles.heuristics.heuristics()``, ``engine.jobs.job_kinds()``) call it themselves.

This module imports no subject at its top, so any module may import it. The modules listed here import no numba at
their top either (their kernels load when work runs): loading the registry is quick, and a CLI command that needs no
kernel (``check``, ``jobs``, ``--help``) never compiles one. A new subject adds its modules here and nowhere else.
"""

from __future__ import annotations

import importlib
import threading
import time
from collections.abc import Callable

SUBJECT_MODULES = (
    "engine.tile_solvers",            # sliding tiles: bfs, astar, idastar, table, fast
    "engine.solve_jobs",              # the solve and compare jobs (every subject's solvers)
    "engine.tiles.pdb_catalogue",  # the pattern databases' tables-build job
    "engine.meta.solvers",            # seed 001: dpso and ga
    "engine.meta.jobs",               # seed 001: the experiment job
    "engine.bounds.jobs",             # seed 000: the research jobs
    "engine.learned.heuristic",       # seed 002: the learned heuristic
    "engine.learned.jobs",            # seed 002: training, evaluation and the M curve
    "engine.rectout.jobs",            # seed 003: the Rectangle-out search job
    "engine.classic.jobs",            # seed 004: the queens and knights counts
    "engine.domains.graph",           # graphs given as data (the domain contract)
    "engine.domains.grid",            # grid maps (the domain contract)
)

_loaded = False
_load_lock = threading.RLock()


def load_all() -> None:
    """Import every subject module once (cheap after the first call)."""
    global _loaded
    if _loaded:
        return
    with _load_lock:  # re-entrant: a subject's import may look something up
        if not _loaded:
            for name in SUBJECT_MODULES:
                importlib.import_module(name)
            _loaded = True


_warm_ups: list[Callable[[], None]] = []
_warm_lock = threading.Lock()
_warm = False


def warms_up(function: Callable[[], None]) -> Callable[[], None]:
    """Decorator: ``function`` compiles or loads a subject's kernels (tiny inputs, no table built)."""
    _warm_ups.append(function)
    return function


def warm_up() -> float:
    """Load (or, on a fresh install, compile) every subject's kernels once, so no timed search pays for loading code;
    returns the seconds this call spent doing so (0.0 once warm), which callers show apart from their timings.

    Idempotent and thread-safe: a second caller waits for the first to finish, later callers return at once.
    """
    global _warm
    if _warm:
        return 0.0
    with _warm_lock:
        if _warm:
            return 0.0
        started = time.perf_counter()
        load_all()
        for function in _warm_ups:
            function()
        _warm = True
        return time.perf_counter() - started
