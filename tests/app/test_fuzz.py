"""Bad values in every field of every route: a 4xx with a message, never a 5xx.

Hypothesis draws, for each route the app has, a body (JSON for the API, a form for pages, a query string for GETs)
whose fields are the names the app reads anywhere, filled with values from a pool that holds what broke it before:
NaN and infinities, integers past any float, superscript and Arabic-Indic digits, lists and objects where names are
expected, deep nesting, empty strings. The app's own routes are read from its URL map, so a new route is fuzzed too.
"""

from __future__ import annotations

import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.serving.cluster import Limits

FIELDS = ["size", "goal", "tiles", "solver", "heuristic", "solvers", "mode", "max_nodes", "max_seconds", "params",
          "kind", "n", "k", "method", "methods", "rows", "cols", "start", "board", "blank_home", "k3_max", "n_max",
          "walks", "length", "seed", "value_rule", "allow_undo", "table", "count", "depth", "algorithm",
          "scramble_seed", "particles", "iterations", "generations", "trials", "depths", "state", "piece", "partner",
          "dx", "dy", "angle", "max_states", "weight", "dedupe", "nodes", "edges", "strategy", "problem",
          "algorithms", "algorithm", "depth_limit", "scramble", "random", "choice", "offsets", "positions", "vmax",
          "w", "c1", "c2", "population", "crossover", "mutation", "elites", "encoding", "full", "backtracking",
          "bitmask"]

NASTY_TEXT = ["", " ", "¹", "٣", "1e999", "NaN", "-Infinity", "Infinity", "9" * 400, "-1", "0", "3x3", "4x4", "99x99",
              "bfs", "idastar", "manhattan", "pdb", "blank-first", "1,2,3", "8 6 7/2 5 4/3 0 1", "[1,2]", "{}",
              "true", "off", "\x00", "🧩", "2x" + "9" * 30]
SCALARS = st.one_of(
    st.sampled_from([float("nan"), float("inf"), float("-inf"), 1e308, -0.0, 10**30, -(10**30), 2**63, True, False,
                     None, 0, 1, 3, 18, 36, 500]),
    st.integers(min_value=-(10**6), max_value=10**6), st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(NASTY_TEXT), st.text(max_size=12))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                       st.dictionaries(st.sampled_from(FIELDS), inner, max_size=4)),
                      max_leaves=12)
FORM_VALUES = st.one_of(st.sampled_from(NASTY_TEXT), st.text(max_size=12), st.integers().map(str))


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory, scheduler_address):
    import os

    from app import create_app, init_jobs

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path_factory.mktemp("fuzz") / "jobs.sqlite"),
                      "DATA_DIR": os.environ["PUZZLE_DATA_DIR"], "SCHEDULER": scheduler_address, "BUILD_TABLES": False,
                      "JOB_LIMITS": Limits(per_owner=1_000, per_address=1_000, queued=1_000)})
    init_jobs(app)
    yield app
    runner = app.extensions["jobs"]
    for job in runner.store.active():  # whatever valid work the fuzz started, stop it before the next tests
        runner.cancel(job["id"])
    runner.shutdown()


def routes(app) -> list[tuple[str, str]]:
    found = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        url = rule.rule.replace("<job_id>", "0123456789ab").replace("<name>", "maxmd")
        for method in sorted(rule.methods & {"GET", "POST"}):
            found.append((method, url))
    return found


def test_the_fuzz_covers_every_route(fuzz_app):
    assert len(routes(fuzz_app)) >= 40


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_no_route_answers_5xx(fuzz_app, data):
    client = fuzz_app.test_client()
    method, url = data.draw(st.sampled_from(routes(fuzz_app)), label="route")
    fields = data.draw(st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=6), label="fields")
    if method == "GET":
        query = {k: str(v)[:200] for k, v in fields.items()}
        response = client.get(url, query_string=query)
    elif url.startswith("/api/"):
        response = client.post(url, json=fields)
    else:
        form = data.draw(st.dictionaries(st.sampled_from(FIELDS), FORM_VALUES, max_size=6), label="form")
        response = client.post(url, data=form)
    assert response.status_code < 500, (method, url, response.get_data(as_text=True)[:400])


#: Brackets nested past Python's parser inside a string: once a 500 from ``parse_tiles`` and Rectangle-out's state.
#: Twice the interpreter's recursion limit (json's decoder and ``ast`` stop there; the parser stops at 200 levels).
DEEP = "[" * (2 * sys.getrecursionlimit())


def test_deeply_nested_brackets_in_any_text_field_of_any_route_are_not_5xx(fuzz_app):
    client = fuzz_app.test_client()
    fields = {name: DEEP for name in FIELDS}
    fields.update(size="3x3", problem="tiles")  # so that the tiles are read, not refused for the size first
    for method, url in routes(fuzz_app):
        if method == "GET":
            response = client.get(url, query_string=fields)
        elif url.startswith("/api/"):
            response = client.post(url, json=fields)
        else:
            response = client.post(url, data=fields)
        assert response.status_code < 500, (method, url, response.get_data(as_text=True)[:400])
    assert "nests too deeply" in client.get("/play?size=3x3&tiles=" + DEEP).get_data(as_text=True)
    assert client.get("/rectout/?state=" + DEEP).status_code == 400
