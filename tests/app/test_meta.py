import re

from tests.support.meta import synthetic_experiment
from tests.support.pages import job_id

GRID_EDGES_4x4 = {frozenset((r * 4 + c, r * 4 + c + 1)) for r in range(4) for c in range(3)} | {
    frozenset((r * 4 + c, (r + 1) * 4 + c)) for r in range(3) for c in range(4)}


def test_meta_page_draws_the_two_cycles_that_cover_every_edge(client):
    html = client.get("/meta/").get_data(as_text=True)
    drawn = re.findall(r'<polyline class="cycle c(\d)" points="([^"]+)"', html)
    assert [which for which, _ in drawn] == ["0", "1"] and "Run the experiment" in html
    covered = set()
    for _, points in drawn:  # each point is a cell's centre (40-unit cells), nudged a few units so both show
        cells = [round((float(y) - 20) / 40) * 4 + round((float(x) - 20) / 40)
                 for x, y in (p.split(",") for p in points.split())]
        assert cells[0] == cells[-1] and sorted(cells[:-1]) == list(range(16))  # a closed tour of every cell
        steps = {frozenset(pair) for pair in zip(cells, cells[1:], strict=False)}
        assert steps <= GRID_EDGES_4x4
        covered |= steps
    assert covered == GRID_EDGES_4x4


def test_a_dpso_run_is_a_job_whose_answer_replays(client, app):
    response = client.post("/meta/run", data={"algorithm": "dpso", "size": "4x4", "depth": "10", "scramble_seed": "3",
                                              "iterations": "300", "seed": "1"})
    assert response.status_code == 200 and 'id="board"' in response.get_data(as_text=True)
    job = app.extensions["jobs"].wait(job_id(response), timeout=120)
    result = job["result"]
    assert result["status"] == "solved" and result["extra"]["history"]
    from engine.domains.tiles import Board, goal_board
    assert Board(4, 4, tuple(result["tiles"])).apply(result["moves"]).cells == goal_board(4, 4).cells
    fragment = client.get(f"/jobs/{job['id']}").get_data(as_text=True)
    assert "best fitness per iteration" in fragment and 'data-player="board"' in fragment


def test_the_api_takes_metaheuristic_parameters(client):
    body = {"size": "3x3", "tiles": [1, 2, 3, 4, 5, 6, 0, 7, 8], "solver": "ga", "params": {"generations": 200},
            "mode": "sync"}
    data = client.post("/api/solve", json=body).get_json()
    assert data["status"] == "solved" and data["moves"] == "RR" and data["extra"]["params"]["generations"] == 200
    response = client.post("/api/solve", json={**body, "params": {"mutation": 7}})
    assert response.status_code == 400 and "mutation must be a number from 0.0 to 1.0" in response.get_json()["error"]
    response = client.post("/api/solve", json={**body, "params": [1, 2]})
    assert response.status_code == 400 and "must be an object" in response.get_json()["error"]


def test_a_small_experiment_runs_and_is_shown(client, app):
    response = client.post("/meta/experiment", data={"depths": "10", "trials": "2", "iterations": "200",
                                                     "generations": "500"})
    job = app.extensions["jobs"].wait(job_id(response), timeout=300)
    assert job["status"] == "done" and job["result"]["table"][0]["trials"] == 2
    html = client.get("/meta/").get_data(as_text=True)
    assert 'class="experiment-result" data-trials="2"' in html and "DPSO: solved trials against iterations" in html


def test_bad_meta_requests(client):
    for data, message in [({"algorithm": "ant"}, "dpso or ga"), ({"size": "9x9"}, "size must be one of"),
                          ({"depth": "0"}, "from 1 to 100"),
                          ({"particles": "1"}, "particles must be a whole number from 2")]:
        response = client.post("/meta/run", data=data)
        assert response.status_code == 400 and message in response.get_data(as_text=True), data


def test_the_meta_page_states_the_papers_claims_beside_ours(client, monkeypatch):
    from markupsafe import escape

    import app.meta
    from engine.core.records import load_record
    from engine.subjects.meta.claims import claims, figures

    result = synthetic_experiment({10: 30, 30: 15, 50: 1}, {10: 25, 30: 10, 50: 1})
    rows = claims(result)
    record = {"figures": figures(result), "command": "python bench/meta.py --experiment", "measured": "a test run"}
    monkeypatch.setattr(app.meta, "load_record", lambda subject, name: record if name == "experiment"
                        else load_record(subject, name))
    html = client.get("/meta/").get_data(as_text=True)
    assert html.count('<tr class="claim ') == len(rows) == 10
    assert "Depth 50: one trial solved, at iteration 300" in html and "about 10 % solved by iteration 10,000" in html
    for row in rows:  # each claim's row: its words, the paper's figure and ours, marked with its verdict
        cells = "".join(f"<td>{escape(row[key])}</td>" for key in ("claim", "paper", "ours"))
        assert f'<tr class="claim {row["verdict"].replace(" ", "-")}">{cells}' in html, row["key"]
    assert "equations (1)–(4)" in html and "a test run" in html
    assert 'class="data clamp-table"' in html and 'class="data selection-table"' in html


def test_without_a_run_on_the_server_the_page_shows_the_recorded_experiment_at_every_depth(client):
    from engine.core.records import load_record

    recorded = load_record("meta", "experiment")["result"]
    html = client.get("/meta/").get_data(as_text=True)
    assert "No experiment has run on this server yet" in html
    for row in recorded["table"]:
        dpso = row["dpso"]["checkpoints"]
        last = dpso[max(dpso, key=int)]
        assert f'<tr class="depth-row" data-depth="{row["depth"]}">' in html
        assert f'<td>{last["solved"]} / {last["optimal"]}</td>' in html
    assert [row["depth"] for row in recorded["table"]] == [10, 20, 30, 40, 50]


def test_an_experiment_table_without_checkpoints_of_one_algorithm_keeps_its_columns(app):
    """A short run (50 DPSO iterations) has no DPSO checkpoint: its group header is left out, not drawn over the
    GA's columns."""
    import copy
    import re

    from flask import render_template

    from engine.core.records import load_record

    result = copy.deepcopy(load_record("meta", "experiment")["result"])
    for row in result["table"]:
        row["dpso"]["checkpoints"] = {}
    with app.test_request_context():
        html = render_template("results/meta-experiment.html", result=result)
    assert "DPSO solved / optimal by iteration" not in html and "GA solved / optimal by generation" in html
    header = html.split("<thead>")[1].split("</thead>")[0]
    spans = sum(int(n) for n in re.findall(r'colspan="(\d+)"', header)) + header.count('rowspan="2"')
    body_row = html.split('<tr class="depth-row"')[1].split("</tr>")[0]
    assert body_row.count("<td>") == spans == 2 + len(result["table"][0]["ga"]["checkpoints"]) + 4


def test_the_full_size_experiment_is_the_operators_and_the_page_says_how_to_run_it(client, monkeypatch):
    """An empty request once started the paper's 30 trials of 10,000 iterations: hours of a long-lane worker."""
    from engine.serving.jobs import FULL_SIZE_VARIABLE

    monkeypatch.delenv(FULL_SIZE_VARIABLE, raising=False)
    html = client.get("/meta/").get_data(as_text=True)
    assert 'name="full"' not in html and "python bench/meta.py --experiment --trials 30" in html
    response = client.post("/meta/experiment", data={"full": "1"})
    assert response.status_code == 400 and "python bench/meta.py" in response.get_data(as_text=True)
    api = client.post("/api/jobs", json={"kind": "meta-experiment", "params": {"trials": 30}})
    assert api.status_code == 400 and FULL_SIZE_VARIABLE in api.get_json()["error"]
    assert client.post("/api/jobs", json={"kind": "learned-curve", "params": {"walks": "100000000"}}).status_code == 400
