"""Graphs given as data: AIMA's Romania and a small graph with decimal costs, every readable search on them, checked
against the book's answers and against hand checks."""

import pytest

from engine.core.errors import PuzzleError
from engine.domains.graph import GraphDomain, example, parse_graph, verdict
from engine.search.domain import walk
from engine.search.record import ALGORITHMS
from engine.search.trace import trace_search

ROMANIA = example("romania")
#: Hand-checked: S-B-C-G costs 2.25 + 0.5 + 1.75 = 4.5, the cheapest; S-A-G (5.6) and S-B-G (152.75) have the fewest
#: edges; the true costs to G are S 4.5, A 4.1, B 2.25, C 1.75, so the h below is admissible and consistent.
DECIMAL = {"nodes": [{"name": "S", "h": 4}, {"name": "A", "h": 3}, {"name": "B", "h": 2}, {"name": "C", "h": 1.5},
                     {"name": "G", "h": 0}],
           "edges": [{"from": "S", "to": "A", "cost": 1.5}, {"from": "S", "to": "B", "cost": 2.25},
                     {"from": "A", "to": "C", "cost": 2.5}, {"from": "B", "to": "C", "cost": 0.5},
                     {"from": "C", "to": "G", "cost": 1.75}, {"from": "A", "to": "G", "cost": 4.1},
                     {"from": "B", "to": "G", "cost": 150.5}],
           "start": "S", "goal": "G"}


def answer(graph: dict, algorithm: str) -> tuple[list[str], float]:
    result = trace_search(GraphDomain(parse_graph(graph)), algorithm)["result"]
    assert result["status"] == "solved", (algorithm, result)
    return result["path"], result["cost"]


def test_romania_is_the_books_map():
    graph = parse_graph(ROMANIA)
    assert len(graph.names) == 20 and len(graph.edges()) == 23
    assert graph.given_h["Arad"] == 366 and graph.given_h["Bucharest"] == 0 and graph.given_h["Craiova"] == 160
    # the straight-line distances to Bucharest never overestimate a road distance, nor drop by more than a road
    assert verdict(graph, graph.heuristic("given")) == {"admissible": True, "consistent": True}
    # what the page's tables are filled with: the graph as given, its edges in their order
    assert graph.to_json() == {k: v for k, v in ROMANIA.items() if k != "_about"}


@pytest.mark.parametrize("algorithm", ["ucs", "astar", "idastar"])
def test_the_cheapest_searches_take_arad_to_bucharest_through_pitesti_for_418(algorithm):
    assert answer(ROMANIA, algorithm) == (["Arad", "Sibiu", "Rimnicu Vilcea", "Pitesti", "Bucharest"], 418)


def test_greedy_takes_the_books_way_through_fagaras_for_450_and_bfs_the_fewest_roads():
    assert answer(ROMANIA, "greedy") == (["Arad", "Sibiu", "Fagaras", "Bucharest"], 450)
    for algorithm in ("bfs", "bidirectional", "ids"):
        assert answer(ROMANIA, algorithm) == (["Arad", "Sibiu", "Fagaras", "Bucharest"], 450), algorithm


def test_every_step_through_algorithm_answers_a_real_path_on_both_graphs():
    for graph in (ROMANIA, DECIMAL):
        problem = GraphDomain(parse_graph(graph))
        for algorithm in ALGORITHMS:
            traced = trace_search(problem, algorithm)
            path, cost = traced["result"]["path"], traced["result"]["cost"]
            assert path[0] == graph["start"] and path[-1] == graph["goal"], algorithm
            moves = tuple(path[1:])
            assert walk(problem, moves) == (path, pytest.approx(cost)), algorithm
            assert traced["scene"]["graph"]["start"] == graph["start"]


def test_decimal_costs_over_100_included_give_the_hand_checked_answers():
    for algorithm in ("ucs", "astar", "idastar"):
        path, cost = answer(DECIMAL, algorithm)
        assert path == ["S", "B", "C", "G"] and cost == pytest.approx(4.5), algorithm
    assert answer(DECIMAL, "greedy") == (["S", "B", "G"], pytest.approx(152.75))
    path, cost = answer(DECIMAL, "bfs")
    assert path == ["S", "A", "G"] and cost == pytest.approx(5.6)


def test_the_verdict_names_an_overestimate_and_an_inconsistent_edge():
    graph = parse_graph(DECIMAL)
    assert verdict(graph, graph.heuristic("given")) == {"admissible": True, "consistent": True}
    too_high = {**graph.heuristic("given"), "A": 4.2}  # the cheapest from A costs 4.1
    seen = verdict(graph, too_high)
    assert not seen["admissible"] and seen["overestimate"] == {"node": "A", "h": 4.2, "cost": pytest.approx(4.1)}
    jumpy = {**graph.heuristic("given"), "B": 2.25}  # still ≤ 2.25 to go, but more than 0.5 + h(C) = 2
    seen = verdict(graph, jumpy)
    assert seen["admissible"] and not seen["consistent"]
    assert seen["inconsistent_edge"]["from"] == "B" and seen["inconsistent_edge"]["to"] == "C"


def test_straight_line_distance_is_scaled_to_be_admissible_and_consistent():
    graph = parse_graph({**ROMANIA, "nodes": [{k: v for k, v in n.items() if k != "h"} for n in ROMANIA["nodes"]]})
    assert graph.heuristics() == ("straight-line", "zero")
    h = graph.heuristic("straight-line")
    assert h["Arad"] > 0 and h["Bucharest"] == 0
    assert verdict(graph, h) == {"admissible": True, "consistent": True}
    assert answer({**ROMANIA, "nodes": [{"name": n["name"]} for n in ROMANIA["nodes"]]}, "astar")[1] == 418


def test_one_way_edges_are_followed_one_way():
    graph = {"nodes": [{"name": n} for n in "abc"], "directed": True, "start": "a", "goal": "c",
             "edges": [{"from": "a", "to": "c", "cost": 10}, {"from": "a", "to": "b", "cost": 1},
                       {"from": "c", "to": "b", "cost": 1}]}
    # c → b exists but not b → c: the cheap way round is closed
    assert answer(graph, "ucs") == (["a", "c"], 10)
    with pytest.raises(PuzzleError, match="one-way"):
        trace_search(GraphDomain(parse_graph(graph)), "bidirectional")
    unreachable = {**graph, "start": "b"}
    for algorithm in ("ucs", "astar", "idastar", "bfs"):
        result = trace_search(GraphDomain(parse_graph(unreachable)), algorithm)["result"]
        assert result["status"] == "unsolvable" and "path" not in result, algorithm


@pytest.mark.parametrize(("change", "message"), [
    ({"nodes": []}, "1 to 500 nodes"),
    ({"nodes": [{"name": ""}]}, "non-empty name"),
    ({"nodes": [{"name": "x" * 41}]}, "at most 40"),
    ({"nodes": [{"name": "S"}, {"name": "S"}]}, "two nodes are named 'S'"),
    ({"edges": [{"from": "S", "to": "A", "cost": 0}]}, "more than 0"),
    ({"edges": [{"from": "S", "to": "A", "cost": -2}]}, "cost of S → A"),
    ({"edges": [{"from": "S", "to": "A", "cost": "inf"}]}, "cost of S → A"),
    ({"edges": [{"from": "S", "to": "Z", "cost": 1}]}, "'Z', which is not a node"),
    ({"edges": [{"from": "S", "to": "A"}, {"from": "A", "to": "S"}]}, "given twice"),
    ({"goal": "Q"}, "the goal 'Q' is not a node"),
    ({"nodes": [{"name": "S", "h": 1}, {"name": "A"}, {"name": "B"}, {"name": "C"}, {"name": "G"}]}, "'A' has none"),
    ({"edges": [{"from": "S", "to": "A"}] * 5001}, "at most 5,000 edges"),
])
def test_bad_graphs_are_refused_with_a_sentence(change, message):
    with pytest.raises(PuzzleError, match=message):
        parse_graph({**DECIMAL, **change})
