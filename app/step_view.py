"""The step-through's view as a query string: ``view_from_query`` reads one (the only reader), ``query_for`` writes
one (the only writer) and ``request_for`` turns it into the ``/api/step`` request that records its searches; the page
keeps its address equal to ``query_for`` of what it shows, so any step has a link. Fields:

* ``problem``: a view's name (``step_views``): a registered domain's (``domain_views``: the kind's name; the default
  kind's, the sliding tiles, without one) or the app's own, the numbered graph drawn on the Graph page
  (``app.numbered_graph``, which says why it is a view of its own). A view's own fields are its codec's: a kind's
  view (``DomainKind.view``: the tiles' are ``size``, ``tiles`` or ``scramble`` and ``seed``, ``goal``,
  ``engine.domains.tiles.view``); a kind typed as JSON (``engine.search.view.JsonView``) takes it in ``data``
  (without it the kind's first example) and ``heuristic`` one of the kind's;
* ``algorithms``: one or two algorithm names, comma-separated; ``astar:misplaced`` runs A* with its own heuristic
  (a form may send them as ``first`` and ``second`` instead);
* ``depth_limit``: depth-first search's limit; ``step``: the step shown; ``show_h``: 1 to draw h on the board.

A view codec has ``read(args) -> data``, ``write(data) -> fields``, ``form(data)`` (what its editor on the page
shows), ``request(data) -> fields`` (of ``/api/step``), ``problem(request) -> problem``, ``resolved(data, problem)
-> data`` (the data its link keeps), ``answer(problem) -> fields`` (beside the traces), ``heuristics()`` (name →
label), ``default_heuristic``, ``label`` (its option's words in the page's Problem menu) and ``editor``: the
template of its editor in the page's form (in ``app/templates/``, given ``name``, ``codec``, ``view`` and the form's
``forms[name]`` and ``view_heuristics[name]``; its fields are the view's query, so the form works without
JavaScript; the view's page module binds it). ``JsonView``'s editor is the problem typed as JSON; a kind may give
its own ``JsonView`` naming its label and editor, as the graph and grid kinds do. Old names are read as today's in
one module, ``app.numbered_graph``: a link's or saved row's query by ``current_query``, an ``/api/step`` request's
JSON by ``is_numbered_request``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, cast
from urllib.parse import urlencode

from app.numbered_graph import FROM, NUMBERED_GRAPH, NUMBERED_GRAPH_VIEW, TO, current_query
from engine.core.errors import PuzzleError
from engine.core.params import choice, flag, integer, text
from engine.search.domain import Domain, DomainKind, default_kind, domain_kinds
from engine.search.record import ALGORITHMS
from engine.search.trace import DEPTH_LIMIT
from engine.search.view import JsonView


class StepView(Protocol):
    """What every view of ``step_views`` has, the numbered graph's included (the module's docstring)."""

    @property
    def label(self) -> str: ...
    @property
    def editor(self) -> str: ...
    @property
    def default_heuristic(self) -> str: ...
    def heuristics(self) -> dict[str, str]: ...
    def read(self, args) -> object: ...
    def write(self, data) -> dict: ...
    def form(self, data) -> dict: ...
    def request(self, data) -> dict: ...


class ViewCodec(StepView, Protocol):
    """The interface of a kind's view codec, as the module's docstring writes it: a view that also builds its
    kind's problem."""

    def problem(self, request: dict) -> Domain: ...
    def resolved(self, data, problem) -> object: ...
    def answer(self, problem) -> dict: ...


@dataclass(frozen=True)
class View:
    """What ``/step`` shows: the problem, the algorithms and the step (the module's docstring names the fields).
    Without a problem, the default view (``default_view``); without a heuristic, the problem's view's default."""
    problem: str = ""
    algorithms: tuple[str, ...] = ("bfs", "astar")
    heuristic: str | None = None
    depth_limit: int = DEPTH_LIMIT
    step: int = 0
    show_h: bool = False
    graph: dict | None = None  # the numbered graph's drawing; None: the seed's graph, from node ``start`` to ``end``
    start: int = FROM
    end: int = TO
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
        data (the numbered graph's, from the fields links name it by: ``NumberedGraphView.data_of``)."""
        if name != self.problem:
            return None
        return NUMBERED_GRAPH_VIEW.data_of(self) if name == NUMBERED_GRAPH else self.data


def domain_views() -> dict[str, DomainKind]:
    """The step-through's views of registered domains (view name, the kind's own → kind), read from the registry
    each time, so a kind registered later (a test's pancake puzzle) is a view too."""
    return dict(domain_kinds())


def default_view() -> str:
    """The view ``/step`` opens with: the default kind's (``engine.search.domain.default_kind``), else the numbered
    graph."""
    kind = default_kind()
    return kind.name if kind is not None else NUMBERED_GRAPH


def view_codec(kind: DomainKind) -> ViewCodec:
    """A kind's view codec: its own, else its JSON typed (``engine.search.view.JsonView``)."""
    # the engine keeps a kind's view as an object: it cannot name this interface, which belongs to the app
    return cast(ViewCodec, kind.view) if kind.view is not None else JsonView(kind.name)


def step_views() -> dict[str, StepView]:
    """Every view ``/step`` offers, name → codec, in its menu's order: the default view first, then the numbered
    graph, then each kind by name."""
    views: dict[str, StepView] = {NUMBERED_GRAPH: NUMBERED_GRAPH_VIEW,
                                  **{name: view_codec(kind) for name, kind in domain_views().items()}}
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
    problem = choice(args, "problem", tuple(step_views()), default_view())
    offered = view_heuristics(problem)
    for name in names:
        algorithm, _, heuristic = name.partition(":")
        if algorithm not in ALGORITHMS or (heuristic and heuristic not in offered):
            raise PuzzleError(f"unknown algorithm {name!r}; choose from {', '.join(ALGORITHMS)}")
    depth_limit = integer(args, "depth_limit", 1, 40, DEPTH_LIMIT)
    step, show_h = integer(args, "step", 0, 1_000_000, 0), flag(args, "show_h", False)
    codec = step_views()[problem]
    heuristic = choice(args, "heuristic", tuple(offered), codec.default_heuristic)
    common = (problem, tuple(names), heuristic, depth_limit, step, show_h)
    if problem == NUMBERED_GRAPH:  # kept in the View's own fields, as links and records name them
        return View(*common, **NUMBERED_GRAPH_VIEW.view_fields(NUMBERED_GRAPH_VIEW.read(args)))
    return View(*common, data=codec.read(args))


def query_for(view: View) -> str:
    """The query string of a view, fields in a fixed order and defaults left out where the page's own are meant."""
    fields: dict[str, object] = {"problem": view.problem}
    fields.update(step_views()[view.problem].write(view.shown(view.problem)))
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
    return {**step_views()[view.problem].request(view.shown(view.problem)), **body}
