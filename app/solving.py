"""How the web answers a solve: directly when it is quick, as a background job when it is not.

Policy: run the solver with a short budget (QUICK); if it finishes, answer at once; if it runs out of that budget and
the caller allowed more, start a job with the caller's budget (the search restarts there, wasting at most QUICK).
A pattern database that is not built yet always means a job (its build takes about 40 s and reports progress).
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app

from engine.errors import PuzzleError
from engine.jobs import JobRunner
from engine.result import BUDGET_EXHAUSTED, Budget
from engine.tiles.solvability import require_solvable
from engine.solvers import budget_from, check_request, solve, warm_up
from engine.tiles.board import position_from
from engine.tiles.pdb import is_ready

QUICK = Budget(max_nodes=5_000_000, max_seconds=1.0)
DEFAULT = Budget(max_nodes=2_000_000_000, max_seconds=120.0)
COMPARE_DEFAULT = Budget(max_nodes=300_000_000, max_seconds=20.0)
MAX_COMPARE = 4


@dataclass
class Answer:
    result: dict | None = None
    job_id: str | None = None


def runner() -> JobRunner:
    return current_app.extensions["jobs"]


def solve_request(params: dict) -> Answer:
    board, goal = position_from(params)
    require_solvable(board, goal)  # over the web an unsolvable position is bad input: a 400 with the parity argument
    solver, heuristic = params.get("solver", "idastar"), params.get("heuristic", "manhattan")
    if params.get("params") is not None and not isinstance(params["params"], dict):
        raise PuzzleError('"params" must be an object, e.g. {"iterations": 500, "seed": 3}')
    budget = budget_from(params, DEFAULT)
    mode = params.get("mode", "auto")
    if mode not in ("auto", "job", "sync"):
        raise PuzzleError("mode must be auto, job or sync")
    needs_build = heuristic == "pdb" and (board.rows, board.cols) == (4, 4) and not is_ready(goal)
    if mode == "job" or (needs_build and mode == "auto"):
        check_request(board, solver, heuristic)  # bad input is a 400 now, not a failed job later
        return Answer(job_id=runner().submit("solve", _job_params(params, budget)))
    warm_up()  # a cold numba cache must not eat the quick budget (once per install)
    quick = budget if mode == "sync" else Budget(min(budget.max_nodes, QUICK.max_nodes),
                                                 min(budget.max_seconds, QUICK.max_seconds))
    result = solve(board, goal, solver, heuristic, quick, params=params.get("params"))
    if result.status == BUDGET_EXHAUSTED and mode == "auto" and (quick.max_nodes, quick.max_seconds) != (
            budget.max_nodes, budget.max_seconds):
        return Answer(job_id=runner().submit("solve", _job_params(params, budget)))
    return Answer(result={"size": board.size_name, "tiles": list(board.cells), "goal": list(goal.cells),
                          **result.to_dict()})


def _job_params(params: dict, budget: Budget) -> dict:
    keep = {k: params[k] for k in ("size", "goal", "tiles", "solver", "heuristic", "params") if k in params}
    return {**keep, "max_nodes": budget.max_nodes, "max_seconds": budget.max_seconds}


def compare_entries(params: dict) -> list[dict]:
    entries = params.get("solvers")
    if not isinstance(entries, list) or not 2 <= len(entries) <= MAX_COMPARE:
        raise PuzzleError(f"pick between 2 and {MAX_COMPARE} solvers to compare")
    clean = []
    for entry in entries:
        if isinstance(entry, str):
            solver, _, heuristic = entry.partition(":")
            entry = {"solver": solver, "heuristic": heuristic}
        if not isinstance(entry, dict) or "solver" not in entry:
            raise PuzzleError("each compared solver is {\"solver\": ..., \"heuristic\": ...} or \"solver:heuristic\"")
        clean.append({"solver": str(entry["solver"]), "heuristic": str(entry.get("heuristic") or "")})
    return clean


def compare_request(params: dict) -> Answer:
    """Run every chosen solver on the same position, each within its own budget; as a job unless all are quick."""
    board, goal = position_from(params)
    require_solvable(board, goal)
    entries = compare_entries(params)
    budget = budget_from(params, COMPARE_DEFAULT)
    for entry in entries:  # validate every entry before any work
        entry["heuristic"] = check_request(board, entry["solver"], entry["heuristic"] or None)[1]
    warm_up()
    quick = Budget(min(budget.max_nodes, QUICK.max_nodes), min(budget.max_seconds, QUICK.max_seconds))
    pdb_pending = any(e["heuristic"] == "pdb" for e in entries) and not is_ready(goal)
    if params.get("mode") != "job" and not pdb_pending:
        results = [solve(board, goal, e["solver"], e["heuristic"], quick) for e in entries]
        if all(r.status != BUDGET_EXHAUSTED for r in results) or quick == budget:
            return Answer(result=_compare_payload(board, goal, [r.to_dict() for r in results]))
    keep = {k: params[k] for k in ("size", "goal", "tiles") if k in params}
    return Answer(job_id=runner().submit("compare", {**keep, "solvers": entries, "max_nodes": budget.max_nodes,
                                                     "max_seconds": budget.max_seconds}))


def _compare_payload(board, goal, results: list[dict]) -> dict:
    return {"size": board.size_name, "tiles": list(board.cells), "goal": list(goal.cells), "results": results}
