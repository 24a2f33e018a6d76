"""The step-through's view as a query string: ``view_from_query`` reads one (the only reader), ``query_for`` writes
one (the only writer) and ``request_for`` turns it into the ``/api/step`` request that records its searches; the page
keeps its address equal to ``query_for`` of what it shows, so any step has a link. Fields:

* ``problem``: a registered domain's view (``domain_views``: the kind's name; the sliding tiles by default) or
  ``numbered-graph`` (the numbered graph drawn on the Graph page, ``NUMBERED_GRAPH``). A kind's own fields are its
  view's (``DomainKind.view``: the tiles' are ``size``, ``tiles`` or ``scramble`` and ``seed``, ``goal``,
  ``engine.domains.tiles.view``); a kind without one is given as JSON in ``data`` (without it the kind's first
  example) and ``heuristic`` one of the kind's;
* numbered-graph: ``graph``, the graph as JSON (``{"nodes": [{"name", "x", "y"}], "edges": [{"from", "to", "cost"}],
  "start", "goal"}``); without it the seed's graph from node ``from`` to node ``to``; ``heuristic`` is
  ``straight-line`` or ``zero``;
* ``algorithms``: one or two algorithm names, comma-separated; ``astar:misplaced`` runs A* with its own heuristic
  (a form may send them as ``first`` and ``second`` instead);
* ``depth_limit``: depth-first search's limit; ``step``: the step shown; ``show_h``: 1 to draw h on the board.

A kind's view codec has ``read(args) -> data``, ``write(data) -> fields``, ``form(data)`` (what its editor on the
page shows), ``request(data) -> fields`` (of ``/api/step``), ``problem(request) -> problem``, ``resolved(data,
problem) -> data`` (the data its link keeps), ``answer(problem) -> fields`` (beside the traces), ``heuristics()``
(name → label), ``default_heuristic`` and ``editor``: the template of its editor in the page's form (in
``app/templates/``, given ``name``, ``kind``, ``view`` and the form's ``forms[name]`` and ``view_heuristics[name]``;
its fields are the view's query, so the form works without JavaScript; the kind's page module binds it), or None:
the problem typed as JSON in ``data``; ``JsonView`` is the one of a kind given as JSON.

Why the numbered graph is a view of its own rather than an example of the graph kind: its problem is already the
graph kind's (``engine.domains.graph.numbered_graph`` builds a ``GraphDomain``), but what it shows is a drawing, not
data: nodes are numbers (states are ints, not names), it is edited by dragging nodes and clicking ends and costs
(``step/numbered-graph.js`` with the drawing page's ``GraphArranger``, which hands its drawing over through the
browser's storage), its ends are ``from`` and ``to`` and its costs whole numbers 1…99, as the Graph page's path
listings (``engine.subjects.classic.graph``) read them. Folding it into the graph kind's view would drop that editor
from the step-through, or put it on typed graphs whose names and coordinates it cannot keep; so it keeps its view,
under one name of its own.

Names links and records hold from before (``current_query``, ``is_numbered_request``): ``graph-data`` was the graph
kind's view, and ``graph`` with the numbered graph's fields (``from``, ``to``, ``graph``; no ``data``) was the
numbered graph's; a query the page's form sent (it names ``first``, not ``algorithms``) is always read as it is, so
switching from the numbered graph to a typed one without JavaScript, its drawing's fields still sent, stays a
switch. Every reader of a view (the page, ``/api/step``, saved views, classes, own lessons) goes through
``view_from_query``, and a saved view's address through ``current_query``, so no stored row needs rewriting.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import urlencode

from engine.core.errors import PuzzleError
from engine.core.params import choice, flag, integer, json_value, text
from engine.search.domain import DomainKind, default_kind, domain_kinds
from engine.search.record import ALGORITHMS
from engine.search.view import JsonView
from engine.subjects.classic import graph

MAX_GRAPH_TEXT = 20_000  # a graph of graph.MAX_NODES nodes and their edges, as JSON, fits with room to spare
NUMBERED_GRAPH = "numbered-graph"
#: the numbered graph's own fields in a query: a query of ``problem=graph`` with one of them (and no ``data``) is an
#: old link to the numbered graph
NUMBERED_GRAPH_FIELDS = ("from", "to", "graph")
NUMBERED_GRAPH_HEURISTICS = {"straight-line": "straight line", "zero": "none (h = 0)"}


@dataclass(frozen=True)
class View:
    """What ``/step`` shows: the problem, the algorithms and the step (the module's docstring names the fields).
    Without a problem, the default view (``default_view``); without a heuristic, the problem's view's default."""
    problem: str = ""
    algorithms: tuple[str, ...] = ("bfs", "astar")
    heuristic: str | None = None
    depth_limit: int = 12
    step: int = 0
    show_h: bool = False
    graph: dict | None = None  # None: the seed's graph, from node ``start`` to node ``end``
    start: int = 0
    end: int = 6
    #: a registered domain's view data: its view's (the tiles': size, tiles or scramble and seed, goal) or its own
    #: JSON (graph: a graph's, engine/domains/graph/model.py, or a built-in graph's name; grid: {"rows",
    #: "start", "goal", "connect"}; pancake: a list); None: the view's default (a kind's first example)
    data: object = None

    def __post_init__(self):
        if not self.problem:
            object.__setattr__(self, "problem", default_view())
        if self.heuristic is None:
            object.__setattr__(self, "heuristic", step_views()[self.problem].default_heuristic)

    def shown(self, name: str) -> object:
        """What the editor of the view named ``name`` shows of this one: None unless it is of that view, else its
        data (the numbered graph's: ``{"graph", "from", "to"}``)."""
        if name != self.problem:
            return None
        return {"graph": self.graph, "from": self.start, "to": self.end} if name == NUMBERED_GRAPH else self.data


class NumberedGraphView:
    """The numbered graph's part of the view codec's interface: what the page's form offers and draws (its query is
    read and written with the View's ``graph``, ``start`` and ``end``, above)."""

    title = "A graph of numbered nodes"
    label = "numbered graph (seed 004, or the one you drew)"
    default_heuristic = next(iter(NUMBERED_GRAPH_HEURISTICS))
    #: its editor: the ends, the heuristic and the drawing (js/step/numbered-graph.js binds it)
    editor = "step/numbered_graph_editor.html"

    def heuristics(self) -> dict[str, str]:
        return NUMBERED_GRAPH_HEURISTICS

    def form(self, data: dict | None) -> dict:
        """What its editor shows, from ``View.shown``'s ``{"graph", "from", "to"}`` (None: the seed's default)."""
        data = data or {"graph": None, "from": View.start, "to": View.end}
        drawn = data["graph"]
        return {"from": data["from"], "to": data["to"], "max_nodes": graph.MAX_NODES,
                "graph": json.dumps(drawn, separators=(",", ":")) if drawn is not None else ""}


NUMBERED_GRAPH_VIEW = NumberedGraphView()


def domain_views() -> dict[str, DomainKind]:
    """The step-through's views of registered domains (view name, the kind's own → kind), read from the registry
    each time, so a kind registered later (a test's pancake puzzle) is a view too."""
    return dict(domain_kinds())


def current_query(args):
    """A view's query with the names of old links and stored records read as today's (the module's docstring):
    ``graph-data`` is ``graph``, and ``graph`` with the numbered graph's fields is ``numbered-graph``. ``args``
    unchanged when it names no old view, else a dict of its fields."""
    problem = args.get("problem")
    if problem == "graph-data":
        problem = "graph"
    elif problem == "graph" and "data" not in args and "first" not in args \
            and any(name in args for name in NUMBERED_GRAPH_FIELDS):  # the form (its "first") says what it means
        problem = NUMBERED_GRAPH
    else:
        return args
    return {**{name: args.get(name) for name in args}, "problem": problem}


def is_numbered_request(data: dict) -> bool:
    """Whether an ``/api/step`` request is of the numbered graph: ``"problem": "numbered-graph"``, or the graph kind's
    name without the graph kind's ``"graph"`` (the request's form from before the numbered graph had a name)."""
    problem = data.get("problem")
    return problem == NUMBERED_GRAPH or (problem == "graph" and "graph" not in data)


def default_view() -> str:
    """The view ``/step`` opens with: the default kind's (``engine.search.domain.default_kind``), else the numbered
    graph."""
    kind = default_kind()
    return kind.name if kind is not None else NUMBERED_GRAPH


def view_codec(kind: DomainKind):
    """A kind's view codec: its own, else its JSON typed (``engine.search.view.JsonView``)."""
    return kind.view if kind.view is not None else JsonView(kind.name)


def step_views() -> dict[str, object]:
    """Every view ``/step`` offers, name → codec, in its menu's order: the default view first, then the numbered
    graph, then each kind by name."""
    views = {NUMBERED_GRAPH: NUMBERED_GRAPH_VIEW, **{name: view_codec(kind) for name, kind in domain_views().items()}}
    default = default_view()
    return {default: views[default], **views}


def view_heuristics(view: str) -> dict[str, str]:
    """The heuristics a view offers (name → label)."""
    return step_views()[view].heuristics()


def view_from_query(args) -> View:
    """The view a query string names (``request.args``, or any mapping of field to text); missing fields take the
    defaults the page opens with, bad ones raise ``PuzzleError`` naming the field; old links' names are read as
    today's (``current_query``)."""
    args = current_query(args)
    names = [name for name in text(args, "algorithms", 200, "").split(",") if name]
    names = names or [name for name in (args.get("first"), args.get("second")) if name] or list(View.algorithms)
    if len(names) > 2:
        raise PuzzleError("algorithms must name one or two algorithms")
    views = domain_views()
    problem = choice(args, "problem", (NUMBERED_GRAPH, *views), default_view())
    offered = view_heuristics(problem)
    for name in names:
        algorithm, _, heuristic = name.partition(":")
        if algorithm not in ALGORITHMS or (heuristic and heuristic not in offered):
            raise PuzzleError(f"unknown algorithm {name!r}; choose from {', '.join(ALGORITHMS)}")
    common = {"algorithms": tuple(names), "depth_limit": integer(args, "depth_limit", 1, 40, 12),
              "step": integer(args, "step", 0, 1_000_000, 0), "show_h": flag(args, "show_h", False)}
    if problem == NUMBERED_GRAPH:
        graph_text = text(args, "graph", MAX_GRAPH_TEXT, "")
        drawn = json_value(graph_text, "graph") if graph_text else None
        if drawn is not None and not isinstance(drawn, dict):
            raise PuzzleError("graph must be a JSON object with nodes and edges")
        return View(problem=problem, heuristic=choice(args, "heuristic", tuple(offered), "straight-line"),
                    graph=drawn, start=integer(args, "from", 0, graph.MAX_NODES - 1, 0),
                    end=integer(args, "to", 0, graph.MAX_NODES - 1, 6), **common)
    codec = view_codec(views[problem])
    return View(problem=problem, heuristic=choice(args, "heuristic", tuple(offered), codec.default_heuristic),
                data=codec.read(args), **common)


def query_for(view: View) -> str:
    """The query string of a view, fields in a fixed order and defaults left out where the page's own are meant."""
    fields: dict[str, object] = {"problem": view.problem}
    if view.problem == NUMBERED_GRAPH:
        if view.graph is None:
            fields.update({"from": view.start, "to": view.end})
        else:
            fields["graph"] = json.dumps(view.graph, separators=(",", ":"))
    else:
        fields.update(view_codec(domain_views()[view.problem]).write(view.data))
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
    if view.problem == NUMBERED_GRAPH:
        body.update(graph_request(view.graph) if view.graph is not None else {"start": view.start, "goal": view.end})
        return body
    kind = domain_views()[view.problem]
    return {**view_codec(kind).request(view.data), **body, "problem": kind.name}


def graph_request(drawn: dict) -> dict:
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
