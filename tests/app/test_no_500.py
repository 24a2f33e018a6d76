"""The 500s a site-reliability engineer found, each reproduced: nesting about as deep as Python's parser goes in
every field that holds JSON (query fields, bodies, an uploaded lesson, a slide's link, a class's view), and a full
disk under the quick solves and at start-up."""

from __future__ import annotations

import errno
import io
import json
from urllib.parse import urlencode

import pytest

from app import create_app
from tests.app.conftest import visitor

SEED_004 = [8, 6, 7, 2, 5, 4, 3, 0, 1]  # 31 moves from the goal (seed 004 of the published 8-puzzle set)
#: About where Python's parser runs out of stack (its recursion limit is 1,000), and far past it.
DEPTHS = (990, 1000, 5000)


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


def assert_refused(response):
    text = response.get_data(as_text=True)
    assert response.status_code == 400 and "nests too deeply" in text, (response.status_code, text[:300])


@pytest.fixture
def pages(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "jobs.sqlite"), "DATA_DIR": str(tmp_path),
                      "BUILD_TABLES": False})
    return app.test_client()


@pytest.mark.parametrize("levels", DEPTHS)
def test_deep_nesting_in_a_step_views_json_fields_is_a_400(pages, levels):
    grid = '{"rows": ' + deep(levels) + "}"
    for path in ("/step", "/api/step", "/step/compare"):
        assert_refused(pages.get(path, query_string={"problem": "grid", "data": grid}))
        assert_refused(pages.get(path, query_string={"problem": "numbered-graph", "graph": deep(levels)}))
    assert_refused(pages.post("/api/step", json={"problem": "grid", "grid": json.loads("[" * 20 + "]" * 20)}))


@pytest.mark.parametrize("levels", DEPTHS)
def test_deep_nesting_in_a_lesson_pasted_or_uploaded_or_in_a_slides_link_is_a_400(pages, levels):
    lesson = '{"title": "deep", "slides": ' + deep(levels) + "}"
    assert_refused(pages.post("/lessons/check", data={"lesson": lesson}))
    upload = {"file": (io.BytesIO(lesson.encode()), "lesson.json")}
    assert_refused(pages.post("/lessons/check", data=upload, content_type="multipart/form-data"))
    # a link holds 25,000 characters
    link = "/step?" + urlencode({"problem": "numbered-graph", "graph": deep(min(levels, 1000))})
    slide = json.dumps({"title": "deep", "slides": [{"title": "one", "text": "see", "link": link}]})
    assert_refused(pages.post("/lessons/check", data={"lesson": slide}))


def test_deep_nesting_in_a_class_view_is_a_400_when_the_class_starts(pages):
    view = "/step?problem=numbered-graph&graph=" + deep(980)  # a class's view holds at most 2,000 characters
    assert_refused(pages.post("/class/", json={"view": view}))


def test_the_one_json_reader_refuses_what_json_has_not_and_says_where(pages):
    from engine.core.errors import PuzzleError
    from engine.core.params import json_value, nesting

    assert nesting('{"a": [1, "[[[\\"[", {"b": []}]}') == 4  # brackets inside strings do not count
    assert json_value('{"a": [1.5, "x"]}', "it") == {"a": [1.5, "x"]}
    for text, words in [("[NaN]", "NaN"), ("[1e999]", "finite"), ('{"a": -Infinity}', "-Infinity"),
                        ("[1,", "not valid JSON"), (b"\xff", "UTF-8"), ("[" + "9" * 5000 + "]", "too long")]:
        with pytest.raises(PuzzleError, match=words):
            json_value(text, "it")


class FullDataDisk:
    """Every new file in the data folder fails as on a full disk (the job database is elsewhere)."""

    def __init__(self, monkeypatch):
        import tempfile

        def no_room(*args, **kwargs):
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(tempfile, "mkstemp", no_room)


def test_on_a_full_data_disk_the_default_8_puzzle_solve_and_the_hint_are_answered_without_saving(app, monkeypatch):
    FullDataDisk(monkeypatch)
    client = visitor(app)
    solved = client.post("/api/solve", json={"size": "3x3", "tiles": SEED_004})
    assert solved.status_code == 200 and solved.get_json()["length"] == 31, solved.get_data(as_text=True)[:300]
    hint = client.post("/api/hint", json={"size": "3x3", "tiles": SEED_004})
    assert hint.status_code == 200 and hint.get_json()["before"] == 31, hint.get_data(as_text=True)[:300]
    assert hint.get_json()["after"] == 30


#: What a class route may be sent where it reads a string, a number or nothing: lists, objects, huge values.
CLASS_BODIES = [{}, {"kind": ["next"]}, {"kind": {"next": 1}}, {"kind": "x" * 10_000}, {"kind": None},
                {"view": ["/step"]}, {"view": {"a": 1}}, {"view": "/step?" + "a" * 60_000}, {"view": 10**400},
                {"student": ["abcdefgh1"], "question": [1], "choice": [0]}, {"question": 10**300, "choice": 10**300},
                {"choice": {"a": 1}, "name": ["x"]}, {"name": {"n": 1}, "question": "1", "choice": "0"},
                {"student": "x" * 50_000}]


def test_no_class_route_answers_500_to_its_lecturer_or_a_student_whatever_the_body(pages):
    """As the lecturer (with the class's secret) and as a student: ``/class/<code>/ask`` with a list ``kind`` was a
    500; every class route, sent lists and objects where strings and numbers go, answers 4xx or 2xx."""
    lecturer = pages
    lecturer.get("/", headers={"Accept": "text/html"})
    started = lecturer.post("/class/", json={"view": "/step?problem=tiles&size=3x3&scramble=4&seed=1&step=3"})
    code = started.get_json()["code"]
    assert lecturer.post(f"/class/{code}/ask", json={"kind": "next"}).status_code == 200  # a question open
    asked = lecturer.post(f"/class/{code}/ask", json={"kind": ["next"]})
    assert asked.status_code == 400 and "kind must be one of" in asked.get_json()["error"]
    student = pages.application.test_client()
    routes = [f"/class/{code}/{action}" for action in ("view", "ask", "reveal", "answer")] + ["/class/"]
    for client in (student, lecturer):
        for route in routes:
            for body in CLASS_BODIES:
                response = client.post(route, data=json.dumps(body), content_type="application/json")
                assert response.status_code < 500, (route, body, response.get_data(as_text=True)[:300])
            assert client.post(route, data="[1, 2]", content_type="application/json").status_code < 500
            assert client.post(route, data={"view": ["a", "b"]}).status_code < 500
        for query in ({"student": ["a", "b"]}, {"student": "x" * 5_000, "following": "2"}, {"code": "é" * 300}):
            for path in (f"/class/{code}/state", f"/class/{code}/console", f"/class/{code}/lead", "/class/",
                         f"/class/{code}", f"/class/{code}/qr.svg", "/class/practice"):
                assert client.get(path, query_string=query).status_code < 500, (path, query)
    assert lecturer.post(f"/class/{code}/end", json={"view": [1]}).status_code < 500
