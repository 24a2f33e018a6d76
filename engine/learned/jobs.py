"""Training, evaluation and the M curve as background jobs (kinds ``learned-train``, ``learned-evaluate`` and
``learned-curve``)."""

from __future__ import annotations

from engine.errors import PuzzleError
from engine.jobs import job_kind
from engine.learned.curve import CURVE_WALKS, m_curve
from engine.learned.evaluate import MAX_POSITIONS, evaluate
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


def check_curve_params(params: dict) -> dict:
    """The M curve's parameters, checked: ``walks`` (1 to 8 values of M, a list or "700000,2000000"), ``positions``
    (1..MAX_POSITIONS), ``seed`` (which positions), ``train_seed``, ``max_seconds`` (per position and heuristic,
    1..900)."""
    walks = params.get("walks") or list(CURVE_WALKS)
    try:
        if isinstance(walks, str):
            walks = [w for w in walks.replace(",", " ").split() if w]
        walks = [int(w) for w in walks]
        count, seed = int(params.get("positions", 100)), int(params.get("seed", 0) or 0)
        train_seed = int(params.get("train_seed", 0) or 0)
        seconds = float(params.get("max_seconds", 120))
    except (TypeError, ValueError):
        raise PuzzleError("walks, positions, seed, train_seed and max_seconds must be numbers") from None
    if not 1 <= len(walks) <= 8:
        raise PuzzleError("give 1 to 8 values of M")
    for m in walks:
        check_params({"walks": m})
    if not 1 <= count <= MAX_POSITIONS:
        raise PuzzleError(f"the number of positions must be from 1 to {MAX_POSITIONS}")
    if not 1 <= seconds <= 900:
        raise PuzzleError("max_seconds must be from 1 to 900")
    return {"walks": walks, "positions": count, "seed": seed, "train_seed": train_seed, "max_seconds": seconds}


@job_kind("learned-curve")
def curve_job(params: dict, report, cancel) -> dict:
    """The M curve (``check_curve_params``): one table per M, each evaluated on the same random positions."""
    p = check_curve_params(params)
    return m_curve(tuple(p["walks"]), p["positions"], p["seed"], p["max_seconds"], p["train_seed"], report, cancel)
