"""A class: the lecturer's browser alone drives it, students follow and answer, codes cannot be guessed, and practice
grades exactly one choice right."""

import re

import pytest

from app import classroom, create_app
from app.lessons import BY_SLUG
from app.step import step_traces

VIEW = "/step?problem=tiles&size=3x3&scramble=6&seed=3&algorithms=bfs&step=0"


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "jobs.sqlite"), "DATA_DIR": str(tmp_path),
                       "BUILD_TABLES": False})


def start(app, view=VIEW):
    lecturer = app.test_client()
    response = lecturer.post("/class/", json={"view": view})
    assert response.status_code == 200, response.json
    return lecturer, response.json["code"]


def test_a_class_has_a_code_a_link_and_a_qr_code_and_the_lecturer_holds_the_secret(app):
    lecturer, code = start(app)
    assert re.fullmatch(f"[{classroom.CODE_ALPHABET}]{{8}}", code)
    cookie = lecturer.get_cookie(classroom.SECRET_COOKIE, path=f"/class/{code}")
    assert cookie is not None and cookie.http_only and code not in cookie.value and len(cookie.value) >= 40
    qr = app.test_client().get(f"/class/{code}/qr.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml" and b"<path" in qr.data
    page = app.test_client().get(f"/class/{code}")
    assert page.status_code == 200 and code.encode() in page.data and b'data-view="/step?' in page.data
    assert app.test_client().get(f"/class/?code={code.lower()}").headers["Location"].endswith(f"/class/{code}")


def test_students_follow_the_lecturers_view_and_cannot_move_it(app):
    lecturer, code = start(app)
    student = app.test_client()
    first = student.get(f"/class/{code}/state?student=aaaa1111")
    assert first.status_code == 200 and first.json["view"] == VIEW
    etag = first.headers["ETag"]
    assert student.get(f"/class/{code}/state", headers={"If-None-Match": etag}).status_code == 304
    moved = VIEW.replace("step=0", "step=5")
    assert lecturer.post(f"/class/{code}/view", json={"view": moved}).status_code == 200
    again = student.get(f"/class/{code}/state", headers={"If-None-Match": etag})
    assert again.status_code == 200 and again.json["view"] == moved
    for action, body in (("view", {"view": VIEW}), ("ask", {"kind": "next"}), ("reveal", {}), ("end", {})):
        refused = student.post(f"/class/{code}/{action}", json=body)
        assert refused.status_code == 403, action
    student.set_cookie(classroom.SECRET_COOKIE, code, path=f"/class/{code}")  # the code is no secret
    assert student.post(f"/class/{code}/view", json={"view": VIEW}).status_code == 403
    assert student.get(f"/class/{code}/console").status_code == 403
    assert student.get(f"/class/{code}/state").json["view"] == moved


def test_the_lecturer_sees_how_many_follow(app):
    lecturer, code = start(app)
    for n, following in (("s1aaaaaaaa", 1), ("s2aaaaaaaa", 1), ("s3aaaaaaaa", 0)):
        app.test_client().get(f"/class/{code}/state?student={n}&following={following}")
    state = lecturer.get(f"/class/{code}/console").json
    assert (state["students"], state["following"]) == (3, 2)


@pytest.mark.parametrize("view", ["http://elsewhere.example/step?x=1", "//elsewhere.example/step", "/jobs/",
                                  "/step" + "x" * 3000, 7])
def test_a_class_follows_only_this_sites_teaching_pages(app, view):
    response = app.test_client().post("/class/", json={"view": view})
    assert response.status_code == 400 and response.json["error"]


def test_codes_cannot_be_guessed_within_the_rate_limit(app):
    _, code = start(app)
    guesser = app.test_client()
    statuses = [guesser.get(f"/class/AAAAA{n:03d}/state").status_code
                for n in range(classroom.MISSES_PER_MINUTE + 3)]
    assert statuses[:classroom.MISSES_PER_MINUTE] == [404] * classroom.MISSES_PER_MINUTE
    assert set(statuses[classroom.MISSES_PER_MINUTE:]) == {429}
    assert guesser.get(f"/class/{code}/state").status_code == 429  # even the right code, once guessing
    assert app.test_client().get(f"/class/{code}/state", environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 200
    assert len(classroom.CODE_ALPHABET) ** classroom.CODE_LENGTH > 10**11


def test_a_class_ends_when_idle_or_ended_and_the_count_is_bounded(app, monkeypatch):
    lecturer, code = start(app)
    assert lecturer.post(f"/class/{code}/end", json={}).status_code == 200
    assert app.test_client().get(f"/class/{code}/state").status_code == 404
    _, code = start(app)
    app.extensions["classes"].by_code[code].touched -= classroom.IDLE_SECONDS + 1
    assert app.test_client().get(f"/class/{code}/state").status_code == 404
    monkeypatch.setattr(classroom, "MAX_CLASSES", 2)
    start(app), start(app)
    full = app.test_client().post("/class/", json={"view": VIEW})
    assert full.status_code == 400 and "classes" in full.json["error"]


def test_asking_which_node_next_tallies_answers_and_reveals_the_engines_answer(app):
    lecturer, code = start(app, VIEW.replace("step=0", "step=2"))
    asked = lecturer.post(f"/class/{code}/ask", json={"kind": "next"})
    assert asked.status_code == 200, asked.json
    state = asked.json
    question, step = state["question"], int(state["view"].rpartition("step=")[2])
    # asked mid-expansion, the class moves on to where the next node is taken from the queue
    _, _, (trace,) = step_traces({"problem": "tiles", "size": "3x3", "scramble": 6, "seed": 3, "algorithms": ["bfs"]})
    assert step >= 2 and trace["steps"][step]["event"] == "expand"
    students = [app.test_client() for _ in range(3)]
    seen = students[0].get(f"/class/{code}/state").json["question"]
    assert "answer" not in seen and "reason" not in seen and seen["choices"] == question["choices"]
    for i, student in enumerate(students):
        body = {"student": f"student{i}xx", "question": question["number"], "choice": i % len(question["choices"])}
        assert student.post(f"/class/{code}/answer", json=body).status_code == 200
    stale = {"student": "student0xx", "question": question["number"] + 1, "choice": 0}
    assert students[0].post(f"/class/{code}/answer", json=stale).status_code == 400
    console = lecturer.get(f"/class/{code}/console").json["question"]
    assert console["answers"] == 3 and sum(console["tally"]) == 3
    revealed = lecturer.post(f"/class/{code}/reveal", json={}).json["question"]
    shown = students[1].get(f"/class/{code}/state").json["question"]
    assert shown["answer"] == revealed["answer"] and shown["reason"]
    expanded_next = trace["nodes"][trace["steps"][step]["node"]]
    moves = revealed["choices"][revealed["answer"]]
    assert moves == "".join(_moves_to(trace, expanded_next["id"]))
    late = {"student": "student9xx", "question": question["number"], "choice": 0}
    assert students[2].post(f"/class/{code}/answer", json=late).status_code == 400


def _moves_to(trace, node_id):
    moves = []
    while trace["nodes"][node_id]["parent"] is not None:
        moves.append(trace["nodes"][node_id]["action"])
        node_id = trace["nodes"][node_id]["parent"]
    return reversed(moves)


def test_a_question_with_no_answer_at_this_step_says_so(app):
    lecturer, code = start(app)
    response = lecturer.post(f"/class/{code}/ask", json={"kind": "bound"})  # breadth-first search has no bound
    assert response.status_code == 400 and "no answer" in response.json["error"]


def test_the_form_without_javascript_starts_a_class_and_shows_its_console(app):
    lecturer = app.test_client()
    response = lecturer.post("/class/", data={"view": VIEW})
    assert response.status_code == 303
    console = lecturer.get(response.headers["Location"])
    assert console.status_code == 200 and b"<svg" in console.data and b"End the class" in console.data


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_practice_grades_exactly_one_choice_right_and_keeps_the_score(app, seed):
    client = app.test_client()
    page = client.get(f"/class/practice?seed={seed}&score=2&asked=3")
    assert page.status_code == 200
    choices = re.findall(rb'name="choice" value="(\d+)"', page.data)
    assert len(choices) >= 2
    verdicts = [client.post("/class/practice", data={"seed": seed, "score": 2, "asked": 3, "choice": c})
                for c in choices]
    right = [v for v in verdicts if b"Right." in v.data]
    assert len(right) == 1 and b"Score: 3 of 4" in right[0].data
    assert all(b"Score: 2 of 4" in v.data and b"class-reason" in v.data for v in verdicts if v not in right)


def test_on_a_lesson_slide_ida_stars_next_bound_is_the_one_it_then_uses(app):
    lecturer, code = start(app, "/lessons/idastar/2?step=1")
    state = lecturer.post(f"/class/{code}/ask", json={"kind": "bound"}).json
    question, step = state["question"], int(state["view"].rpartition("step=")[2])
    assert state["view"].startswith("/lessons/idastar/2?")
    _, _, (trace,) = step_traces(BY_SLUG["idastar"].slides[1].request)
    assert trace["steps"][step]["event"] == "bound"  # the class moved on to the end of the first iteration
    assert int(question["choices"][question["answer"]]) == trace["steps"][step]["bound"]
