import math
import re

from app.identity import owner_of
from engine.domains.tiles import Board, goal_board
from engine.domains.tiles.solvability import is_solvable
from tests.support.pages import job_id


def start(client, name, data):
    response = client.post(f"/research/start/{name}", data=data)
    assert response.status_code == 200
    return job_id(response)


def test_research_page_renders_the_max_md_table(client):
    html = client.get("/research/").get_data(as_text=True)
    assert "The 2×n puzzle" in html
    # n = 8: exact 75 equals the formula and the paper; computed on page load.
    assert re.search(r"<td>8</td><td>75</td><td>75</td><td>75</td>", html)


def test_jobs_run_and_results_are_stored(client, app):
    runner = app.extensions["jobs"]
    job = runner.wait(start(client, "bfs", {"board": "2x4"}), timeout=60)
    assert job["status"] == "done" and job["result"]["diameter"] == 36
    fragment = client.get(f"/jobs/{job['id']}").get_data(as_text=True)
    assert 'class="diameter">36<' in fragment and "goal=blank-first" in fragment
    job = runner.wait(start(client, "subproblem", {"n": "5", "k": "2", "blank_home": "true"}), timeout=60)
    assert job["result"]["f"] == 48
    job = runner.wait(start(client, "maxmd", {"n": "4", "method": "brute"}), timeout=60)
    assert job["result"]["max_md"] == 21
    job = runner.wait(start(client, "bounds", {"n_max": "4"}), timeout=120)  # n = 4 carries the flag
    assert job["status"] == "done"
    page = client.get("/research/").get_data(as_text=True)
    assert "2×4" in page and "paper prints upper bound 58" in page


def test_bad_research_requests(client, app):
    assert client.post("/research/start/nope", data={}).status_code == 400
    response = client.post("/research/start/bfs", data={"board": "4x4"})
    assert response.status_code == 400 and "at most 12 cells" in response.get_data(as_text=True)
    response = client.post("/research/start/maxmd", data={"n": "9", "method": "brute"})
    assert response.status_code == 400 and "n must be a whole number from 1 to 6" in response.get_data(as_text=True)
    # Out-of-range parameters are refused when the job is submitted, with the field's name and range.
    for data, message in [({"n": "500", "k": "1"}, "n must be a whole number from 1 to 200"),
                          ({"n": "30", "k": "4"}, "states"), ({"n": "abc", "k": "1"}, "n must be a whole number"),
                          ({"n": "3", "k": "4"}, "k (the distinguished columns) must be at most n")]:
        response = client.post("/research/start/subproblem", data=data)
        assert response.status_code == 400 and message in response.get_data(as_text=True), data
    response = client.post("/research/start/maxmd", data={"n": "abc"})
    assert response.status_code == 400 and "n must be a whole number" in response.get_data(as_text=True)
    assert not app.extensions["jobs"].mine(owner_of(client.get_cookie("pp_owner").value, app.secret_key))


def test_the_2x7_row_shows_a_stored_search_beside_the_bounds_and_the_published_counts(client, app, monkeypatch):
    import json

    from app import research
    from engine.serving import store
    from engine.subjects.research.table import OEIS_2X7_FIRST

    monkeypatch.setattr(research, "load_record", lambda subject, name: None)  # as if nothing were recorded
    html = client.get("/research/").get_data(as_text=True)
    assert "Table 1 · the 2×7 row" in html and "not searched yet" in html and "<td>58</td><td>183</td>" in html
    folder = store.data_dir() / "fullbfs-2x7"
    folder.mkdir()
    manifest = {"histogram": OEIS_2X7_FIRST[:12], "seconds": 5.0, "machine": "a test machine"}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    html = client.get("/research/").get_data(as_text=True)
    assert "at least 11 (so far)" in html and "The counts at distances 0 to 11 are the published" in html
    manifest["histogram"][5] += 1
    (folder / "manifest.json").write_text(json.dumps(manifest))
    assert "The count at distance\n    5 differs" in client.get("/research/").get_data(as_text=True)


def test_the_recorded_2x7_search_is_the_published_answer_and_shows_where_nothing_was_searched(client):
    from engine.core.records import load_record
    from engine.subjects.research.table import OEIS_2X7_FIRST, OEIS_2X7_LAST

    recorded = load_record("research", "bfs-2x7")
    histogram = recorded["histogram"]
    assert sum(histogram) == recorded["positions"] == math.factorial(14) // 2
    assert histogram[:len(OEIS_2X7_FIRST)] == OEIS_2X7_FIRST
    assert (recorded["diameter"], histogram[-1]) == (OEIS_2X7_LAST["diameter"], OEIS_2X7_LAST["at_diameter"])
    assert is_solvable(Board(2, 7, tuple(recorded["hardest"][0])), goal_board(2, 7, "blank-first"))
    html = client.get("/research/").get_data(as_text=True)
    assert "<strong>108</strong>" in html and "The counts at distances 0 to 38 are the published" in html
