"""Saved views: a step-through view or a race becomes one record in the job database, reachable at /v/<id>, which
opens it presenting at its step; the long address keeps working."""

import json
import re
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest

from app import create_app
from app.records import MAX_VIEW_BYTES, records
from app.step_view import view_from_query

ROMANIA = Path(__file__).resolve().parents[2] / "engine" / "domains" / "graph" / "examples" / "romania.json"


def romania(step: int = 12, **extra) -> str:
    return "/step?" + urlencode({"problem": "graph", "data": ROMANIA.read_text(), "algorithms": "ucs,astar",
                                 "step": step, **extra})


def view_of(url: str):
    return view_from_query(dict(parse_qsl(urlsplit(url).query)))


def config_of(page) -> dict:
    return json.loads(re.search(rb"data-config='([^']*)'", page.data).group(1).decode().replace("&#34;", '"'))


def test_the_same_view_is_one_record_and_its_link_reopens_it(client):
    first = client.post("/api/views", json={"view": romania()})
    assert first.status_code == 200 and re.fullmatch(r"/v/[a-z2-7]{12}", first.json["link"])
    # the same view, its graph's keys in another order: the same record
    shuffled = json.dumps(dict(reversed(list(json.loads(ROMANIA.read_text()).items()))))
    again = client.post("/api/views", json={"view": romania().replace(
        urlencode({"data": ROMANIA.read_text()}), urlencode({"data": shuffled}))})
    assert again.json["id"] == first.json["id"]
    other = client.post("/api/views", json={"view": romania(13)})
    assert other.json["id"] != first.json["id"]
    saved = client.get(f"/api/views/{first.json['id']}").json
    assert saved["page"] == "step" and view_of(saved["url"]) == view_of(romania())
    assert view_of(saved["url"]).data["edges"][0] == json.loads(ROMANIA.read_text())["edges"][0]


def test_a_short_link_opens_the_view_presenting_at_its_step(client, app):
    link = client.post("/api/views", json={"view": romania(12, show_h=1)}).json["link"]
    fresh = app.test_client()  # another browser
    page = fresh.get(link)
    assert page.status_code == 200
    assert b'class="stage presenting"' in page.data and b'class="hero' not in page.data
    assert re.search(rb'<form class="step-form" id="step-form"[^>]* hidden>', page.data)  # the form folded away
    config = config_of(page)
    assert (config["step"], config["show_h"], config["present"], config["record"]["id"]) == (
        12, True, True, link.removeprefix("/v/"))
    assert b"Bucharest" in page.data  # the typed graph is the form's, for the page to load
    stepped = config_of(fresh.get(f"{link}?step=30"))
    assert (stepped["step"], stepped["show_h"]) == (30, False)
    # the long address opens the same view, with the form, as before
    long = fresh.get(romania(12))
    assert long.status_code == 200 and config_of(long)["step"] == 12 and b"stage presenting" not in long.data


def test_saved_views_outlive_the_server(tmp_path):
    config = {"TESTING": True, "DATABASE": str(tmp_path / "jobs.sqlite"), "DATA_DIR": str(tmp_path),
              "BUILD_TABLES": False}
    link = create_app(config).test_client().post("/api/views", json={"view": romania()}).json["link"]
    assert config_of(create_app(config).test_client().get(link))["step"] == 12


def test_a_race_is_saved_and_its_link_runs_it(client):
    race = romania().replace("/step?", "/step/compare?") + "&solvers=ucs,astar"
    link = client.post("/api/views", json={"view": race}).json["link"]
    page = client.get(link)
    assert page.status_code == 200 and b"418" in page.data  # both find Arad to Bucharest at 418 km (AIMA)
    assert client.get(f"/api/views/{link.removeprefix('/v/')}").json["page"] == "step/compare"


@pytest.mark.parametrize("view, status, words", [
    ("/jobs/", 400, "step-through"), ("http://elsewhere.example/step", 400, "this site"), (7, 400, "address"),
    ("/step?problem=tiles&size=9x9", 400, "at most"), ("/step?algorithms=nope", 400, "unknown algorithm"),
])
def test_what_cannot_be_saved_is_refused_with_a_sentence(client, view, status, words):
    response = client.post("/api/views", json={"view": view})
    assert response.status_code == status and words in response.json["error"]


def test_a_view_too_large_to_keep_is_a_413_and_unknown_links_a_404(client):
    name = "n" * 30
    nodes = [{"name": f"{name}{i}", "x": i, "y": i} for i in range(330)]
    edges = [{"from": f"{name}{i}", "to": f"{name}{i + 1}", "cost": 1} for i in range(329)]
    graph = {"nodes": nodes, "edges": edges, "start": f"{name}0", "goal": f"{name}329"}
    text = json.dumps(graph, separators=(",", ":"))
    view = "/step?" + urlencode({"problem": "graph", "data": text}, safe='{}[]":, ')
    assert MAX_VIEW_BYTES < len(text) and len(view) < 60_000  # a graph the step-through takes
    response = client.post("/api/views", json={"view": view})
    assert response.status_code == 413 and "too large" in response.json["error"]
    assert client.get("/v/aaaaaaaaaaaa").status_code == 404
    assert client.get("/v/not-a-key").status_code == 404
    assert client.get("/api/views/aaaaaaaaaaaa").status_code == 404


def test_saving_is_limited_per_client(client, app, monkeypatch):
    from app import quotas

    monkeypatch.setattr(quotas, "WRITES", 3)
    answers = [client.post("/api/views", json={"view": f"/step?step={n}"}).status_code for n in range(4)]
    assert answers == [200, 200, 200, 429]
    elsewhere = app.test_client().post("/api/views", json={"view": "/step?step=9"},
                                       environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert elsewhere.status_code == 200


def test_two_web_processes_on_one_database_count_an_addresss_saves_together(tmp_path, monkeypatch):
    from app import quotas

    monkeypatch.setattr(quotas, "WRITES", 3)
    config = {"TESTING": True, "DATABASE": str(tmp_path / "jobs.sqlite"), "DATA_DIR": str(tmp_path)}
    first, second = create_app(config), create_app(config)
    answers = [(first if n % 2 else second).test_client().post("/api/views", json={"view": f"/step?step={n}"})
               .status_code for n in range(4)]
    assert answers == [200, 200, 200, 429]


def test_rows_saved_under_the_old_view_names_open_the_views_they_opened(client, app):
    """Saved views are content-addressed rows: one saved before the numbered graph and the graph kind's view were
    renamed keeps its id and its body, and every reader (the page, /api/views, a race, a class, an own lesson's short
    link) opens the view it opened, with no migration of the table."""
    with app.app_context():  # the rows as the former names wrote them (``step_record`` of that time)
        numbered = records().save_view({"page": "step", "query": {
            "problem": "graph", "from": "0", "to": "6", "algorithms": "bfs", "heuristic": "zero", "depth_limit": "12",
            "step": "19"}})
        typed = records().save_view({"page": "step", "query": {
            "problem": "graph-data", "data": json.loads(ROMANIA.read_text()), "algorithms": "ucs,astar",
            "depth_limit": "12", "step": "12"}})
        race = records().save_view({"page": "step/compare", "query": {
            "problem": "graph-data", "data": "romania", "algorithms": "ucs", "depth_limit": "12", "step": "0",
            "solvers": "ucs,astar"}})
    for key, problem in ((numbered, "numbered-graph"), (typed, "graph")):
        url = client.get(f"/api/views/{key}").json["url"]  # what the page puts in its form, without a reload
        assert dict(parse_qsl(urlsplit(url).query))["problem"] == problem
        page = client.get(f"/v/{key}")
        assert page.status_code == 200 and f'<option value="{problem}" selected>'.encode() in page.data
    assert config_of(client.get(f"/v/{numbered}"))["step"] == 19
    answer = client.get(f"/api/step?{urlsplit(client.get(f'/api/views/{numbered}').json['url']).query}").json
    assert answer["traces"][0]["result"]["path"] == [0, 2, 4, 6]  # the seed's graph: BFS's fewest edges
    assert b"418" in client.get(f"/v/{race}").data  # Arad to Bucharest at 418 km (AIMA)
    # a class follows the old row (its own key) and asks a question made from its search: at step 3 BFS has
    # expanded 0 and queued its two neighbours, 0 → 1 and 0 → 2 (the choices come shuffled)
    started = client.post("/class/", json={"view": f"/v/{numbered}?step=3"})
    assert started.status_code == 200 and started.json["view"] == f"/v/{numbered}?step=3"
    asked = client.post(f"/class/{started.json['code']}/ask", json={"kind": "next"})
    assert asked.status_code == 200 and sorted(asked.json["question"]["choices"]) == ["0 → 1", "0 → 2"]
    # an own lesson's slides written with the old rows' short links are checked against what those views show
    lesson = {"title": "Old", "slides": [
        {"title": "BFS", "text": "BFS finds 0 → 2 → 4 → 6: 3 edges.", "link": f"/v/{numbered}?step=19"},
        {"title": "UCS", "text": "Uniform-cost search ends on the road costing 418.", "link": f"/v/{typed}?step=1000"}]}
    checked = client.post("/lessons/check", data={"lesson": json.dumps(lesson)}, headers={"Accept": "application/json"})
    assert [slide["state"] for slide in checked.json["slides"]] == ["ok", "ok"]
