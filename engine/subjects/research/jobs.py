"""The research computations as background jobs (kinds ``research-*``), for the Research page and the API. The
kernels load when a job is checked or run, not when the kinds are registered."""

from __future__ import annotations

import os
import shutil
import tempfile

from engine.core import registry
from engine.core.errors import PuzzleError
from engine.core.params import choice, flag, integer
from engine.core.result import Watch
from engine.core.status import Status
from engine.serving.jobs import InsufficientStorage, JobView, job_kind

#: Paper values for the Research page: Table 3 (k = 1) and Table 5.
PAPER_F = {1: {1: 1, 2: 6, 3: 20, 4: 27, 5: 36, 6: 45, 100: 891}, 2: {2: 6, 3: 21, 4: 35, 5: 48, 6: 61, 7: 74},
           3: {3: 21, 4: 36, 5: 54, 6: 71, 7: 88}}
PAPER_MAX_MD = {1: 1, 2: 6, 3: 12, 4: 21, 5: 31, 6: 44, 7: 58, 8: 75}
PAPER_MAX_MD_TIME = {1: "0.323 ms", 2: "0.322 ms", 3: "0.378 ms", 4: "0.903 ms", 5: "53.4 ms", 6: "7.25 s",
                     7: "24 min 24 s", 8: "4 d 7 h 43 min"}


#: Boards from this many cells are searched as Dask tasks over the long lane; smaller ones (2×5 and below: seconds)
#: on the job's own worker, where hundreds of tiny tasks would cost more in scheduling than they compute.
DASK_MIN_CELLS = 12


#: A full search whose files need more than this is the operator's to start (``PUZZLE_BIG_SEARCHES=1``): the 2×7
#: board's 14 files hold 10.9 GB, and a day of a worker.
OPERATOR_BYTES = 2**30
#: Space left free on the data folder's disk beside a search's files, for everything else (the job database).
SPARE_BYTES = 256 * 2**20


def big_searches_allowed() -> bool:
    return os.environ.get("PUZZLE_BIG_SEARCHES", "") == "1"


def check_bfs(params: dict) -> dict:
    from engine.subjects.research.fullbfs import Layout, check_size, run_directory

    rows, cols = integer(params, "rows", 1, 14), integer(params, "cols", 1, 14)
    check_size(rows, cols)
    layout = Layout(rows, cols)
    files = layout.cells * layout.words * 8
    if files > OPERATOR_BYTES and not big_searches_allowed():
        raise PuzzleError(f"the {rows}x{cols} search writes {files / 1e9:.1f} GB and runs for hours: only the "
                          "server's operator starts it (PUZZLE_BIG_SEARCHES=1, or python -m engine research bfs); "
                          "its recorded result is shown meanwhile")
    directory = run_directory(rows, cols)
    written = sum(path.stat().st_size for path in directory.glob("*")) if directory.exists() else 0
    free = shutil.disk_usage(directory.parent).free
    if files - written + SPARE_BYTES > free:
        raise InsufficientStorage(f"the {rows}x{cols} search needs {(files - written) / 1e9:.1f} GB more on the "
                                  f"server's disk and {free / 1e9:.1f} GB are free: free some space first")
    return {"rows": rows, "cols": cols}


@job_kind("research-bfs", check=check_bfs, view=JobView("Breadth-first search of every position", "positions"))
def bfs_job(params: dict, report, cancel) -> dict:
    """Every position of a board of up to 14 cells by breadth-first search: diameter, histogram, hardest positions.
    From 12 cells on, each layer is spread over the long lane as one Dask task per partition while the job itself
    waits seceded. Run again after a cancel or a crash, it continues from the last finished layer."""
    from engine.subjects.research.fullbfs import DaskWaves, full_bfs

    watch = Watch(cancel=cancel, progress=report)
    if params["rows"] * params["cols"] < DASK_MIN_CELLS:  # seconds of work: a task per partition would cost more
        return full_bfs(params["rows"], params["cols"], watch)
    try:
        from distributed import get_worker, worker_client

        get_worker()
    except (ImportError, ValueError):  # not on a worker (a script calling the job directly): threads here
        return full_bfs(params["rows"], params["cols"], watch)
    with worker_client() as client:
        return full_bfs(params["rows"], params["cols"], watch, DaskWaves(client, cancel))


def check_max_md(params: dict) -> dict:
    from engine.subjects.research.maxmd import BRUTE_MAX_N, EXACT_MAX_N

    method = choice(params, "method", ("exact", "brute"), "exact")
    n = integer(params, "n", 1, BRUTE_MAX_N if method == "brute" else EXACT_MAX_N)
    return {"n": n, "method": method}


@job_kind("research-maxmd", check=check_max_md,
          view=JobView("Finding the largest Manhattan distance", None, steady=True))
def max_md_job(params: dict, report, cancel) -> dict:
    """The largest Manhattan distance of a solvable 2×n position, by brute force or the exact method."""
    from engine.subjects.research.maxmd import max_md_brute, max_md_exact, pattern_best

    n = params["n"]
    if params["method"] == "brute":
        result = max_md_brute(n, report, cancel)
        if result.get("status") == Status.CANCELLED:
            return result
    else:
        result = max_md_exact(n)  # a handful of assignments even for n = 100: nothing to cancel
    return {**result, "method": params["method"], "pattern": pattern_best(n)["position"]}


def check_subproblem(params: dict) -> dict:
    from engine.subjects.research.subproblem import MAX_STATES as SUBPROBLEM_MAX_STATES
    from engine.subjects.research.subproblem import state_count

    n, k = integer(params, "n", 1, 200), integer(params, "k", 1, 4)
    if k > n:
        raise PuzzleError(f"k (the distinguished columns) must be at most n (got k = {k}, n = {n})")
    if state_count(n, k) > SUBPROBLEM_MAX_STATES:
        raise PuzzleError(f"the {k}-column sub-problem of 2×{n} has {state_count(n, k):,} states; at most "
                          f"{SUBPROBLEM_MAX_STATES:,} fit: choose a smaller n or k")
    return {"n": n, "k": k, "blank_home": flag(params, "blank_home", True)}


@job_kind("research-subproblem", check=check_subproblem, view=JobView("Solving a sub-problem", "positions"))
def subproblem_job(params: dict, report, cancel) -> dict:
    """The k-column sub-problem of 2×n solved by breadth-first search from its goals: f_k(n) and a hardest state."""
    from engine.subjects.research.subproblem import solve_subproblem

    return solve_subproblem(params["n"], params["k"], Watch(cancel=cancel, progress=report),
                            blank_home=params["blank_home"])


def check_tables(params: dict) -> dict:
    return {"k3_max": integer(params, "k3_max", 7, 9, 7)}


@job_kind("research-tables", check=check_tables,
          view=JobView("Computing the sub-problem tables", "sub-problems"))
def tables_job(params: dict, report, cancel) -> dict:
    """Tables 3 and 5 of the paper in one go: every (n, k) the paper lists, with the paper's value beside ours."""
    from engine.subjects.research.subproblem import solve_subproblem

    wanted = [(n, k) for k, values in PAPER_F.items() for n in values]
    extra = [(n, 3) for n in range(8, params["k3_max"] + 1)]
    rows = []
    watch = Watch.cancel_only(cancel)
    for index, (n, k) in enumerate(wanted + extra):
        if cancel.is_set():
            return {"status": Status.CANCELLED}
        report(index / len(wanted + extra), {"nodes": index, "text": f"k = {k}, n = {n}"})
        result = solve_subproblem(n, k, watch)
        if result.get("status") == Status.CANCELLED:
            return {"status": Status.CANCELLED}
        rows.append({"n": n, "k": k, "f": result["f"], "paper": PAPER_F.get(k, {}).get(n),
                     "seconds": round(result["seconds"], 3), "states": result["states"]})
    return {"status": Status.DONE, "rows": rows}


def check_bounds(params: dict) -> dict:
    return {"n_max": integer(params, "n_max", 4, 40, 12)}


@job_kind("research-bounds", check=check_bounds, view=JobView("Computing the bounds table", "sub-problems"))
def bounds_job(params: dict, report, cancel) -> dict:
    """The bounds table of 2×n: lower bound, exact diameters, the paper's and our upper bounds."""
    from engine.subjects.research.table import bounds_table

    return bounds_table(params["n_max"], progress=report, cancel=cancel)


@registry.warms_up
def warm_research_kernels() -> None:
    """The smallest cases of each research kernel, so no job's reported time includes loading its code."""
    from engine.subjects.research.fullbfs import full_bfs
    from engine.subjects.research.maxmd import max_md_brute
    from engine.subjects.research.subproblem import solve_subproblem

    with tempfile.TemporaryDirectory() as scratch:  # a stored result would skip the kernels
        full_bfs(2, 2, directory=scratch)
    max_md_brute(2)
    solve_subproblem(2, 1)
