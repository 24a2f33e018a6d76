"""The textbook searches of engine/search agree with each other where theory says they must."""

import pytest

from engine.domains.graph import numbered_graph
from engine.domains.tiles import goal_board
from engine.domains.tiles.problem import SlidingTileProblem
from engine.domains.tiles.random import scramble
from engine.search import (
    astar_search,
    bidirectional_search,
    breadth_first_search,
    greedy_best_first_search,
    iterative_deepening_search,
    uniform_cost_search,
)
from engine.subjects.classic.graph import SEED_GRAPH, graph_from

GOAL = goal_board(3, 3, "blank-last")


@pytest.mark.parametrize("seed", range(6))
def test_uniform_cost_and_bidirectional_find_bfs_lengths_on_unit_costs(seed):
    start = scramble(GOAL, 12, seed)[0]
    problem = SlidingTileProblem(start, GOAL)
    shortest = breadth_first_search(problem).length
    for search in (uniform_cost_search, bidirectional_search, astar_search):
        result = search(problem)
        assert result.status == "solved" and result.optimal
        assert result.length == shortest, search.__name__
        assert start.apply(result.moves).cells == GOAL.cells


def test_greedy_reaches_the_goal_but_claims_no_optimality():
    start = scramble(GOAL, 14, 3)[0]
    result = greedy_best_first_search(SlidingTileProblem(start, GOAL))
    assert result.status == "solved" and not result.optimal
    assert start.apply(result.moves).cells == GOAL.cells
    assert result.length >= breadth_first_search(SlidingTileProblem(start, GOAL)).length


def test_graph_actions_are_node_numbers_beyond_36_nodes():
    # a path of 50 nodes: no one-character encoding of node numbers could name them all
    edges = [[i, i + 1] for i in range(49)]
    g = graph_from(50, edges, [[i * 2, 50] for i in range(50)])
    problem = numbered_graph(g.adjacency, 0, 49, g.positions)
    for search in (breadth_first_search, iterative_deepening_search, bidirectional_search, astar_search):
        result = search(problem)
        assert result.status == "solved"
        assert result.moves.split() == [str(n) for n in range(1, 50)], search.__name__


def test_straight_line_h_on_the_graph_is_admissible():
    problem = numbered_graph(SEED_GRAPH.adjacency, 0, 6, SEED_GRAPH.positions)
    assert problem.heuristic_name == "straight-line"
    for node in range(SEED_GRAPH.size):
        exact = breadth_first_search(numbered_graph(SEED_GRAPH.adjacency, node, 6)).moves.split()
        assert problem.h(node) <= len(exact)
    assert problem.h(0) > 0
    assert numbered_graph(SEED_GRAPH.adjacency, 0, 6, SEED_GRAPH.positions, straight_line=False).h(0) == 0


def test_the_problem_supplies_the_inverse_action():
    tiles = SlidingTileProblem(GOAL.apply("UL"), GOAL)
    state = tiles.initial
    for action in tiles.actions(state):
        assert tiles.result(tiles.result(state, action), tiles.inverse(state, action)).cells == state.cells
    graph = numbered_graph(SEED_GRAPH.adjacency, 0, 6)
    for action in graph.actions(3):
        assert graph.result(graph.result(3, action), graph.inverse(3, action)) == 3


def test_the_heuristic_breakdown_adds_up():
    from engine.domains.tiles import Board
    from engine.domains.tiles.explain import explain
    from engine.domains.tiles.heuristics import linear_conflicts

    for seed in range(5):
        board = scramble(GOAL, 20, seed)[0]
        shown = explain(board, GOAL)
        assert sum(shown["manhattan"]) == shown["manhattan_total"]
        # every tile the heuristic charges for leaving its line is in at least one drawn pair
        charged = linear_conflicts(board, GOAL)
        assert (charged == 0) == (shown["conflicts"] == [])
        assert shown["pdb"] is None  # 3×3 has no pattern database
    swapped = Board(3, 3, (2, 1, 3, 4, 5, 6, 7, 8, 0))  # 1 and 2 swapped in their goal row
    assert explain(swapped, GOAL)["conflicts"] == [{"a": 2, "b": 1, "line": "row", "index": 0}]


def test_on_a_graph_with_costs_uniform_cost_and_a_star_find_the_cheapest_path_and_bfs_the_fewest_edges():
    from engine.search.trace import trace_search

    problem = numbered_graph(SEED_GRAPH.adjacency, 0, 6, SEED_GRAPH.positions, costs=SEED_GRAPH.costs)
    assert not problem.unit_costs
    answers = {name: trace_search(problem, name)["result"] for name in ("bfs", "ucs", "astar", "idastar", "greedy")}
    for name in ("ucs", "astar", "idastar"):
        assert (answers[name]["moves"], answers[name]["cost"], answers[name]["optimal"]) == ("1 3 4 6", 12, True)
    assert (answers["bfs"]["moves"], answers["bfs"]["cost"], answers["bfs"]["optimal"]) == ("2 4 6", 16, False)
    assert not answers["greedy"]["optimal"]
    # straight-line h, scaled by the cheapest cost per unit of drawn length, never overestimates the cheapest cost
    for node in range(SEED_GRAPH.size):
        cheapest = uniform_cost_search(numbered_graph(SEED_GRAPH.adjacency, node, 6, costs=SEED_GRAPH.costs))
        cost = sum(SEED_GRAPH.cost(a, b) for a, b in zip([node] + [int(n) for n in cheapest.moves.split()],
                                                           [int(n) for n in cheapest.moves.split()], strict=False))
        assert problem.h(node) <= cost
    assert problem.h(0) > 0


def test_edge_costs_are_checked():
    from engine.core.errors import PuzzleError

    g = graph_from(3, [[0, 1], [1, 2]], None, [5, 7])
    assert g.cost(1, 0) == 5 and g.cost(2, 1) == 7 and g.cost(0, 2) == 1
    for costs in ([1], [0, 1], [1, 100], "1,2", [1.5, 2]):
        with pytest.raises(PuzzleError):
            graph_from(3, [[0, 1], [1, 2]], None, costs)
