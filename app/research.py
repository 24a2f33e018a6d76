"""The 2×n research lab (seed 000): start each computation as a job, see stored results without recomputing."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from app.solving import job_fragment_for, runner
from app.subjects import Subject
from engine.bounds.jobs import PAPER_MAX_MD, PAPER_MAX_MD_TIME
from engine.bounds.maxmd import lower_bound_formula, max_md_exact, pattern_best
from engine.errors import PuzzleError

bp = Blueprint("research", __name__, url_prefix="/research")
SUBJECTS = [Subject("research.index", "Research", "2×n research lab", "Recompute seed 000 live: diameters by full BFS, "
                    "the Manhattan lower bound, the k-column sub-problem and upper bounds, as tables and charts.",
                    section="research.")]

BFS_BOARDS = ["2x2", "2x3", "2x4", "2x5", "2x6", "3x3", "3x4", "4x3", "6x2"]
KINDS = {"bfs": "research-bfs", "maxmd": "research-maxmd", "subproblem": "research-subproblem",
         "tables": "research-tables", "bounds": "research-bounds"}


@bp.get("/")
def index():
    max_md = []
    for n in range(1, 13):
        exact = max_md_exact(n)
        max_md.append({"n": n, "exact": exact["max_md"], "formula": lower_bound_formula(n),
                       "paper": PAPER_MAX_MD.get(n), "paper_time": PAPER_MAX_MD_TIME.get(n),
                       "position": exact["position"], "pattern": pattern_best(n)})
    bfs = sorted(runner().newest_by("research-bfs", lambda p: (p["rows"], p["cols"])),
                 key=lambda j: (j["result"]["rows"] * j["result"]["cols"], j["result"]["rows"]))
    return render_template(
        "research.html", boards=BFS_BOARDS, max_md=max_md, bfs=bfs,
        brute=runner().newest_by("research-maxmd", lambda p: (p.get("n"), p.get("method"))),
        subproblems=runner().newest_by("research-subproblem",
                                       lambda p: (p.get("n"), p.get("k"), str(p.get("blank_home")))),
        tables=(runner().newest_by("research-tables", lambda p: 0) or [None])[0],
        bounds=(runner().newest_by("research-bounds", lambda p: 0) or [None])[0])


@bp.post("/start/<name>")
def start(name: str):
    if name not in KINDS:
        raise PuzzleError(f"unknown computation {name!r}")
    params = {k: v for k, v in request.form.items() if v != ""}
    if name == "bfs":
        rows, _, cols = params.pop("board", "2x3").partition("x")
        params.update(rows=rows, cols=cols)
        if f"{rows}x{cols}" not in BFS_BOARDS:
            raise PuzzleError("choose one of the boards listed: a full search is offered for at most 12 cells")
    return job_fragment_for(KINDS[name], params, "Computing")
