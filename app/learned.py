"""The Learned heuristic page (seed 002): train tables as jobs, see what they hold, evaluate them against Manhattan
distance and the pattern database, and the M curve (how V changes with the number of walks) beside the paper's
figures: the newest curve job's, else the one measured for issue 17 (``engine/learned/recorded.py``)."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from engine.errors import PuzzleError
from engine.learned.curve import CURVE_WALKS, against_paper, recorded_curve
from engine.learned.evaluate import MAX_POSITIONS, PAPER
from engine.learned.jobs import check_curve_params
from engine.learned.train import VALUE_RULES, TrainingParams, check_params, trained_tables
from engine.tiles import goal_board
from app.solving import runner

bp = Blueprint("learned", __name__, url_prefix="/learned")

QUICK_WALKS = 1_000_000  # about a minute on two cores: a table a class can train during the lesson


def histogram_bars(counts: list[int], top: int = 40) -> tuple[list[int], list[str]]:
    """The first ``top`` values of a histogram, and the rest summed into one last bar."""
    head = counts[:top]
    labels = [str(i) for i in range(len(head))]
    if len(counts) > top:
        head = head + [sum(counts[top:])]
        labels.append(f"{top}+")
    return head, labels


@bp.get("/")
def index():
    goal = goal_board(4, 4, "blank-first")
    tables = trained_tables(goal)
    for table in tables:
        table["bars"] = histogram_bars(table["value_histogram"])
    evaluations = runner().newest_by("learned-evaluate", lambda p: (p.get("table"), p.get("count"), p.get("seed")))
    names = {t["name"]: t for t in tables}
    curve_job = (runner().newest_by("learned-curve", lambda p: 0) or [None])[0]
    curve = curve_job["result"] if curve_job else recorded_curve()
    return render_template("learned/index.html", tables=tables, evaluations=evaluations, names=names,
                           defaults=TrainingParams(), quick=QUICK_WALKS, rules=VALUE_RULES, paper=PAPER,
                           max_positions=MAX_POSITIONS, curve=curve, curve_is_recorded=curve_job is None,
                           against_paper=against_paper, curve_walks=CURVE_WALKS)


@bp.post("/train")
def train():
    params = {k: v for k, v in request.form.items() if v != ""}
    params["allow_undo"] = bool(request.form.get("allow_undo"))
    checked = check_params(params)  # a 400 now rather than a failed job
    job_id = runner().submit("learned-train", {**params, "walks": checked.walks, "length": checked.length,
                                               "tiles": list(checked.tiles)})
    return render_template("partials/job.html", job_id=job_id, title=f"Training on {checked.walks:,} walks")


@bp.post("/evaluate")
def evaluate():
    form = request.form
    if not trained_tables(goal_board(4, 4, "blank-first")):
        raise PuzzleError("train a table first")
    try:
        count = int(form.get("count", 50))
    except ValueError:
        raise PuzzleError("the number of positions must be a whole number") from None
    if not 1 <= count <= MAX_POSITIONS:
        raise PuzzleError(f"the number of positions must be from 1 to {MAX_POSITIONS}")
    job_id = runner().submit("learned-evaluate", {"table": form.get("table", ""), "count": count,
                                                  "seed": form.get("seed", 0),
                                                  "max_seconds": form.get("max_seconds", 300)})
    return render_template("partials/job.html", job_id=job_id, title=f"Solving {count} positions three ways")


@bp.post("/curve")
def curve():
    params = check_curve_params({k: v for k, v in request.form.items() if v != ""})  # a 400 now, not a failed job
    job_id = runner().submit("learned-curve", params)
    return render_template("partials/job.html", job_id=job_id,
                           title=f"The M curve on {params['positions']} positions")
