"""Classic search (seed 004): N queens, the knight's tour and every path through a graph.

Pages: ``/classic/`` (index), ``/classic/queens``, ``/classic/knights``, ``/classic/graph``. The browser fetches the
recorded steps as JSON (``/api/classic/...``) and replays them; counts that would take more than a moment run as
background jobs. The step-through and the lessons are ``app.step``.
"""

from __future__ import annotations

from flask import Blueprint, jsonify, render_template, request

from app.job_pages import result_fragment
from app.solve_api import json_body
from app.subjects import Subject
from app.submit import job_fragment_for, page_unless_htmx
from engine.core.params import choice, integer
from engine.subjects.classic import graph, knights, queens
from engine.subjects.classic.jobs import queens_comparison

bp = Blueprint("classic", __name__)
SUBJECTS = [
    Subject("classic.index", "Queens & tours", "Classic search", "N queens three ways (pruning pays), the knight's "
            "tour (304 from a corner of 5×5) and every path through a graph, animated step by step.",
            section="classic.", place=70),
]

@bp.get("/classic/")
def index():
    return render_template("classic/index.html")


# ---- N queens -----------------------------------------------------------------------------------------------------

@bp.get("/classic/queens")
def queens_page():
    n = integer(request.args, "n", 1, queens.JOB_LIMIT["bitmask"], 8)
    return render_template("classic/queens.html", n=n, methods=queens.METHODS, quick=queens.QUICK_LIMIT,
                           limits=queens.JOB_LIMIT, seed_counts=queens.SEED_COUNTS)


@bp.post("/classic/queens/count")
def queens_count():
    n = queens.check_n(request.form.get("n"), "bitmask")
    methods = [m for m in queens.METHODS if request.form.get(m)] or list(queens.METHODS)
    if all(n <= queens.QUICK_LIMIT[m] for m in methods):
        return page_unless_htmx(result_fragment("classic-queens", queens_comparison(n, methods)),
                                f"{n} queens")
    return job_fragment_for("classic-queens", {"n": n, "methods": methods}, f"Counting {n} queens")


@bp.get("/api/classic/queens/steps")
def queens_steps():
    n = integer(request.args, "n", 1, 12, 8)
    events = queens.backtracking_steps(n, max_steps=20_000)
    return jsonify(n=n, events=events, solved=bool(events) and events[-1]["event"] == "solution")


@bp.get("/api/classic/queens/count")
def queens_count_api():
    method = choice(request.args, "method", queens.METHODS, "bitmask")
    n = queens.check_n(request.args.get("n"), method, job=False)
    return jsonify(queens.count_solutions(n, method))


# ---- knight's tour ------------------------------------------------------------------------------------------------

@bp.get("/classic/knights")
def knights_page():
    rows = integer(request.args, "rows", 1, knights.WARNSDORFF_MAX_SIDE, 8)
    cols = integer(request.args, "cols", 1, knights.WARNSDORFF_MAX_SIDE, 8)
    start = integer(request.args, "start", 0, rows * cols - 1, 0)
    tour = knights.warnsdorff_tour(rows, cols, start)
    return render_template("classic/knights.html", tour=tour, rows=rows, cols=cols, start=start,
                           count_max=knights.COUNT_MAX_CELLS)


@bp.post("/classic/knights/count")
def knights_count():
    rows, cols, start = knights.check_board(request.form.get("rows"), request.form.get("cols"),
                                            request.form.get("start", 0), knights.COUNT_MAX_CELLS)
    if rows * cols <= knights.QUICK_COUNT_CELLS:
        return page_unless_htmx(result_fragment("classic-knights", knights.count_tours(rows, cols, start)),
                                f"Knight's tours of {rows}×{cols}")
    return job_fragment_for("classic-knights", {"rows": rows, "cols": cols, "start": start},
                            f"Counting the tours of {rows}×{cols}")


@bp.get("/api/classic/knights/steps")
def knights_steps():
    rows, cols, start = knights.check_board(request.args.get("rows", 5), request.args.get("cols", 5),
                                            request.args.get("start", 0), knights.COUNT_MAX_CELLS)
    events = knights.backtracking_steps(rows, cols, start, max_steps=20_000)
    return jsonify(rows=rows, cols=cols, start=start, events=events,
                   solved=bool(events) and events[-1]["event"] == "tour")


@bp.get("/api/classic/knights/warnsdorff")
def knights_warnsdorff():
    rows = integer(request.args, "rows", 1, knights.WARNSDORFF_MAX_SIDE, 8)
    cols = integer(request.args, "cols", 1, knights.WARNSDORFF_MAX_SIDE, 8)
    return jsonify(knights.warnsdorff_tour(rows, cols, integer(request.args, "start", 0, rows * cols - 1, 0)))


# ---- graph path search ----------------------------------------------------------------------------------------------

@bp.get("/classic/graph")
def graph_page():
    seed = graph.SEED_GRAPH
    edges = seed.edges()
    return render_template("classic/graph.html", positions=seed.positions, edges=edges,
                           costs=[seed.cost(a, b) for a, b in edges], max_nodes=graph.MAX_NODES,
                           strategies={"dfs": "Depth-first: every path", "bfs": "Breadth-first: shortest first",
                                       "ids": "Iterative deepening"})


@bp.post("/api/classic/paths")
def graph_paths():
    data = json_body()
    g = graph.graph_from_request(data)
    return jsonify(graph.search_paths(g, data.get("start", 0), data.get("goal", g.size - 1),
                                      data.get("strategy", "dfs")))
