"""Training and evaluation as background jobs (kinds ``learned-train`` and ``learned-evaluate``)."""

from __future__ import annotations

from dataclasses import asdict

from engine.errors import PuzzleError
from engine.jobs import job_kind
from engine.learned.evaluate import MAX_POSITIONS, evaluate
from engine.learned.train import check_params, train, trained_tables
from engine.params import choice, integer, number, text
from engine.result import Budget
from engine.tiles import goal_board


def check_train(params: dict) -> dict:
    """Training parameters; the number of walks must be given (a default of 10^8 walks would run for half an hour
    on an empty form)."""
    integer(params, "walks", 1, 10**9)  # present and a number; check_params applies the real ceiling
    checked = check_params(params)
    return {**asdict(checked), "tiles": list(checked.tiles),
            "goal": choice(params, "goal", ("blank-first", "blank-last"), "blank-first")}


@job_kind("learned-train", check=check_train)
def train_job(params: dict, report, cancel) -> dict:
    """Train the learned table over random walks (seed 002's Algorithm 1)."""
    goal = goal_board(4, 4, params["goal"])
    learned = train(goal, check_params(params), report, cancel)
    if learned is None:
        return {"status": "cancelled"}
    return {"status": "done", "name": learned.name, **learned.info}


def check_evaluate(params: dict) -> dict:
    tables = [t["name"] for t in trained_tables(goal_board(4, 4, "blank-first"))]  # listed, not loaded
    wanted = text(params, "table", 200, "")
    if not tables:
        raise PuzzleError("no learned table is trained for this goal yet: train one first")
    if wanted and wanted not in tables:
        raise PuzzleError(f"there is no trained table {wanted!r}")
    table = wanted or tables[0]
    return {"table": table, "count": integer(params, "count", 1, MAX_POSITIONS, 500),
            "seed": integer(params, "seed", 0, 2**31 - 1, 0),
            "max_seconds": number(params, "max_seconds", 1, 3_600, 300)}


@job_kind("learned-evaluate", check=check_evaluate)
def evaluate_job(params: dict, report, cancel) -> dict:
    """Solve random positions with Manhattan distance, the learned table and the pattern database, and compare."""
    return evaluate(params["table"], params["count"], params["seed"],
                    Budget(max_nodes=5_000_000_000, max_seconds=params["max_seconds"]), report, cancel)
