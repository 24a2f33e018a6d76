import pytest

from engine.classic.graph import SEED_GRAPH
from engine.search.problem import GraphProblem, SlidingTileProblem
from engine.search.trace import ALGORITHMS, trace_search
from engine.solvers import solve
from engine.tiles import Board, goal_board


def cells(board):
    return list(board.cells)


@pytest.mark.parametrize("algorithm", ["bfs", "ids", "astar", "idastar"])
def test_the_step_through_answer_is_the_solvers_answer(algorithm):
    goal = goal_board(3, 3, "blank-last")
    start = goal.apply("UULDRDLU")
    traced = trace_search(SlidingTileProblem(start, goal), algorithm, encode=cells)
    optimal = solve(start, goal, "bfs")
    assert traced["result"]["status"] == "solved"
    assert traced["result"]["length"] == optimal.length == 8
    assert start.apply(traced["result"]["moves"]).cells == goal.cells
    if algorithm == "idastar":  # same move order as the numba kernel: the very same moves and node count
        kernel = solve(start, goal, "idastar", "manhattan")
        assert traced["result"]["moves"] == kernel.moves
        assert traced["result"]["nodes_expanded"] == kernel.nodes_expanded


def test_the_recorded_tree_replays_the_search():
    goal = goal_board(3, 3, "blank-last")
    start = goal.apply("UULD")
    traced = trace_search(SlidingTileProblem(start, goal), "astar", encode=cells)
    nodes = traced["nodes"]
    expanded = [s["node"] for s in traced["steps"] if s["event"] == "expand"]
    assert len(expanded) == traced["result"]["nodes_expanded"]
    assert nodes[expanded[0]]["state"] == cells(start) and nodes[expanded[0]]["parent"] is None
    goal_step = traced["steps"][-1]
    assert goal_step["event"] == "goal" and nodes[goal_step["node"]]["state"] == cells(goal)
    for node in nodes:  # every child is one blank move from its parent
        if node["parent"] is not None:
            parent = nodes[node["parent"]]["state"]
            assert sum(a != b for a, b in zip(parent, node["state"], strict=True)) == 2
    # A* expands nodes in nondecreasing f
    fs = [nodes[i]["g"] + nodes[i]["h"] for i in expanded]
    assert fs == sorted(fs)


def test_ida_star_records_its_bounds_and_cut_offs():
    goal = goal_board(3, 3, "blank-last")
    traced = trace_search(SlidingTileProblem(goal.apply("UULDRDLU"), goal), "idastar", encode=cells)
    events = [s["event"] for s in traced["steps"]]
    assert events.count("bound") >= 2 and "prune" in events


def test_the_graph_in_the_step_through():
    problem = GraphProblem(SEED_GRAPH.adjacency, 0, 6)
    for algorithm in ALGORITHMS:
        traced = trace_search(problem, algorithm, depth_limit=7)
        assert traced["result"]["status"] == "solved"
    for algorithm in ("bfs", "ids", "ucs", "bidirectional"):
        result = trace_search(problem, algorithm)["result"]
        assert result["moves"] == "2 4 6" and result["length"] == 3, algorithm


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
@pytest.mark.parametrize("problem", [
    SlidingTileProblem(goal_board(3, 3, "blank-last").apply("UULDRD"), goal_board(3, 3, "blank-last")),
    GraphProblem(SEED_GRAPH.adjacency, 0, 6, SEED_GRAPH.positions),
], ids=["tiles", "graph"])
def test_every_step_carries_the_engines_counts_and_a_pseudocode_line(algorithm, problem):
    traced = trace_search(problem, algorithm, encode=cells if isinstance(problem, SlidingTileProblem) else int)
    steps, result = traced["steps"], traced["result"]
    assert result["status"] == "solved"
    assert steps[-1]["expanded"] == result["nodes_expanded"]
    assert steps[-1]["generated"] == result["nodes_generated"]
    expanded = [s["expanded"] for s in steps if "expanded" in s]
    assert expanded == sorted(expanded) and result["nodes_generated"] > 0
    assert len(traced["pseudocode"]) >= 3
    for step in steps:
        assert 0 <= step["line"] < len(traced["pseudocode"]), step
    assert len({s["line"] for s in steps}) >= 2  # the highlighted line moves


@pytest.mark.parametrize("algorithm", ["ids", "idastar"])
def test_iterations_are_steps_that_say_why_the_bound_is_what_it_is(algorithm):
    goal = goal_board(3, 3, "blank-last")
    traced = trace_search(SlidingTileProblem(goal.apply("UULDRDLU"), goal), algorithm, encode=cells)
    bounds = [s for s in traced["steps"] if s["event"] == "bound"]
    assert bounds[0]["previous"] is None and len(bounds) >= 2
    for before, after in zip(bounds, bounds[1:], strict=False):
        assert after["previous"] == before["bound"] < after["bound"]
        assert after["cut"] > 0  # the previous iteration cut nodes off; the least f (or depth) among them is next
    if algorithm == "idastar":
        assert bounds[0]["bound"] == traced["nodes"][0]["h"]


def test_bidirectional_grows_a_tree_from_each_end_and_meets():
    goal = goal_board(3, 3, "blank-last")
    traced = trace_search(SlidingTileProblem(goal.apply("UULDRDLU"), goal), "bidirectional", encode=cells)
    sides = {n["side"] for n in traced["nodes"]}
    assert sides == {"forward", "backward"}
    last = traced["steps"][-1]
    assert last["event"] == "goal"
    meet, other = traced["nodes"][last["node"]], traced["nodes"][last["meets"]]
    assert meet["state"] == other["state"] and meet["side"] != other["side"]
    assert meet["g"] + other["g"] == traced["result"]["length"] == 8


def test_recording_stops_at_its_budget():
    goal = goal_board(3, 3, "blank-last")
    hard = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))
    traced = trace_search(SlidingTileProblem(hard, goal), "bfs", encode=cells, max_expansions=300)
    assert traced["recording_stopped"] and traced["result"]["status"] == "budget_exhausted"
