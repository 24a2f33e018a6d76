"""IDA* spread over the cluster (the ``idastar-spread`` solver) through the API: a solve job on the long lane whose
tasks run on the session cluster's long-lane worker, the serial search's answer length and nodes per bound, and a
cancel that stops its tasks."""

from engine.domains.tiles.board import goal_board
from engine.domains.tiles.random import scramble
from engine.domains.tiles.solving import solve_board
from tests.support.pages import cancel_mid_search, job_id
from tests.support.waiting import wait_until

KORF_1 = [14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3]  # minutes with Manhattan distance


def test_a_spread_solve_is_a_long_job_with_the_serial_answer(client, app):
    goal = goal_board(4, 4)
    board, _ = scramble(goal, 45, seed=1)
    response = client.post("/api/solve", json={"size": "4x4", "tiles": list(board.cells), "solver": "idastar-spread",
                                               "heuristic": "linear-conflict", "mode": "job"})
    assert response.status_code == 202
    job = app.extensions["jobs"].wait(job_id(response), timeout=180)
    assert job["status"] == "done" and job["lane"] == "long"
    result = job["result"]
    serial = solve_board(board, goal, "idastar", "linear-conflict")
    assert result["solver"] == "idastar-spread" and result["optimal"]
    assert result["length"] == serial.length and goal == board.apply(result["moves"])
    assert result["extra"]["bounds"][:-1] == serial.extra["bounds"][:-1]
    assert any(result["extra"]["tasks"])


def test_a_spread_solve_cancelled_mid_search_stops_its_tasks(client, app):
    response = client.post("/api/solve", json={"size": "4x4", "goal": "blank-first", "tiles": KORF_1,
                                               "solver": "idastar-spread", "heuristic": "manhattan", "mode": "job"})
    url = response.get_json()["url"]
    wait_until(lambda: client.get(url).get_json()["info"].get("tasks") is not None, timeout=180,
               what="the job's first tasks")
    job, cancelled = cancel_mid_search(client, response)
    assert job["status"] == "running" and job["info"]["bound"] >= 41  # Manhattan distance of Korf's instance 1: 41
    cancelled = app.extensions["jobs"].wait(job_id(response), timeout=60)
    assert cancelled["status"] == "cancelled" and cancelled["result"]["status"] == "cancelled"
    runner = app.extensions["jobs"]
    wait_until(lambda: not any(str(key).startswith("ida-") for keys in runner.client.processing().values()
                               for key in keys), what="the search's tasks to end")


def test_the_play_page_offers_the_spread_solve(client):
    page = client.get("/play?size=4x4&goal=blank-first&tiles=" + ",".join(map(str, KORF_1))).get_data(as_text=True)
    assert 'value="idastar-spread:linear-conflict"' in page and "IDA* spread over the cluster" in page
