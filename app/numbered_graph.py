"""The step-through's view of the numbered graph drawn on the Graph page (``numbered-graph``), and the names links
and records hold from before it had one.

Why the numbered graph is a view of its own rather than an example of the graph kind: its problem is already the
graph kind's (``engine.domains.graph.numbered_graph`` builds a ``GraphDomain``), but what it shows is a drawing, not
data: nodes are numbers (states are ints, not names), it is edited by dragging nodes and clicking ends and costs
(``step/numbered-graph.js`` with the drawing page's ``GraphArranger``, which hands its drawing over through the
browser's storage), its ends are ``from`` and ``to`` and its costs whole numbers 1…99, as the Graph page's path
listings (``engine.subjects.classic.graph``) read them. Folding it into the graph kind's view would drop that editor
from the step-through, or put it on typed graphs whose names and coordinates it cannot keep; so it keeps its view,
under one name of its own.

Its fields: ``graph``, the drawing as JSON (``{"nodes": [{"name", "x", "y"}], "edges": [{"from", "to", "cost"}],
"start", "goal"}``); without it the seed's graph from node ``from`` to node ``to``; ``heuristic`` is
``straight-line`` or ``zero``. Its codec's data is ``{"graph", "from", "to"}`` (``app.step_view.View.shown``).

Names links and records hold from before (``current_query``, ``is_numbered_request``): ``graph-data`` was the graph
kind's view, and ``graph`` with the numbered graph's fields (``from``, ``to``, ``graph``; no ``data``) was the
numbered graph's; a query the page's form sent (it names ``first``, not ``algorithms``) is always read as it is, so
switching from the numbered graph to a typed one without JavaScript, its drawing's fields still sent, stays a
switch. Every reader of a view (the page, ``/api/step``, saved views, classes, own lessons) goes through
``app.step_view.view_from_query``, and a saved view's address through ``current_query``, so no stored row needs
rewriting.
"""

from __future__ import annotations

import json

from engine.core.errors import PuzzleError
from engine.core.params import integer, json_value, text
from engine.subjects.classic import graph

NUMBERED_GRAPH = "numbered-graph"
#: the numbered graph's own fields in a query: a query of ``problem=graph`` with one of them (and no ``data``) is an
#: old link to the numbered graph
NUMBERED_GRAPH_FIELDS = ("from", "to", "graph")
MAX_GRAPH_TEXT = 20_000  # a graph of graph.MAX_NODES nodes and their edges, as JSON, fits with room to spare
FROM, TO = 0, 6  # the seed's ends, the lecture's


class NumberedGraphView:
    """The numbered graph's view codec (``app/step_view.py`` writes the interface; the module's docstring names the
    fields); its problem is built by ``app.step_search.step_problem``, which draws it as numbered nodes."""

    title = "A graph of numbered nodes"
    label = "Numbered graph (seed 004, or the one you drew)"
    #: its editor: the ends, the heuristic and the drawing (js/step/numbered-graph.js binds it)
    editor = "step/numbered_graph_editor.html"
    default_heuristic = "straight-line"

    def heuristics(self) -> dict[str, str]:
        return {"straight-line": "straight line", "zero": "none (h = 0)"}

    @staticmethod
    def view_fields(data: dict) -> dict:
        """The ``app.step_view.View`` fields its data is kept in (``graph``, ``start``, ``end``)."""
        return {"graph": data["graph"], "start": data["from"], "end": data["to"]}

    @staticmethod
    def data_of(view) -> dict:
        """Its data from an ``app.step_view.View``'s fields."""
        return {"graph": view.graph, "from": view.start, "to": view.end}

    def read(self, args) -> dict:
        graph_text = text(args, "graph", MAX_GRAPH_TEXT, "")
        drawn = json_value(graph_text, "graph") if graph_text else None
        if drawn is not None and not isinstance(drawn, dict):
            raise PuzzleError("graph must be a JSON object with nodes and edges")
        return {"graph": drawn, "from": integer(args, "from", 0, graph.MAX_NODES - 1, FROM),
                "to": integer(args, "to", 0, graph.MAX_NODES - 1, TO)}

    def write(self, data: dict) -> dict:
        if data["graph"] is None:
            return {"from": data["from"], "to": data["to"]}
        return {"graph": json.dumps(data["graph"], separators=(",", ":"))}

    def form(self, data: dict | None) -> dict:
        """What its editor shows: the ends (a drawing's, by their place in its list), the drawing as JSON and the
        largest number of nodes."""
        data = data or {"graph": None, "from": FROM, "to": TO}
        ends = {"from": data["from"], "to": data["to"]}
        if data["graph"] is not None:
            request = self.request(data)
            ends = {"from": request["start"], "to": request["goal"]}
        return {**ends, **self.write(data), "max_nodes": graph.MAX_NODES}

    def request(self, data: dict) -> dict:
        """The ``/api/step`` request's fields: the seed's ends, or the drawing as ``engine.subjects.classic.graph``
        reads it (nodes by their place in the list)."""
        drawn = data["graph"]
        if drawn is None:
            return {"start": data["from"], "goal": data["to"]}
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


NUMBERED_GRAPH_VIEW = NumberedGraphView()


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
