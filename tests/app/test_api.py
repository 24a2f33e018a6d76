import json

import pytest

from tests.support.pages import cancel_mid_search, job_id

SEED_004 = [8, 6, 7, 2, 5, 4, 3, 0, 1]
KORF_1 = [14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3]
KORF_88 = [15, 2, 12, 11, 14, 13, 9, 5, 1, 3, 8, 7, 0, 10, 6, 4]  # billions of nodes with Manhattan: still running


def test_solve_answers_the_cli_json(client, capsys):
    """The API's answer and ``python -m engine solve --json`` on the same request: the same fields, the same answer."""
    from engine.cli import main

    request = {"size": "3x3", "goal": "blank-last", "tiles": SEED_004, "solver": "idastar", "heuristic": "manhattan"}
    response = client.post("/api/solve", json={**request, "mode": "sync"})
    assert response.status_code == 200
    data = response.get_json()
    assert main(["solve", "--size", "3x3", "--goal", "blank-last", "--solver", "idastar", "--heuristic", "manhattan",
                 "--json", " ".join(map(str, SEED_004))]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert set(data) == set(printed)
    same = ("status", "moves", "length", "optimal", "nodes_expanded", "nodes_generated", "solver", "heuristic")
    assert {key: data[key] for key in same} == {key: printed[key] for key in same}
    assert data["status"] == "solved" and data["length"] == 31 and data["optimal"] is True  # seed 004's 31 moves
    assert SEED_004 == list(replayed(data["moves"]))
    # loading the kernels is reported apart from the search's seconds, once per process: asked again, nothing loads
    again = client.post("/api/solve", json={**request, "mode": "sync"}).get_json()
    assert again["load_seconds"] == 0.0


def replayed(moves: str) -> tuple[int, ...]:
    """The position the moves solve: the goal with the moves undone."""
    from engine.domains.tiles import goal_board

    goal = goal_board(3, 3, "blank-last")
    undo = {"U": "D", "D": "U", "L": "R", "R": "L"}
    return goal.apply("".join(undo[m] for m in reversed(moves))).cells


@pytest.mark.parametrize("body, status, message", [
    ({"size": "3y3", "tiles": SEED_004}, 400, "not of the form RxC"),
    ({"size": "9x9", "tiles": SEED_004}, 400, "at most 36"),
    ({"size": "3x3", "tiles": [1, 2, 3]}, 400, "expected 9 numbers"),
    ({"size": "3x3", "tiles": "8 6 x"}, 400, "'x' is not a tile number"),
    ({"size": "3x3", "tiles": [1, 2, 3, 4, 5, 6, 8, 7, 0]}, 400, "unsolvable"),
    ({"size": "3x3", "tiles": SEED_004, "solver": "magic"}, 400, "unknown solver"),
    ({"size": "3x3", "tiles": SEED_004, "heuristic": "pdb"}, 400, "4x4 puzzle only"),
    ({"size": "3x3", "tiles": SEED_004, "max_seconds": "soon"}, 400, "max_seconds must be a number"),
    ({"tiles": [1, 2, 3, 4, 0, 5]}, 400, "missing field 'size'"),  # six cells: no square board's
    ({"size": "3x3"}, 400, "missing field 'tiles'"),
    ([1, 2], 400, "JSON object"),
])
def test_solve_bad_input_is_a_json_4xx(client, body, status, message):
    response = client.post("/api/solve", json=body)
    assert response.status_code == status
    assert message in response.get_json()["error"]


def test_not_json_and_oversized_requests(client):
    response = client.post("/api/solve", data="size=3x3", content_type="text/plain")
    assert response.status_code == 400 and "JSON object" in response.get_json()["error"]
    response = client.post("/api/solve", data="[" + "1," * 600_000 + "1]", content_type="application/json")
    assert response.status_code == 413 and "too large" in response.get_json()["error"]


def test_long_solve_becomes_a_job_that_can_be_cancelled(client):
    response = client.post("/api/solve", json={"size": "4x4", "goal": "blank-first", "tiles": KORF_88,
                                               "solver": "idastar", "heuristic": "manhattan"})
    job, cancelled = cancel_mid_search(client, response)
    assert job["status"] == "running" and job["kind"] == "solve"
    assert cancelled["status"] == "cancelled"
    assert cancelled["result"]["status"] == "cancelled"


def test_forced_job_runs_to_completion(client, app):
    response = client.post("/api/solve", json={"size": "3x3", "tiles": SEED_004, "solver": "bfs", "mode": "job"})
    assert response.status_code == 202
    job = app.extensions["jobs"].wait(job_id(response), timeout=180)
    assert job["status"] == "done" and job["result"]["length"] == 31


def test_compare(client):
    response = client.post("/api/compare", json={"size": "3x3", "tiles": SEED_004,
                                                 "solvers": ["idastar:manhattan", {"solver": "bfs"}], "mode": "sync"})
    assert response.status_code == 200
    results = response.get_json()["results"]
    assert [r["length"] for r in results] == [31, 31]
    assert [r["solver"] for r in results] == ["idastar", "bfs"]


def test_compare_as_job_reports_budget_exhausted(client, app):
    """Korf's #1 takes IDA* with Manhattan distance hundreds of millions of nodes: 20,000 end every solver's search,
    on any machine."""
    response = client.post("/api/compare", json={"size": "4x4", "goal": "blank-first", "tiles": KORF_1,
                                                 "solvers": ["idastar:manhattan", "astar:manhattan"],
                                                 "max_nodes": 20_000, "mode": "job"})
    assert response.status_code == 202
    job = app.extensions["jobs"].wait(job_id(response), timeout=180)
    assert job["status"] == "done"
    assert [r["status"] for r in job["result"]["results"]] == ["budget_exhausted", "budget_exhausted"]
    assert all(r["nodes_expanded"] <= 20_000 for r in job["result"]["results"])


def test_unknown_job(client):
    assert client.get("/api/jobs/nope").status_code == 404
    assert client.post("/api/jobs/nope/cancel").status_code == 404


def test_check_and_position(client):
    data = client.post("/api/check", json={"size": "3x3", "tiles": [2, 1, 3, 4, 5, 6, 7, 8, 0]}).get_json()
    assert data["solvable"] is False and "odd" in data["explanation"]
    first = client.get("/api/position?size=4x4&random=1&seed=9").get_json()
    assert first == client.get("/api/position?size=4x4&random=1&seed=9").get_json()
    assert sorted(first["tiles"]) == list(range(16))
    solvers = client.get("/api/solvers?size=3x3").get_json()["solvers"]
    assert {"value": "bfs:", "label": "Breadth-first search", "optimal": True} in solvers
    assert not any(s["value"].endswith(":pdb") for s in solvers)


@pytest.mark.parametrize("solver, heuristic", [("astar", "manhattan"), ("astar", "linear-conflict")])
def test_a_star_stops_at_its_memory_budget_and_says_which_limit(client, solver, heuristic):
    # Korf's first position needs far more than 16 MB of A*'s tables: the search ends itself, in the worker.
    response = client.post("/api/solve", json={"size": "4x4", "goal": "blank-first", "tiles": KORF_1, "mode": "sync",
                                               "solver": solver, "heuristic": heuristic, "max_megabytes": 16})
    data = response.get_json()
    assert response.status_code == 200 and data["status"] == "budget_exhausted"
    assert data["extra"]["budget"] == "memory" and "memory budget (16 MB)" in data["message"]
    assert data["extra"]["table_megabytes"] <= 16


def test_the_memory_budget_is_bounded(client):
    response = client.post("/api/solve", json={"size": "3x3", "tiles": SEED_004, "max_megabytes": 10**6})
    assert response.status_code == 400 and "max_megabytes" in response.get_json()["error"]
