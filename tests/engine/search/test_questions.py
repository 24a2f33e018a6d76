"""The questions a class is asked are graded right: each answer is checked against a fact the generator does not
compute, what the recorded search does next, a board replayed move by move, a breadth-first length, a hand count."""

import random

import pytest

from engine.domains.graph import numbered_graph
from engine.domains.tiles import goal_board
from engine.domains.tiles.problem import SlidingTileProblem
from engine.domains.tiles.random import scramble
from engine.search import breadth_first_search
from engine.search.questions import KINDS, ask, available, first_step, node_label
from engine.search.trace import trace_search
from engine.subjects.classic.graph import SEED_GRAPH

GOAL = goal_board(3, 3, "blank-last")


def tile_problems(count=4, moves=6):
    return [SlidingTileProblem(scramble(GOAL, moves, seed)[0], GOAL) for seed in range(count)]


def traced(problem, algorithm, depth_limit=12):
    return trace_search(problem, algorithm, depth_limit=depth_limit)


def cases(algorithms):
    problems = tile_problems() + [numbered_graph(SEED_GRAPH.adjacency, 0, 6, SEED_GRAPH.positions, True,
                                               SEED_GRAPH.costs)]
    return [(problem, algorithm) for problem in problems for algorithm in algorithms]


def by_label(trace):
    return {node_label(trace, node["id"]): node["id"] for node in trace["nodes"]}


def questions(trace, kind, problem=None, every=1):
    rng = random.Random(7)
    for n in range(0, len(trace["steps"]) + 1, every):
        question = ask(kind, trace, n, problem, rng)
        if question is not None:
            assert 2 <= len(question.choices) == len(set(question.choices)) and question.reason
            yield question


@pytest.mark.parametrize("algorithm", ["bfs", "ucs", "greedy", "astar"])
def test_the_node_expanded_next_is_the_one_the_search_expands_next(algorithm):
    asked = 0
    for problem, name in cases([algorithm]):
        trace = traced(problem, name)
        labels = by_label(trace)
        taken = ("expand", "goal") if trace["frontier_kind"] == "priority" else ("expand",)
        for question in questions(trace, "next"):
            following = next(s for s in trace["steps"][question.step:] if s["event"] in taken)
            chosen = question.choices[question.answer].split(" (")[0]
            assert labels[chosen] == following["node"], (name, question)
            asked += 1
    assert asked >= 10


def walk(problem, label):
    """The state a choice's label leads to and the cost of getting there, replayed on the problem itself."""
    state, cost = problem.initial, 0
    if isinstance(problem, SlidingTileProblem):
        actions = [] if label == "start" else list(label)
    else:
        actions = [int(v) for v in label.split(" → ")[1:]]
    for action in actions:
        cost += problem.cost(state, action)
        state = problem.result(state, action)
    return state, cost


@pytest.mark.parametrize("algorithm", ["astar", "idastar", "greedy"])
def test_f_is_the_cost_so_far_plus_the_heuristic(algorithm):
    asked = 0
    for problem, name in cases([algorithm]):
        for question in questions(traced(problem, name), "f", every=3):
            label = question.prompt.removeprefix("What is f of the node ").rpartition(" (")[0]
            state, g = walk(problem, label)
            assert int(question.choices[question.answer]) == g + problem.h(state)
            asked += 1
    assert asked >= 10


@pytest.mark.parametrize("algorithm", ["bfs", "astar", "ucs"])
def test_the_frontier_node_was_generated_and_not_yet_expanded(algorithm):
    asked = 0
    for problem, name in cases([algorithm]):
        trace = traced(problem, name)
        labels = by_label(trace)
        for question in questions(trace, "frontier", every=2):
            before = trace["steps"][:question.step]
            generated = {s["node"] for s in before if s["event"] == "generate"} | {0}
            expanded = {s["node"] for s in before if s["event"] in ("expand", "goal")}
            for index, choice in enumerate(question.choices):
                node = labels[choice]
                if index == question.answer:
                    assert node in generated and node not in expanded
                else:  # expanded already, or never queued (dropped as a duplicate or replaced)
                    assert node in expanded or node not in generated or any(
                        s["event"] == "stale" and s["node"] == node for s in before)
            asked += 1
    assert asked >= 10


def test_the_next_bound_is_the_one_ida_star_then_uses():
    asked = 0
    for problem in tile_problems(count=6, moves=12):
        trace = traced(problem, "idastar")
        for question in questions(trace, "bound"):
            assert int(question.choices[question.answer]) == trace["steps"][question.step]["bound"]
            asked += 1
    assert asked >= 4
    assert ask("bound", traced(tile_problems(1)[0], "astar"), 5) is None  # A* has no bound


def test_a_path_is_optimal_when_breadth_first_search_finds_none_shorter():
    verdicts = set()
    for problem in tile_problems(count=5):
        shortest = breadth_first_search(problem).length
        for name in ("dfs", "bfs", "astar"):
            trace = traced(problem, name, depth_limit=12)
            question = ask("optimal", trace, len(trace["steps"]), problem, random.Random(1))
            assert question.choices == ("Yes", "No")
            verdicts.add(question.choices[question.answer])
            assert (question.answer == 0) == (trace["result"]["length"] == shortest)
    assert verdicts == {"Yes", "No"}  # depth-first search's first path is often longer


def test_on_the_seed_graph_the_fewest_edges_are_not_the_cheapest():
    # By hand from the drawing: 0 2 4 6 costs 4 + 9 + 3 = 16, 0 1 3 4 6 costs 4 + 3 + 2 + 3 = 12.
    problem = numbered_graph(SEED_GRAPH.adjacency, 0, 6, SEED_GRAPH.positions, True, SEED_GRAPH.costs)
    bfs, astar = traced(problem, "bfs"), traced(problem, "astar")
    wrong = ask("optimal", bfs, len(bfs["steps"]), problem)
    right = ask("optimal", astar, len(astar["steps"]), problem)
    assert wrong.choices[wrong.answer] == "No" and "cost 16" in wrong.prompt and "12" in wrong.reason
    assert right.choices[right.answer] == "Yes" and "cost 12" in right.prompt
    assert ask("optimal", bfs, 3, problem) is None  # no path yet


def test_questions_are_only_offered_where_they_have_an_answer():
    problem = tile_problems(1)[0]
    trace = traced(problem, "bfs")
    # mid-expansion the children still to come decide what is next: asked there, the question waits for the next pop
    assert trace["steps"][2]["event"] == "generate" and "next" not in available(trace, 2)
    at = first_step("next", trace, 2)
    assert trace["steps"][at]["event"] == "expand" and "next" in available(trace, at)
    assert "bound" not in available(trace, at)
    assert set(available(trace, len(trace["steps"]), problem)) <= set(KINDS)
    assert ask("no such kind", trace, at) is None
    student = ask("next", trace, at, rng=random.Random(3)).to_dict(reveal=False)
    assert "answer" not in student and "reason" not in student
