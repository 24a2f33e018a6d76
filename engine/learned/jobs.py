"""Training and evaluation as background jobs (kinds ``learned-train`` and ``learned-evaluate``)."""

from __future__ import annotations

from engine.errors import PuzzleError
from engine.jobs import job_kind
from engine.learned.evaluate import evaluate
from engine.learned.train import check_params, table_for, train
from engine.result import Budget
from engine.tiles import goal_board


@job_kind("learned-train")
def train_job(params: dict, report, cancel) -> dict:
    goal = goal_board(4, 4, params.get("goal", "blank-first"))
    learned = train(goal, check_params(params), report, cancel)
    if learned is None:
        return {"status": "cancelled"}
    return {"status": "done", "name": learned.name, **learned.info}


@job_kind("learned-evaluate")
def evaluate_job(params: dict, report, cancel) -> dict:
    goal = goal_board(4, 4, "blank-first")
    table = table_for(goal, params.get("table") or None).name
    try:
        count, seed = int(params.get("count", 500)), int(params.get("seed", 0) or 0)
        seconds = float(params.get("max_seconds", 300))
    except (TypeError, ValueError):
        raise PuzzleError("count, seed and max_seconds must be numbers") from None
    return evaluate(table, count, seed, Budget(max_nodes=5_000_000_000, max_seconds=seconds), report, cancel)
