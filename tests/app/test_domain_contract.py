"""Every registered domain, and the pancake puzzle a test registers as a newcomer would, held to the domain contract
(tests/support/domain_contract.py) on the examples its kind carries, through the app too: /api/step, and its view
(/step?problem=<kind>, GET /api/step, /step/compare) with no edit in the app."""

import html
import json
import re
from urllib.parse import parse_qsl

import pytest

from engine.search import domain
from engine.search.domain import domain_kinds
from tests.engine.search.pancake import register
from tests.support.domain_contract import check_domain


@pytest.mark.parametrize("name", sorted(domain_kinds()))
def test_every_registered_domain_keeps_the_contract(name, client):
    kind = domain_kinds()[name]
    assert kind.examples, f"the {name} domain carries no example to check it on"
    check_domain(kind, list(kind.examples), client=client)


def test_a_domain_registered_at_test_time_keeps_the_contract(client, monkeypatch):
    monkeypatch.setattr(domain.DOMAINS, "_entries", domain_kinds())  # forgotten after the test
    kind = register()
    check_domain(kind, list(kind.examples), bad=({"pancake": [0, 0]}, {"pancake": [1, 2]}, {"pancake": [0, 1.0]}),
                 client=client)


def test_a_registered_kinds_view_reads_its_own_heuristics_and_json_and_names_its_picture_module(client, monkeypatch):
    monkeypatch.setattr(domain.DOMAINS, "_entries", domain_kinds())
    register()
    refused = client.get("/api/step?problem=pancake&heuristic=manhattan")
    assert refused.status_code == 400 and "gap" in refused.get_json()["error"]
    assert client.get("/api/step?problem=pancake&data=[1,0").status_code == 400
    # 1 0: one flip of the top two
    answer = client.get("/api/step?problem=pancake&data=[1,0]&algorithms=bfs").get_json()
    assert answer["traces"][0]["result"]["path"] == [[1, 0], [0, 1]]
    assert dict(parse_qsl(answer["view"]))["data"] == "[1,0]"
    page = client.get("/step?problem=pancake").get_data(as_text=True)
    domains = json.loads(html.unescape(re.search(r"data-domains='([^']*)'", page).group(1)))
    # a picture module where app/static/js/step/ has the view's file; the pancake puzzle has none
    assert domains["pancake"] == {"module": None, "title": "The pancake puzzle", "compare": True}
    assert domains["grid"]["module"].endswith("/js/step/grid.js") and domains["grid"]["compare"]
    # the graph kind's module is named as the kind is; the numbered graph is a view apart, with its own module
    assert domains["graph"]["module"].endswith("/js/step/graph.js") and domains["graph"]["compare"]
    assert domains["numbered-graph"]["module"].endswith("/js/step/numbered-graph.js")
    assert domains["tiles"]["module"].endswith("/js/step/tiles.js") and domains["tiles"]["compare"]
