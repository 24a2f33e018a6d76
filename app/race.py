"""The figures a race of solvers (the compare page) shows to say why one wins: each row named by what ran and stopped
by the budget that was chosen, the effective branching factor, and bar widths on a log scale when the values span
orders of magnitude."""

from __future__ import annotations

import math

from flask import url_for

from app.positions import solver_label

LOG_SPREAD = 100  # a chart whose largest value is this many times its smallest positive one is drawn on a log scale


def effective_branching_factor(expanded: int | None, depth: int | None) -> float | None:
    """b* with N + 1 = 1 + b* + b*² + … + b*^d (Russell and Norvig): the branching a uniform tree of the answer's depth
    would need to hold the N nodes expanded. None without a depth or a node. Solved in log space, so a count of 10^12
    at depth 200 (where b^(d+1) overflows a float) has its b* as well as AIMA's 52 nodes at depth 5."""
    if not expanded or not depth or expanded <= 0 or depth <= 0:
        return None
    if expanded <= depth:  # a straight path (or less): no branching at all
        return 1.0
    target = math.log(expanded)

    def log_nodes(b: float) -> float:
        """log(b + b² + … + b^d) = log b + log(b^d − 1) − log(b − 1), each part kept finite for b near 1 and large."""
        x = depth * math.log(b)
        log_power_less_one = x + math.log1p(-math.exp(-x)) if x > 1 else math.log(math.expm1(x))
        return math.log(b) + log_power_less_one - math.log(b - 1)

    low, high = 1.0, float(expanded)  # b ≤ N, since the sum holds b itself; at b = 1 the sum is d < N
    for _ in range(200):  # bisection: the sum grows with b
        middle = (low + high) / 2
        if middle in (low, high):
            break
        low, high = (middle, high) if log_nodes(middle) < target else (low, middle)
    return round((low + high) / 2, 2)


def uses_log_scale(values) -> bool:
    positive = [v for v in values if v and v > 0]
    return bool(positive) and max(positive) >= LOG_SPREAD * min(positive)


def bar_width(value, values, width: float, log: bool) -> float:
    """A bar's length for value among a chart's values: linear from 0, or on a log scale whose left end is a tenth of
    the smallest positive value (so the smallest bar is still a tenth of an order of magnitude long). Logarithms are
    taken of each value alone, so no quotient of a count of 10^12 and a time of microseconds overflows."""
    positive = [v for v in values if v and v > 0]
    if not value or value <= 0 or not positive:
        return 0.0
    top = max(positive)
    if not log:
        return min(width, width * (value / top))
    low = math.log10(min(positive)) - 1
    return min(width, max(0.0, width * (math.log10(value) - low) / (math.log10(top) - low)))


def race_rows(result: dict, params: dict | None = None) -> list[dict]:
    """The race's rows as the page shows them, each with ``label`` (what made its figures) and, for a row a budget
    stopped, ``message`` and ``seconds`` in the budget chosen (``params``, the job's: a job handed from the interactive
    lane to the long one goes on with the rest of its seconds, which is the budget the engine's message names)."""
    return [{**row, "label": race_label(row), "per_bound": per_iteration((row.get("extra") or {}).get("bounds") or []),
             **_budget_stop(row, params or {})} for row in result["results"]]


def race_link(result: dict, job: dict | None = None) -> str:
    """The address that reopens a race: its job's page when it ran as a job (the answer kept, nothing run again), else
    the compare page on the same position with the same solvers checked, run again on opening (``run=1``)."""
    if job is not None and job.get("id"):
        return url_for("jobs.show", job_id=job["id"])
    choices = [f"{row['solver']}:{row.get('heuristic') or ''}" for row in result["results"]]  # the form's values
    return url_for("play.compare", size=result["size"], goal=",".join(map(str, result["goal"])),
                   tiles=",".join(map(str, result["tiles"])), choice=choices, run=1)


def per_iteration(bounds: list[dict]) -> list[dict]:
    """IDA*'s ``extra["bounds"]`` counts the nodes expanded from the start up to the end of each iteration; the chart
    shows what each iteration expanded on its own."""
    before, own = 0, []
    for entry in bounds:
        own.append({"bound": entry["bound"], "expanded": entry["expanded"] - before})
        before = entry["expanded"]
    return own


def race_label(row: dict) -> str:
    """A solver that hands a position to another search (Fast answers one close to home by IDA*) is named with the
    method that made its figures, so the work and optimality shown are not taken for its own."""
    label = solver_label(row["solver"], row.get("heuristic"))
    method = (row.get("extra") or {}).get("method")
    return f"{label.split(' (')[0]}: {method}" if method else label


def _budget_stop(row: dict, params: dict) -> dict:
    limit = (row.get("extra") or {}).get("budget")
    if row.get("status") != "budget_exhausted" or limit not in ("seconds", "nodes") or f"max_{limit}" not in params:
        return {}
    if limit == "nodes":
        return {"message": f"stopped by its node budget ({params['max_nodes']:,} nodes) after "
                           f"{row['nodes_expanded']:,} nodes"}
    chosen = float(params["max_seconds"])
    return {"message": f"stopped by its time budget ({chosen:g} s) after {row['nodes_expanded']:,} nodes",
            "seconds": max(row.get("seconds") or 0.0, chosen)}
