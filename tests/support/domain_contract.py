"""The domain contract as a test: ``check_domain(kind, examples)`` runs everything the project promises a domain
(engine/search/domain.py) on a few of its problems and checks each answer against a search written here, apart from
the code under test. Every domain's tests call it, so a new domain is held to the same contract as the old ones.

What it checks, per example:

* the kind builds a ``Domain`` from the request's JSON, and refuses malformed JSON with a ``PuzzleError`` (never
  another exception: the app would answer 500);
* the search and the drawing stay apart: the problem has no ``encode``, ``scene`` or ``picture`` (a search never
  reads them), its kind's ``drawing`` does, giving JSON, one encoding per state, and the problem's ``name`` is its
  kind's (by which its drawing is found);
* every step-through algorithm and every solver ``solve`` offers either solves it, with a path that replays
  move by move to a goal at the cost it reports, or stops with a status that says why; a search that claims its
  path is optimal has the cheapest cost, found here by Dijkstra's algorithm;
* when the domain has hooks, they take and give the types ``CompiledDomain`` states and compute what ``actions``,
  ``cost`` and ``h`` do, and the compiled A* and IDA* expand and generate what the readable ones do;
* a domain in ``engine/domains`` can be imported without numba (the CLI's ``check`` and ``--help`` load no compiler);
* given the app's test client, ``POST /api/step`` answers the trace of a search whose path ends on a goal, and the
  kind is a view of the step-through with no edit in the app: ``GET /step?problem=<view>`` is its page, ``GET
  /api/step`` its searches (on its first example without ``data``, on each example's JSON with it) and
  ``/step/compare`` races its solvers; a class follows the view and asks a question made from it, and an own
  lesson's slide on it is checked against what it shows.
"""

from __future__ import annotations

import heapq
import itertools
import json
import math
import re
import subprocess
import sys

import pytest

from engine.core.errors import PuzzleError
from engine.core.result import Budget
from engine.search import astar_search, idastar_search
from engine.search.algorithms.bidirectional import refusal
from engine.search.domain import Domain, DomainKind
from engine.search.record import ALGORITHMS
from engine.search.solve import problem_solvers, solve
from engine.search.trace import DEPTH_LIMIT, trace_search
from engine.search.view import Drawing, drawing_of

#: JSON a client may send in place of a domain's own; every kind refuses each with a sentence.
MALFORMED = (None, 5, "x", True, [], [[[]]], {}, {"x": 1}, float("nan"))


def cheapest_cost(problem: Domain, max_states: int = 200_000) -> float | None:
    """Dijkstra's algorithm from the start until a goal leaves the queue: the cheapest cost, or None when no goal is
    reachable. Refuses a problem with more states than ``max_states`` (pick smaller examples)."""
    order = itertools.count()
    best = {problem.initial: 0}
    queue = [(0, next(order), problem.initial)]
    while queue:
        cost, _, state = heapq.heappop(queue)
        if cost > best[state]:
            continue
        if problem.is_goal(state):
            return cost
        for action in problem.actions(state):
            child, step = problem.result(state, action), problem.cost(state, action)
            assert step > 0 and math.isfinite(step), (state, action, step)
            if cost + step < best.get(child, math.inf):
                best[child] = cost + step
                heapq.heappush(queue, (cost + step, next(order), child))
        assert len(best) <= max_states, "this example is too large for the contract's check"
    return None


def replay_encoded(problem: Domain, path: list) -> float:
    """Walks a trace's path of encoded states from the start by the problem's own moves; the cost it adds up. Each
    step must be one move, and the last state a goal."""
    encode = drawing_of(problem).encode
    state = problem.initial
    assert encode(state) == path[0]
    total = 0
    for following in path[1:]:
        action = next(a for a in problem.actions(state) if encode(problem.result(state, a)) == following)
        total += problem.cost(state, action)
        state = problem.result(state, action)
    assert problem.is_goal(state)
    return total


def replay(problem: Domain, actions) -> float:
    state, total = problem.initial, 0
    for action in actions:
        assert action in tuple(problem.actions(state)), (state, action)
        total += problem.cost(state, action)
        state = problem.result(state, action)
    assert problem.is_goal(state)
    return total


def check_building(kind: DomainKind, bad: tuple = ()) -> None:
    for value in MALFORMED:
        for data in ({"problem": kind.name, kind.name: value}, {"problem": kind.name}):
            with pytest.raises(PuzzleError):
                kind.build(data)
    for data in bad:
        with pytest.raises(PuzzleError):
            kind.build(data)


def check_drawing(kind: DomainKind, problem: Domain, max_states: int = 50) -> None:
    """The problem is searched, its kind's drawing draws it: breadth-first from the start over up to ``max_states``
    states, each state's encoding and picture are JSON, and no two states share an encoding (a path of encoded
    states names its moves)."""
    assert problem.name == kind.name, (
        f"{type(problem).__name__}.name is {problem.name!r}: set the class attribute name = {kind.name!r}, the kind's "
        "name, by which its drawing is found")
    for member in ("encode", "scene", "picture"):
        assert not hasattr(problem, member), (
            f"{type(problem).__name__}.{member} is never read: a page's drawing is the kind's drawing, a subclass of "
            "engine.search.view.Drawing")
    assert kind.drawing is None or issubclass(kind.drawing, Drawing), "a kind's drawing is a Drawing subclass"
    drawing = drawing_of(problem)
    assert type(drawing) is (kind.drawing or Drawing), (
        f"the problem's drawing is not the {kind.name} kind's: register it")
    assert isinstance(drawing.scene(), dict) and json.loads(json.dumps(drawing.scene())) == drawing.scene()
    seen, queue, encodings = {problem.initial}, [problem.initial], {}
    while queue and len(seen) <= max_states:
        state = queue.pop(0)
        encoded = json.dumps(drawing.encode(state), sort_keys=True)
        assert encodings.setdefault(encoded, state) == state, f"{state} and {encodings[encoded]} encode alike"
        picture = drawing.picture(state)
        assert picture is None or (isinstance(picture, dict) and json.loads(json.dumps(picture)) == picture)
        for action in problem.actions(state):
            child = problem.result(state, action)
            if child not in seen:
                seen.add(child)
                queue.append(child)


def check_searches(problem: Domain, best: float, depth_limit: int, max_expansions: int) -> None:
    for name, spec in ALGORITHMS.items():
        if spec.frontier == "two-queues" and (reason := refusal(problem)):
            with pytest.raises(PuzzleError, match=re.escape(reason)):  # bidirectional search says what it needs
                trace_search(problem, name)
            continue
        answer = trace_search(problem, name, depth_limit=depth_limit, max_expansions=max_expansions)["result"]
        if spec.cheapest:
            assert answer["status"] == "solved", name
        if answer["status"] != "solved":
            assert answer["message"], name
            continue
        cost = replay_encoded(problem, answer["path"])
        assert math.isclose(cost, answer["cost"]) and cost >= best - 1e-9, name
        if answer["optimal"]:
            assert math.isclose(cost, best), name
    for solver in problem_solvers(problem):
        spec = ALGORITHMS.get(solver)
        if spec is not None and spec.frontier == "two-queues" and refusal(problem):
            continue
        result = solve(problem, solver, Budget(max_nodes=max_expansions), depth_limit=depth_limit)
        if result.status != "solved":
            assert result.message, solver
            continue
        cost = replay(problem, result.actions)
        assert math.isclose(cost, result.extra["cost"]) and cost >= best - 1e-9, solver
        if result.optimal:
            assert math.isclose(cost, best), solver


def check_hooks(problem: Domain, max_states: int = 50) -> None:
    """The compiled hooks called as the kernels call them (the types ``CompiledDomain`` states): from the start,
    breadth-first over up to ``max_states`` states, each state's children are its moves' results in ``actions``
    order at their costs, and h is a float equal to the readable h."""
    import numpy as np

    compiled = problem.compiled()
    assert isinstance(compiled.aux, tuple), "aux must be a tuple"
    for number in (compiled.start, compiled.goal, compiled.states, compiled.max_children):
        assert type(number) is int, f"start, goal, states and max_children are ints ({number!r})"
    assert 0 <= compiled.start < compiled.states and 0 <= compiled.goal < compiled.states
    assert compiled.decode(compiled.start) == problem.initial
    out_states = np.zeros(compiled.max_children, dtype=np.int64)
    out_costs = np.zeros(compiled.max_children, dtype=np.float64)
    seen, queue = {compiled.start}, [compiled.start]
    while queue and len(seen) <= max_states:
        number = queue.pop(0)
        state = compiled.decode(number)
        count = compiled.children(compiled.aux, np.int64(number), out_states, out_costs)
        actions = list(problem.actions(state))
        assert 0 <= count <= compiled.max_children and count == len(actions), (state, count, actions)
        for child, cost, action in zip(out_states[:count], out_costs[:count], actions, strict=True):
            assert 0 <= child < compiled.states and compiled.decode(int(child)) == problem.result(state, action)
            assert cost == problem.cost(state, action), (state, action, cost)
            if int(child) not in seen:
                seen.add(int(child))
                queue.append(int(child))
        assert len(set(out_states[:count].tolist())) == count, f"a child of {state} is written twice"
        h = compiled.h(compiled.aux, np.int64(number))
        assert type(h) is float and math.isclose(h, problem.h(state), abs_tol=1e-9), (state, h, problem.h(state))


def check_compiled(problem: Domain) -> None:
    from engine.search.compiled import compiled_astar
    from engine.search.compiled_ida import compiled_idastar

    check_hooks(problem)
    for readable_search, compiled_search in ((astar_search, compiled_astar), (idastar_search, compiled_idastar)):
        readable, compiled = readable_search(problem), compiled_search(problem)
        assert (compiled.status, compiled.moves, compiled.nodes_expanded, compiled.nodes_generated) == (
            readable.status, readable.moves, readable.nodes_expanded, readable.nodes_generated), compiled_search


def check_import_without_numba(kind: DomainKind) -> None:
    module = kind.build.__module__
    if not module.startswith("engine."):
        return  # a domain a test registers is imported by that test
    code = f"import importlib, sys; importlib.import_module({module!r}); print('numba' in sys.modules)"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "False", f"importing {module} loads numba"


def check_step_route(client, kind: DomainKind, example: dict) -> None:
    response = client.post("/api/step", json={**example, "problem": kind.name, "algorithms": ["astar"]})
    assert response.status_code == 200, response.get_data(as_text=True)
    answer = response.get_json()
    problem = kind.build(example)
    assert replay_encoded(problem, answer["traces"][0]["result"]["path"]) == answer["traces"][0]["result"]["cost"]


def check_view_routes(client, kind: DomainKind, examples: list[dict], best: list[float]) -> None:
    """The kind's view: its page, its searches by ``GET /api/step`` (uniform-cost search finds Dijkstra's cost ``best``
    of each example) and its solvers raced on ``/step/compare``."""
    from app.step_view import domain_views

    view = next((name for name, registered in domain_views().items() if registered is kind), None)
    assert view is not None, f"the {kind.name} domain is not a view of the step-through"
    page = client.get(f"/step?problem={view}")
    assert page.status_code == 200, page.get_data(as_text=True)
    assert f'<option value="{view}" selected>' in page.get_data(as_text=True)
    for index, example in enumerate(examples):
        query = {"problem": view, "algorithms": "ucs"}
        if index:  # the first example is the view's own when no data is given (a text, as a graph's name, is itself)
            data = example[kind.name]
            query["data"] = data if isinstance(data, str) else json.dumps(data)
        if "heuristic" in example:
            query["heuristic"] = example["heuristic"]
        response = client.get("/api/step", query_string=query)
        assert response.status_code == 200, response.get_data(as_text=True)
        answer = response.get_json()
        assert answer["problem"] == view
        result = answer["traces"][0]["result"]
        assert math.isclose(replay_encoded(kind.build(example), result["path"]), best[index])
        assert math.isclose(result["cost"], best[index])
    race = client.get("/step/compare", query_string={"problem": view, "solvers": "ucs,astar"})
    assert race.status_code == 200, race.get_data(as_text=True)
    assert f"Solvers compared: {kind.title[0].lower()}{kind.title[1:]}" in race.get_data(as_text=True)
    check_class_and_lesson(client, view, best[0])


def check_class_and_lesson(client, view: str, best: float) -> None:
    """A class follows the view and asks a question made from its search, and an own lesson's slide on it is checked
    against what the view shows (its cost, Dijkstra's ``best``): both read the view through the registry."""
    link = f"/step?problem={view}&algorithms=ucs"
    started = client.post("/class/", json={"view": link})
    assert started.status_code == 200, started.get_data(as_text=True)
    code = started.get_json()["code"]
    asked = client.post(f"/class/{code}/ask", json={"kind": "next"})
    assert asked.status_code == 200, asked.get_data(as_text=True)
    assert asked.get_json()["question"]["choices"]
    # the cost the view shows, and a figure no view of a small example shows (a cost such as 2 + 3√2 is shown
    # rounded, so it is stated only when it is whole)
    slides = [{"title": "The end", "text": f"Uniform-cost search ends on a path costing {figure}.",
               "link": f"{link}&step=1000000"} for figure in ([f"{best:g}"] if float(best).is_integer() else [])
              + ["123456.5"]]
    checked = client.post("/lessons/check", data={"lesson": json.dumps({"title": view, "slides": slides})},
                          headers={"Accept": "application/json"})
    assert checked.status_code == 200, checked.get_data(as_text=True)
    states = [slide["state"] for slide in checked.get_json()["slides"]]
    assert states == ["ok", "unshown"][-len(slides):], checked.get_json()


def check_domain(kind: DomainKind, examples: list[dict], *, bad: tuple = (), client=None,
                 depth_limit: int = DEPTH_LIMIT, max_expansions: int = 20_000) -> None:
    """Everything the contract promises, on each of ``examples`` (request JSON: ``{kind.name: ..., ...}``, small
    enough for Dijkstra here); ``bad``: more JSON the kind must refuse; ``client``: the app's, for the route."""
    check_building(kind, bad)
    check_import_without_numba(kind)
    costs = []
    for example in examples:
        problem = kind.build({"problem": kind.name, **example})
        assert isinstance(problem, Domain), f"{kind.name}'s build returns a {type(problem).__name__}, not a Domain"
        assert problem.name == kind.name, (f"the problem class's `name` is {problem.name!r}: set the class attribute "
                                           f"`name = {kind.name!r}`, the name its DomainKind registers")
        check_drawing(kind, problem)
        best = cheapest_cost(problem)
        assert best is not None, "each example must have a reachable goal"
        costs.append(best)
        check_searches(problem, best, depth_limit, max_expansions)
        if problem.has_compiled():
            check_compiled(problem)
        if client is not None:
            check_step_route(client, kind, example)
    if client is not None:
        check_view_routes(client, kind, examples, costs)
