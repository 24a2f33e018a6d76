"""The classic-search counts as background jobs (kinds ``classic-queens`` and ``classic-knights``). The counting
kernels load when a job is checked or run, not when the kinds are registered."""

from __future__ import annotations

from engine.core import registry
from engine.core.errors import PuzzleError
from engine.core.status import Status
from engine.serving.jobs import JobView, job_kind


def queens_comparison(n: int, methods: list[str], report=None, cancel=None) -> dict:
    """Count N queens by each method in turn; a method past its limit is listed as skipped, not run."""
    from engine.subjects.classic import queens

    rows = []
    for index, method in enumerate(methods):
        if n > queens.JOB_LIMIT[method]:
            rows.append({"method": method, "status": Status.SKIPPED,
                         "message": f"not run: {method} is offered up to N = {queens.JOB_LIMIT[method]}"})
            continue

        def progress(fraction, info, index=index, method=method):
            if report:
                report((index + fraction) / len(methods), {**info, "text": f"{method}: {info['text']}"})

        result = queens.count_solutions(n, method, progress, cancel)
        if result["status"] == Status.CANCELLED:
            return {"status": Status.CANCELLED, "n": n}
        rows.append(result)
    return {"status": Status.DONE, "n": n, "rows": rows, "seed": queens.SEED_COUNTS.get(n)}


def check_queens(params: dict) -> dict:
    from engine.subjects.classic import queens

    methods = params.get("methods", list(queens.METHODS))
    if not isinstance(methods, list) or not methods or not all(isinstance(m, str) and m in queens.METHODS
                                                               for m in methods):
        raise PuzzleError(f"methods must be a list of {', '.join(queens.METHODS)}")
    return {"n": queens.check_n(params.get("n"), "bitmask"), "methods": [m for m in queens.METHODS if m in methods]}


def queens_form(params: dict) -> dict:
    """The queens form has one checkbox per method."""
    from engine.subjects.classic import queens

    return {"n": params.get("n"), **{m: "1" if m in params.get("methods", ()) else "" for m in queens.METHODS}}


@job_kind("classic-queens", check=check_queens,
          view=JobView("Counting N-queens solutions", form_values=queens_form))
def queens_job(params: dict, report, cancel) -> dict:
    """Count the solutions of N queens by each chosen method (seed 004: pruning pays)."""
    return queens_comparison(params["n"], params["methods"], report, cancel)


def check_knights(params: dict) -> dict:
    from engine.subjects.classic import knights

    rows, cols, start = knights.check_board(params.get("rows"), params.get("cols"), params.get("start", 0),
                                            knights.COUNT_MAX_CELLS)
    return {"rows": rows, "cols": cols, "start": start}


@job_kind("classic-knights", check=check_knights, view=JobView("Counting knight's tours"))
def knights_job(params: dict, report, cancel) -> dict:
    """Count every open knight's tour from a square by backtracking."""
    from engine.subjects.classic import knights

    return knights.count_tours(params["rows"], params["cols"], params["start"], report, cancel)


@registry.warms_up
def warm_counting_kernels() -> None:
    """Each counting kernel on its smallest case, so the page's side-by-side times never include loading code."""
    from engine.subjects.classic import knights, queens

    for method in queens.JOB_LIMIT:
        queens.count_solutions(4, method)
    knights.count_tours(3, 4)
