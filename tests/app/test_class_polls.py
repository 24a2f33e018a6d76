"""One class served by two web processes on one database: a poll answered by either sees the lecturer's step, and
each student counts once whichever process saw their polls (``app.class_polls``, ``app.class_model``)."""

import pytest

from app import class_model, create_app
from tests.support.waiting import wait_until

VIEW = "/step?problem=tiles&size=3x3&scramble=6&seed=3&algorithms=bfs&step=0"


@pytest.fixture
def two(tmp_path):
    """Two apps on one database and one instance folder: two web processes as the supervisor runs them."""
    config = {"TESTING": True, "DATABASE": str(tmp_path / "jobs.sqlite"), "DATA_DIR": str(tmp_path),
              "BUILD_TABLES": False}
    return create_app(config), create_app(config)


def start(app):
    lecturer = app.test_client()
    lecturer.get("/")
    response = lecturer.post("/class/", json={"view": VIEW})
    assert response.status_code == 200, response.json
    return lecturer, response.json["code"]


def joined(app, code: str):
    """A phone that opened the class's page, so it holds its signed owner cookie (a student is counted by it)."""
    browser = app.test_client()
    assert browser.get(f"/class/{code}", headers={"Accept": "text/html"}).status_code == 200
    assert browser.get_cookie("pp_owner") is not None
    return browser


def write_polls(app):
    with app.app_context():
        class_model.classes().write_polls()  # the batch that process writes within its next second


def test_a_poll_answered_by_b_after_the_lecturer_moved_the_class_through_a_sees_the_new_step(two):
    a, b = two
    lecturer, code = start(a)
    student = b.test_client()
    first = student.get(f"/class/{code}/state?student=phone0001")
    assert first.status_code == 200
    etag = first.headers["ETag"]
    unchanged = student.get(f"/class/{code}/state?student=phone0001", headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.headers["ETag"] == etag
    assert "Content-Security-Policy" not in unchanged.headers  # answered before Flask, whose hooks add it
    moved = lecturer.post(f"/class/{code}/view", json={"view": VIEW.replace("step=0", "step=7")})
    assert moved.status_code == 200

    def poll():
        answer = student.get(f"/class/{code}/state?student=phone0001", headers={"If-None-Match": etag})
        return answer if answer.status_code == 200 else None

    # B read the version before the move: it reads it again within REFRESH_SECONDS
    seen = wait_until(poll, 10, "process B to see the lecturer's step")
    assert seen.json["view"] == moved.json["view"] and seen.json["view"].endswith("step=7")
    assert seen.json["version"] == first.json["version"] + 1 and seen.headers["ETag"] != etag
    again = student.get(f"/class/{code}/state?student=phone0001", headers={"If-None-Match": seen.headers["ETag"]})
    assert again.status_code == 304
    write_polls(b)
    state = lecturer.get(f"/class/{code}/console").json
    assert (state["students"], state["following"]) == (1, 1)  # B's unchanged polls count the student too


def test_presence_across_two_processes_counts_each_student_once(two):
    a, b = two
    lecturer, code = start(a)
    etag = a.test_client().get(f"/class/{code}/state").headers["ETag"]
    on_a = [joined(a, code) for _ in range(10)]
    on_b = []
    for browser in on_a:  # the same phone's next polls reach B: its signed cookie names it there too
        other = b.test_client()
        other.set_cookie("pp_owner", browser.get_cookie("pp_owner").value)
        on_b.append(other)
    for n, browser in enumerate(on_a):  # every student polls A, following ...
        assert browser.get(f"/class/{code}/state?student=phone{n:04d}&following=1",
                           headers={"If-None-Match": etag}).status_code == 304
    for n, browser in enumerate(on_b):  # ... then B, having left the lecturer's view
        assert browser.get(f"/class/{code}/state?student=phone{n:04d}&following=0",
                           headers={"If-None-Match": etag}).status_code == 304
    for n in (100, 101):  # two more on B alone
        joined(b, code).get(f"/class/{code}/state?student=phone{n:04d}&following=1")
    write_polls(b)
    write_polls(a)  # A's batch arrives last but holds the older polls: they must not win
    state = lecturer.get(f"/class/{code}/console").json
    assert (state["students"], state["following"]) == (12, 2)


def test_a_fast_answered_poll_counts_the_signed_browser_not_the_ids_it_names(two):
    a, _ = two
    lecturer, code = start(a)
    etag = a.test_client().get(f"/class/{code}/state").headers["ETag"]
    browser = joined(a, code)
    for n in range(300):  # one browser posing as 300 followers
        assert browser.get(f"/class/{code}/state?student=phone{n:04d}&following=1",
                           headers={"If-None-Match": etag}).status_code == 304
    write_polls(a)
    state = lecturer.get(f"/class/{code}/console").json
    assert (state["students"], state["following"]) == (1, 1)


def test_polls_the_fast_answer_leaves_alone_go_to_the_route(two):
    a, _ = two
    _, code = start(a)
    etag = a.test_client().get(f"/class/{code}/state").headers["ETag"]
    bad = a.test_client().get(f"/class/{code}/state?student=x!", headers={"If-None-Match": etag})
    assert bad.status_code == 400 and b"student must be" in bad.data
    unknown = a.test_client().get("/class/ZZZZZZZZ/state", headers={"If-None-Match": '"ZZZZZZZZ-1"'})
    assert unknown.status_code == 404
    lower = a.test_client().get(f"/class/{code.lower()}/state", headers={"If-None-Match": etag})
    assert lower.status_code == 304 and lower.headers["ETag"] == etag
