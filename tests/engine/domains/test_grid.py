"""Grid maps: hand-checked costs, the heuristics' admissibility, Moving AI's benchmark answered to 1e-6, and the
compiled A* held to the readable one."""

import json
import math
import threading
from pathlib import Path

import numpy as np
import pytest

from engine.cli import main
from engine.core.errors import PuzzleError
from engine.core.result import Budget, Watch
from engine.domains.grid import GridDomain, grid_from_rows, grid_problem, read_map, read_scenarios
from engine.domains.grid.model import Grid
from engine.search import astar_search, idastar_search, uniform_cost_search
from engine.search.compiled import compiled_astar
from engine.search.compiled_ida import compiled_idastar
from engine.search.domain import walk
from engine.search.record import ALGORITHMS
from engine.search.solve import solve
from engine.search.trace import trace_search

MOVING_AI = Path(__file__).resolve().parents[2] / "data" / "movingai"


def cost(rows, start, goal, connect=8, heuristic="zero"):
    return compiled_astar(GridDomain(grid_from_rows(rows, connect), start, goal, heuristic)).extra["cost"]


def test_hand_checked_costs_corners_and_weights():
    # the diagonal past a wall would cut its corner: down then right instead
    assert cost([".#", ".."], (0, 0), (1, 1)) == 2
    # through the 5 costs 5 + 1; round it, four steps of 1; diagonally, two of √2 (the 5 is open, no corner is cut)
    assert cost([".5.", "..."], (0, 0), (2, 0), connect=4) == 4
    assert cost([".5.", "..."], (0, 0), (2, 0)) == pytest.approx(2 * math.sqrt(2))
    # entering the 3 diagonally costs 3√2 ≈ 4.24; a step of 1 and a straight step into it, 1 + 3
    assert cost(["..", ".3"], (0, 0), (1, 1)) == 4
    assert compiled_astar(GridDomain(grid_from_rows([".#.", "##."], 8), (0, 0), (2, 0), "octile")).status == \
        "unsolvable"


def random_grid(seed: int, size: int, connect: int) -> Grid:
    rng = np.random.default_rng(seed)
    rows = ["".join(rng.choice(list("....#23"), size)) for _ in range(size)]
    rows[0] = "." + rows[0][1:]
    return grid_from_rows(rows, connect)


@pytest.mark.parametrize("connect", [4, 8])
def test_each_heuristic_offered_never_overestimates(connect):
    grid = random_grid(connect, 7, connect)
    cells = [(x, y) for y in range(7) for x in range(7) if grid.open[y, x]]
    goal = cells[-1]
    for cell in cells:
        exact = uniform_cost_search(GridDomain(grid, cell, goal, "zero"))
        if exact.status != "solved":
            continue
        cheapest = compiled_astar(GridDomain(grid, cell, goal, "zero")).extra["cost"]
        for heuristic in {4: ("manhattan", "octile", "euclidean"), 8: ("octile", "euclidean")}[connect]:
            assert GridDomain(grid, cell, goal, heuristic).h(cell) <= cheapest + 1e-9, (heuristic, cell)
    with pytest.raises(PuzzleError, match="overestimates"):
        GridDomain(grid_from_rows(["..."], 8), (0, 0), (2, 0), "manhattan")


@pytest.mark.parametrize(("seed", "connect", "heuristic"), [(1, 4, "manhattan"), (2, 4, "octile"),
                                                            (3, 8, "octile"), (4, 8, "euclidean"), (5, 8, "zero")])
def test_the_compiled_astar_expands_what_the_readable_one_does(seed, connect, heuristic):
    grid = random_grid(seed, 24, connect)
    cells = [(x, y) for y in range(24) for x in range(24) if grid.open[y, x]]
    for goal in (cells[-1], cells[len(cells) // 2]):
        problem = GridDomain(grid, cells[0], goal, heuristic)
        readable, compiled = astar_search(problem), compiled_astar(problem)
        assert compiled.status == readable.status
        assert (compiled.nodes_expanded, compiled.nodes_generated, compiled.peak_frontier) == (
            readable.nodes_expanded, readable.nodes_generated, readable.peak_frontier)
        if readable.status == "solved":
            # equally cheap paths may differ in the last bit of their sums, and so in which one is kept
            steps = readable.moves.split()
            assert compiled.extra["cost"] == pytest.approx(trace_search(problem, "astar", max_expansions=10**5)[
                "result"]["cost"], abs=1e-9)
            assert len(compiled.extra["path"]) - 1 >= 1 and len(steps) >= 1


@pytest.mark.parametrize(("seed", "connect", "heuristic"), [(1, 4, "manhattan"), (2, 4, "zero"), (3, 8, "octile"),
                                                            (4, 8, "euclidean")])
def test_the_compiled_idastar_expands_what_the_readable_one_does(seed, connect, heuristic):
    """Node for node under one node budget: solved, or stopped having done the same work."""
    grid = random_grid(seed, 8, connect)
    cells = [(x, y) for y in range(8) for x in range(8) if grid.open[y, x]]
    for goal in (cells[-1], cells[len(cells) // 2], cells[0]):
        problem = GridDomain(grid, cells[0], goal, heuristic)
        readable = idastar_search(problem, Budget(max_nodes=30_000))
        compiled = compiled_idastar(problem, Budget(max_nodes=30_000))
        assert (compiled.status, compiled.moves, compiled.nodes_expanded, compiled.nodes_generated,
                compiled.peak_frontier) == (readable.status, readable.moves, readable.nodes_expanded,
                                            readable.nodes_generated, readable.peak_frontier)
        if compiled.status == "solved":
            assert compiled.extra["cost"] == pytest.approx(compiled_astar(problem).extra["cost"])


def test_every_moving_ai_scenario_gets_the_listed_optimal_cost(capsys):
    assert main(["grid", "--map", str(MOVING_AI / "arena.map"), "--scen", str(MOVING_AI / "arena.map.scen"),
                 "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    listed = read_scenarios((MOVING_AI / "arena.map.scen").read_text())
    assert len(answer["scenarios"]) == len(listed) == 130
    for scenario, found in zip(listed, answer["scenarios"], strict=True):
        assert (found["start"], found["goal"]) == (list(scenario.start), list(scenario.goal))
        assert abs(found["cost"] - scenario.listed) <= 1e-6, found


def test_the_compiled_path_is_the_moves_it_names_and_costs_what_it_says():
    """The path and cost come out of the kernel; replayed move by move through the readable ``Grid.moves`` they
    visit the same cells and cost the same, which on Moving AI's arena is the cost the file lists."""
    arena = read_map((MOVING_AI / "arena.map").read_text())
    queries = [(arena, s.start, s.goal, "octile", s.listed)
               for s in read_scenarios((MOVING_AI / "arena.map.scen").read_text())[::10]]
    for seed, connect, heuristic in ((6, 4, "manhattan"), (7, 8, "octile")):
        grid = random_grid(seed, 24, connect)
        cells = [(x, y) for y in range(24) for x in range(24) if grid.open[y, x]]
        queries += [(grid, cells[0], goal, heuristic, None) for goal in cells[-5:]]
    solved = 0
    for grid, start, goal, heuristic, listed in queries:
        problem = GridDomain(grid, start, goal, heuristic)
        result = solve(problem, "astar-compiled")
        if listed is None and uniform_cost_search(problem).status == "unsolvable":
            assert result.status == "unsolvable"
            continue
        states, walked = walk(problem, result.moves.split())
        assert result.extra["path"] == [list(state) for state in states] and states[-1] == goal
        assert result.extra["cost"] == walked
        if listed is not None:
            assert abs(walked - listed) <= 1e-6
        solved += 1
    assert solved >= 15


def test_budget_memory_bound_and_cancel_stop_the_compiled_search():
    problem = GridDomain(read_map((MOVING_AI / "arena.map").read_text()), (4, 32), (47, 19))
    stopped = compiled_astar(problem, Budget(max_nodes=10))
    assert stopped.status == "budget_exhausted" and stopped.nodes_expanded == 10
    crowded = compiled_astar(problem, max_bytes=problem.compiled().states * 16 + 4000)
    assert crowded.status == "budget_exhausted" and "memory bound" in crowded.message
    with pytest.raises(PuzzleError, match="memory bound"):
        compiled_astar(problem, max_bytes=1000)
    cancel = threading.Event()
    cancel.set()
    assert compiled_astar(problem, watch=Watch(Budget(max_nodes=10**9), cancel)).status == "cancelled"


def test_every_step_through_algorithm_runs_on_a_grid():
    problem = grid_problem({"grid": {"rows": ["....", ".##.", ".3..", "...."], "start": [0, 0], "goal": [3, 3]}})
    cheapest = compiled_astar(problem).extra["cost"]
    for algorithm, spec in ALGORITHMS.items():
        result = trace_search(problem, algorithm)["result"]
        assert result["path"][0] == [0, 0] and result["path"][-1] == [3, 3], algorithm
        assert result["cost"] >= cheapest - 1e-9
        if spec.cheapest:
            assert result["cost"] == pytest.approx(cheapest), algorithm


@pytest.mark.parametrize(("text", "message"), [
    ("type octile\nheight 1\nwidth 2\nmap\n.S\n", "swamp and water"),
    ("type tile\nheight 1\nwidth 2\nmap\n..\n", "only 'type octile'"),
    ("type octile\nheight 2\nwidth 2\nmap\n..\n", "2 rows of 2 cells"),
    ("type octile\nheight 9999\nwidth 9999\nmap\n", "at most"),
    ("type octile\nheight 2\nwidth 2\n", "then a line 'map'"),
])
def test_bad_map_files_are_refused_with_a_sentence(text, message):
    with pytest.raises(PuzzleError, match=message):
        read_map(text)


@pytest.mark.parametrize(("grid", "message"), [
    ({"rows": ["...", ".."], "start": [0, 0], "goal": [1, 1]}, "3 cells long"),
    ({"rows": ["..x"], "start": [0, 0], "goal": [1, 0]}, "not 'x'"),
    ({"rows": [".#"], "start": [0, 0], "goal": [1, 0]}, "goal \\(1, 0\\) must be an open cell"),
    ({"rows": [".."], "start": [0, 0], "goal": [5, 0]}, "must be an open cell"),
    ({"rows": [".."], "start": "0 0", "goal": [1, 0]}, "a cell \\[x, y\\]"),
    ({"rows": [".."], "start": [0, 0], "goal": [1, 0], "connect": 6}, "4 or 8"),
    ({"rows": ["." * 65] * 65, "start": [0, 0], "goal": [1, 0]}, "at most 4,096"),
])
def test_bad_grids_are_refused_with_a_sentence(grid, message):
    with pytest.raises(PuzzleError, match=message):
        grid_problem({"grid": grid})
