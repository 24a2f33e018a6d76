"""The batch page: many positions of one size solved as one ``solve-batch`` job (engine/domains/tiles/jobs.py), spread
over the long lane's workers: positions typed one per line (as ``python -m engine solve-batch FILE`` reads them),
Korf's 100 filled in with a click, or a few random ones. The job's progress polls itself and its finished table is
``results/solve-batch.html``.

The solver and heuristic are offered for the chosen size as the Play page offers them (``solver_choices``), less the
spread search, which a batch replaces: it spreads the positions themselves over the workers. Changing the size
reloads the offer (htmx swaps the select alone; without JavaScript a button reloads the page with what was typed).
"""

from __future__ import annotations

import random

from flask import Blueprint, render_template, request

from app.positions import GOALS, PRESETS, default_choice, solver_choices
from app.subjects import Subject
from app.submit import job_fragment_for
from engine.core.errors import PuzzleError
from engine.core.params import MAX_REQUEST_SECONDS, integer
from engine.domains.tiles import parse_goal, parse_size
from engine.domains.tiles.jobs import MAX_BATCH, batch_lines
from engine.domains.tiles.korf import KORF_GOAL, korf_instances
from engine.domains.tiles.random import random_solvable
from engine.domains.tiles.solve_cost import SPREAD_SOLVERS

bp = Blueprint("batch", __name__)
SUBJECTS = [Subject("batch.index", "Batch", "Solve a batch", "Korf's 100, or your own positions one per line, solved "
                    "at once on every worker of the cluster: each one's length, nodes and time in one table.",
                    section="batch.", place=15)]  # after Play and Compare

#: random positions one click fills in at most (each a solve of its own)
MAX_RANDOM = 100
#: each position's time budget the form starts with (the job's own default)
DEFAULT_SECONDS = 120
#: what the Korf button fills in: the 15-puzzle, its goal, the 7-8 database (else the 6-6-3) with IDA*
KORF = {"size": "4x4", "goal": KORF_GOAL, "choice": "idastar:pdb"}


def _choices(size: str, goal: str) -> tuple[list[dict], str]:
    """The solver and heuristic pairs a batch of this size takes (the Play page's, less the spread search), and the
    one selected first (the strongest ready)."""
    rows, cols = parse_size(size)
    target = parse_goal(goal, rows, cols)
    choices = [c for c in solver_choices(target) if c["value"].partition(":")[0] not in SPREAD_SOLVERS]
    return choices, default_choice(target, target, choices)


def _filled(args) -> dict:
    """What a fill button asks for: Korf's 100, or ``count`` random positions of the size (``seed``: the same ones
    again)."""
    fill = args.get("fill")
    if fill == "korf100":
        return {**KORF, "positions": "\n".join(" ".join(map(str, cells)) for _, _, cells in korf_instances())}
    if fill == "random":
        rows, cols = parse_size(args.get("size") or "3x3")
        goal = parse_goal(args.get("goal") or "blank-last", rows, cols)
        count = integer(args, "count", 1, MAX_RANDOM, 10)
        draw = random.Random(integer(args, "seed", 0, 2**63 - 1, None))
        return {"positions": "\n".join(" ".join(map(str, random_solvable(goal, draw.randrange(2**63)).cells))
                                       for _ in range(count))}
    return {}


@bp.get("/batch")
def index():
    """The form, filled in from the query (a fill button's, or what was typed when the size changed)."""
    args = request.args
    error = None
    values = {"size": args.get("size") or "3x3", "goal": args.get("goal") or "blank-last",
              "positions": args.get("positions", ""), "choice": args.get("choice", ""),
              "max_seconds": args.get("max_seconds") or DEFAULT_SECONDS, "count": args.get("count") or 10}
    try:
        values.update(_filled(args))
        choices, first = _choices(values["size"], values["goal"])
    except PuzzleError as exc:
        error = str(exc)
        values.update(size="3x3", goal="blank-last")
        choices, first = _choices("3x3", "blank-last")
    if values["choice"] not in {c["value"] for c in choices}:
        values["choice"] = first
    return render_template("batch/index.html", values=values, choices=choices, presets=PRESETS, goals=GOALS,
                           error=error, max_batch=MAX_BATCH, max_random=MAX_RANDOM, max_seconds=MAX_REQUEST_SECONDS,
                           korf=KORF), 400 if error else 200


@bp.get("/batch/choices")
def choices():
    """The solver select for a size and goal (htmx swaps it in when the size or goal changes)."""
    args = request.args
    offered, first = _choices(args.get("size") or "3x3", args.get("goal") or "blank-last")
    chosen = args.get("choice") if args.get("choice") in {c["value"] for c in offered} else first
    return render_template("batch/choices.html", choices=offered, chosen=chosen)


@bp.post("/batch/solve")
def solve():
    """Start the batch: its progress fragment for htmx, a page that follows the job without JavaScript."""
    form = request.form
    boards = batch_lines(form.get("positions", ""))
    if not boards:
        raise PuzzleError("type at least one position, one per line (for example 8 6 7 2 5 4 3 0 1), or fill some in")
    if len(boards) > MAX_BATCH:
        raise PuzzleError(f"{len(boards):,} positions are more than one batch takes ({MAX_BATCH:,}): split them")
    solver, _, heuristic = (form.get("choice") or "idastar:manhattan").partition(":")
    params = {"size": form.get("size") or "3x3", "goal": form.get("goal") or "blank-last", "boards": boards,
              "solver": solver, "heuristic": heuristic, "max_seconds": form.get("max_seconds") or DEFAULT_SECONDS}
    return job_fragment_for("solve-batch", params, "Solving a batch of positions")
