"""How a page shows a domain's problems, apart from how they are searched (``engine.search.domain.Domain``).

``Drawing``: a problem's states and pictures as JSON (``DomainKind.drawing``; ``drawing_of(problem)`` gives any
problem's). ``JsonView``: the step-through's view of a kind whose problem is typed as its JSON (``DomainKind.view``;
the interface of a view codec is written in ``app/step_view.py``): every kind without a codec of its own has one, and
a kind may name its own, with the words its option shows and the editor its form draws (the graph kind's, the
grid's).
"""

from __future__ import annotations

import json

from engine.core.params import json_value, text
from engine.search.domain import DOMAINS, Domain, DomainKind, domain_kind

MAX_DATA_TEXT = 100_000  # a typed graph of a few hundred nodes, or a 64×64 grid, as JSON
#: the editor of a problem typed as JSON: its heuristic and its JSON (app/templates/)
JSON_EDITOR = "step/json_editor.html"


class Drawing:
    """How a page draws one problem of a domain: a domain's subclass, beside its ``Domain``, is its kind's
    ``drawing`` and is made with the problem (``self.problem``). The defaults suit a state that is JSON already and
    a page that draws it with ``generic.js``.

    ``encode(state)``: the state as JSON: its name in an answer's ``path`` (a graph's node name, a grid's [x, y],
    a board's cells) and in the trace's nodes. ``scene()``: what every picture of this problem shares, as JSON (a
    graph's nodes and edges, a grid's cells, a board's size), sent once per trace. ``picture(state)``: what is drawn
    for one state on top of the scene, as JSON, or None; the trace gives each node its picture, and the page's module
    for the domain (``app/static/js/step/<domain>.js``) draws scene and picture without knowing any other domain."""

    def __init__(self, problem: Domain):
        self.problem = problem

    def encode(self, state):
        return state

    def scene(self) -> dict:
        return {}

    def picture(self, state) -> dict | None:
        return None


def drawing_of(problem: Domain) -> Drawing:
    """The drawing of ``problem``: its kind's (the kind its ``name`` registers), else the default ``Drawing``."""
    kind = DOMAINS.all().get(problem.name)
    return (kind.drawing if kind is not None and kind.drawing is not None else Drawing)(problem)


class JsonView:
    """The view of the kind named ``name`` given as its JSON in ``data`` (its first example without it); ``label``:
    its option's words in the page's Problem menu (None: the kind's title); ``editor``: its editor's template."""

    default_heuristic = ""

    def __init__(self, name: str, label: str | None = None, editor: str = JSON_EDITOR):
        self.name = name
        self._label = label
        self.editor = editor

    @property
    def kind(self) -> DomainKind:  # read when asked: the kind names this view before the registry holds it
        return domain_kind(self.name)

    @property
    def label(self) -> str:
        return self._label or self.kind.title

    def heuristics(self) -> dict[str, str]:
        return {name: self.kind.heuristic_labels.get(name, name) for name in self.kind.heuristics}

    def read(self, args) -> object:
        data_text = text(args, "data", MAX_DATA_TEXT, "")
        as_json = data_text.startswith(("{", "["))
        return json_value(data_text, f"data (the {self.name})") if as_json else (data_text or None)

    def write(self, data: object) -> dict:
        if data is None:
            return {}
        return {"data": data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))}

    def form(self, data: object) -> dict:
        """What its editor shows: ``data``, the problem's JSON as typed (empty: the example), and ``example``, the
        first example's JSON (the empty box's hint)."""
        examples = self.kind.examples
        return {**self.write(data), "example": json.dumps(examples[0].get(self.name)) if examples else ""}

    def request(self, data: object) -> dict:
        if data is None:  # the kind's first example (its heuristic too, unless the view names one)
            kind = self.kind
            return dict(kind.examples[0]) if kind.examples else {}
        return {self.name: data}

    def problem(self, request: dict):
        return self.kind.build(request)

    def resolved(self, data: object, problem) -> object:
        return data

    def answer(self, problem) -> dict:
        return {}
