"""The step-through teaching view and the guided lessons that drive it.

Pages: ``/step`` (pick a problem and one or two algorithms) and ``/lessons/`` (slides, each opening the step-through
on a fixed request). The browser fetches the recorded searches from ``/api/step`` (``engine.search.trace``) and replays
them; what it shows about each algorithm comes from the algorithm's own record (``engine.search.record``).
"""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, render_template

from app.api import json_body
from app.lessons import BY_SLUG, LESSONS, opening_step
from app.subjects import Subject
from engine.classic import graph
from engine.errors import PuzzleError
from engine.params import choice, integer
from engine.search.problem import GraphProblem, SlidingTileProblem
from engine.search.record import ALGORITHMS
from engine.search.trace import trace_search
from engine.tiles import Board, check_solvable, parse_goal, parse_size, parse_tiles
from engine.tiles.heuristics import heuristics
from engine.tiles.random import scramble

bp = Blueprint("step", __name__)
SUBJECTS = [
    Subject("step.step_page", "Step through", "Step through a search", "BFS, DFS, iterative deepening, A* and IDA* "
            "one node at a time on the 8-puzzle, 2×n or a graph: the frontier, the tree, two algorithms in step.",
            place=60),
    Subject("step.lessons", "Lessons", "Guided lessons", "Short slides that each open the live step-through on a "
            "chosen position: breadth-first against depth-first, A*, IDA*'s memory, heuristics compared.",
            section="step.lesson", place=60),
]

STEP_MAX_CELLS = 12  # the step-through records every node; larger boards make trees nobody can read
STEP_BOARDS = ["3x3", "2x3", "2x4", "2x5", "2x6"]


def step_heuristics() -> dict[str, str]:
    """The heuristics the step-through offers: those made for every board (name → label), from the registry."""
    return {name: record.label for name, record in heuristics().items() if record.shape is None}


def step_problem(data: dict):
    """The problem named by a step-through request, and how to show its states."""
    kind = data.get("problem", "tiles")
    if kind == "graph":
        g = graph.graph_from_request(data)
        start, goal = data.get("start", 0), data.get("goal", g.size - 1)
        for name, node in (("start", start), ("goal", goal)):
            if not isinstance(node, int) or not 0 <= node < g.size:
                raise PuzzleError(f"the {name} must be a node from 0 to {g.size - 1}")
        straight_line = data.get("heuristic", "straight-line") != "zero"
        return (GraphProblem(g.adjacency, start, goal, g.positions, straight_line, g.costs), (lambda state: state),
                g)
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
    return render_template("step.html", algorithms={name: spec.title for name, spec in ALGORITHMS.items()},
                           boards=STEP_BOARDS, heuristics=step_heuristics(), max_nodes=graph.MAX_NODES)


@bp.get("/lessons/")
def lessons():
    return render_template("lessons.html", lessons=LESSONS)


@bp.get("/lessons/<slug>/<int:number>")
def lesson_slide(slug: str, number: int):
    lesson = BY_SLUG.get(slug)
    if lesson is None or not 1 <= number <= len(lesson.slides):
        abort(404)
    return render_template("lesson.html", lesson=lesson, slide=lesson.slides[number - 1], number=number)


def step_traces(data: dict) -> tuple[object, graph.Graph | None, list[dict]]:
    """The problem a step-through request names, its graph (if it is one) and one recorded trace per algorithm."""
    names = data["algorithms"] if "algorithms" in data else [data.get("algorithm", "bfs")]
    if not isinstance(names, list) or not 1 <= len(names) <= 2 or not all(isinstance(n, str) for n in names):
        raise PuzzleError("algorithms must name one or two algorithms")
    problem, encode, g = step_problem(data)
    limit = integer(data, "depth_limit", 1, 40, 12)
    return problem, g, [trace_search(_with_heuristic(problem, name), name.partition(":")[0], encode, depth_limit=limit)
                        for name in names]


@bp.post("/api/step")
def step_api():
    """The recorded searches; with ``open_at`` (a lesson slide's opening), also the step the player opens at."""
    data = json_body()
    problem, g, traces = step_traces(data)
    answer = {"problem": data.get("problem", "tiles"), "traces": traces}
    if "open_at" in data:
        answer["open_step"] = opening_step(data["open_at"], traces)
    if isinstance(problem, SlidingTileProblem):
        answer.update(rows=problem.initial.rows, cols=problem.initial.cols, start=list(problem.initial.cells),
                      goal=list(problem.goal.cells))
    else:
        answer.update(adjacency=[list(a) for a in g.adjacency], positions=[list(p) for p in g.positions],
                      costs=[[a, b, g.cost(a, b)] for a, b in g.edges()], start=problem.initial, goal=problem.goal)
    return jsonify(answer)
