"""The 2×n research lab (seed 000): start each computation as a job, see stored results without recomputing."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from app.subjects import Subject
from app.submit import job_fragment_for, runner
from engine.core.errors import PuzzleError
from engine.core.records import load_record
from engine.subjects.research.fullbfs import stored_search
from engine.subjects.research.jobs import PAPER_MAX_MD, PAPER_MAX_MD_TIME
from engine.subjects.research.maxmd import lower_bound_formula, max_md_exact, pattern_best
from engine.subjects.research.table import OEIS_2X7_FIRST, OEIS_2X7_LAST, PAPER_TABLE_4

bp = Blueprint("research", __name__, url_prefix="/research")
SUBJECTS = [Subject("research.index", "Research", "2×n research lab", "Recompute seed 000 live: diameters by full BFS, "
                    "the Manhattan lower bound, the k-column sub-problem and upper bounds, as tables and charts.",
                    section="research.", place=20)]

BFS_BOARDS = ["2x2", "2x3", "2x4", "2x5", "2x6", "3x3", "3x4", "4x3", "6x2", "2x7"]
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
    bounds = (runner().newest_by("research-bounds", lambda p: 0) or [None])[0]
    return render_template(
        "research/index.html", boards=BFS_BOARDS, max_md=max_md, bfs=bfs, two_by_seven=two_by_seven(max_md, bounds),
        brute=runner().newest_by("research-maxmd", lambda p: (p.get("n"), p.get("method"))),
        subproblems=runner().newest_by("research-subproblem",
                                       lambda p: (p.get("n"), p.get("k"), str(p.get("blank_home")))),
        tables=(runner().newest_by("research-tables", lambda p: 0) or [None])[0], bounds=bounds)


def two_by_seven(max_md: list[dict], bounds: dict | None) -> dict:
    """Table 1's 2×7 row: this machine's search as far as it has got (or its answer), beside seed 000's bounds for
    n = 7 and the published counts it must match."""
    search = stored_search(2, 7) or {}
    if not search.get("result") and (recorded := load_record("research", "bfs-2x7")):
        # this data folder has not finished the search: the answer recorded by the command that did
        search = {"result": recorded, "seconds": recorded["seconds"], "machine": recorded["machine"]}
    histogram = search.get("result", {}).get("histogram") or [c for c in search.get("histogram", []) if c]
    ours = next((row["upper"] for row in (bounds or {}).get("result", {}).get("rows", []) if row["n"] == 7), None)
    return {"search": search, "result": search.get("result"), "layers": histogram,
            "checked": min(len(histogram), len(OEIS_2X7_FIRST)),
            "differs_at": next((d for d in range(min(len(histogram), len(OEIS_2X7_FIRST)))
                                if histogram[d] != OEIS_2X7_FIRST[d]), None),
            "published": OEIS_2X7_LAST, "lower": max_md[6]["exact"], "paper_upper": PAPER_TABLE_4["upper"][7],
            "our_upper": ours}


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
