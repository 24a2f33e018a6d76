"""The classic-search counts as background jobs (kinds ``classic-queens`` and ``classic-knights``)."""

from __future__ import annotations

from engine.classic import knights, queens
from engine.jobs import job_kind


def queens_comparison(n: int, methods: list[str], report=None, cancel=None) -> dict:
    """Count N queens by each method in turn; a method past its limit is listed as skipped, not run."""
    rows = []
    for index, method in enumerate(methods):
        if n > queens.JOB_LIMIT[method]:
            rows.append({"method": method, "status": "skipped",
                         "message": f"not run: {method} is offered up to N = {queens.JOB_LIMIT[method]}"})
            continue

        def progress(fraction, info, index=index, method=method):
            if report:
                report((index + fraction) / len(methods), {**info, "text": f"{method}: {info['text']}"})

        result = queens.count_solutions(n, method, progress, cancel)
        if result["status"] == "cancelled":
            return {"status": "cancelled", "n": n}
        rows.append(result)
    return {"status": "done", "n": n, "rows": rows, "seed": queens.SEED_COUNTS.get(n)}


@job_kind("classic-queens")
def queens_job(params: dict, report, cancel) -> dict:
    n = queens.check_n(params.get("n"), "bitmask")
    return queens_comparison(n, [m for m in queens.METHODS if m in params.get("methods", queens.METHODS)],
                             report, cancel)


@job_kind("classic-knights")
def knights_job(params: dict, report, cancel) -> dict:
    return knights.count_tours(params.get("rows"), params.get("cols"), params.get("start", 0), report, cancel)
