"""``POST /api/step`` with a domain's own JSON: a graph given as data (engine/domains/graph/model.py) and a grid."""

import pytest

from engine.domains.graph import example

ROMANIA = example("romania")
BOOK = ["Arad", "Sibiu", "Rimnicu Vilcea", "Pitesti", "Bucharest"]


def test_a_graph_given_as_data_gets_each_algorithms_path_and_cost(client):
    answers = {}
    for pair in (["ucs", "astar"], ["idastar", "greedy"], ["bfs"]):
        response = client.post("/api/step", json={"problem": "graph", "graph": ROMANIA, "algorithms": pair})
        assert response.status_code == 200
        for trace in response.get_json()["traces"]:
            answers[trace["algorithm"]] = (trace["result"]["path"], trace["result"]["cost"])
    assert answers["ucs"] == answers["astar"] == answers["idastar"] == (BOOK, 418)
    assert answers["greedy"] == answers["bfs"] == (["Arad", "Sibiu", "Fagaras", "Bucharest"], 450)


def test_a_built_in_graph_is_served_and_named_in_a_request(client):
    assert client.get("/api/step/graphs/romania").get_json() == ROMANIA
    assert client.get("/api/step/graphs/atlantis").status_code == 400
    trace = client.post("/api/step", json={"problem": "graph", "graph": "romania", "algorithms": ["ucs"]}).get_json()[
        "traces"][0]
    assert (trace["result"]["path"], trace["result"]["cost"]) == (BOOK, 418)


def test_the_trace_carries_the_scene_and_each_nodes_picture(client):
    trace = client.post("/api/step", json={"problem": "graph", "graph": ROMANIA, "algorithms": ["astar"]}).get_json()[
        "traces"][0]
    assert trace["scene"]["verdict"] == {"admissible": True, "consistent": True}
    assert trace["scene"]["h"]["Arad"] == 366 and len(trace["scene"]["graph"]["edges"]) == 23
    assert {node["picture"]["node"] for node in trace["nodes"]} >= set(BOOK)


@pytest.mark.parametrize(("body", "message"), [
    ({"problem": "graph", "graph": {"nodes": "Arad"}}, "nodes must be a list"),
    ({"problem": "graph", "graph": {**ROMANIA, "edges": [{"from": "Arad", "to": "Sibiu", "cost": 0}]}}, "more than 0"),
    ({"problem": "graph", "graph": ROMANIA, "heuristic": "telepathy"}, "offers the heuristics"),
    ({"problem": "maze", "algorithms": ["bfs"]}, "problem must be one of 'graph', 'grid'"),
])
def test_bad_domain_requests_are_400_with_a_sentence(client, body, message):
    response = client.post("/api/step", json={"algorithms": ["bfs"], **body})
    assert response.status_code == 400 and message in response.get_json()["error"]


def test_a_domain_registered_at_test_time_is_served(client, monkeypatch):
    from engine.search import domain
    from tests.engine.search.pancake import register

    # what this test registers is forgotten after it
    monkeypatch.setattr(domain.DOMAINS, "_entries", domain.domain_kinds())
    register()
    response = client.post("/api/step", json={"problem": "pancake", "pancake": [2, 0, 1], "algorithms": ["bfs"]})
    result = response.get_json()["traces"][0]["result"]
    # 2 0 1: flip all three (1 0 2), then the top two (0 1 2)
    assert (result["path"], result["cost"]) == ([[2, 0, 1], [1, 0, 2], [0, 1, 2]], 2)


def test_a_grid_gets_each_algorithms_path_and_cost(client):
    # 4-connected; the wall forces the way round it, and the weight-9 cell makes the short way dearer than the long
    grid = {"rows": ["...", ".#.", ".9."], "start": [0, 2], "goal": [2, 2], "connect": 4}
    response = client.post("/api/step", json={"problem": "grid", "grid": grid, "algorithms": ["ucs", "bfs"]})
    ucs, bfs = (trace["result"] for trace in response.get_json()["traces"])
    assert (ucs["path"], ucs["cost"]) == ([[0, 2], [0, 1], [0, 0], [1, 0], [2, 0], [2, 1], [2, 2]], 6)
    assert (bfs["path"], bfs["cost"]) == ([[0, 2], [1, 2], [2, 2]], 10)
    assert response.get_json()["traces"][0]["scene"]["rows"] == grid["rows"]


#: h(A) = 100 overestimates (A is 1 from the goal): A* takes the direct road of 10, uniform-cost the 2 through A
OVERESTIMATING = {"nodes": [{"name": "S", "h": 0}, {"name": "A", "h": 100}, {"name": "G", "h": 0}],
                  "edges": [{"from": "S", "to": "A", "cost": 1}, {"from": "A", "to": "G", "cost": 1},
                            {"from": "S", "to": "G", "cost": 10}], "start": "S", "goal": "G"}


def test_a_search_under_an_overestimating_h_does_not_call_its_answer_optimal(client):
    """Issue 42: A* with a given h that overestimates answered cost 10 as optimal where uniform-cost finds 2."""
    traces = client.post("/api/step", json={"problem": "graph", "graph": OVERESTIMATING, "heuristic": "given",
                                            "algorithms": ["ucs", "astar"]}).get_json()["traces"]
    ucs, astar = (trace["result"] for trace in traces)
    assert (ucs["cost"], ucs["optimal"]) == (2, True)
    assert (astar["cost"], astar["optimal"]) == (10, False) and traces[1]["h_admissible"] is False
    ida = client.post("/api/step", json={"problem": "graph", "graph": OVERESTIMATING, "heuristic": "given",
                                         "algorithms": ["idastar"]}).get_json()["traces"][0]
    assert ida["result"]["optimal"] is False
    admissible = client.post("/api/step", json={"problem": "graph", "graph": ROMANIA, "heuristic": "given",
                                                "algorithms": ["astar"]}).get_json()["traces"][0]
    assert admissible["result"]["optimal"] is True and admissible["h_admissible"] is True
