"""The step-through teaching view and the guided lessons that drive it: the pages and the API.

Pages: ``/step`` (pick a problem and one or two algorithms), ``/step/compare`` (solvers side by side on a view's
problem) and ``/lessons/`` (slides, each opening the step-through on a fixed request). The browser fetches the
recorded searches from ``/api/step`` (``app.step_search``, ``engine.search.trace``) and replays them; what it shows
about each algorithm comes from the algorithm's own record (``engine.search.record``). A view is its query string
(``app.step_view``: the one reader and the one writer).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from flask import Blueprint, abort, jsonify, render_template, request, url_for

from app.job_pages import result_fragment
from app.lessons import BY_SLUG, LESSONS, neighbours, opening_step
from app.numbered_graph import NUMBERED_GRAPH, NUMBERED_GRAPH_VIEW
from app.race import bar_width, effective_branching_factor, race_link, race_rows, uses_log_scale
from app.solve_api import json_body
from app.step_search import step_traces, view_name
from app.step_view import (
    View,
    default_view,
    domain_views,
    query_for,
    request_for,
    step_views,
    view_codec,
    view_from_query,
    view_heuristics,
)
from app.subjects import Subject
from app.submit import compare_request, page_unless_htmx, progress_fragment
from engine.core.errors import PuzzleError
from engine.core.params import flag, integer, text
from engine.domains import graph as graph_examples
from engine.search.domain_solve import generic_label
from engine.search.jobs import kind_jobs
from engine.search.record import ALGORITHMS
from engine.search.solve import problem_solvers

bp = Blueprint("step", __name__)
# the compare page's rows and its "why" (app/race.py)
for figure in (effective_branching_factor, uses_log_scale, bar_width, race_rows, race_link):
    bp.add_app_template_global(figure)
# a graph's or grid's race names its solvers as the step-through's menus do (partials/problem_results.html)
bp.add_app_template_global(generic_label)
SUBJECTS = [
    Subject("step.step_page", "Step through", "Step through a search", "BFS, DFS, iterative deepening, A* and IDA* "
            "one node at a time on the 8-puzzle, 2×n or a graph: the frontier, the tree, two algorithms in step.",
            place=60),
    Subject("step.lessons", "Lessons", "Guided lessons", "Short slides that each open the live step-through on a "
            "chosen position: breadth-first against depth-first, A*, IDA*'s memory, heuristics compared.",
            section="step.lesson", place=60),
]

STEP_JS = Path(__file__).parent / "static" / "js" / "step"


@bp.app_template_global()
def step_domains() -> dict[str, dict]:
    """What the page needs to show each view (js/step/page.js reads it from the stage): its picture module,
    ``js/step/<view>.js`` when the file exists (else None: the page draws the state's JSON with ``generic.js``), its
    title and whether ``/step/compare`` races its solvers (every registered kind)."""
    kinds = domain_views()
    views = {NUMBERED_GRAPH: NUMBERED_GRAPH_VIEW.title, **{name: kind.title for name, kind in kinds.items()}}
    return {view: {"module": url_for("static", filename=f"js/step/{view}.js") if (STEP_JS / f"{view}.js").is_file()
                   else None, "title": title, "compare": view in kinds}
            for view, title in views.items()}


@bp.get("/step")
def step_page():
    view = view_from_query(request.args)
    return render_step_page(view, {"step": view.step, "show_h": view.show_h} if request.args else None)


def render_step_page(view: View, config: dict | None, presenting: bool = False):
    """The step-through page showing ``view``; ``config``: the step and options the player opens at (and, for a saved
    view, its record and that it opens presenting); ``presenting``: the stage first, the form folded away."""
    algorithms = {name: spec.title for name, spec in ALGORITHMS.items()}
    for name in view.algorithms:  # a link may pair A* with a heuristic of its own ("astar:misplaced")
        algorithm, _, heuristic = name.partition(":")
        if heuristic:
            label = view_heuristics(view.problem)[heuristic]
            algorithms.setdefault(name, f"{ALGORITHMS[algorithm].title} · h = {label}")
    # each view's editor, what it shows and the heuristics it offers, in the Problem menu's order
    codecs = step_views()
    return render_template("step/index.html", algorithms=algorithms, step_views=codecs, default_view=default_view(),
                           forms={name: codec.form(view.shown(name)) for name, codec in codecs.items()},
                           view_heuristics={name: codec.heuristics() for name, codec in codecs.items()},
                           view=view, config=config, presenting=presenting)


@bp.get("/lessons/")
def lessons():
    return render_template("step/lessons.html", lessons=LESSONS)


@bp.get("/lessons/<slug>/<int:number>")
def lesson_slide(slug: str, number: int):
    lesson = BY_SLUG.get(slug)
    if lesson is None or not 1 <= number <= len(lesson.slides):
        abort(404)
    at = integer(request.args, "step", 0, 1_000_000, None)  # a link to one step of the slide
    before, after = neighbours(slug, number)
    titles = {lesson.slug: lesson.title for lesson in LESSONS}

    def link(place):
        return url_for("step.lesson_slide", slug=place[0], number=place[1])

    return render_template(
        "step/lesson.html", lesson=lesson, slide=lesson.slides[number - 1], number=number, at=at,
        show_h=flag(request.args, "show_h", False), home=url_for("step.lessons"),
        prev_link=(link(before), "← Previous slide" if before[0] == slug else "← Previous lesson") if before else None,
        next_link=(link(after), "Next slide →" if after[0] == slug else f"Next lesson: {titles[after[0]]} →", True)
        if after else (url_for("step.lessons"), "All lessons", False))


#: each solver's budget on the compare page: a depth-first search on a grid would take the API's whole default minute
PAGE_COMPARE_BUDGET = {"max_nodes": 1_000_000, "max_seconds": 10.0}


@bp.get("/step/compare")
def compare_solvers():
    """Solvers side by side on the problem of a step-through view of a registered domain (its query, as the page's
    address holds it): ``solvers`` names them, comma-separated; without it every solver offered (as many as the
    kind's compare takes), each within ``PAGE_COMPARE_BUDGET``. Answered at once when quick, else the compare job's
    progress."""
    return compare_page(request.args)


def compare_page(args):
    """The race of ``/step/compare`` for a query (``request.args``, or a saved race's fields)."""
    view = view_from_query(args)
    if view.problem not in domain_views():
        raise PuzzleError("solvers are compared here on a problem of a registered domain (not the numbered graph)")
    kind = domain_views()[view.problem]
    params = {key: value for key, value in request_for(view).items() if key != "algorithms"}
    problem = view_codec(kind).problem(params)
    params.update(view_codec(kind).resolved(params, problem))  # a scramble's position, as it came out
    chosen = [name for name in text(args, "solvers", 400, "").split(",") if name]
    # by default the searches the step-through shows (a kind's own solver may run one under its name) come first
    offered = list(problem_solvers(problem))
    offered = [name for name in offered if name in ALGORITHMS] + [name for name in offered if name not in ALGORITHMS]
    params.update(solvers=chosen or offered[:kind_jobs(params).max_compare],
                  depth_limit=view.depth_limit, **PAGE_COMPARE_BUDGET)
    answer = compare_request(params)
    title = f"Solvers compared: {kind.title[0].lower()}{kind.title[1:]}"
    if answer.result is not None:
        return page_unless_htmx(result_fragment("compare", answer.result), title)
    return page_unless_htmx(progress_fragment(answer.job_id, title), title, url_for("jobs.show", job_id=answer.job_id))


@bp.get("/api/step/graphs/<name>")
def example_graph(name: str):
    """A built-in graph's JSON (engine/domains/graph/model.py), for the step-through's graph editor to load."""
    return jsonify(graph_examples.example(name))


@bp.get("/api/step")
def step_view_api():
    """The recorded searches of a view given as ``/step``'s query, and that view's own query (``view``: its link,
    with a scramble written as the tiles it gives)."""
    view = view_from_query(request.args)
    codec = view_codec(domain_views()[view.problem]) if view.problem in domain_views() else None
    return step_answer(request_for(view), lambda problem: query_for(
        replace(view, data=codec.resolved(view.data, problem)) if codec else view))


@bp.post("/api/step")
def step_api():
    """The recorded searches; with ``open_at`` (a lesson slide's opening), also the step the player opens at."""
    return step_answer(json_body())


def step_answer(data: dict, link=None):
    problem, g, traces = step_traces(data)
    answer: dict[str, object] = {"problem": view_name(data), "traces": traces}
    if link is not None:
        answer["view"] = link(problem)
    if "open_at" in data:
        answer["open_step"] = opening_step(data["open_at"], traces)
    if g is None:  # what the kind's view draws beside the traces (a board's size, start and goal)
        answer.update(view_codec(domain_views()[view_name(data)]).answer(problem))
    else:
        answer.update(adjacency=[list(a) for a in g.adjacency], positions=[list(p) for p in g.positions],
                      costs=[[a, b, g.cost(a, b)] for a, b in g.edges()], start=problem.initial, goal=problem.goal)
    return jsonify(answer)
