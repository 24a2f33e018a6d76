import pytest

from engine.domains.graph import numbered_graph
from engine.domains.tiles import Board, goal_board
from engine.domains.tiles.problem import SlidingTileProblem
from engine.domains.tiles.random import scramble
from engine.domains.tiles.solving import solve_board
from engine.search.trace import ALGORITHMS, trace_search
from engine.subjects.classic.graph import SEED_GRAPH


def cells(board):
    return list(board.cells)


@pytest.mark.parametrize("algorithm", ["bfs", "ids", "astar", "idastar"])
def test_the_step_through_answer_is_the_solvers_answer(algorithm):
    goal = goal_board(3, 3, "blank-last")
    start = goal.apply("UULDRDLU")
    traced = trace_search(SlidingTileProblem(start, goal), algorithm)
    optimal = solve_board(start, goal, "bfs")
    assert traced["result"]["status"] == "solved"
    assert traced["result"]["length"] == optimal.length == 8
    assert start.apply(traced["result"]["moves"]).cells == goal.cells
    if algorithm == "idastar":  # same move order as the numba kernel: the very same moves and node count
        kernel = solve_board(start, goal, "idastar", "manhattan")
        assert traced["result"]["moves"] == kernel.moves
        assert traced["result"]["nodes_expanded"] == kernel.nodes_expanded


def test_the_recorded_tree_replays_the_search():
    goal = goal_board(3, 3, "blank-last")
    start = goal.apply("UULD")
    traced = trace_search(SlidingTileProblem(start, goal), "astar")
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
    traced = trace_search(SlidingTileProblem(goal.apply("UULDRDLU"), goal), "idastar")
    events = [s["event"] for s in traced["steps"]]
    assert events.count("bound") >= 2 and "prune" in events


def test_the_graph_in_the_step_through():
    problem = numbered_graph(SEED_GRAPH.adjacency, 0, 6)
    for algorithm in ALGORITHMS:
        traced = trace_search(problem, algorithm, depth_limit=7)
        assert traced["result"]["status"] == "solved"
    for algorithm in ("bfs", "ids", "ucs", "bidirectional"):
        result = trace_search(problem, algorithm)["result"]
        assert result["moves"] == "2 4 6" and result["length"] == 3, algorithm


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
@pytest.mark.parametrize("problem", [
    SlidingTileProblem(goal_board(3, 3, "blank-last").apply("UULDRD"), goal_board(3, 3, "blank-last")),
    numbered_graph(SEED_GRAPH.adjacency, 0, 6, SEED_GRAPH.positions),
], ids=["tiles", "graph"])
def test_every_step_carries_the_engines_counts_and_a_pseudocode_line(algorithm, problem):
    traced = trace_search(problem, algorithm)
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
    traced = trace_search(SlidingTileProblem(goal.apply("UULDRDLU"), goal), algorithm)
    bounds = [s for s in traced["steps"] if s["event"] == "bound"]
    assert bounds[0]["previous"] is None and len(bounds) >= 2
    for before, after in zip(bounds, bounds[1:], strict=False):
        assert after["previous"] == before["bound"] < after["bound"]
        assert after["cut"] > 0  # the previous iteration cut nodes off; the least f (or depth) among them is next
    if algorithm == "idastar":
        assert bounds[0]["bound"] == traced["nodes"][0]["h"]


def test_bidirectional_grows_a_tree_from_each_end_and_meets():
    goal = goal_board(3, 3, "blank-last")
    traced = trace_search(SlidingTileProblem(goal.apply("UULDRDLU"), goal), "bidirectional")
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
    traced = trace_search(SlidingTileProblem(hard, goal), "bfs", max_expansions=300)
    assert traced["recording_stopped"] and traced["result"]["status"] == "budget_exhausted"


def _live_frontier_sizes(traced):
    """Replay the steps as the view does: (the nodes it lists as waiting, the engine's count) after every step."""
    waiting: set[int] = set(n["id"] for n in traced["nodes"] if n["parent"] is None and n["side"] == "forward")
    for step in traced["steps"]:
        if step["event"] == "generate":
            waiting.add(step["node"])
        elif step["event"] in ("expand", "stale", "goal"):
            waiting.discard(step["node"])
        if "frontier" in step:
            yield len(waiting), step["frontier"]


@pytest.mark.parametrize("algorithm", ["bfs", "ucs", "greedy", "astar"])
def test_the_frontier_a_view_replays_is_the_engines_frontier(algorithm):
    # seed 2's 16-move scramble: A* queues a state twice and drops the out-of-date entry when it pops it
    goal = goal_board(3, 3, "blank-last")
    traced = trace_search(SlidingTileProblem(scramble(goal, 16, 2)[0], goal), algorithm,
                          max_expansions=400)
    sizes = list(_live_frontier_sizes(traced))
    assert sizes and all(listed == counted for listed, counted in sizes)
    if algorithm == "astar":
        stale = [s for s in traced["steps"] if s["event"] == "stale"]
        assert stale and all(traced["pseudocode"][s["line"]].lstrip().startswith("if a cheaper path") for s in stale)


@pytest.mark.parametrize("algorithm", ["dfs", "ids"])
def test_depth_first_never_revisits_a_state_on_its_path(algorithm):
    problem = numbered_graph(SEED_GRAPH.adjacency, 0, 6, SEED_GRAPH.positions)
    traced = trace_search(problem, algorithm)
    path = [0] + [int(node) for node in traced["result"]["moves"].split()]
    assert len(set(path)) == len(path) and path[-1] == 6
    if algorithm == "dfs":
        assert path == [0, 1, 2, 4, 6]  # the first neighbour first
        cycles = [s for s in traced["steps"] if s["event"] == "duplicate"]
        # 0 → 1 → 2 does not go on to 0, nor 0 → 1 → 2 → 4 → 3 to 1: both are on the path already
        assert [traced["nodes"][s["node"]]["state"] for s in cycles] == [0, 1]
    for node in traced["nodes"]:  # no node of the recorded tree repeats a state of its own path
        seen, a = [], node["id"]
        while a is not None:
            seen.append(traced["nodes"][a]["state"])
            a = traced["nodes"][a]["parent"]
        assert node["state"] not in seen[1:] or any(
            s["event"] == "duplicate" and s["node"] == node["id"] for s in traced["steps"])


def test_depth_first_on_boards_returns_a_path_without_repeated_boards():
    goal = goal_board(3, 3, "blank-last")
    for seed in range(4):
        start = scramble(goal, 8, seed)[0]
        result = trace_search(SlidingTileProblem(start, goal), "dfs", depth_limit=10,
                              max_expansions=50_000)["result"]
        assert result["status"] == "solved"
        boards, board = [start.cells], start
        for move in result["moves"]:
            board = board.move(move)
            boards.append(board.cells)
        assert len(set(boards)) == len(boards) and board.cells == goal.cells


def test_a_registered_algorithm_appears_in_the_step_through_with_its_pseudocode():
    from engine.search import breadth_first_search
    from engine.search.record import ALGORITHMS, Algorithm, register

    register(Algorithm("bfs-again", "Breadth-first, registered twice", lambda p, watch, trace, limit:
                       breadth_first_search(p, trace=trace, watch=watch),
                       (("start here", "start"), ("expand it", "expand"), ("skip it", "duplicate"),
                        ("push it", "generate"), ("done", "goal")), frontier="queue", optimal=True))
    try:
        traced = trace_search(numbered_graph(SEED_GRAPH.adjacency, 0, 6), "bfs-again")
        assert traced["title"] == "Breadth-first, registered twice" and traced["pseudocode"][1] == "expand it"
        assert traced["result"]["moves"] == "2 4 6" and traced["optimal"] and traced["frontier_kind"] == "queue"
    finally:
        ALGORITHMS.forget("bfs-again")


def test_every_event_a_search_emits_has_a_pseudocode_line_and_optimality_comes_from_the_record():
    from engine.search.record import ALGORITHMS

    goal = goal_board(3, 3, "blank-last")
    problem = SlidingTileProblem(scramble(goal, 16, 2)[0], goal)
    for name, spec in ALGORITHMS.items():
        traced = trace_search(problem, name, max_expansions=300)
        assert all(step["line"] is not None for step in traced["steps"]), name
        if traced["result"]["status"] == "solved":
            assert traced["result"]["optimal"] == spec.optimal, name
    ucs = "\n".join(ALGORITHMS["ucs"].pseudocode[i][0] for i in range(len(ALGORITHMS["ucs"].pseudocode)))
    assert "g(child) = g(node) + cost(node, child)" in ucs and "g = g" not in ucs
