"""A newcomer's domain whose goal is a test and whose moves are one-way (the water jugs), registered at test time as
ARCHITECTURE.md's checklist says: every step-through algorithm but bidirectional search runs on it, bidirectional
search refuses it with the sentence that says what it needs, and a problem class without its ``name`` is named in
the check's message. The answer checked from outside: Die Hard's 3- and 5-gallon jugs measure 4 gallons in 6 moves
(fill 5, pour into 3, empty 3, pour, fill 5, pour)."""

import pytest

from engine.core.errors import PuzzleError
from engine.search import domain
from engine.search.algorithms.bidirectional import bidirectional_search
from engine.search.domain import Domain, DomainKind, register_domain
from engine.search.view import Drawing
from tests.support.domain_contract import check_domain

MOVES = ("fill 0", "fill 1", "empty 0", "empty 1", "pour 0 into 1", "pour 1 into 0")


class JugsProblem(Domain):
    name = "jugs"
    unit_costs = True

    def __init__(self, sizes: tuple[int, int], target: int):
        self.sizes, self.target = sizes, target
        self.initial = (0, 0)

    def _after(self, state, action):
        held = list(state)
        verb, jug = action.split()[0], int(action.split()[1])
        if verb == "fill":
            held[jug] = self.sizes[jug]
        elif verb == "empty":
            held[jug] = 0
        else:
            other = 1 - jug
            poured = min(held[jug], self.sizes[other] - held[other])
            held[jug], held[other] = held[jug] - poured, held[other] + poured
        return tuple(held)

    def actions(self, state):
        return [move for move in MOVES if self._after(state, move) != state]

    def result(self, state, action):
        return self._after(state, action)

    def is_goal(self, state):
        return self.target in state

    def cost(self, state, action):
        return 1


class JugsDrawing(Drawing):
    def encode(self, state):
        return list(state)


def jugs_problem(data: dict) -> JugsProblem:
    jugs = data.get("jugs")
    if not isinstance(jugs, dict) or set(jugs) != {"sizes", "target"} or not isinstance(jugs["sizes"], list) or \
            len(jugs["sizes"]) != 2 or not all(type(n) is int and 1 <= n <= 20 for n in [*jugs["sizes"],
                                                                                         jugs["target"]]):
        raise PuzzleError('the jugs are {"sizes": [two whole litres, 1 to 20], "target": the litres to measure}')
    return JugsProblem(tuple(jugs["sizes"]), jugs["target"])


EXAMPLES = ({"jugs": {"sizes": [3, 5], "target": 4}}, {"jugs": {"sizes": [4, 3], "target": 2}})
KIND = DomainKind("jugs", "The water jugs", jugs_problem, ("zero",), EXAMPLES, drawing=JugsDrawing)


@pytest.fixture
def jugs(monkeypatch):
    monkeypatch.setattr(domain.DOMAINS, "_entries", domain.domain_kinds())  # forgotten after the test
    return register_domain(KIND)


def test_every_search_but_bidirectional_keeps_the_contract(jugs):
    check_domain(jugs, list(EXAMPLES))


def test_bidirectional_search_says_what_it_needs():
    with pytest.raises(PuzzleError, match="needs one goal state to search back from"):
        bidirectional_search(jugs_problem(EXAMPLES[0]))
    one_goal = jugs_problem(EXAMPLES[0])
    one_goal.goal = (0, 4)  # one goal state, but emptying or filling a jug cannot be undone
    with pytest.raises(PuzzleError, match="needs moves that can be undone at the same cost"):
        bidirectional_search(one_goal)


def test_the_step_route_answers_the_search_and_the_refusal(jugs, client):
    found = client.post("/api/step", json={**EXAMPLES[0], "problem": "jugs", "algorithms": ["bfs"]})
    assert found.status_code == 200, found.get_data(as_text=True)
    result = found.get_json()["traces"][0]["result"]
    assert result["length"] == 6 and result["path"][0] == [0, 0] and 4 in result["path"][-1]
    refused = client.post("/api/step", json={**EXAMPLES[0], "problem": "jugs", "algorithms": ["bidirectional"]})
    assert refused.status_code == 400
    assert "needs one goal state to search back from" in refused.get_data(as_text=True)


def test_a_problem_class_without_its_name_is_named_in_the_message(monkeypatch):
    monkeypatch.setattr(domain.DOMAINS, "_entries", domain.domain_kinds())

    class Unnamed(JugsProblem):
        name = Domain.name  # the default a newcomer forgets to replace

    kind = register_domain(DomainKind("jugs", "The water jugs", lambda data: Unnamed(*jugs_args(data)), ("zero",),
                                      drawing=JugsDrawing))
    with pytest.raises(AssertionError, match="set the class attribute `name = 'jugs'`"):
        check_domain(kind, [EXAMPLES[0]])


def jugs_args(data: dict) -> tuple:
    problem = jugs_problem(data)
    return problem.sizes, problem.target
