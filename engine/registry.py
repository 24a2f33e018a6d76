"""The one place that loads every subject's solvers, heuristics and job kinds.

Each subject registers its own (``register_solver`` in ``engine.solvers``, ``@job_kind`` in ``engine.jobs``) when its
module is imported; ``load_all()`` imports them, so the web app, the CLI, a Dask worker and a notebook see the same
registry. A new subject adds its module here and nowhere else.
"""

from __future__ import annotations

import importlib

SUBJECT_MODULES = (
    "engine.solvers",          # sliding tiles: bfs, astar, idastar, table; the solve and compare jobs
    "engine.meta.solvers",     # seed 001: dpso and ga, the experiment job
    "engine.bounds.jobs",      # seed 000: the research jobs
    "engine.learned.jobs",     # seed 002: training and evaluation jobs
    "engine.rectout.jobs",     # seed 003: the Rectangle-out search job
    "engine.classic.jobs",     # seed 004: the queens and knights counts
)

_loaded = False


def load_all() -> None:
    """Import every subject module once (cheap after the first call)."""
    global _loaded
    if not _loaded:
        for name in SUBJECT_MODULES:
            importlib.import_module(name)
        _loaded = True
