from tests.support.pages import job_id


def test_train_then_solve_with_v_then_evaluate(client, app):
    assert client.get("/learned/").status_code == 200
    response = client.post("/learned/evaluate", data={"count": "2"})  # this app's data folder starts empty
    assert response.status_code == 400 and "no learned table is trained" in response.get_data(as_text=True)
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


def test_the_learned_page_shows_the_m_curve_beside_the_papers_figures(client, monkeypatch):
    import app.learned

    point = {"walks": 700_000, "fill": 0.66, "training_seconds": 20.0, "training_cpu_seconds": 11.0,
             "overall": {"positions": 100, "both_finished": 99, "node_reduction": 0.86, "time_reduction": 0.7,
                         "optimal_share": 0.91, "learned_mean_excess": 0.2},
             "groups": [{"low": 40, "high": 50, "positions": 30, "manhattan_nodes": 1000.0, "learned_nodes": 100.0,
                         "manhattan_seconds": 0.5, "learned_seconds": 0.1, "optimal_share": 0.9, "mean_excess": 0.2}],
             "paper": [{"key": "node_reduction", "label": "fewer nodes than MD", "paper": 0.85, "ours": 0.86,
                        "met": True},
                       {"key": "time_reduction", "label": "less time than MD", "paper": 0.76, "ours": 0.7,
                        "met": False},
                       {"key": "optimal_share", "label": "of V's answers optimal", "paper": 0.9, "ours": 0.91,
                        "met": True}]}
    curve = {"positions": 100, "seed": 0, "max_nodes": 2 * 10**9, "points": [point],
             "command": "python -m engine learned curve", "measured": "test"}
    walked = {**curve, "positions_from": "walk:100",
              "points": [{**point, "walks": 2_000_000, "paper": [{**c, "met": True} for c in point["paper"]]}]}
    monkeypatch.setattr(app.learned, "recorded_curves", lambda: [curve, walked])
    html = client.get("/learned/").get_data(as_text=True)
    # which reading of "randomly made" meets all three of the paper's figures, and at which M
    assert '<td>uniformly random</td>' in html and '<td class="not-met">none</td>' in html
    assert '<td>100 random slides from the goal</td>' in html and '<td class="met">at M = 2,000,000</td>' in html
    assert "positions 100 random slides from the goal (seed 0)" in html
    assert 'class="curve-point" data-walks="700000"' in html
    assert "meets: fewer nodes than MD; of V&#39;s answers optimal" in html and "misses: less time than MD" in html
    assert "10⁸ (paper)" in html and "<td>85 %</td>" in html and '<td class="met">86 %</td>' in html
    assert '<td class="not-met">70 %</td>' in html
    response = client.post("/learned/curve", data={"walks": "0"})
    assert response.status_code == 400 and "walks" in response.get_data(as_text=True)


def test_the_learned_page_shows_the_recorded_curve_until_a_curve_job_runs(client):
    html = client.get("/learned/").get_data(as_text=True)
    for walks in (700_000, 2_000_000, 10_000_000, 100_000_000):
        assert f'class="curve-point" data-walks="{walks}"' in html
    assert '<td class="not-met">6 %</td>' in html  # M = 10⁸: 6.5 % fewer nodes than Manhattan distance
    assert '<td>uniformly random</td>' in html and "Measured with <code>python -m engine learned curve" in html
