import math

import pytest

from engine.domains.rectout.puzzle import start_state
from tests.support.pages import job_id

START = [list(p) for p in start_state()]


def test_the_page_draws_the_default_start(client):
    page = client.get("/rectout/").get_data(as_text=True)
    assert "Rectangle-out" in page and 'id="rectout"' in page and "1.62 cm from either wall" in page
    assert client.get("/").get_data(as_text=True).count("/rectout/") >= 2  # navigation and the home card


def test_offsets_choose_the_start_and_are_checked(client):
    assert client.get("/rectout/?offsets=0 0 3.24 3.24").status_code == 200
    response = client.get("/rectout/?offsets=0 0 9 0")
    assert response.status_code == 400 and "offset must be from 0 to 3.24" in response.get_data(as_text=True)


def test_a_slide_stops_at_the_first_contact(client):
    up = client.post("/api/rectout/slide", json={"state": START, "piece": 3, "dx": 0, "dy": 10}).get_json()
    assert up["moved"] == pytest.approx(13 - 4 * 2.44)  # the target rises until it meets the ceiling
    assert up["state"][3][1] == pytest.approx(13 - 1.22)
    down = client.post("/api/rectout/slide", json={"state": up["state"], "piece": 3, "dx": 0, "dy": -10}).get_json()
    assert down["state"][3][1] == pytest.approx(START[3][1])  # and falls back onto the plate below, no further
    blocked = client.post("/api/rectout/slide", json={"state": START, "piece": 0, "dx": 0, "dy": -1}).get_json()
    assert blocked["moved"] == 0 and blocked["state"] == START


def test_a_turn_in_a_jam_uses_a_corner(client):
    turned = client.post("/api/rectout/turn", json={"state": START, "piece": 3, "angle": -1.0}).get_json()
    # about its centre the target is blocked at once; on the corner of the plate below it turns until it meets the
    # ceiling (20.3°, see the engine test)
    assert turned["moved"] == pytest.approx(0.35496, abs=1e-4)
    assert turned["out"] is False


def test_two_plates_turn_together_by_hand(client):
    # plates 1 and 2 against the left wall, 3 against the right, the target in the top-right corner
    ready = [[4.88, 1.22, 0.0], [4.88, 3.66, 0.0], [8.12, 6.1, 0.0], [8.12, 13 - 1.22, 0.0]]
    alone = client.post("/api/rectout/turn", json={"state": ready, "piece": 1, "angle": -1.5707963}).get_json()
    assert alone["moved"] < 0.8  # plate 2 alone stops well short of 45° (0.785 rad)
    body = {"state": ready, "piece": 1, "partner": 2, "angle": -1.5707963267948966}
    together = client.post("/api/rectout/turn", json=body).get_json()
    assert together["moved"] == pytest.approx(math.pi / 2)
    assert together["state"][1][2] == pytest.approx(-math.pi / 2) and together["state"][2][2] == pytest.approx(
        -math.pi / 2)
    assert together["state"][0] == ready[0] and together["state"][3] == ready[3]  # the others stay
    same = client.post("/api/rectout/turn", json={**body, "partner": 1})
    assert same.status_code == 400 and "another plate" in same.get_json()["error"]
    far = client.post("/api/rectout/turn", json={**body, "partner": 7})
    assert far.status_code == 400 and "partner must be a whole number from 0 to 3" in far.get_json()["error"]


@pytest.mark.parametrize("body, message", [
    ({"state": START, "piece": 3, "dx": 1}, "dy is missing"),
    ({"state": START, "piece": 9, "dx": 1, "dy": 0}, "piece must be a whole number from 0 to 3"),
    ({"state": START[:2], "piece": 0, "dx": 1, "dy": 0}, "a state is 4 poses"),
    ({"state": [START[0], START[0], START[2], START[3]], "piece": 0, "dx": 1, "dy": 0}, "overlap"),
    ({"state": START, "piece": 0, "dx": "far", "dy": 0}, "dx must be a number"),
])
def test_bad_input_gets_a_clear_message(client, body, message):
    response = client.post("/api/rectout/slide", json=body)
    assert response.status_code == 400 and message in response.get_json()["error"]


def test_the_search_runs_as_a_job_within_its_budget(app, client):
    response = client.post("/api/rectout/solve", json={"state": START, "max_states": 10})
    assert response.status_code == 202
    job = app.extensions["jobs"].wait(job_id(response), timeout=120)
    result = job["result"]
    assert job["status"] == "done" and result["status"] == "budget_exhausted" and result["expanded"] == 10
    assert result["duplicates"] > 0  # moving the stacked plates in either order reaches the same position
    bad = client.post("/api/rectout/solve", json={"state": START, "max_states": 10 ** 9})
    assert bad.status_code == 400 and "max_states" in bad.get_json()["error"]


def test_a_shared_position_opens_and_a_bad_one_is_refused(client):
    import json
    import math

    near = [[1.22, 4.88, math.pi / 2], [3.66, 4.88, math.pi / 2], [11.78, 4.88, math.pi / 2], [6.2, 8.0, math.pi / 2]]
    page = client.get("/rectout/", query_string={"state": json.dumps(near)}).get_data(as_text=True)
    assert "11.78" in page
    bad = client.get("/rectout/", query_string={"state": json.dumps([near[0]] * 4)})
    assert bad.status_code == 400 and "overlap" in bad.get_data(as_text=True)
    assert client.get("/rectout/?state=[[1,2").status_code == 400
