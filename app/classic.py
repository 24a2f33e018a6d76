"""Classic search (seed 004) and the step-through teaching view.

Pages: ``/classic/`` (index), ``/classic/queens``, ``/classic/knights``, ``/classic/graph``, ``/step``. The browser
fetches the recorded steps as JSON (``/api/classic/...``, ``/api/step``) and replays them; counts that would take
more than a moment run as background jobs.
"""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, render_template, request

from app.api import json_body
from app.jobs import result_fragment
from app.lessons import BY_SLUG, LESSONS
from app.solving import job_fragment_for
from app.subjects import Subject
from engine.classic import graph, knights, queens
from engine.classic.jobs import queens_comparison
from engine.errors import PuzzleError
from engine.params import choice, integer
from engine.search.problem import GraphProblem, SlidingTileProblem
from engine.search.trace import ALGORITHMS, trace_search
from engine.tiles import Board, check_solvable, parse_goal, parse_size, parse_tiles
from engine.tiles.heuristics import heuristics
from engine.tiles.random import scramble

bp = Blueprint("classic", __name__)
SUBJECTS = [
    Subject("classic.step_page", "Step through", "Step through a search", "BFS, DFS, iterative deepening, A* and IDA* "
            "one node at a time on the 8-puzzle, 2×n or a graph: the frontier, the tree, two algorithms in step."),
    Subject("classic.lessons", "Lessons", "Guided lessons", "Short slides that each open the live step-through on a "
            "chosen position: breadth-first against depth-first, A*, IDA*'s memory, heuristics compared.",
            section="classic.lesson"),
    Subject("classic.index", "Classic", "Classic search", "N queens three ways (pruning pays), the knight's tour (304 "
            "from a corner of 5×5) and every path through a graph, animated step by step.", section="classic."),
]

STEP_MAX_CELLS = 12  # the step-through records every node; larger boards make trees nobody can read
STEP_BOARDS = ["3x3", "2x3", "2x4", "2x5", "2x6"]


def step_heuristics() -> dict[str, str]:
    """The heuristics the step-through offers: those made for every board (name → label), from the registry."""
    return {name: record.label for name, record in heuristics().items() if record.shape is None}


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
        return result_fragment("classic-queens", queens_comparison(n, methods))
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
        return result_fragment("classic-knights", knights.count_tours(rows, cols, start))
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

def _graph_from_json(data: dict) -> graph.Graph:
    if "nodes" not in data and "edges" not in data:
        return graph.SEED_GRAPH
    return graph.graph_from(data.get("nodes"), data.get("edges"), data.get("positions"))


@bp.get("/classic/graph")
def graph_page():
    seed = graph.SEED_GRAPH
    edges = sorted({(min(a, b), max(a, b)) for a in range(seed.size) for b in seed.adjacency[a]})
    return render_template("classic/graph.html", positions=seed.positions, edges=edges, max_nodes=graph.MAX_NODES,
                           strategies={"dfs": "Depth-first: every path", "bfs": "Breadth-first: shortest first",
                                       "ids": "Iterative deepening"})


@bp.post("/api/classic/paths")
def graph_paths():
    data = json_body()
    g = _graph_from_json(data)
    return jsonify(graph.search_paths(g, data.get("start", 0), data.get("goal", g.size - 1),
                                      data.get("strategy", "dfs")))


# ---- step-through -------------------------------------------------------------------------------------------------

def step_problem(data: dict):
    """The problem named by a step-through request, and how to show its states."""
    kind = data.get("problem", "tiles")
    if kind == "graph":
        g = _graph_from_json(data)
        start, goal = data.get("start", 0), data.get("goal", g.size - 1)
        for name, node in (("start", start), ("goal", goal)):
            if not isinstance(node, int) or not 0 <= node < g.size:
                raise PuzzleError(f"the {name} must be a node from 0 to {g.size - 1}")
        straight_line = data.get("heuristic", "straight-line") != "zero"
        return GraphProblem(g.adjacency, start, goal, g.positions, straight_line), (lambda state: state), g
    if kind != "tiles":
        raise PuzzleError("problem must be 'tiles' or 'graph'")
    rows, cols = parse_size(str(data.get("size", "3x3")))
    if rows * cols > STEP_MAX_CELLS:
        raise PuzzleError(f"the step-through is offered for boards of at most {STEP_MAX_CELLS} cells "
                          f"({rows}x{cols} has {rows * cols}); solve larger boards on the Play page")
    goal = parse_goal(data.get("goal", "blank-last"), rows, cols)
    if data.get("tiles") not in (None, ""):
        board = Board(rows, cols, parse_tiles(data["tiles"], rows, cols))
    else:  # no position given: a no-revisit scramble of the goal (default 4 moves, small enough to read)
        moves = integer(data, "scramble", 0, 30, 4)
        seed = data.get("seed")
        board = scramble(goal, moves, seed if isinstance(seed, int) else None)[0]
    verdict = check_solvable(board, goal)
    if not verdict.solvable:
        raise PuzzleError(f"this position cannot reach the goal. {verdict.explanation}")
    heuristic = choice(data, "heuristic", tuple(step_heuristics()), "manhattan")
    return SlidingTileProblem(board, goal, heuristic), (lambda s: list(s.cells)), None


def _with_heuristic(problem, name: str):
    """"astar:misplaced" runs A* with its own h, so two panels can compare heuristics on one position."""
    heuristic = name.partition(":")[2]
    if not heuristic:
        return problem
    if not isinstance(problem, SlidingTileProblem) or heuristic not in step_heuristics():
        raise PuzzleError(f"unknown heuristic {heuristic!r} for this problem")
    return SlidingTileProblem(problem.initial, problem.goal, heuristic)


@bp.get("/step")
def step_page():
    return render_template("step.html", algorithms=ALGORITHMS, boards=STEP_BOARDS, heuristics=step_heuristics(),
                           max_nodes=graph.MAX_NODES)


@bp.get("/lessons/")
def lessons():
    return render_template("lessons.html", lessons=LESSONS)


@bp.get("/lessons/<slug>/<int:number>")
def lesson_slide(slug: str, number: int):
    lesson = BY_SLUG.get(slug)
    if lesson is None or not 1 <= number <= len(lesson.slides):
        abort(404)
    return render_template("lesson.html", lesson=lesson, slide=lesson.slides[number - 1], number=number)


@bp.post("/api/step")
def step_api():
    data = json_body()
    names = data["algorithms"] if "algorithms" in data else [data.get("algorithm", "bfs")]
    if not isinstance(names, list) or not 1 <= len(names) <= 2 or not all(isinstance(n, str) for n in names):
        raise PuzzleError("algorithms must name one or two algorithms")
    problem, encode, g = step_problem(data)
    limit = integer(data, "depth_limit", 1, 40, 12)
    traces = [trace_search(_with_heuristic(problem, name), name.partition(":")[0], encode, depth_limit=limit)
              for name in names]
    answer = {"problem": data.get("problem", "tiles"), "traces": traces}
    if isinstance(problem, SlidingTileProblem):
        answer.update(rows=problem.initial.rows, cols=problem.initial.cols, start=list(problem.initial.cells),
                      goal=list(problem.goal.cells))
    else:
        answer.update(adjacency=[list(a) for a in g.adjacency], positions=[list(p) for p in g.positions],
                      start=problem.initial, goal=problem.goal)
    return jsonify(answer)
