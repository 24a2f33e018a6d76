"""The step-through teaching view and the guided lessons that drive it.

Pages: ``/step`` (pick a problem and one or two algorithms) and ``/lessons/`` (slides, each opening the step-through
on a fixed request). The browser fetches the recorded searches from ``/api/step`` (``engine.search.trace``) and replays
them; what it shows about each algorithm comes from the algorithm's own record (``engine.search.record``).

A view of ``/step`` is its query string, so any step has a link. ``view_from_query`` reads one (the only reader) and
``query_for`` writes one (the only writer); the page keeps its address equal to ``query_for`` of what it shows. Fields:

* ``problem``: ``tiles`` (the default), ``graph`` (numbered nodes) or a registered domain's view (``domain_views``:
  the kind's name, ``graph-data`` for the graph kind), its JSON in ``data`` (without it the kind's first example) and
  ``heuristic`` one of the kind's;
* tiles: ``size`` (``3x3``, ``2x4``, …), ``tiles`` (the start, ``8,1,3,4,0,2,7,6,5``; without it a no-revisit
  scramble of ``scramble`` moves with random seed ``seed``, which the formatter writes as the tiles it gives),
  ``goal`` (``blank-last`` or ``blank-first``), ``heuristic`` (a registered heuristic's name);
* graph: ``graph``, the graph as JSON (``{"nodes": [{"name", "x", "y"}], "edges": [{"from", "to", "cost"}],
  "start", "goal"}``); without it the seed's graph from node ``from`` to node ``to``; ``heuristic`` is
  ``straight-line`` or ``zero``;
* ``algorithms``: one or two algorithm names, comma-separated; ``astar:misplaced`` runs A* with its own heuristic
  (a form may send them as ``first`` and ``second`` instead);
* ``depth_limit``: depth-first search's limit; ``step``: the step shown; ``show_h``: 1 to draw h on the board.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import urlencode

from flask import Blueprint, abort, jsonify, render_template, request, url_for

from app.job_pages import result_fragment
from app.lessons import BY_SLUG, LESSONS, neighbours, opening_step
from app.race import bar_width, effective_branching_factor, race_link, race_rows, uses_log_scale
from app.solve_api import json_body
from app.subjects import Subject
from app.submit import compare_request, page_unless_htmx, progress_fragment
from engine.core.errors import PuzzleError
from engine.core.params import choice, flag, integer, json_value, text
from engine.domains import graph as graph_examples
from engine.domains.graph import numbered_graph
from engine.domains.tiles import Board, check_solvable, parse_goal, parse_size, parse_tiles
from engine.domains.tiles.heuristics import heuristics
from engine.domains.tiles.problem import SlidingTileProblem
from engine.domains.tiles.random import scramble
from engine.search.domain import DomainKind, domain_kind, domain_kinds
from engine.search.jobs import MAX_COMPARE, build_problem
from engine.search.record import ALGORITHMS
from engine.search.solve import problem_solvers
from engine.search.trace import trace_search
from engine.subjects.classic import graph

bp = Blueprint("step", __name__)
# the compare page's rows and its "why" (app/race.py)
for figure in (effective_branching_factor, uses_log_scale, bar_width, race_rows, race_link):
    bp.add_app_template_global(figure)
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
    """The problem named by a step-through request, and the numbered graph it was drawn as (if it was)."""
    kind = data.get("problem", "tiles")
    if kind not in ("tiles", "graph") or (kind == "graph" and "graph" in data):  # a domain's own JSON
        if kind not in domain_kinds():
            shown = repr(kind) if isinstance(kind, str) and len(kind) <= 40 else "that"
            raise PuzzleError(f"problem must be 'tiles' or one of {', '.join(map(repr, domain_kinds()))} (not {shown})")
        return domain_kind(kind).build(data), None
    if kind == "graph":
        g = graph.graph_from_request(data)
        start, goal = data.get("start", 0), data.get("goal", g.size - 1)
        for name, node in (("start", start), ("goal", goal)):
            if not isinstance(node, int) or not 0 <= node < g.size:
                raise PuzzleError(f"the {name} must be a node from 0 to {g.size - 1}")
        straight_line = data.get("heuristic", "straight-line") != "zero"
        return numbered_graph(g.adjacency, start, goal, g.positions, straight_line, g.costs), g
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
    return SlidingTileProblem(board, goal, heuristic), None


MAX_GRAPH_TEXT = 20_000  # a graph of graph.MAX_NODES nodes and their edges, as JSON, fits with room to spare


@dataclass(frozen=True)
class View:
    """What ``/step`` shows: the problem, the algorithms and the step (the module's docstring names the fields)."""
    problem: str = "tiles"
    algorithms: tuple[str, ...] = ("bfs", "astar")
    heuristic: str = "manhattan"
    depth_limit: int = 12
    step: int = 0
    show_h: bool = False
    size: str = "3x3"
    tiles: tuple[int, ...] | None = None
    scramble: int = 4
    seed: int = 1
    goal: str = "blank-last"
    graph: dict | None = None  # None: the seed's graph, from node ``start`` to node ``end``
    start: int = 0
    end: int = 6
    #: a registered domain's own JSON (graph-data: a graph's, engine/domains/graph/model.py, or a built-in graph's
    #: name; grid: {"rows", "start", "goal", "connect"}; pancake: a list); None: the kind's first example
    data: object = None


MAX_DATA_TEXT = 100_000  # a typed graph of a few hundred nodes, or a 64×64 grid, as JSON
#: views named apart from their kind: "graph" is the numbered graph drawn on the Graph page, so the registered graph
#: kind (a graph typed as data) is shown as "graph-data"
VIEW_NAMES = {"graph": "graph-data"}


def domain_views() -> dict[str, DomainKind]:
    """The step-through's views of registered domains (view name → kind), read from the registry each time, so a
    kind registered later (a test's pancake puzzle) is a view too."""
    return {VIEW_NAMES.get(name, name): kind for name, kind in domain_kinds().items() if name != "tiles"}


STEP_JS = Path(__file__).parent / "static" / "js" / "step"


@bp.app_template_global()
def step_domains() -> dict[str, dict]:
    """What the page needs to show each view (js/step/page.js reads it from the stage): its picture module,
    ``js/step/<view>.js`` when the file exists (else None: the page draws the state's JSON with ``generic.js``), its
    title and whether ``/step/compare`` races its solvers (every registered kind; tiles have their Compare page)."""
    kinds = domain_views()
    views = {"tiles": "Sliding tiles", "graph": "A graph of numbered nodes",
             **{name: kind.title for name, kind in kinds.items()}}
    return {view: {"module": url_for("static", filename=f"js/step/{view}.js") if (STEP_JS / f"{view}.js").is_file()
                   else None, "title": title, "compare": view in kinds}
            for view, title in views.items()}


def view_from_query(args) -> View:
    """The view a query string names (``request.args``, or any mapping of field to text); missing fields take the
    defaults the page opens with, bad ones raise ``PuzzleError`` naming the field."""
    names = [name for name in text(args, "algorithms", 200, "").split(",") if name]
    names = names or [name for name in (args.get("first"), args.get("second")) if name] or list(View.algorithms)
    if len(names) > 2:
        raise PuzzleError("algorithms must name one or two algorithms")
    for name in names:
        algorithm, _, heuristic = name.partition(":")
        if algorithm not in ALGORITHMS or (heuristic and heuristic not in step_heuristics()):
            raise PuzzleError(f"unknown algorithm {name!r}; choose from {', '.join(ALGORITHMS)}")
    common = {"algorithms": tuple(names), "depth_limit": integer(args, "depth_limit", 1, 40, 12),
              "step": integer(args, "step", 0, 1_000_000, 0), "show_h": flag(args, "show_h", False)}
    views = domain_views()
    problem = choice(args, "problem", ("tiles", "graph", *views), "tiles")
    if problem in views:  # a domain's own JSON, or its example
        data_text = text(args, "data", MAX_DATA_TEXT, "")
        as_json = data_text.startswith(("{", "["))
        data = json_value(data_text, f"data (the {problem})") if as_json else (data_text or None)
        return View(problem=problem, heuristic=choice(args, "heuristic", views[problem].heuristics, ""),
                    data=data, **common)
    if problem == "graph":
        graph_text = text(args, "graph", MAX_GRAPH_TEXT, "")
        drawn = json_value(graph_text, "graph") if graph_text else None
        if drawn is not None and not isinstance(drawn, dict):
            raise PuzzleError("graph must be a JSON object with nodes and edges")
        return View(problem="graph", heuristic=choice(args, "heuristic", ("straight-line", "zero"), "straight-line"),
                    graph=drawn, start=integer(args, "from", 0, graph.MAX_NODES - 1, 0),
                    end=integer(args, "to", 0, graph.MAX_NODES - 1, 6), **common)
    size = text(args, "size", 10, "3x3")
    tiles = text(args, "tiles", 400, "").strip()
    return View(problem="tiles", heuristic=choice(args, "heuristic", tuple(step_heuristics()), "manhattan"),
                size=size, tiles=tuple(parse_tiles(tiles, *parse_size(size))) if tiles else None,
                scramble=integer(args, "scramble", 0, 30, 4), seed=integer(args, "seed", 0, 2**31 - 1, 1),
                goal=choice(args, "goal", ("blank-last", "blank-first"), "blank-last"), **common)


def query_for(view: View) -> str:
    """The query string of a view, fields in a fixed order and defaults left out where the page's own are meant."""
    fields: dict[str, object] = {"problem": view.problem}
    if view.problem in domain_views():
        if view.data is not None:
            fields["data"] = view.data if isinstance(view.data, str) else json.dumps(view.data, separators=(",", ":"))
    elif view.problem == "graph":
        if view.graph is None:
            fields.update({"from": view.start, "to": view.end})
        else:
            fields["graph"] = json.dumps(view.graph, separators=(",", ":"))
    else:
        fields["size"] = view.size
        if view.tiles is None:
            fields.update(scramble=view.scramble, seed=view.seed)
        else:
            fields["tiles"] = ",".join(map(str, view.tiles))
        fields["goal"] = view.goal
    fields["algorithms"] = ",".join(view.algorithms)
    if view.heuristic:
        fields["heuristic"] = view.heuristic
    fields["depth_limit"] = view.depth_limit
    if view.show_h:
        fields["show_h"] = 1
    fields["step"] = view.step
    return urlencode(fields, safe=",:")


def request_for(view: View) -> dict:
    """The ``/api/step`` request that records a view's searches."""
    body = {"problem": view.problem, "algorithms": list(view.algorithms), "depth_limit": view.depth_limit}
    if view.heuristic:
        body["heuristic"] = view.heuristic
    kind = domain_views().get(view.problem)
    if kind is not None:
        body["problem"] = kind.name
        if view.data is None:  # the kind's first example (its heuristic too, unless the view names one)
            body = {**(kind.examples[0] if kind.examples else {}), **body}
        else:
            body[kind.name] = view.data
    elif view.problem == "graph":
        body.update(_graph_request(view.graph) if view.graph is not None else {"start": view.start, "goal": view.end})
    else:
        body.update(size=view.size, goal=view.goal)
        body.update({"tiles": list(view.tiles)} if view.tiles is not None else {"scramble": view.scramble,
                                                                               "seed": view.seed})
    return body


def _graph_request(drawn: dict) -> dict:
    """A graph as JSON (names, positions, costs) in the request form ``engine.subjects.classic.graph`` reads: nodes by
    their place in the list."""
    nodes, edges = drawn.get("nodes"), drawn.get("edges")
    if not isinstance(nodes, list) or not isinstance(edges, list) or not all(isinstance(n, dict) for n in nodes) \
            or not all(isinstance(e, dict) for e in edges):
        raise PuzzleError("graph must have a list of nodes and a list of edges, each an object")
    index = {str(node.get("name")): i for i, node in enumerate(nodes)}

    def place(name: object, what: str) -> int:
        if str(name) not in index:
            raise PuzzleError(f"the graph's {what} {name!r} is not one of its nodes")
        return index[str(name)]

    return {"nodes": len(nodes), "positions": [[node.get("x", 50), node.get("y", 50)] for node in nodes],
            "edges": [[place(e.get("from"), "edge end"), place(e.get("to"), "edge end")] for e in edges],
            "costs": [e.get("cost", 1) for e in edges],
            "start": place(drawn.get("start"), "start"), "goal": place(drawn.get("goal"), "goal")}


def _resolved(view: View, problem) -> View:
    """The view with its scramble replaced by the position it gives, so its link shows that board for good."""
    if isinstance(problem, SlidingTileProblem) and view.tiles is None:
        return replace(view, tiles=tuple(problem.initial.cells))
    return view


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
    view = view_from_query(request.args)
    return render_step_page(view, {"step": view.step, "show_h": view.show_h} if request.args else None)


def render_step_page(view: View, config: dict | None, presenting: bool = False):
    """The step-through page showing ``view``; ``config``: the step and options the player opens at (and, for a saved
    view, its record and that it opens presenting); ``presenting``: the stage first, the form folded away."""
    if view.graph is not None:  # the form's ends are the drawn graph's, by their place in its list
        ends = _graph_request(view.graph)
        view = replace(view, start=ends["start"], end=ends["goal"])
    algorithms = {name: spec.title for name, spec in ALGORITHMS.items()}
    for name in view.algorithms:  # a link may pair A* with a heuristic of its own ("astar:misplaced")
        algorithm, _, heuristic = name.partition(":")
        if heuristic:
            algorithms.setdefault(name, f"{ALGORITHMS[algorithm].title} · h = {step_heuristics()[heuristic]}")
    views = domain_views()  # a kind without an editor of its own is typed as JSON, its first example shown as a hint
    example_text = {name: json.dumps(kind.examples[0].get(kind.name)) if kind.examples else "" for name, kind in
                    views.items()}
    return render_template("step/index.html", algorithms=algorithms, boards=STEP_BOARDS, heuristics=step_heuristics(),
                           domain_views=views, example_text=example_text, max_nodes=graph.MAX_NODES, view=view,
                           graph_text=json.dumps(view.graph, separators=(",", ":")) if view.graph else "",
                           data_text=view.data if isinstance(view.data, str) else
                           json.dumps(view.data, separators=(",", ":")) if view.data else "",
                           config=config, presenting=presenting)


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


def step_traces(data: dict) -> tuple[object, graph.Graph | None, list[dict]]:
    """The problem a step-through request names, its graph (if it is one) and one recorded trace per algorithm."""
    names = data["algorithms"] if "algorithms" in data else [data.get("algorithm", "bfs")]
    if not isinstance(names, list) or not 1 <= len(names) <= 2 or not all(isinstance(n, str) for n in names):
        raise PuzzleError("algorithms must name one or two algorithms")
    problem, g = step_problem(data)
    limit = integer(data, "depth_limit", 1, 40, 12)
    return problem, g, [trace_search(_with_heuristic(problem, name), name.partition(":")[0], depth_limit=limit)
                        for name in names]


#: each solver's budget on the compare page: a depth-first search on a grid would take the API's whole default minute
PAGE_COMPARE_BUDGET = {"max_nodes": 1_000_000, "max_seconds": 10.0}


@bp.get("/step/compare")
def compare_solvers():
    """Solvers side by side on the problem of a step-through view of a typed graph or a grid (its query, as the page's
    address holds it): ``solvers`` names them, comma-separated; without it every solver offered, each within
    ``PAGE_COMPARE_BUDGET``. Answered at once when quick, else the compare job's progress."""
    return compare_page(request.args)


def compare_page(args):
    """The race of ``/step/compare`` for a query (``request.args``, or a saved race's fields)."""
    view = view_from_query(args)
    if view.problem not in domain_views():
        raise PuzzleError("solvers are compared here on a problem of a registered domain; compare tile solvers on the "
                          "Compare page")
    body = request_for(view)
    problem, params = build_problem(body)
    chosen = [name for name in text(args, "solvers", 400, "").split(",") if name]
    params.update(solvers=chosen or list(problem_solvers(problem))[:MAX_COMPARE], depth_limit=view.depth_limit,
                  **PAGE_COMPARE_BUDGET)
    answer = compare_request(params)
    title = f"Solvers compared on this {params['problem']}"
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
    return step_answer(request_for(view), lambda problem: query_for(_resolved(view, problem)))


@bp.post("/api/step")
def step_api():
    """The recorded searches; with ``open_at`` (a lesson slide's opening), also the step the player opens at."""
    return step_answer(json_body())


def step_answer(data: dict, link=None):
    problem, g, traces = step_traces(data)
    kind = data.get("problem", "tiles")
    # a registered kind answers as its view (a graph given as data as "graph-data", apart from the numbered graph)
    answer = {"problem": VIEW_NAMES.get(kind, kind) if g is None else kind, "traces": traces}
    if link is not None:
        answer["view"] = link(problem)
    if "open_at" in data:
        answer["open_step"] = opening_step(data["open_at"], traces)
    if isinstance(problem, SlidingTileProblem):
        answer.update(rows=problem.initial.rows, cols=problem.initial.cols, start=list(problem.initial.cells),
                      goal=list(problem.goal.cells))
    elif g is not None:
        answer.update(adjacency=[list(a) for a in g.adjacency], positions=[list(p) for p in g.positions],
                      costs=[[a, b, g.cost(a, b)] for a, b in g.edges()], start=problem.initial, goal=problem.goal)
    return jsonify(answer)
