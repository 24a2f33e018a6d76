"""The recorded searches the JavaScript's unit tests replay (tests/js/fixtures/) are what ``/api/step`` answers
today, so a change to the trace's format fails here rather than only in a browser. To write them anew after such a
change: ``PUZZLE_WRITE_JS_FIXTURES=1 .venv/bin/python -m pytest tests/app/test_js_fixtures.py``."""

import json
import os
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parents[1] / "js" / "fixtures"

#: each fixture's request: 0 1 3/4 2 6/7 5 8 is four moves from the goal (RDDR), 1 2 3/8 7 5/0 4 6 eight (its
#: breadth-first tree passes the 120 nodes past which the drawing folds finished subtrees); Romania from Arad to
#: Bucharest is the textbook's A* example
REQUESTS = {
    "tiles-bfs-idastar": {"problem": "tiles", "size": "3x3", "tiles": "0 1 3/4 2 6/7 5 8",
                          "algorithms": ["bfs", "idastar"]},
    "tiles-astar-bidirectional": {"problem": "tiles", "size": "3x3", "tiles": "0 1 3/4 2 6/7 5 8",
                                  "algorithms": ["astar", "bidirectional"]},
    "tiles-bfs-eight": {"problem": "tiles", "size": "3x3", "tiles": "1 2 3/8 7 5/0 4 6", "algorithms": ["bfs"]},
    "romania-astar-dfs": {"problem": "graph", "graph": "romania", "algorithms": ["astar", "dfs"]},
}


def timeless(answer: dict) -> dict:
    """The answer without the searches' clocks, which differ on every run."""
    for trace in answer["traces"]:
        trace["result"]["seconds"] = trace["result"]["load_seconds"] = 0
    return answer


@pytest.mark.parametrize("name", sorted(REQUESTS))
def test_the_javascript_tests_replay_what_the_api_answers(client, name):
    response = client.post("/api/step", json=REQUESTS[name])
    assert response.status_code == 200
    answer = timeless(response.get_json())
    path = FIXTURES / f"{name}.json"
    if os.environ.get("PUZZLE_WRITE_JS_FIXTURES") == "1":
        path.write_text(json.dumps(answer, separators=(",", ":"), sort_keys=True) + "\n")
    assert path.exists(), f"{path} is missing: write it with PUZZLE_WRITE_JS_FIXTURES=1"
    assert json.loads(path.read_text()) == answer, f"{path} is out of date: write it with PUZZLE_WRITE_JS_FIXTURES=1"
