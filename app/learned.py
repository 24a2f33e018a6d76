"""The Learned heuristic page (seed 002): train tables as jobs, see what they hold, evaluate them against Manhattan
distance and the pattern database, and the M curve (how V changes with the number of walks) beside the paper's
figures: the newest curve job's, else the recorded ones (``engine/subjects/learned/recorded/m-curve-*.json``, read by
``engine.subjects.learned.curve.recorded_curves``)."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from app.subjects import Subject
from app.submit import job_fragment_for, runner
from engine.domains.tiles import goal_board
from engine.serving.jobs import FULL_SIZE_VARIABLE, full_size_jobs
from engine.subjects.learned.catalogue import VALUE_RULES, TrainingParams, trained_tables
from engine.subjects.learned.curve import recorded_curves
from engine.subjects.learned.evaluate import MAX_POSITIONS, PAPER
from engine.subjects.learned.jobs import FULL_COMMAND, page_curve_walks

bp = Blueprint("learned", __name__, url_prefix="/learned")
SUBJECTS = [Subject("learned.index", "Learned", "Learned heuristic", "Seed 002: train a table on random walks out of "
                    "the goal, solve with V = MD + DB, and measure what giving up admissibility buys.",
                    section="learned.", place=40)]

QUICK_WALKS = 1_000_000  # about 11 s of one quiet core: a table a class can train during the lesson


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
    return render_template("learned/index.html", tables=tables, evaluations=evaluations, names=names,
                           defaults=TrainingParams(), quick=QUICK_WALKS, rules=VALUE_RULES, paper=PAPER,
                           max_positions=MAX_POSITIONS, curves=curves_by_reading(), curve_walks=page_curve_walks(),
                           full_size=full_size_jobs(), full_command=FULL_COMMAND, full_variable=FULL_SIZE_VARIABLE)


def curves_by_reading() -> list[dict]:
    """One M curve per reading of the paper's "randomly made" positions: the newest curve job's for each, else the
    recorded one. Each with ``meets``: the points that meet all three of the paper's figures."""
    jobs = runner().newest_by("learned-curve", lambda p: p.get("positions_from", "uniform"))
    curves = {job["result"].get("positions_from", "uniform"): job["result"] for job in reversed(jobs)}
    for recorded in recorded_curves():
        curves.setdefault(recorded.get("positions_from", "uniform"), recorded)
    return [{**curve, "reading": reading,
             "meets": [p["walks"] for p in curve["points"] if all(c["met"] for c in p["paper"])]}
            for reading, curve in sorted(curves.items(), key=lambda item: item[0] != "uniform")]


@bp.post("/train")
def train():
    params = {k: v for k, v in request.form.items() if v != ""}
    params["allow_undo"] = bool(request.form.get("allow_undo"))
    return job_fragment_for("learned-train", params, "Training")


@bp.post("/evaluate")
def evaluate():
    form = request.form
    params = {k: form[k] for k in ("table", "count", "seed", "max_seconds", "positions_from") if form.get(k)}
    return job_fragment_for("learned-evaluate", params, "Solving positions three ways")


@bp.post("/curve")
def curve():
    params = {k: v for k, v in request.form.items() if v != ""}
    return job_fragment_for("learned-curve", params, "Measuring the M curve")
