"""The Metaheuristics page (seed 001): the cycle pair drawn, a DPSO or GA run with its live fitness curve and the
answer animated, the paper's experiment as a job (a quick classroom size by default, the full size on request), and
the paper's claims beside ours: from the newest full-size experiment job, else from the recorded run
(``engine/subjects/meta/recorded/experiment.json``, judged by ``engine.subjects.meta.claims``), with the velocity-clamp
and roulette-weight measurements (``clamp.json``, ``selection.json`` beside it)."""

from __future__ import annotations

from flask import Blueprint, render_template, request, url_for

from app.subjects import Subject
from app.submit import job_fragment_for, page_unless_htmx, runner, start_job
from engine.core.errors import PuzzleError
from engine.core.records import load_record
from engine.serving.jobs import FULL_SIZE_VARIABLE, full_size_jobs
from engine.subjects.meta.claims import claims, judge
from engine.subjects.meta.encoding import covering_cycle_pairs
from engine.subjects.meta.jobs import FULL_COMMAND
from engine.subjects.meta.settings import DPSOParams, GAParams, params_from
from engine.subjects.meta.solvers import scrambled_position

bp = Blueprint("meta", __name__, url_prefix="/meta")
SUBJECTS = [Subject("meta.index", "Swarm & GA", "Swarms and genes", "Seed 001's binary particle swarm (DPSO) and "
                    "genetic algorithm hunt for 15-puzzle solutions: live fitness curves, the paper's experiment and "
                    "its charts.", section="meta.", place=30)]

SIZES = ["4x4", "3x3", "2x4", "2x5", "3x4"]
#: The experiment sizes offered: a classroom run of a few minutes, and the paper's.
QUICK_EXPERIMENT = {"trials": 5, "iterations": 1_000, "generations": 5_000}
FULL_EXPERIMENT = {"trials": 30, "iterations": 10_000, "generations": 50_000}
PAPER = {"dpso": "depth 10: all 30 solved by iteration 100, 25 optimal by iteration 50; depth 30: about half solved, "
                 "under 40 % optimal; depth 50: one trial solved, at iteration 300 (section 6), about 10 % "
                 "(conclusion); settled by about iteration 5,000",
         "ga": "behind DPSO at equal evaluations (5,000 iterations × 250 ≈ 42,000 generations × 30); DPSO's 10,000 "
               "iterations took 20–30 % less time than the GA's 50,000 generations"}


def cycle_paths() -> list[str]:
    """SVG points of the two cycles, drawn on a 4×4 grid of 40-unit cells, each offset a little so both show."""
    paths = []
    for which, cycle in enumerate(covering_cycle_pairs(4, 4)[0]):
        shift = -4 if which == 0 else 4
        points = [(20 + 40 * (c % 4) + shift, 20 + 40 * (c // 4) + shift) for c in cycle + (cycle[0],)]
        paths.append(" ".join(f"{x},{y}" for x, y in points))
    return paths


@bp.get("/")
def index():
    experiment = (runner().newest_by("meta-experiment", lambda p: 0) or [None])[0]
    full_size = [job for job in runner().newest_by("meta-experiment", lambda p: (p.get("trials"), p.get("iterations")))
                 if job["result"].get("trials") == FULL_EXPERIMENT["trials"]
                 and job["result"]["dpso"]["iterations"] >= FULL_EXPERIMENT["iterations"]]
    record = load_record("meta", "experiment") or {}
    if full_size:
        compared = {"claims": claims(full_size[0]["result"]), "measured": None}
    else:
        compared = {"claims": judge(record["figures"]) if "figures" in record else [], **record}
    return render_template("meta/index.html", cycles=cycle_paths(), sizes=SIZES, dpso=DPSOParams(), ga=GAParams(),
                           quick=QUICK_EXPERIMENT, full=FULL_EXPERIMENT, experiment=experiment, paper=PAPER,
                           recorded=record if record.get("result") else None,
                           compared=compared, clamp=load_record("meta", "clamp") or {},
                           selection=load_record("meta", "selection") or {}, full_size=full_size_jobs(),
                           full_command=FULL_COMMAND, full_variable=FULL_SIZE_VARIABLE)


@bp.post("/run")
def run():
    form = request.form
    algorithm = form.get("algorithm", "dpso")
    if algorithm not in ("dpso", "ga"):
        raise PuzzleError("algorithm must be dpso or ga")
    if form.get("size", "4x4") not in SIZES:
        raise PuzzleError(f"size must be one of {', '.join(SIZES)}")
    board, goal = scrambled_position({"size": form.get("size", "4x4"), "depth": form.get("depth", 10),
                                      "scramble_seed": form.get("scramble_seed")})
    names = ("particles", "w", "c1", "c2", "vmax", "iterations") if algorithm == "dpso" else (
        "population", "crossover", "mutation", "elites", "generations")
    params = {k: form[k] for k in names + ("seed",) if form.get(k)}
    params_from(DPSOParams if algorithm == "dpso" else GAParams, params)  # a 400 at submission, never a failed job
    job_id, _ = start_job("solve", {"size": board.size_name, "goal": "blank-last", "tiles": list(board.cells),
                                    "solver": algorithm, "heuristic": "", "params": params,
                                    "max_nodes": 2_000_000_000, "max_seconds": 900})
    return page_unless_htmx(render_template("meta/run.html", board=board, goal=goal, job_id=job_id,
                                            algorithm=algorithm),
                            f"A {algorithm.upper()} run", url_for("jobs.show", job_id=job_id))


@bp.post("/experiment")
def experiment():
    size = FULL_EXPERIMENT if request.form.get("full") else QUICK_EXPERIMENT
    params = {**size, **{k: request.form[k] for k in ("trials", "iterations", "generations", "depths", "seed")
                         if request.form.get(k)}}
    return job_fragment_for("meta-experiment", params, "Running the experiment")
