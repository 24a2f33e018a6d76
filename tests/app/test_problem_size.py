"""The graphs the README promises (up to 500 nodes and 5,000 edges) are taken by ``POST /api/solve``, as a quick
answer here and as a job: once a graph of 20 nodes and 8 KB was refused as "parameters … too large"."""

from __future__ import annotations

import json

import pytest


def chain_with_detours(nodes: int, edges: int) -> dict:
    """Nodes named with 40 characters (the most a name takes) in a chain of cost-1 roads, and detours between
    them costing 1,000 each: more than the chain between any two nodes (at most ``nodes`` − 1), so the cheapest
    path from the first to the last is the chain, of cost ``nodes`` − 1."""
    name = [f"node {i:04d} ".ljust(40, "x") for i in range(nodes)]
    roads = [{"from": name[i], "to": name[i + 1], "cost": 1} for i in range(nodes - 1)]
    pairs = ((i, j) for i in range(nodes) for j in range(i + 2, nodes))
    detours = [{"from": name[i], "to": name[j], "cost": 1000} for i, j in pairs][:edges - len(roads)]
    return {"nodes": [{"name": n} for n in name], "edges": roads + detours, "start": name[0], "goal": name[-1],
            "directed": False}


@pytest.mark.parametrize("nodes, edges", [(20, 120), (500, 5_000)])
def test_a_graph_as_large_as_the_readme_promises_is_solved(client, nodes, edges):
    graph = chain_with_detours(nodes, edges)
    assert len(graph["edges"]) == edges
    body = {"problem": "graph", "graph": graph, "solver": "ucs", "mode": "sync"}
    assert len(json.dumps(body)) > 8 * 1024  # past the old limit on a job's parameters
    response = client.post("/api/solve", json=body)
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    answer = response.get_json()
    assert answer["status"] == "solved" and answer["cost"] == nodes - 1 and len(answer["path"]) == nodes


def test_bodies_past_the_bound_are_refused_with_a_sentence_that_gives_it(client):
    too_big = client.post("/api/solve", data=b'{"pad": "' + b"x" * (1024 * 1024) + b'"}',
                          content_type="application/json")
    assert too_big.status_code == 413 and "at most 1,024 KB" in too_big.get_json()["error"]
    elsewhere = client.post("/api/hint", data=b'{"pad": "' + b"x" * (100 * 1024) + b'"}',
                            content_type="application/json")
    assert elsewhere.status_code == 413 and "at most 64 KB" in elsewhere.get_json()["error"]
