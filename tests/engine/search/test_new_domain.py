"""A new domain in two files (``pancake.py`` and this test), registered at test time: every step-through algorithm,
``solve`` and the compiled A* and IDA* run on it, and their answers are checked against breadth-first
distances over all its states and the published pancake number P(6) = 7 (the most flips any stack of 6 needs; OEIS
A058986)."""

from collections import deque
from itertools import permutations

import pytest

from engine.core.result import Budget
from engine.search import astar_search, domain, idastar_search
from engine.search.compiled import compiled_astar
from engine.search.compiled_ida import compiled_idastar
from engine.search.domain import domain_kind
from engine.search.solve import problem_solvers, solve
from tests.engine.search.pancake import PancakeProblem, rank, register, unrank
from tests.support.domain_contract import check_domain

N = 6


@pytest.fixture(scope="module")
def flips() -> dict[tuple, int]:
    """The fewest flips from every stack of N to the sorted one: breadth-first from the goal (a flip undoes
    itself), written here apart from the searches under test."""
    goal = tuple(range(N))
    distance, queue = {goal: 0}, deque([goal])
    while queue:
        stack = queue.popleft()
        for k in range(2, N + 1):
            child = stack[:k][::-1] + stack[k:]
            if child not in distance:
                distance[child] = distance[stack] + 1
                queue.append(child)
    return distance


def test_the_breadth_first_distances_give_the_published_pancake_number(flips):
    assert len(flips) == 720 and max(flips.values()) == 7
    assert all(rank(unrank(n, N)) == n for n in range(720))


def test_the_registered_domain_keeps_the_contract_on_the_hardest_stacks(flips, monkeypatch):
    # what this test registers is forgotten after it
    monkeypatch.setattr(domain.DOMAINS, "_entries", domain.domain_kinds())
    kind = register()
    assert domain_kind("pancake") is kind
    hardest = [s for s in permutations(range(N)) if flips[s] == 7][:2]
    check_domain(kind, [{"pancake": list(stack)} for stack in hardest], depth_limit=8)
    problem = kind.build({"pancake": list(hardest[0])})
    assert {"astar-compiled", "idastar-compiled"} <= set(problem_solvers(problem))
    for solver in ("astar-compiled", "idastar-compiled", "astar", "bfs"):
        result = solve(problem, solver)
        assert result.optimal and result.extra["cost"] == 7, solver


@pytest.mark.parametrize(("readable_search", "compiled_search"), [(astar_search, compiled_astar),
                                                                 (idastar_search, compiled_idastar)])
def test_the_compiled_searches_expand_what_the_readable_ones_do(flips, readable_search, compiled_search):
    for stack in list(permutations(range(N)))[::37]:
        problem = PancakeProblem(stack)
        readable, compiled = readable_search(problem), compiled_search(problem)
        assert (compiled.moves, compiled.nodes_expanded, compiled.nodes_generated, compiled.peak_frontier) == (
            readable.moves, readable.nodes_expanded, readable.nodes_generated, readable.peak_frontier)
        assert len(compiled.moves.split()) == flips[stack] == compiled.extra["cost"]


def test_the_compiled_idastar_stopped_by_a_node_budget_has_done_what_the_readable_one_did(flips):
    hardest = next(s for s in permutations(range(N)) if flips[s] == 7)
    readable = idastar_search(PancakeProblem(hardest), Budget(max_nodes=4))
    compiled = compiled_idastar(PancakeProblem(hardest), Budget(max_nodes=4))
    assert readable.status == compiled.status == "budget_exhausted"
    assert (compiled.nodes_expanded, compiled.nodes_generated) == (readable.nodes_expanded, readable.nodes_generated)
