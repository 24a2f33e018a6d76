from tests.support.pages import job_id
def test_train_then_solve_with_v_then_evaluate(client, app):
    assert client.get("/learned/").status_code == 200
    response = client.post("/learned/evaluate", data={"count": "2"})
    if "train a table first" in response.get_data(as_text=True):
        assert response.status_code == 400
    job = app.extensions["jobs"].wait(job_id(client.post("/learned/train", data={"walks": "5000", "length": "80",
                                                                                   "seed": "11"})), timeout=300)
    assert job["status"] == "done" and 0 < job["result"]["fill"] < 1
    assert "keys filled" in client.get(f"/jobs/{job['id']}").get_data(as_text=True)
    page = client.get("/play?size=4x4&goal=blank-first", follow_redirects=True).get_data(as_text=True)
    assert 'value="idastar:learned"' in page and "not admissible" in page
    body = {"size": "4x4", "goal": "blank-first", "tiles": [4, 1, 2, 3, 5, 0, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
            "solver": "idastar", "heuristic": "learned", "mode": "sync"}
    data = client.post("/api/solve", json=body).get_json()
    assert data["status"] == "solved" and data["optimal"] is False and len(data["moves"]) >= 2
    response = client.post("/learned/evaluate", data={"count": "1", "max_seconds": "2", "table": job["result"]["name"]})
    evaluation = app.extensions["jobs"].wait(job_id(response), timeout=300)
    assert evaluation["status"] == "done" and evaluation["result"]["overall"]["positions"] == 1
    assert "fewer nodes" in client.get("/learned/").get_data(as_text=True)


def test_bad_learned_requests(client):
    for data, message in [({"walks": "0"}, "walks must be a whole number from 1"), ({}, "walks is missing"),
                          ({"walks": "100", "tiles": "a b"}, "must be numbers"),
                          ({"walks": "100", "value_rule": "max"}, "value_rule")]:
        response = client.post("/learned/train", data=data)
        assert response.status_code == 400 and message in response.get_data(as_text=True)
    response = client.post("/learned/evaluate", data={"count": "0"})
    assert response.status_code == 400
