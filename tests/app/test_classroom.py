"""A class: the lecturer's browser alone drives it, students follow and answer, codes cannot be guessed, and practice
grades exactly one choice right."""

import json
import re
import time
from dataclasses import replace
from pathlib import Path
from urllib.parse import urlencode

import pytest

from app import class_model, create_app
from app.lessons import BY_SLUG
from app.step_search import step_traces
from app.step_view import view_from_query

VIEW = "/step?problem=tiles&size=3x3&scramble=6&seed=3&algorithms=bfs&step=0"


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "jobs.sqlite"), "DATA_DIR": str(tmp_path),
                       "BUILD_TABLES": False})


def start(app, view=VIEW, address="127.0.0.1"):
    lecturer = app.test_client()
    lecturer.environ_base["REMOTE_ADDR"] = address
    lecturer.get("/")  # the owner cookie, as every browser holds it before it presses a button
    response = lecturer.post("/class/", json={"view": view})
    assert response.status_code == 200, response.json
    return lecturer, response.json["code"]


def joined(app, code: str, address: str = "127.0.0.1"):
    """A student's browser that has opened the class's page, so it holds its owner cookie (a student is counted by
    it: ``app.classroom.student_key``)."""
    student = app.test_client()
    student.environ_base["REMOTE_ADDR"] = address
    assert student.get(f"/class/{code}", headers={"Accept": "text/html"}).status_code == 200
    assert student.get_cookie("pp_owner") is not None
    return student


def opened(client, view_url: str):
    """The step-through view a class's short address (/v/<id>?step=N) opens, read back through the saved view."""
    path, _, query = view_url.partition("?")
    assert re.fullmatch(r"/v/[a-z2-7]{12}", path), view_url
    saved = client.get(f"/api/views/{path.removeprefix('/v/')}").json
    step = dict(part.split("=") for part in query.split("&"))["step"]
    return replace(view_from_query(dict(_fields(saved["url"]))), step=int(step))


def _fields(url: str):
    from urllib.parse import parse_qsl, urlsplit
    return parse_qsl(urlsplit(url).query)


def test_a_class_has_a_code_a_link_and_a_qr_code_and_the_lecturer_holds_the_secret(app):
    lecturer, code = start(app)
    assert re.fullmatch(f"[{class_model.CODE_ALPHABET}]{{8}}", code)
    cookie = lecturer.get_cookie(class_model.SECRET_COOKIE, path=f"/class/{code}")
    assert cookie is not None and cookie.http_only and code not in cookie.value and len(cookie.value) >= 40
    qr = app.test_client().get(f"/class/{code}/qr.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml" and b"<path" in qr.data
    page = app.test_client().get(f"/class/{code}")
    assert page.status_code == 200 and code.encode() in page.data and b'data-view="/v/' in page.data
    assert app.test_client().get(f"/class/?code={code.lower()}").headers["Location"].endswith(f"/class/{code}")


def test_students_follow_the_lecturers_view_and_cannot_move_it(app):
    lecturer, code = start(app)
    student = app.test_client()
    first = student.get(f"/class/{code}/state?student=aaaa1111")
    assert first.status_code == 200 and opened(student, first.json["view"]) == view_from_query(dict(_fields(VIEW)))
    etag = first.headers["ETag"]
    assert student.get(f"/class/{code}/state", headers={"If-None-Match": etag}).status_code == 304
    moved = VIEW.replace("step=0", "step=5")
    answer = lecturer.post(f"/class/{code}/view", json={"view": moved})
    assert answer.status_code == 200
    again = student.get(f"/class/{code}/state", headers={"If-None-Match": etag})
    assert again.status_code == 200 and opened(student, again.json["view"]) == view_from_query(dict(_fields(moved)))
    # every step of one view is one saved view: the class's address differs in its step alone
    assert again.json["view"] == answer.json["view"] == first.json["view"].replace("step=0", "step=5")
    moved = again.json["view"]
    for action, body in (("view", {"view": VIEW}), ("ask", {"kind": "next"}), ("reveal", {}), ("end", {})):
        refused = student.post(f"/class/{code}/{action}", json=body)
        assert refused.status_code == 403, action
    student.set_cookie(class_model.SECRET_COOKIE, code, path=f"/class/{code}")  # the code is no secret
    assert student.post(f"/class/{code}/view", json={"view": VIEW}).status_code == 403
    assert student.get(f"/class/{code}/console").status_code == 403
    assert student.get(f"/class/{code}/state").json["view"] == moved


def test_the_lecturer_sees_how_many_follow(app):
    lecturer, code = start(app)
    for n, following in (("s1aaaaaaaa", 1), ("s2aaaaaaaa", 1), ("s3aaaaaaaa", 0)):
        joined(app, code).get(f"/class/{code}/state?student={n}&following={following}")
    state = lecturer.get(f"/class/{code}/console").json
    assert (state["students"], state["following"]) == (3, 2)


@pytest.mark.parametrize("view", ["http://elsewhere.example/step?x=1", "//elsewhere.example/step", "/jobs/",
                                  "/step" + "x" * 3000, 7])
def test_a_class_follows_only_this_sites_teaching_pages(app, view):
    response = app.test_client().post("/class/", json={"view": view})
    assert response.status_code == 400 and response.json["error"]


def test_codes_cannot_be_guessed_within_the_rate_limit_and_a_known_class_is_never_refused(app):
    _, code = start(app)
    student = app.test_client()
    assert student.get(f"/class/{code}/state?student=student01").status_code == 200
    guesser = app.test_client()  # the same address as the student: one lecture hall behind one NAT
    statuses = [guesser.get(f"/class/AAAAA{n:03d}/state").status_code
                for n in range(class_model.MISSES_PER_MINUTE + 3)]
    assert statuses[:class_model.MISSES_PER_MINUTE] == [404] * class_model.MISSES_PER_MINUTE
    assert set(statuses[class_model.MISSES_PER_MINUTE:]) == {429}
    # the misses are refused, never the class the address follows: the student's polls, answers and page go on
    assert student.get(f"/class/{code}/state?student=student01").status_code == 200
    assert guesser.get(f"/class/{code}").status_code == 200
    assert guesser.get(f"/class/{code.lower()}/state").status_code == 200
    assert guesser.get("/class/BBBBBBBB/state").status_code == 429  # while further guesses still are
    assert app.test_client().get("/class/BBBBBBBB/state", environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 404
    assert len(class_model.CODE_ALPHABET) ** class_model.CODE_LENGTH > 10**11


def test_a_class_ends_when_idle_or_ended(app):
    lecturer, code = start(app)
    assert lecturer.post(f"/class/{code}/end", json={}).status_code == 200
    assert app.test_client().get(f"/class/{code}/state").status_code == 404
    _, code = start(app)
    with app.app_context():
        class_model.classes().rows.update(code, "expires = ?", (time.time() - 1,))
    assert app.test_client().get(f"/class/{code}/state").status_code == 404


def test_asking_which_node_next_tallies_answers_and_reveals_the_engines_answer(app):
    lecturer, code = start(app, VIEW.replace("step=0", "step=2"))
    asked = lecturer.post(f"/class/{code}/ask", json={"kind": "next"})
    assert asked.status_code == 200, asked.json
    state = asked.json
    question, step = state["question"], int(state["view"].rpartition("step=")[2])
    # asked mid-expansion, the class moves on to where the next node is taken from the queue
    _, _, (trace,) = step_traces({"problem": "tiles", "size": "3x3", "scramble": 6, "seed": 3, "algorithms": ["bfs"]})
    assert step >= 2 and trace["steps"][step]["event"] == "expand"
    students = [joined(app, code) for _ in range(3)]
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


ROMANIA = Path(__file__).resolve().parents[2] / "engine" / "domains" / "graph" / "examples" / "romania.json"


def romania_view(step: int) -> str:
    """AIMA's Romania typed in (the file's JSON as the graph editor sends it), uniform-cost beside A*."""
    return "/step?" + urlencode({"problem": "graph", "data": ROMANIA.read_text(), "algorithms": "ucs,astar",
                                 "step": step})


def test_a_class_on_a_typed_graph_survives_a_restart_of_the_server(tmp_path):
    config = {"TESTING": True, "DATABASE": str(tmp_path / "jobs.sqlite"), "DATA_DIR": str(tmp_path),
              "BUILD_TABLES": False}
    before = create_app(config)
    assert len(romania_view(12)) > 3000  # the view a class could not start on while views rode in the address
    lecturer, code = start(before, romania_view(12))
    students = [joined(before, code) for _ in range(8)]
    states = [s.get(f"/class/{code}/state?student=phone{n:05d}").json for n, s in enumerate(students)]
    view = opened(students[0], states[0]["view"])
    assert (view.problem, view.algorithms, view.step) == ("graph", ("ucs", "astar"), 12)
    assert view.data == json.loads(ROMANIA.read_text())
    _, _, (ucs, astar) = step_traces({"problem": "graph", "graph": view.data, "algorithms": ["ucs", "astar"]})
    assert ucs["result"]["cost"] == astar["result"]["cost"] == 418  # Arad to Bucharest, AIMA's figure
    etag = students[0].get(f"/class/{code}/state").headers["ETag"]

    after = create_app(config)  # the server restarted: a new process on the same instance folder
    for n, student in enumerate(students):  # each phone's client keeps its cookies; the server is new
        student.application = after
        kept = student.get(f"/class/{code}/state?student=phone{n:05d}", headers={"If-None-Match": etag})
        assert kept.status_code == 304 and kept.headers["ETag"] == etag
    lecturer.application = after
    console = lecturer.get(f"/class/{code}/console")
    assert console.status_code == 200 and console.json["students"] == 8 and console.json["view"] == states[0]["view"]
    moved = lecturer.post(f"/class/{code}/view", json={"view": console.json["view"].replace("step=12", "step=13")})
    assert moved.status_code == 200
    seen = students[3].get(f"/class/{code}/state", headers={"If-None-Match": etag})
    assert seen.status_code == 200 and opened(students[3], seen.json["view"]).step == 13
    assert lecturer.post(f"/class/{code}/ask", json={"kind": "next"}).status_code == 200
    assert students[5].get(f"/class/{code}/state").json["question"]["choices"]
    assert after.test_client().post(f"/class/{code}/end", json={}).status_code == 403  # the secret came through


def test_two_web_processes_on_one_database_serve_one_class(tmp_path):
    config = {"TESTING": True, "DATABASE": str(tmp_path / "jobs.sqlite"), "DATA_DIR": str(tmp_path),
              "BUILD_TABLES": False}
    first, second = create_app(config), create_app(config)
    lecturer, code = start(first)
    near, far = joined(first, code), joined(second, code)
    near.get(f"/class/{code}/state?student=nearby001")
    far.get(f"/class/{code}/state?student=faraway01&following=0")
    assert lecturer.post(f"/class/{code}/view", json={"view": VIEW.replace("step=0", "step=4")}).status_code == 200
    assert opened(far, far.get(f"/class/{code}/state").json["view"]).step == 4
    with second.app_context():
        class_model.classes().write_polls()  # the other process's batch of polls, as its next second writes it
    state = lecturer.get(f"/class/{code}/console").json
    assert (state["students"], state["following"]) == (2, 1)
    asked = lecturer.post(f"/class/{code}/ask", json={"kind": "frontier"}).json["question"]
    body = {"student": "faraway01", "question": asked["number"], "choice": 0}
    assert far.post(f"/class/{code}/answer", json=body).status_code == 200
    assert lecturer.get(f"/class/{code}/console").json["question"]["tally"][0] == 1


def test_two_web_processes_on_one_database_count_an_addresss_code_misses_together(tmp_path):
    config = {"TESTING": True, "DATABASE": str(tmp_path / "jobs.sqlite"), "DATA_DIR": str(tmp_path),
              "BUILD_TABLES": False}
    first, second = create_app(config), create_app(config)
    statuses = [(first if n % 2 else second).test_client().get(f"/class/AAAAA{n:03d}/state").status_code
                for n in range(class_model.MISSES_PER_MINUTE + 1)]
    assert statuses == [404] * class_model.MISSES_PER_MINUTE + [429]


def browser_at(app, address: str):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    client.get("/")
    return client


def test_class_starts_are_limited_per_browser_and_address_with_room_kept_for_lecturers(app, monkeypatch):
    monkeypatch.setattr(class_model, "MAX_CLASSES", 14)
    monkeypatch.setattr(class_model, "KEPT_FOR_NEW_ADDRESSES", 3)  # 11 places for addresses with a class running
    monkeypatch.setattr(class_model, "PER_ADDRESS", 4)
    assert class_model.PER_CLIENT == 3

    def start_at(address: str, client=None):
        return (client or browser_at(app, address)).post("/class/", json={"view": VIEW})

    # fresh cookies at one address: PER_ADDRESS classes from it, then 429
    answers = [start_at("10.0.0.3") for _ in range(5)]
    assert [a.status_code for a in answers] == [200, 200, 200, 200, 429]
    assert "your network address" in answers[-1].json["error"]
    # one browser keeps PER_CLIENT classes: a fourth ends its oldest (the lecturer moved on), nobody else's
    lecturer = browser_at(app, "10.0.0.1")
    codes = [start_at("10.0.0.1", lecturer).json["code"] for _ in range(4)]
    assert app.test_client().get(f"/class/{codes[0]}/state").status_code == 404
    assert all(app.test_client().get(f"/class/{c}/state").status_code == 200 for c in codes[1:])
    # requests without a cookie from one address are one client: they too keep PER_CLIENT classes
    script = app.test_client(use_cookies=False)
    script.environ_base["REMOTE_ADDR"] = "10.0.0.2"
    assert [start_at("10.0.0.2", script).status_code for _ in range(5)] == [200] * 5
    assert start_at("10.0.0.1").status_code == 200  # 4 + 3 + 3 + 1 = 11 running
    # the last places are kept for lecturers at addresses with no class running: 10.0.0.2 may not take them
    refused = start_at("10.0.0.2")
    assert refused.status_code == 429 and "classes are running" in refused.json["error"]
    assert [start_at(f"10.0.1.{n}").status_code for n in range(4)] == [200, 200, 200, 429]


def test_an_address_that_tries_200_classes_leaves_a_lecturer_elsewhere_room(app):
    """Issue 43's case at the real limits: one address starts classes 200 times (fresh cookies and none), then a
    lecturer at another address starts one."""
    script = app.test_client(use_cookies=False)
    script.environ_base["REMOTE_ADDR"] = "10.9.9.9"
    answers = [(browser_at(app, "10.9.9.9") if n % 2 else script).post("/class/", json={"view": VIEW}).status_code
               for n in range(200)]
    assert set(answers) == {200, 429}
    with app.app_context():
        running = class_model.classes().rows.records.one("SELECT COUNT(*) FROM classes WHERE address = ?",
                                                       ("10.9.9.9",))[0]
    assert running == class_model.PER_ADDRESS
    lecturer = browser_at(app, "10.0.0.1")
    assert lecturer.post("/class/", json={"view": VIEW}).status_code == 200


def test_the_form_without_javascript_starts_a_class_on_typed_romania(app):
    """The issue's refusal ("at most 2000 characters"): the form posts the page's whole address; the class follows it
    as a saved view."""
    lecturer = browser_at(app, "127.0.0.1")
    response = lecturer.post("/class/", data={"view": romania_view(12)})
    assert response.status_code == 303
    code = response.headers["Location"].split("/")[-2]
    view = app.test_client().get(f"/class/{code}/state").json["view"]
    assert len(view) < 40 and opened(lecturer, view).step == 12
    assert lecturer.get(response.headers["Location"]).status_code == 200


#: AIMA's Romania (Figure 3.1), typed in by hand as the graph editor sends it: A* with the straight-line distances.
TYPED_ROMANIA = json.loads(ROMANIA.read_text())
#: After A* expands Arad (step 4: expand, then three children), AIMA's Figure 3.24 has Sibiu at 140 + 253 = 393,
#: Timisoara at 118 + 329 = 447 and Zerind at 75 + 374 = 449 on the frontier: Sibiu is expanded next.
FRONTIER_AFTER_ARAD = {"Sibiu": 393, "Timisoara": 447, "Zerind": 449}


def own_lesson_on_romania(client) -> str:
    """A one-slide lesson written in the app on typed Romania at A*'s step 4; its slide's address."""
    link = "/step?" + urlencode({"problem": "graph", "data": json.dumps(TYPED_ROMANIA), "algorithms": "astar",
                                 "heuristic": "given", "step": 4})
    lesson = {"title": "A* on Romania", "slides": [{"title": "After Arad", "text": "Which city is next?",
                                                     "link": link}]}
    checked = client.post("/lessons/check", data={"lesson": json.dumps(lesson)}, headers={"Accept": "application/json"})
    assert checked.status_code == 200, checked.data
    return checked.json["link"] + "/1"


def test_a_class_on_an_own_lessons_slide_is_asked_which_node_next_and_30_phones_are_tallied_exactly(app):
    lecturer = browser_at(app, "127.0.0.1")
    slide = own_lesson_on_romania(lecturer)
    lecturer, code = start(app, f"{slide}?step=4")
    asked = lecturer.post(f"/class/{code}/ask", json={"kind": "next"})
    assert asked.status_code == 200, asked.json
    question = asked.json["question"]
    assert question["prompt"] == "Which node does A* expand next?" and asked.json["view"] == f"{slide}?step=4"
    # the choices as the board writes the numbers: f = 393, not f = 393.0
    shown = {re.search(r"→ (\w+) ", choice).group(1): int(re.search(r"f = (\d+)\)$", choice).group(1))
             for choice in question["choices"]}
    assert shown == FRONTIER_AFTER_ARAD and not any(".0" in choice for choice in question["choices"])
    phones = [browser_at(app, f"10.1.0.{n}") for n in range(30)]
    picks = [(n * 7) % len(question["choices"]) for n in range(30)]
    for n, (phone, pick) in enumerate(zip(phones, picks, strict=True)):
        assert phone.get(f"/class/{code}/state?student=phone{n:05d}").status_code == 200
        body = {"student": f"phone{n:05d}", "question": question["number"], "choice": pick}
        assert phone.post(f"/class/{code}/answer", json=body).status_code == 200
    console = lecturer.get(f"/class/{code}/console").json["question"]
    assert console["answers"] == 30
    assert console["tally"] == [picks.count(c) for c in range(len(question["choices"]))]
    revealed = lecturer.post(f"/class/{code}/reveal", json={}).json["question"]
    assert "Sibiu" in revealed["choices"][revealed["answer"]] and "f = 393" in revealed["reason"]


def test_a_class_on_a_saved_view_is_asked_f_of_a_node_as_the_board_writes_it(app):
    lecturer = browser_at(app, "127.0.0.1")
    long_view = "/step?" + urlencode({"problem": "graph", "data": json.dumps(TYPED_ROMANIA), "algorithms": "astar",
                                      "heuristic": "given", "step": 0})
    saved = lecturer.post("/api/views", json={"view": long_view}).json["link"]
    lecturer, code = start(app, f"{saved}?step=4")
    question = lecturer.post(f"/class/{code}/ask", json={"kind": "f"}).json["question"]
    city = re.search(r"→ (\w+) \(A\*\)\?$", question["prompt"]).group(1)
    assert question["choices"][question["answer"]] == str(FRONTIER_AFTER_ARAD[city])
    assert all(re.fullmatch(r"\d+", choice) for choice in question["choices"])
    assert f"= {FRONTIER_AFTER_ARAD[city]}:" in question["reason"]


def test_a_class_started_without_javascript_on_an_own_lessons_slide_stands_at_the_slides_step(app):
    lecturer = browser_at(app, "127.0.0.1")
    slide = own_lesson_on_romania(lecturer)
    started = lecturer.post("/class/", data={"view": slide})  # the form's address: the page as the server sent it
    code = started.headers["Location"].split("/")[-2]
    assert app.test_client().get(f"/class/{code}/state").json["view"] == f"{slide}?step=4"
    assert lecturer.post("/class/", json={"view": "/lessons/own/0123456789ab/1"}).status_code == 400
