"""Bad values in every field of every route: a 4xx with a message, never a 5xx.

Hypothesis draws, for each route the app has, a body (JSON for the API, a form for pages, a query string for GETs,
and for pages an uploaded file) whose fields are the names the app reads anywhere, filled with values from a pool
that holds what broke it before: NaN and infinities, integers past any float, superscript and Arabic-Indic digits,
lists and objects where names are expected, JSON text nested past Python's parser, empty strings. The routes are read
from the app's URL map and the field names from its templates and its source (every ``name="…"`` of a form and every
field a handler reads), so a new route or field is fuzzed too. Seeded (``derandomize``): the same examples each run.
"""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.serving.cluster import Limits

APP = Path(__file__).resolve().parents[2] / "app"
ENGINE = APP.parent / "engine"
_FORM_NAME = re.compile(r'name="([a-z_]+)"')
_READ_NAME = re.compile(r'(?:(?:args|form|data|params|files|body)\.(?:get|getlist)\(|'
                        r'(?:integer|number|numbers|flag|choice|text)\([a-z_.]+, )"([a-z_]+)"')


def discovered_fields() -> list[str]:
    """Every field name a form of the app's templates sends and every one a handler or a job's check reads."""
    found = set()
    for template in (APP / "templates").rglob("*.html"):
        found.update(_FORM_NAME.findall(template.read_text()))
    for source in [*APP.glob("*.py"), *ENGINE.rglob("*.py")]:
        found.update(_READ_NAME.findall(source.read_text()))
    return sorted(found)


HAND_FIELDS = ["size", "goal", "tiles", "solver", "heuristic", "solvers", "mode", "max_nodes", "max_seconds", "params",
          "kind", "n", "k", "method", "methods", "rows", "cols", "start", "board", "blank_home", "k3_max", "n_max",
          "walks", "length", "seed", "value_rule", "allow_undo", "table", "count", "depth", "algorithm",
          "scramble_seed", "particles", "iterations", "generations", "trials", "depths", "state", "piece", "partner",
          "dx", "dy", "angle", "max_states", "weight", "dedupe", "nodes", "edges", "strategy", "problem",
          "algorithms", "algorithm", "depth_limit", "scramble", "random", "choice", "offsets", "positions", "vmax",
          "w", "c1", "c2", "population", "crossover", "mutation", "elites", "encoding", "full", "backtracking",
          "bitmask"]
FIELDS = sorted(set(HAND_FIELDS) | set(discovered_fields()))

#: JSON text nested about as deep as Python's parser goes, as a query field, a lesson or a domain's data
NESTED = ["[" * 990 + "]" * 990, '{"rows": ' + "[" * 1000 + "]" * 1000 + "}",
          '{"title": "t", "slides": ' + "[" * 990 + "]" * 990 + "}", '{"slides": [{"title": "t", "text": "1", '
          '"link": "/step?problem=numbered-graph&graph=' + "[" * 990 + "]" * 990 + '"}]}']
NASTY_TEXT = NESTED + ["", " ", "¹", "٣", "1e999", "NaN", "-Infinity", "Infinity", "9" * 400, "-1", "0", "3x3",
                       "4x4", "99x99", "bfs", "idastar", "manhattan", "pdb", "blank-first", "1,2,3",
                       "8 6 7/2 5 4/3 0 1", "[1,2]", "{}", "true", "off", "\x00", "🧩", "2x" + "9" * 30]
SCALARS = st.one_of(
    st.sampled_from([float("nan"), float("inf"), float("-inf"), 1e308, -0.0, 10**30, -(10**30), 2**63, True, False,
                     None, 0, 1, 3, 18, 36, 500]),
    st.integers(min_value=-(10**6), max_value=10**6), st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(NASTY_TEXT), st.text(max_size=12))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                       st.dictionaries(st.sampled_from(FIELDS), inner, max_size=4)),
                      max_leaves=12)
FORM_VALUES = st.one_of(st.sampled_from(NASTY_TEXT), st.text(max_size=12), st.integers().map(str))
UPLOADS = st.one_of(st.sampled_from([text.encode() for text in NASTY_TEXT]), st.binary(max_size=64),
                    VALUES.map(lambda value: json.dumps(value, allow_nan=True).encode()))


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory, scheduler_address):
    import os

    from app import create_app, init_jobs

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path_factory.mktemp("fuzz") / "jobs.sqlite"),
                      "DATA_DIR": os.environ["PUZZLE_DATA_DIR"], "SCHEDULER": scheduler_address, "BUILD_TABLES": False,
                      "JOB_LIMITS": Limits(per_owner=1_000, per_address=1_000, queued=1_000)})
    init_jobs(app)
    # a class to fuzz the class routes of (the lecturer's secret cookie is not sent: a student's requests)
    started = app.test_client().post("/class/", json={"view": "/step?problem=tiles"})
    app.config["FUZZ_CLASS"] = started.get_json()["code"]
    yield app
    runner = app.extensions["jobs"]
    for job in runner.store.active():  # whatever valid work the fuzz started, stop it before the next tests
        runner.cancel(job["id"])
    runner.shutdown()


def routes(app) -> list[tuple[str, str]]:
    from app.lessons import LESSONS

    code = app.config["FUZZ_CLASS"]
    found = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        url = (rule.rule.replace("<job_id>", "0123456789ab").replace("<name>", "maxmd").replace("<code>", code)
               .replace("<slug>", LESSONS[0].slug).replace("<int:number>", "1"))
        for method in sorted(rule.methods & {"GET", "POST"}):
            found.append((method, url))
    return found


def test_the_fuzz_covers_every_route(fuzz_app):
    assert len(routes(fuzz_app)) >= 40


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
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
        if data.draw(st.booleans(), label="with an upload"):
            form["file"] = (io.BytesIO(data.draw(UPLOADS, label="upload")), "upload.json")
        response = client.post(url, data=form, content_type="multipart/form-data")
    assert response.status_code < 500, (method, url, response.get_data(as_text=True)[:400])


#: Each field that holds JSON text, holding it nested about as deep as Python's parser goes, in the form it takes
#: there (a domain's data is an object, a class's view and a slide's link are /step addresses).
NESTED_FIELDS = {"data": NESTED[1], "graph": NESTED[0], "graph_json": NESTED[0], "lesson": NESTED[2],
                 "view": "/step?problem=numbered-graph&graph=" + NESTED[0][:1960], "state": NESTED[0],
                 "tiles": NESTED[0], "grid": NESTED[1], "slides": NESTED[0], "positions": NESTED[0],
                 "offsets": NESTED[0], "params": NESTED[0]}


@pytest.mark.parametrize("problem", ["grid", "graph", "numbered-graph"])
def test_json_nested_as_deep_as_the_parser_goes_in_every_json_field_and_upload_is_not_5xx(fuzz_app, problem):
    """The 500s found with ≈1,000 levels: /step, /api/step, /step/compare (data, graph), an uploaded lesson, a
    slide's link, a class's view; here every route gets them, pages with the lesson as an uploaded file too."""
    sent_to_every_route(fuzz_app.test_client(), fuzz_app, {**NESTED_FIELDS, "problem": problem},
                        upload=lambda: (io.BytesIO(NESTED[3].encode()), "lesson.json"))


def sent_to_every_route(client, fuzz_app, fields: dict, upload=None) -> None:
    """``fields`` to every route: a GET's query, an API's JSON body, a page's form (with ``upload()`` as its file);
    none may answer 5xx."""
    for method, url in routes(fuzz_app):
        if method == "GET":
            response = client.get(url, query_string=fields)
        elif url.startswith("/api/"):
            response = client.post(url, json=fields)
        elif upload is not None:
            response = client.post(url, data={**fields, "file": upload()}, content_type="multipart/form-data")
        else:
            response = client.post(url, data=fields)
        assert response.status_code < 500, (method, url, response.get_data(as_text=True)[:400])


#: Brackets nested past Python's parser inside a string: once a 500 from ``parse_tiles`` and Rectangle-out's state.
#: Twice the interpreter's recursion limit (json's decoder and ``ast`` stop there; the parser stops at 200 levels).
DEEP = "[" * (2 * sys.getrecursionlimit())


def test_deeply_nested_brackets_in_any_text_field_of_any_route_are_not_5xx(fuzz_app):
    client = fuzz_app.test_client()
    # the hand-made list: the test client's own quoting of every discovered field, each this long, would take minutes
    # (the JSON fields among them get theirs above)
    fields = {name: DEEP for name in HAND_FIELDS}
    fields.update(size="3x3", problem="tiles")  # so that the tiles are read, not refused for the size first
    sent_to_every_route(client, fuzz_app, fields)
    assert "nests too deeply" in client.get("/play?size=3x3&tiles=" + DEEP).get_data(as_text=True)
    assert client.get("/rectout/?state=" + DEEP).status_code == 400
