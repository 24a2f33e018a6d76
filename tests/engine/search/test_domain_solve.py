"""``solve`` on domains other than the tiles: AIMA's published Romania answers (Russell & Norvig, 3rd ed.,
Figures 3.24 and 3.23/3.22: A* and uniform-cost search reach Bucharest from Arad for 418 km through Sibiu, Rimnicu
Vilcea and Pitesti; greedy best-first search takes Sibiu and Fagaras, 450 km; breadth-first search the fewest roads,
three), and the budget, cancel and progress every solve honours."""

import threading

import pytest

from engine.core.errors import PuzzleError
from engine.core.result import Budget
from engine.domains.graph import graph_problem
from engine.domains.grid import grid_problem
from engine.search.record import ALGORITHMS
from engine.search.solve import problem_solvers, solve

ROMANIA = graph_problem({"graph": "romania"})
CHEAPEST = ["Arad", "Sibiu", "Rimnicu Vilcea", "Pitesti", "Bucharest"]
GREEDY = ["Arad", "Sibiu", "Fagaras", "Bucharest"]


@pytest.mark.parametrize("solver", ["astar", "ucs", "idastar"])
def test_the_cheapest_searches_give_the_books_418_km_through_pitesti(solver):
    result = solve(ROMANIA, solver)
    assert result.status == "solved" and result.optimal
    assert result.extra["path"] == CHEAPEST and result.extra["cost"] == 418
    assert result.moves == "Sibiu Rimnicu Vilcea Pitesti Bucharest" and result.length == 4
    assert result.solver == solver and result.heuristic == ("" if solver == "ucs" else "given")
    assert result.to_dict()["length"] == 4


def test_greedy_takes_fagaras_for_450_km_and_claims_nothing():
    result = solve(ROMANIA, "greedy")
    assert result.extra["path"] == GREEDY and result.extra["cost"] == 450 and not result.optimal


@pytest.mark.parametrize("solver", ["bfs", "ids", "bidirectional"])
def test_the_breadth_first_family_finds_the_fewest_roads_but_not_the_cheapest(solver):
    result = solve(ROMANIA, solver)
    assert result.length == 3 and result.extra["path"][0] == "Arad" and result.extra["path"][-1] == "Bucharest"
    assert not result.optimal  # fewest roads is not fewest kilometres on this map


def test_every_solver_offered_answers_the_one_result_type_on_a_grid():
    problem = grid_problem({"grid": {"rows": ["....", ".##.", ".3..", "...."], "start": [0, 0], "goal": [3, 3]}})
    offered = problem_solvers(problem)
    assert set(ALGORITHMS) | {"astar-compiled", "idastar-compiled"} <= set(offered)
    cheapest = solve(problem, "ucs").extra["cost"]
    for solver in offered:
        result = solve(problem, solver)
        assert result.status == "solved" and result.solver == solver
        assert result.extra["path"][0] == [0, 0] and result.extra["path"][-1] == [3, 3]
        assert result.extra["cost"] >= cheapest - 1e-9
        if result.optimal:
            assert result.extra["cost"] == pytest.approx(cheapest), solver


def test_a_graph_offers_no_compiled_search_and_an_unknown_name_is_refused():
    assert "astar-compiled" not in problem_solvers(ROMANIA)
    for name in ("astar-compiled", "quantum", ["astar"]):
        with pytest.raises(PuzzleError, match="unknown solver"):
            solve(ROMANIA, name)


def test_an_overestimating_h_table_takes_back_the_claim_of_optimality():
    # h(B) = 100 says B is far, though B → G costs 1: A* goes round by the dearer road and must not call it optimal
    graph = {"nodes": [{"name": "S", "h": 0}, {"name": "B", "h": 100}, {"name": "C", "h": 0}, {"name": "G", "h": 0}],
             "edges": [{"from": "S", "to": "B", "cost": 1}, {"from": "B", "to": "G", "cost": 1},
                       {"from": "S", "to": "C", "cost": 5}, {"from": "C", "to": "G", "cost": 5}],
             "start": "S", "goal": "G"}
    result = solve(graph_problem({"graph": graph}), "astar")
    assert result.extra["cost"] == 10 and not result.optimal and "not admissible" in result.message
    assert solve(graph_problem({"graph": graph, "heuristic": "zero"}), "astar").optimal


@pytest.mark.parametrize("solver", ["bfs", "dfs", "ids", "ucs", "greedy", "astar", "idastar", "bidirectional",
                                    "astar-compiled", "idastar-compiled"])
def test_every_solver_stops_at_its_node_budget_and_at_cancel(solver):
    rows = ["." * 30] * 30
    problem = grid_problem({"grid": {"rows": rows, "start": [0, 0], "goal": [29, 29], "connect": 4},
                            "heuristic": "zero"})
    result = solve(problem, solver, Budget(max_nodes=5), depth_limit=60)
    assert result.status == "budget_exhausted" and result.extra["budget"] == "nodes"
    assert result.nodes_expanded <= 5
    cancel = threading.Event()
    cancel.set()
    assert solve(problem, solver, cancel=cancel, depth_limit=60).status == "cancelled"


def test_idastar_reports_its_bounds_with_no_fraction():
    reports = []
    result = solve(ROMANIA, "idastar", progress=lambda fraction, info: reports.append((fraction, info)))
    assert result.status == "solved"
    # the book's h: f(Arad) = 366, then the least f cut off each time, up to the answer's 418
    bounds = [info["bound"] for _, info in reports]
    assert bounds[0] == 366 and bounds[-1] == 418 and bounds == sorted(bounds)
    assert all(fraction is None for fraction, _ in reports)


def test_the_compiled_idastar_reports_each_bound_it_ends():
    problem = grid_problem({"grid": {"rows": ["....", ".##.", "...."], "start": [0, 0], "goal": [3, 2],
                                     "connect": 4}})
    reports = []
    result = solve(problem, "idastar-compiled", progress=lambda fraction, info: reports.append(
        (fraction, info)))
    # Manhattan h(start) = 5 is the answer's cost: one bound ends the search
    assert result.extra["cost"] == 5 and [info["bound"] for _, info in reports][-1] == 5
    assert all(fraction is None for fraction, _ in reports)


@pytest.mark.parametrize("solver", ["astar-compiled", "idastar-compiled"])
def test_the_compiled_searches_keep_to_the_budgets_memory(solver):
    # a 30×30 grid: the A* keeps 16 bytes per cell of the map padded with walls (16,384 here), the IDA* a stack of
    # 64 depths (10,240 bytes here); 1 kB holds neither
    problem = grid_problem({"grid": {"rows": ["." * 30] * 30, "start": [0, 0], "goal": [29, 29]}})
    with pytest.raises(PuzzleError, match="memory bound"):
        solve(problem, solver, Budget(max_bytes=1_000))
    assert solve(problem, solver, Budget(max_bytes=10**7)).extra["cost"] == pytest.approx(29 * 2 ** 0.5)
