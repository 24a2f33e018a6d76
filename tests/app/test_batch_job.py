"""The solve-batch job through the job API and its page: each position solved on the long lane's workers."""

from tests.support.pages import job_id

SEED_004 = [8, 6, 7, 2, 5, 4, 3, 0, 1]  # seed 004's position: 31 moves, the 8-puzzle's largest distance


def test_a_batch_of_positions_is_solved_and_shown(client, app):
    boards = [SEED_004, [1, 2, 3, 4, 5, 6, 7, 0, 8], [1, 2, 3, 4, 5, 6, 7, 8, 0]]  # 31 moves, one move, the goal
    response = client.post("/api/jobs", json={"kind": "solve-batch", "params": {
        "size": "3x3", "goal": "blank-last", "boards": boards, "solver": "idastar", "heuristic": "manhattan"}})
    assert response.status_code == 202
    job = app.extensions["jobs"].wait(job_id(response), timeout=180)
    assert job["status"] == "done" and job["lane"] == "long"
    assert [r["length"] for r in job["result"]["results"]] == [31, 1, 0]
    assert job["result"]["results"][1]["moves"] == "R"  # the blank (mid last row) moves right
    html = client.get(f"/jobs/{job_id(response)}").get_data(as_text=True)
    assert "3 of 3 positions solved" in html


def test_a_batch_with_an_unsolvable_position_is_refused_by_its_number(client):
    response = client.post("/api/jobs", json={"kind": "solve-batch", "params": {
        "size": "3x3", "boards": [SEED_004, [2, 1, 3, 4, 5, 6, 7, 8, 0]]}})
    assert response.status_code == 400 and "position 2 of the batch" in response.get_json()["error"]
