"""Seed 001's experiment: scrambles of depth 10..50, a new problem per trial, DPSO and the GA on each.

Per trial we record the iteration (generation) at which the best fitness first meant "solved" (≤ 150 moves) and first
meant "optimal by the paper's definition" (a solution no longer than the scramble depth), and we also solve the
position exactly (IDA*) to say how often the paper's "optimal" is truly optimal. A run stops early once its best
equals the true optimum, since nothing better exists; the curves are unchanged by that.
"""

from __future__ import annotations

import time
from dataclasses import asdict, replace
from functools import partial

from engine.core.errors import PuzzleError
from engine.core.result import Budget
from engine.core.status import Status
from engine.domains.tiles import goal_board
from engine.domains.tiles.pdb import is_ready
from engine.domains.tiles.random import scramble
from engine.domains.tiles.solving import solve_board
from engine.serving.background import run_tasks
from engine.subjects.meta.search import run_dpso, run_ga
from engine.subjects.meta.settings import DPSOParams, GAParams

DEPTHS = (10, 20, 30, 40, 50)
CHECKPOINTS = (100, 1_000, 5_000, 10_000, 42_000, 50_000)
EQUAL_EVALUATIONS = {"dpso": 5_000, "ga": 42_000}  # 5,000 × 250 ≈ 42,000 × 30 evaluations


def exact_length(board, goal) -> int | None:
    """The optimal solution length, by IDA* with the pattern database when it is built (else linear conflict)."""
    heuristic = "pdb" if is_ready(goal) else "linear-conflict"
    result = solve_board(board, goal, "idastar", heuristic, Budget(max_nodes=2_000_000_000, max_seconds=300))
    return result.length if result.status == Status.SOLVED else None


def run_trial(depth: int, trial: int, seed: int, dpso: DPSOParams, ga: GAParams, cancel=None) -> dict:
    goal = goal_board(4, 4, "blank-last")
    board, _ = scramble(goal, depth, seed * 1_000_003 + depth * 1_000 + trial)
    optimum = exact_length(board, goal)
    row = {"depth": depth, "trial": trial, "tiles": list(board.cells), "optimum": optimum}
    for name, run, params in (("dpso", run_dpso, dpso), ("ga", run_ga, ga)):
        params = replace(params, seed=seed * 7919 + depth * 131 + trial)
        result = run(board, goal, params, cancel=cancel, stop_at=optimum or 0)
        row[name] = {"best": result.best_score, "solved_at": result.first_reaching(150),
                     "optimal_at": result.first_reaching(depth), "iterations": result.iterations,
                     "seconds": round(result.seconds, 3), "evaluations": result.evaluations,
                     "truly_optimal": optimum is not None and result.best_score == optimum}
    return row


def run_experiment(depths=DEPTHS, trials: int = 30, dpso: DPSOParams | None = None, ga: GAParams | None = None,
                   seed: int = 0, progress=None, cancel=None, workers: int | None = None,
                   done: list[dict] = ()) -> dict:
    """Every trial of every depth (``done``: the rows of the first trials, from an earlier run stopped by its
    cancel). Cancelled, the answer is ``{"status": "cancelled", "rows": ...}``: the rows of the trials that ended
    before the cancel, in order (a trial the cancel cut short is not among them), to be given back as ``done``."""
    dpso, ga = dpso or DPSOParams(), ga or GAParams()
    if not 1 <= trials <= 100:
        raise PuzzleError("trials must be from 1 to 100")
    if not depths or any(not 1 <= d <= 100 for d in depths):
        raise PuzzleError("scramble depths must be from 1 to 100")
    started = time.perf_counter()
    every = [(d, t) for d in depths for t in range(trials)]
    kept = list(done)[:len(every)]
    trials_to_run = [partial(run_trial, d, t, seed, dpso, ga, cancel) for d, t in every[len(kept):]]

    def report(index: int, row: dict) -> None:
        if cancel is None or not cancel.is_set():  # a trial that ends after the cancel may have been cut short
            kept.append(row)
        if progress:
            progress(len(kept) / len(every),
                     {"nodes": len(kept), "text": f"{len(kept)} of {len(every)} trials (depth {row['depth']}, "
                                                  f"{time.perf_counter() - started:.0f} s)"})

    rows = run_tasks(trials_to_run, cancel, report, workers)
    if rows is None:
        return {"status": Status.CANCELLED, "rows": kept}
    rows = list(done)[:len(every) - len(trials_to_run)] + rows
    return summarise(rows, depths, trials, dpso, ga, seed, time.perf_counter() - started)


def solved_by(rows: list[dict], algorithm: str, key: str, limit: int) -> int:
    return sum(1 for r in rows if r[algorithm][key] is not None and r[algorithm][key] <= limit)


def summarise(rows, depths, trials, dpso, ga, seed, seconds) -> dict:
    limits = {"dpso": dpso.iterations, "ga": ga.generations}
    curves, table = {}, []
    for algorithm, limit in limits.items():
        grid = sorted({max(1, round(limit * i / 100)) for i in range(101)} | {0})
        curves[algorithm] = {"x": grid, "solved": {}, "optimal": {}}
        for depth in depths:
            mine = [r for r in rows if r["depth"] == depth]
            curves[algorithm]["solved"][str(depth)] = [solved_by(mine, algorithm, "solved_at", x) for x in grid]
            curves[algorithm]["optimal"][str(depth)] = [solved_by(mine, algorithm, "optimal_at", x) for x in grid]
    for depth in depths:
        mine = [r for r in rows if r["depth"] == depth]
        entry = {"depth": depth, "trials": len(mine)}
        for algorithm, limit in limits.items():
            entry[algorithm] = {
                "checkpoints": {c: {"solved": solved_by(mine, algorithm, "solved_at", c),
                                    "optimal": solved_by(mine, algorithm, "optimal_at", c)}
                                for c in CHECKPOINTS if c <= limit},
                "equal": {"solved": solved_by(mine, algorithm, "solved_at", EQUAL_EVALUATIONS[algorithm]),
                          "optimal": solved_by(mine, algorithm, "optimal_at", EQUAL_EVALUATIONS[algorithm])}
                if EQUAL_EVALUATIONS[algorithm] <= limit else None,
                "paper_optimal": sum(1 for r in mine if r[algorithm]["optimal_at"] is not None),
                "truly_optimal": sum(1 for r in mine if r[algorithm]["optimal_at"] is not None
                                     and r[algorithm]["truly_optimal"]),
                "seconds": round(sum(r[algorithm]["seconds"] for r in mine), 2),
                "evaluations": sum(r[algorithm]["evaluations"] for r in mine),
            }
        entry["mean_optimum"] = round(sum(r["optimum"] or 0 for r in mine) / max(1, len(mine)), 1)
        table.append(entry)
    return {"status": Status.DONE, "depths": list(depths), "trials": trials, "seed": seed, "dpso": asdict(dpso),
            "ga": asdict(ga), "rows": rows, "table": table, "curves": curves, "seconds": round(seconds, 1)}
