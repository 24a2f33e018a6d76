"""The research computations as background jobs (kinds ``research-*``), for the Research page and the API."""

from __future__ import annotations

from engine.bounds.fullbfs import full_bfs
from engine.bounds.maxmd import max_md_brute, max_md_exact, pattern_best
from engine.bounds.subproblem import solve_subproblem
from engine.bounds.table import bounds_table
from engine.errors import PuzzleError
from engine.jobs import job_kind
from engine.result import Watch

#: Paper values for the Research page: Table 3 (k = 1) and Table 5.
PAPER_F = {1: {1: 1, 2: 6, 3: 20, 4: 27, 5: 36, 6: 45, 100: 891}, 2: {2: 6, 3: 21, 4: 35, 5: 48, 6: 61, 7: 74},
           3: {3: 21, 4: 36, 5: 54, 6: 71, 7: 88}}
PAPER_MAX_MD = {1: 1, 2: 6, 3: 12, 4: 21, 5: 31, 6: 44, 7: 58, 8: 75}
PAPER_MAX_MD_TIME = {1: "0.323 ms", 2: "0.322 ms", 3: "0.378 ms", 4: "0.903 ms", 5: "53.4 ms", 6: "7.25 s",
                     7: "24 min 24 s", 8: "4 d 7 h 43 min"}


def _int(params: dict, key: str, low: int, high: int) -> int:
    try:
        value = int(params[key])
    except (KeyError, TypeError, ValueError):
        raise PuzzleError(f"{key} must be a whole number from {low} to {high}") from None
    if not low <= value <= high:
        raise PuzzleError(f"{key} must be from {low} to {high} (got {value})")
    return value


@job_kind("research-bfs")
def bfs_job(params: dict, report, cancel) -> dict:
    rows, cols = _int(params, "rows", 1, 12), _int(params, "cols", 1, 12)
    return full_bfs(rows, cols, Watch(cancel=cancel, progress=report))


@job_kind("research-maxmd")
def max_md_job(params: dict, report, cancel) -> dict:
    n = _int(params, "n", 1, 100)
    if params.get("method") == "brute":
        report(None, {"text": f"enumerating all {2 * n}! arrangements on every core"})
        result = max_md_brute(n)
    else:
        result = max_md_exact(n)
    return {**result, "method": params.get("method", "exact"), "pattern": pattern_best(n)["position"]}


@job_kind("research-subproblem")
def subproblem_job(params: dict, report, cancel) -> dict:
    n, k = _int(params, "n", 1, 200), _int(params, "k", 1, 4)
    blank_home = str(params.get("blank_home", True)).lower() not in ("false", "0", "no", "")
    return solve_subproblem(n, k, Watch(cancel=cancel, progress=report), blank_home=blank_home)


@job_kind("research-tables")
def tables_job(params: dict, report, cancel) -> dict:
    """Tables 3 and 5 of the paper in one go: every (n, k) the paper lists, with the paper's value beside ours."""
    wanted = [(n, k) for k, values in PAPER_F.items() for n in values]
    extra = [(n, 3) for n in range(8, _int(params, "k3_max", 7, 9) + 1)]
    rows = []
    for index, (n, k) in enumerate(wanted + extra):
        if cancel.is_set():
            return {"status": "cancelled"}
        report(index / len(wanted + extra), {"nodes": index, "text": f"k = {k}, n = {n}"})
        result = solve_subproblem(n, k)
        rows.append({"n": n, "k": k, "f": result["f"], "paper": PAPER_F.get(k, {}).get(n),
                     "seconds": round(result["seconds"], 3), "states": result["states"]})
    return {"status": "done", "rows": rows}


@job_kind("research-bounds")
def bounds_job(params: dict, report, cancel) -> dict:
    return bounds_table(_int(params, "n_max", 4, 40), progress=report, cancel=cancel)
