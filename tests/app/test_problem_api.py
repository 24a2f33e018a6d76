"""``POST /api/solve`` and ``/api/compare`` on problems of other domains than the tiles (``"problem": "graph"`` or
``"grid"`` with its JSON): AIMA's published Romania answers (Russell & Norvig, 3rd ed., Figures 3.24 and 3.23: A*
and uniform-cost search 418 km through Sibiu, Rimnicu Vilcea and Pitesti; greedy best-first 450 km through Sibiu and
Fagaras; breadth-first search the fewest roads, three), Moving AI's listed optimal costs, hand-checked decimal costs,
the CLI's JSON equal to the API's, jobs that finish and jobs that are cancelled, and 400s for bad input; and a
sliding-tile board solved by the same ``solve`` and the same job kinds as a graph (engine, API and CLI), of any
shape through the CLI against a breadth-first search."""

import json
import random
import re
from collections import deque
from pathlib import Path

import pytest

from engine.domains.graph import example
from engine.domains.grid import read_scenarios
from tests.support.pages import cancel_mid_search, job_id

MOVING_AI = Path(__file__).resolve().parents[1] / "data" / "movingai"
ARENA_ROWS = (MOVING_AI / "arena.map").read_text().splitlines()[4:]
ROMANIA = example("romania")  # the book's map, typed as data: roads in km, h the straight-line distances
CHEAPEST = ["Arad", "Sibiu", "Rimnicu Vilcea", "Pitesti", "Bucharest"]


def solve(client, **body):
    response = client.post("/api/solve", json={"problem": "graph", "graph": ROMANIA, "mode": "sync", **body})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


@pytest.mark.parametrize("solver", ["astar", "ucs", "idastar"])
def test_the_cheapest_searches_answer_the_books_418_km(client, solver):
    data = solve(client, solver=solver)
    assert data["status"] == "solved" and data["optimal"] is True
    assert data["path"] == CHEAPEST and data["cost"] == 418 and data["length"] == 4


def test_greedy_and_breadth_first_answer_the_books_450_km_and_three_roads(client):
    greedy = solve(client, solver="greedy")
    assert greedy["path"] == ["Arad", "Sibiu", "Fagaras", "Bucharest"] and greedy["cost"] == 450
    assert greedy["optimal"] is False
    bfs = solve(client, solver="bfs")
    assert bfs["length"] == 3 and bfs["optimal"] is False


def test_decimal_costs_and_costs_over_a_hundred_give_the_hand_checked_path(client):
    # by hand: S→A→G costs 0.5 + 150.25 = 150.75, under S→G's 151 and S→B→G's 2.5 + 149 = 151.5
    graph = {"nodes": [{"name": n} for n in "SABG"], "start": "S", "goal": "G",
             "edges": [{"from": "S", "to": "G", "cost": 151}, {"from": "S", "to": "A", "cost": 0.5},
                       {"from": "A", "to": "G", "cost": 150.25}, {"from": "S", "to": "B", "cost": 2.5},
                       {"from": "B", "to": "G", "cost": 149}]}
    for solver in ("ucs", "astar", "idastar"):
        data = solve(client, graph=graph, solver=solver)
        assert data["path"] == ["S", "A", "G"] and data["cost"] == 150.75, solver


@pytest.mark.parametrize("solver", ["astar-compiled", "idastar-compiled", "astar", "ucs"])
def test_a_moving_ai_map_sent_as_rows_gets_each_listed_optimal_cost(client, solver):
    for scenario in read_scenarios((MOVING_AI / "arena.map.scen").read_text())[:6]:
        grid = {"rows": ARENA_ROWS, "start": list(scenario.start), "goal": list(scenario.goal), "connect": 8}
        response = client.post("/api/solve", json={"problem": "grid", "grid": grid, "solver": solver,
                                                   "mode": "sync"})
        data = response.get_json()
        assert data["status"] == "solved" and abs(data["cost"] - scenario.listed) <= 1e-6, (solver, scenario)
        assert data["path"][0] == list(scenario.start) and data["path"][-1] == list(scenario.goal)


def test_compare_runs_each_solver_on_the_same_graph_side_by_side(client):
    response = client.post("/api/compare", json={"problem": "graph", "graph": "romania", "mode": "sync",
                                                 "solvers": ["astar", "ucs", "greedy", "bfs", "astar:zero"]})
    assert response.status_code == 200
    results = response.get_json()["results"]
    assert [(r["solver"], r["heuristic"]) for r in results] == [("astar", "given"), ("ucs", ""), ("greedy", "given"),
                                                                ("bfs", ""), ("astar", "zero")]
    assert [r["cost"] for r in results] == [418, 418, 450, 450, 418]


def test_the_cli_prints_what_the_api_answers(client, capsys, tmp_path):
    from engine.cli import main

    data = solve(client, solver="astar")
    file = tmp_path / "romania.json"
    file.write_text(json.dumps(ROMANIA))
    assert main(["solve-problem", "--problem", "graph", "--file", str(file), "--solver", "astar", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert set(printed) - {"graph"} == set(data) - {"graph"}
    same = ("status", "moves", "path", "cost", "length", "optimal", "nodes_expanded", "nodes_generated", "solver",
            "heuristic")
    assert {key: printed[key] for key in same} == {key: data[key] for key in same}
    assert main(["solve-problem", "--problem", "graph", "--data", "romania", "--solver", "greedy",
                 "--solver", "ucs"]) == 0
    assert "cost 450" in capsys.readouterr().out


def test_a_job_finishes_and_its_result_is_drawn(client, app):
    response = client.post("/api/compare", json={"problem": "graph", "graph": "romania", "mode": "job",
                                                 "solvers": ["astar", "greedy"]})
    assert response.status_code == 202
    job = app.extensions["jobs"].wait(job_id(response), timeout=180)
    assert job["status"] == "done" and [r["cost"] for r in job["result"]["results"]] == [418, 450]
    page = client.get(f"/jobs/{job_id(response)}").get_data(as_text=True)
    assert "Arad → Sibiu → Rimnicu Vilcea → Pitesti → Bucharest" in page


def test_a_long_solve_runs_as_a_job_and_can_be_cancelled(client):
    # IDA* with h = 0 on an open 64×64 grid: a new bound for every distinct path cost, far beyond any budget here
    grid = {"rows": ["." * 64] * 64, "start": [0, 0], "goal": [63, 63], "connect": 8}
    response = client.post("/api/solve", json={"problem": "grid", "grid": grid, "heuristic": "zero",
                                               "solver": "idastar", "max_nodes": 2_000_000_000, "mode": "job"})
    job, cancelled = cancel_mid_search(client, response)
    assert job["status"] == "running" and job["kind"] == "solve"
    assert cancelled["status"] == "cancelled" and cancelled["result"]["status"] == "cancelled"


@pytest.mark.parametrize("body, message", [
    ({"problem": "maze"}, "problem must be one of"),
    ({"problem": "graph"}, 'give the graph as "graph"'),
    ({"problem": "graph", "graph": "atlantis"}, "no built-in graph"),
    ({"problem": "graph", "graph": "romania", "solver": "magic"}, "unknown solver"),
    ({"problem": "graph", "graph": "romania", "solver": "astar-compiled"}, "unknown solver"),
    ({"problem": "graph", "graph": "romania", "heuristic": "psychic"}, "offers the heuristics"),
    ({"problem": "graph", "graph": {"nodes": [{"name": "A"}], "edges": [], "start": "A", "goal": "B"}}, "not a node"),
    ({"problem": "graph", "graph": {**ROMANIA, "edges": [{"from": "Arad", "to": "Sibiu", "cost": 0}]}},
     "more than 0"),
    ({"problem": "graph", "graph": "romania", "max_nodes": "lots"}, "max_nodes"),
    ({"problem": "graph", "graph": "romania", "depth_limit": 10**6}, "depth_limit"),
    ({"problem": "grid", "grid": {"rows": ["..", "#."], "start": [0, 1], "goal": [1, 1]}}, "must be an open cell"),
    ({"problem": "grid", "grid": {"rows": ["." * 100] * 100, "start": [0, 0], "goal": [1, 1]}}, "at most"),
    ({"problem": "grid", "grid": [1, 2]}, "the grid must be an object"),
])
def test_bad_input_is_a_400_that_says_what_is_wrong(client, body, message):
    response = client.post("/api/solve", json={**body, "mode": "sync"})
    assert response.status_code == 400
    assert message in response.get_json()["error"]


def test_a_compare_needs_two_to_ten_solvers_each_offered(client):
    for solvers, message in ((["astar"], "between 2 and 10"), (["astar"] * 11, "between 2 and 10"),
                             (["astar", "ucs:psychic"], "offers the heuristics"), (["astar", 7], "each solver")):
        response = client.post("/api/compare", json={"problem": "graph", "graph": "romania", "solvers": solvers})
        assert response.status_code == 400 and message in response.get_json()["error"], solvers


def test_a_domain_registered_at_test_time_is_solved_by_its_compiled_searches(client, monkeypatch):
    from engine.search import domain
    from tests.engine.search.pancake import register

    monkeypatch.setattr(domain.DOMAINS, "_entries", domain.domain_kinds())  # forgotten after the test
    register()
    for solver in ("idastar-compiled", "astar-compiled", "bfs"):
        response = client.post("/api/solve", json={"problem": "pancake", "pancake": [2, 0, 1], "solver": solver,
                                                   "mode": "sync"})
        # 2 0 1: flip all three (1 0 2), then the top two (0 1 2)
        assert response.get_json()["path"] == [[2, 0, 1], [1, 0, 2], [0, 1, 2]], solver


def test_the_step_views_graph_gets_its_solvers_compared_on_a_page(client):
    page = client.get("/step/compare?problem=graph&data=romania&solvers=astar,greedy,bfs")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "<html" in text and "Arad → Sibiu → Rimnicu Vilcea → Pitesti → Bucharest" in text
    assert "Arad → Sibiu → Fagaras → Bucharest" in text
    fragment = client.get("/step/compare?problem=graph&data=romania&solvers=ucs,idastar",
                          headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "<html" not in fragment and fragment.count(">418<") == 2


def test_the_step_views_grid_gets_every_solver_and_a_board_races_as_any_kind(client):
    grid = json.dumps({"rows": ["....", ".##.", "...."], "start": [0, 0], "goal": [3, 2], "connect": 4})
    text = client.get("/step/compare", query_string={"problem": "grid", "data": grid}).get_data(as_text=True)
    # Manhattan distance round the wall: five moves, cost 5, for every solver (the fewest moves are the cheapest)
    assert text.count(">5<") >= 10 and "<td>A* (compiled) · h = " in text and "<td>IDA* (compiled) · h = " in text
    # the 8-puzzle three blank moves from its goal: R, D, R is the one way each move brings a tile home (hand-checked)
    race = client.get("/step/compare", query_string={"problem": "tiles", "tiles": "1,2,3,0,4,6,7,5,8",
                                                      "solvers": "ucs,astar"})
    assert race.status_code == 200 and race.get_data(as_text=True).count('data-moves="RDR"') == 2
    # a generic search in a board's race is named as the step-through names it, not by its registry name
    lanes = client.get("/step/compare", query_string={"problem": "tiles", "tiles": "1,2,3,0,4,6,7,5,8",
                                                       "solvers": "dfs,ucs"}).get_data(as_text=True)
    assert "<strong>Depth-first search" in lanes and "<strong>Uniform-cost search" in lanes
    assert "<strong>dfs" not in lanes and "<strong>ucs" not in lanes


def test_a_graph_or_grid_race_names_its_solvers_as_the_step_through_does(client):
    """Each row is named as the step-through's menu names its search (its record's title), never by the solver's
    registry name; the compiled searches as the API lists them."""
    graph = client.get("/step/compare?problem=graph&data=romania&solvers=ucs,bfs,dfs,idastar",
                       headers={"HX-Request": "true"}).get_data(as_text=True)
    rows = re.findall(r"<tr><td>([^<]*)</td>", graph)
    assert rows == ["Uniform-cost search", "Breadth-first search", "Depth-first search (depth-limited)",
                    "IDA* · h = given"]
    grid = json.dumps({"rows": ["....", ".##.", "...."], "start": [0, 0], "goal": [3, 2], "connect": 4})
    race = client.get("/step/compare", query_string={"problem": "grid", "data": grid,
                                                     "solvers": "greedy,astar-compiled,ids"}).get_data(as_text=True)
    rows = re.findall(r"<tr><td>([^<]*)</td>", race)
    assert rows == ["Greedy best-first search · h = manhattan", "A* (compiled) · h = manhattan", "Iterative deepening"]
    page = client.get("/step").get_data(as_text=True)  # the step-through's own menu names them alike
    assert all(f">{name}<" in page for name in ("Uniform-cost search", "Greedy best-first search",
                                                 "Iterative deepening"))


#: the 8-puzzle three blank moves (R, D, R) from the blank-last goal: each move brings one tile home (hand-checked)
THREE_MOVES = [1, 2, 3, 0, 4, 6, 7, 5, 8]


def test_a_board_and_a_graph_are_solved_by_the_one_solve_of_the_engine(monkeypatch):
    from engine.domains.graph import graph_problem
    from engine.domains.tiles.kind import tile_problem
    from engine.domains.tiles.solving import solvers
    from engine.search import solve as entry

    board, road = tile_problem({"tiles": THREE_MOVES}), graph_problem({"graph": ROMANIA})
    ran = []  # which solvers ran: the tile kind's own compiled A*, the generic readable A* for the graph
    own = type(solvers()["astar"])
    real_run = own.run
    monkeypatch.setattr(own, "run", lambda self, *args: ran.append(self.name) or real_run(self, *args))
    monkeypatch.setattr(entry, "run_generic", lambda *args, real=entry.run_generic: ran.append(args[1]) or real(*args))
    tiles, graph = entry.solve(board, "astar"), entry.solve(road, "astar")
    assert ran == ["astar", "astar"] and tiles.heuristic == "manhattan" and graph.heuristic == "given"
    assert (tiles.moves, tiles.extra["cost"], tiles.optimal) == ("RDR", 3, True)
    assert graph.extra["path"] == CHEAPEST and graph.extra["cost"] == 418 and graph.optimal


def test_a_board_and_a_graph_are_jobs_of_the_same_kind_through_the_api(client, app):
    """One solve job kind for every domain: a board's request (no "problem": the tile kind is the default) and a
    graph's, both as jobs, answered with the path and its cost beside the counts."""
    runner = app.extensions["jobs"]
    board = client.post("/api/solve", json={"size": "3x3", "tiles": THREE_MOVES, "solver": "ucs", "mode": "job"})
    graph = client.post("/api/solve", json={"problem": "graph", "graph": ROMANIA, "solver": "ucs", "mode": "job"})
    assert board.status_code == graph.status_code == 202
    tiles, road = (runner.wait(job_id(response), timeout=180) for response in (board, graph))
    assert tiles["kind"] == road["kind"] == "solve" and tiles["status"] == road["status"] == "done"
    assert tiles["result"]["moves"] == "RDR" and tiles["result"]["cost"] == 3
    assert tiles["result"]["path"][0] == THREE_MOVES and tiles["result"]["path"][-1] == [1, 2, 3, 4, 5, 6, 7, 8, 0]
    assert road["result"]["path"] == CHEAPEST and road["result"]["cost"] == 418


def test_a_board_and_a_graph_are_jobs_of_the_same_kind_through_the_cli(capsys, monkeypatch):
    """``solve-problem`` on a square board and on a graph goes through the same solve and compare job kinds; a board
    solved there equals the tile command's answer."""
    from engine.cli import main
    from engine.serving import jobs

    kinds = []
    monkeypatch.setattr(jobs, "checked", lambda kind, params, real=jobs.checked: kinds.append(kind) or real(kind,
                                                                                                            params))
    assert main(["solve-problem", "--problem", "tiles", "--data", json.dumps(THREE_MOVES), "--solver", "astar",
                 "--json"]) == 0
    board = json.loads(capsys.readouterr().out)
    assert main(["solve-problem", "--problem", "graph", "--data", "romania", "--solver", "astar", "--solver", "ucs",
                 "--json"]) == 0
    graph = json.loads(capsys.readouterr().out)
    assert kinds == ["solve", "compare"]
    assert board["moves"] == "RDR" and board["cost"] == 3 and board["optimal"] is True
    assert [result["cost"] for result in graph["results"]] == [418, 418]
    assert main(["solve", "--size", "3x3", ",".join(map(str, THREE_MOVES)), "--solver", "astar", "--json"]) == 0
    tiled = json.loads(capsys.readouterr().out)
    assert {key: tiled[key] for key in ("moves", "nodes_expanded", "path")} == {
        key: board[key] for key in ("moves", "nodes_expanded", "path")}


def test_a_square_board_needs_no_size_and_a_board_may_be_raced_by_generic_and_own_solvers(client):
    answer = client.post("/api/compare", json={"tiles": THREE_MOVES, "solvers": ["bfs", "bidirectional", "astar"],
                                               "mode": "sync"})
    assert answer.status_code == 200, answer.get_json()
    assert [(r["solver"], r["moves"]) for r in answer.get_json()["results"]] == [
        ("bfs", "RDR"), ("bidirectional", "RDR"), ("astar", "RDR")]


def breadth_first_distances(rows: int, cols: int, goal: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    """Every position's fewest blank moves to ``goal``: a breadth-first search from it, written here apart from the
    engine's."""
    distance, queue = {goal: 0}, deque([goal])
    while queue:
        state = queue.popleft()
        blank = state.index(0)
        row, col = divmod(blank, cols)
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if 0 <= r < rows and 0 <= c < cols:
                cells = list(state)
                cells[blank], cells[r * cols + c] = cells[r * cols + c], 0
                if tuple(cells) not in distance:
                    distance[tuple(cells)] = distance[state] + 1
                    queue.append(tuple(cells))
    return distance


def test_the_cli_solves_boards_of_any_shape_in_the_fewest_moves_breadth_first_search_finds(capsys):
    """``solve-problem --problem tiles`` takes an m×n board as its rows, or as an object with its size and goal: the
    2×4 position farthest from the goal (36 moves, seed 000's Table 1 diameter, found by the breadth-first search
    above) and two drawn at random (seeded) are solved by A* in BFS's number of moves; 1 5 2 3/4 _ 6 7/8 9 10 11 is two
    moves, up and left, from the 3×4 blank-first goal (hand-checked)."""
    from engine.cli import main

    distance = breadth_first_distances(2, 4, (1, 2, 3, 4, 5, 6, 7, 0))
    farthest = max(distance, key=distance.get)
    assert distance[farthest] == 36 and len(distance) == 8 * 7 * 6 * 5 * 4 * 3  # 8!/2 positions reach the goal
    drawn = random.Random(44).sample(sorted(distance), 2)
    boards = [[list(farthest[:4]), list(farthest[4:])]] + [{"size": "2x4", "tiles": list(cells)} for cells in drawn]
    for board, cells in zip(boards, [farthest, *drawn], strict=True):
        assert main(["solve-problem", "--problem", "tiles", "--data", json.dumps(board), "--solver", "astar",
                     "--json"]) == 0
        answer = json.loads(capsys.readouterr().out)
        assert answer["size"] == "2x4" and answer["tiles"] == list(cells) and answer["optimal"] is True
        assert answer["length"] == len(answer["moves"]) == distance[cells]
    assert main(["solve-problem", "--problem", "tiles", "--data", json.dumps(
        {"tiles": "1 5 2 3/4 0 6 7/8 9 10 11", "goal": "blank-first"}), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert (answer["size"], answer["moves"], answer["path"][-1]) == ("3x4", "UL", list(range(12)))


@pytest.mark.parametrize("board, message", [
    ([1, 2, 3, 4, 5, 0, 6, 7], "not a square board"), ([[1, 2, 3], [4, 0]], "rows are of different lengths"),
    ([[1, 2], 3, 0], "not a mix"), ({"tiles": [[1, 2], [3, 0]], "solver": "bfs"}, "not 'solver'"),
    ({"size": "2x4", "tiles": [1, 2, 3, 4, 5, 6, 0]}, "the blank"), ([[2, 1, 3], [4, 5, 0]], "unsolvable")])
def test_the_cli_refuses_a_malformed_board_with_a_sentence(capsys, board, message):
    from engine.cli import main

    assert main(["solve-problem", "--problem", "tiles", "--data", json.dumps(board)]) == 2
    assert message in capsys.readouterr().err
