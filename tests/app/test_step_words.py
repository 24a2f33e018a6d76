"""The step-through's pseudocode speaks of nodes, children and parents, never of one domain's moves: the same lines
are shown on a sliding-tile board, a graph and a grid map."""

import re

import pytest

#: words that belong to one domain: the tiles' moves and blank, a graph's edges and roads, a grid's cells
DOMAIN_WORDS = re.compile(r"\b(moves?|blank|tiles?|edges?|roads?|cells?)\b", re.IGNORECASE)


SMALL_GRID = {"rows": ["...", ".#.", "..."], "start": [0, 0], "goal": [2, 2], "connect": 4}


@pytest.mark.parametrize("problem", [{"problem": "graph", "graph": "romania"}, {"problem": "grid", "grid": SMALL_GRID},
                                     {"problem": "tiles", "size": "3x3", "scramble": 4, "seed": 1}])
def test_the_depth_first_family_reads_the_same_on_every_domain(client, problem):
    traces = client.post("/api/step", json={**problem, "algorithms": ["dfs", "idastar"]}).get_json()["traces"]
    assert len(traces) == 2
    for trace in traces:
        assert [line for line in trace["pseudocode"] if DOMAIN_WORDS.search(line)] == [], trace["algorithm"]
