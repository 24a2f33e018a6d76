import pytest

from engine.core.errors import PuzzleError
from engine.subjects.classic import graph, knights, queens

SEED_COUNTS = [2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596]  # seed 004, N = 4..14


@pytest.mark.parametrize("method", queens.METHODS)
def test_queens_counts_match_the_seed(method):
    top = {"generate-and-test": 11, "backtracking": 14, "bitmask": 14}[method]
    for n in range(4, top + 1):
        assert queens.count_solutions(n, method)["solutions"] == SEED_COUNTS[n - 4], (method, n)


@pytest.mark.parametrize("method", queens.METHODS)
def test_a_count_paused_every_few_nodes_counts_what_one_slice_counts(method, monkeypatch):
    whole = queens.count_solutions(7, method)
    monkeypatch.setattr(queens, "SLICE_NODES", 5)  # the kernels stop and resume their search hundreds of times
    sliced = queens.count_solutions(7, method)
    assert sliced["solutions"] == whole["solutions"] == 40 and sliced["nodes"] == whole["nodes"]


@pytest.mark.slow
def test_generate_and_test_counts_n_12():
    assert queens.count_solutions(12, "generate-and-test")["solutions"] == 14200


def test_queens_references_agree_with_the_kernels_and_the_solutions_are_valid():
    for n in range(1, 9):
        listed = list(queens.solutions_by_backtracking(n))
        assert listed == list(queens.solutions_by_generate_and_test(n))
        assert len(listed) == queens.count_solutions(n, "bitmask")["solutions"]
        for columns in listed:
            assert all(queens.safe(list(columns[:row]), columns[row]) for row in range(n))


def test_pruning_pays_in_nodes():
    counts = {m: queens.count_solutions(8, m)["nodes"] for m in queens.METHODS}
    assert counts["generate-and-test"] == 40320  # 8!
    assert counts["bitmask"] < counts["backtracking"] < counts["generate-and-test"]


def test_queens_steps_end_on_a_solution():
    events = queens.backtracking_steps(6)
    assert events[-1]["event"] == "solution"
    columns = events[-1]["columns"]
    assert tuple(columns) == next(queens.solutions_by_backtracking(6))
    assert {e["event"] for e in events} == {"place", "conflict", "remove", "solution"}


def test_queens_bad_input():
    with pytest.raises(PuzzleError, match="from 1 to 18"):
        queens.check_n(0)
    with pytest.raises(PuzzleError, match="from 1 to 18"):
        queens.check_n(40)
    with pytest.raises(PuzzleError, match="whole number"):
        queens.check_n("¹")
    with pytest.raises(PuzzleError, match="background job"):
        queens.check_n(16, "bitmask", job=False)
    with pytest.raises(PuzzleError, match="whole number"):
        queens.check_n("eight")


def test_304_tours_from_a_corner_of_5x5():
    result = knights.count_tours(5, 5, 0)
    assert result["tours"] == 304 == knights.count_tours_reference(5, 5, 0)


def test_tours_by_start_square_follow_the_colouring():
    # On a 5×5 board (13 squares of one colour, 12 of the other) a tour must start on the majority colour.
    for start in (1, 3, 7):
        assert knights.count_tours(5, 5, start)["tours"] == 0
    assert knights.count_tours(5, 5, 12)["tours"] == knights.count_tours_reference(5, 5, 12) == 64
    assert knights.count_tours(3, 4, 0)["tours"] == knights.count_tours_reference(3, 4, 0)


def test_every_small_board_has_an_answer():
    # 1×1 is a tour of one square; 1×n, 2×2 and 3×3 have none (0 is an answer, not an error); 2×n has none either
    expected = {(1, 1): 1, (1, 4): 0, (2, 2): 0, (3, 3): 0, (2, 3): 0, (1, 2): 0}
    for (rows, cols), tours in expected.items():
        for start in range(rows * cols):
            assert knights.count_tours(rows, cols, start)["tours"] == tours
    for rows in range(1, 4):
        for cols in range(1, 6):
            for start in range(rows * cols):
                assert knights.count_tours(rows, cols, start)["tours"] == knights.count_tours_reference(rows, cols,
                                                                                                       start)
                assert knights.warnsdorff_tour(rows, cols, start)["status"] in ("done", "not_solved")
                assert knights.backtracking_steps(rows, cols, start)[0]["square"] == start


def test_warnsdorff_finds_legal_tours():
    for rows, cols in [(5, 5), (5, 8), (6, 20), (8, 8), (30, 30), (7, 26)]:
        result = knights.warnsdorff_tour(rows, cols, 0)
        tour = result["tour"]
        assert sorted(tour) == list(range(rows * cols))
        for a, b in zip(tour, tour[1:], strict=False):
            (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
            assert sorted((abs(ra - rb), abs(ca - cb))) == [1, 2]
    assert knights.warnsdorff_tour(4, 4, 0)["status"] == "not_solved"


def test_knight_steps_end_on_a_tour():
    events = knights.backtracking_steps(5, 5, 0, max_steps=100_000)
    assert events[-1]["event"] == "tour" and len(events[-1]["path"]) == 25


def test_knight_bad_input():
    with pytest.raises(PuzzleError, match="at most 36"):
        knights.count_tours(7, 7, 0)
    with pytest.raises(PuzzleError, match="start square"):
        knights.count_tours(5, 5, 25)


def test_seed_graph_paths():
    found = {s: graph.search_paths(graph.SEED_GRAPH, 0, 6, s)["paths"] for s in graph.STRATEGIES}
    assert found["dfs"] == [[0, 1, 2, 4, 6], [0, 1, 3, 4, 6], [0, 2, 1, 3, 4, 6], [0, 2, 4, 6]]
    assert found["bfs"] == sorted(found["dfs"], key=len) == [[0, 2, 4, 6], [0, 1, 2, 4, 6], [0, 1, 3, 4, 6],
                                                             [0, 2, 1, 3, 4, 6]]
    steps = graph.search_paths(graph.SEED_GRAPH, 0, 6, "ids")["steps"]
    first = next(s for s in steps if s["event"] == "found")
    assert first["path"] == [0, 2, 4, 6] and first["limit"] == 4


def test_graph_steps_show_the_stack_and_queue():
    steps = graph.search_paths(graph.SEED_GRAPH, 0, 6, "bfs")["steps"]
    assert steps[0] == {"event": "visit", "path": [0], "pending": [], "pending_total": 0}
    assert steps[1]["pending"] == [[0, 1], [0, 2]]


def test_graph_bad_input():
    g = graph.graph_from(4, [[0, 1], [2, 3]])
    result = graph.search_paths(g, 0, 3, "dfs")
    assert result["paths"] == [] and "not connected" in result["message"]
    with pytest.raises(PuzzleError, match="does not exist"):
        graph.graph_from(3, [[0, 5]])
    with pytest.raises(PuzzleError, match="1 to 60"):
        graph.graph_from(0, [])
    with pytest.raises(PuzzleError, match="start must be"):
        graph.search_paths(g, 9, 0, "bfs")


def test_breadth_first_on_a_complete_graph_stays_bounded():
    """A complete graph of 12 nodes has about 10^8 simple paths: the run stops at its limits, each step records only
    the front of the queue, and the queue's true length is reported beside it."""
    nodes = 12
    complete = graph.graph_from(nodes, [[a, b] for a in range(nodes) for b in range(a + 1, nodes)])
    result = graph.search_paths(complete, 0, nodes - 1, "bfs")
    assert not result["complete"] and "stopped after" in result["message"]
    assert len(result["steps"]) <= graph.MAX_STEPS
    assert max(len(step["pending"]) for step in result["steps"]) == graph.PENDING_SHOWN
    assert max(step["pending_total"] for step in result["steps"]) > graph.PENDING_SHOWN
    front = result["steps"][1]
    assert front["pending"][0] == [0, 1] and front["pending_total"] == nodes - 1
