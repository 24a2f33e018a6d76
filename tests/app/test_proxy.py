"""Behind a reverse proxy, through waitress itself: the client's address and scheme reach the app only from the
proxy it was told to trust (``PUZZLE_TRUSTED_PROXIES``), and every per-address limit then counts the clients behind
it (issue 43's list: class starts, wrong codes, lesson checks; the made-up cookies are in test_identity.py)."""

from __future__ import annotations

import json
import threading

import pytest

from app import class_model, create_app, own_lessons
from app.identity import NewIdentities
from app.step import View, query_for
from tests.support.served import call, owner_cookie, served
from tests.support.waiting import wait_until

SEED_004 = [8, 6, 7, 2, 5, 4, 3, 0, 1]
VIEW = "/step?problem=tiles&size=3x3&scramble=6&seed=3&algorithms=bfs&step=0"
#: A* on AIMA's Romania to its end: the cheapest path, 418 km
ROMANIA_LINK = "/step?" + query_for(View(problem="graph", data="romania", algorithms=("astar",),
                                         heuristic="given", step=1000))


def one_name_per_address(tmp_path):
    """The app, giving each address one new owner cookie: whether a request got one tells its address apart."""
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "jobs.sqlite"), "DATA_DIR": str(tmp_path),
                       "NEW_IDENTITIES": NewIdentities(limit=1, window=3600)})


def test_behind_a_trusted_proxy_each_forwarded_client_is_its_own_and_https_makes_the_cookie_secure(tmp_path):
    with served(one_name_per_address(tmp_path), trusted_proxies=1) as port:
        https = {"X-Forwarded-For": "10.0.0.1", "X-Forwarded-Proto": "https"}
        first = owner_cookie(call(port, "GET", "/", https)[1])
        assert first and "Secure" in first and "HttpOnly" in first
        assert owner_cookie(call(port, "GET", "/", https)[1]) is None  # 10.0.0.1 has had its one name
        other = owner_cookie(call(port, "GET", "/", {"X-Forwarded-For": "10.0.0.2"})[1])
        assert other and "Secure" not in other  # another client, reached over http
        # the proxy's own chain: the nearest proxy appended the client's address last
        assert owner_cookie(call(port, "GET", "/", {"X-Forwarded-For": "6.6.6.6, 10.0.0.3"})[1])
        assert owner_cookie(call(port, "GET", "/", {"X-Forwarded-For": "7.7.7.7, 10.0.0.3"})[1]) is None
        # a page posting through the proxy names the proxy's origin, which the app now knows for its own
        status, _, body = call(port, "POST", "/api/solve", {**https, "X-Forwarded-Host": "puzzles.example.edu",
                                                           "Origin": "https://puzzles.example.edu"},
                               {"size": "3x3", "tiles": SEED_004})
        assert status == 200 and json.loads(body)["length"] == 31


def test_without_a_trusted_proxy_forwarded_headers_are_not_believed(tmp_path):
    with served(one_name_per_address(tmp_path)) as port:
        first = owner_cookie(call(port, "GET", "/", {"X-Forwarded-For": "10.0.0.1", "X-Forwarded-Proto": "https"})[1])
        assert first and "Secure" not in first
        # every such client is 127.0.0.1 (the connection's own address), which has had its one name
        assert owner_cookie(call(port, "GET", "/", {"X-Forwarded-For": "10.0.0.2"})[1]) is None


def test_a_proxy_at_another_address_is_not_believed(tmp_path):
    with served(one_name_per_address(tmp_path), trusted_proxies=1, proxy_address="192.0.2.7") as port:
        first = owner_cookie(call(port, "GET", "/", {"X-Forwarded-For": "10.0.0.1", "X-Forwarded-Proto": "https"})[1])
        assert first and "Secure" not in first
        assert owner_cookie(call(port, "GET", "/", {"X-Forwarded-For": "10.0.0.2"})[1]) is None


def behind_the_proxy(tmp_path):
    """The app as served for a university: behind one trusted proxy, no jobs (classes and lessons need none)."""
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "jobs.sqlite"), "DATA_DIR": str(tmp_path),
                       "BUILD_TABLES": False})


def browser_at(port: int, address: str) -> dict:
    """The headers of a browser behind the proxy at ``address`` that has opened the home page (its cookie)."""
    cookie = owner_cookie(call(port, "GET", "/", {"X-Forwarded-For": address})[1])
    return {"X-Forwarded-For": address, **({"Cookie": cookie.split(";")[0]} if cookie else {})}


@pytest.mark.slow
def test_through_the_proxy_an_address_that_tried_200_classes_leaves_a_lecturer_at_another_address_room(tmp_path):
    """Issue 43: one address starts classes 200 times (fresh cookies and none, as one script would), then a lecturer
    at another address behind the same proxy starts one."""
    app = behind_the_proxy(tmp_path)
    with served(app, trusted_proxies=1) as port:
        statuses = [call(port, "POST", "/class/", browser_at(port, "10.9.9.9") if n % 2 else
                         {"X-Forwarded-For": "10.9.9.9"}, {"view": VIEW})[0] for n in range(200)]
        assert set(statuses) == {200, 429}
        with app.app_context():
            rows = class_model.classes().rows.records.connection().execute(
                "SELECT address, COUNT(*) FROM classes GROUP BY address").fetchall()
        running = {address: count for address, count in rows}
        assert running == {"10.9.9.9": class_model.PER_ADDRESS}  # the forwarded address, not the proxy's
        status, _, body = call(port, "POST", "/class/", browser_at(port, "10.0.0.1"), {"view": VIEW})
        assert status == 200, body


def test_through_the_proxy_61_wrong_codes_from_an_address_do_not_stop_a_student_there(tmp_path):
    app = behind_the_proxy(tmp_path)
    with served(app, trusted_proxies=1) as port:
        status, _, body = call(port, "POST", "/class/", browser_at(port, "10.0.0.1"), {"view": VIEW})
        code = json.loads(body)["code"]
        student, guesser = browser_at(port, "10.5.5.5"), {"X-Forwarded-For": "10.5.5.5"}  # one hall, one NAT
        assert call(port, "GET", f"/class/{code}/state?student=student01", student)[0] == 200
        guesses = [call(port, "GET", f"/class/AAAAA{n:03d}/state", guesser)[0] for n in range(61)]
        assert guesses == [404] * class_model.MISSES_PER_MINUTE + [429]
        assert call(port, "GET", f"/class/{code}/state?student=student01", student)[0] == 200
        assert call(port, "GET", f"/class/{code}", student)[0] == 200
        assert call(port, "GET", "/class/BBBBBBBB/state", {"X-Forwarded-For": "10.5.5.6"})[0] == 404  # its own


def test_through_the_proxy_16_lecturers_checking_lessons_get_two_checks_at_once_and_pages_still_answer(tmp_path,
                                                                                                      monkeypatch):
    """Issue 43's 16 clients checking lessons at once, each at its own address behind the proxy: the web process
    runs two checks (each held here until the test lets it finish), tells the others to press Check again, and
    serves pages meanwhile; requests without a cookie from one address are one client (one check at a time)."""
    real, release, under_way = own_lessons.check_slides, threading.Event(), threading.Semaphore(0)

    def held_check(store, slides, seconds=None):
        under_way.release()
        assert release.wait(120)
        return real(store, slides, seconds)

    monkeypatch.setattr(own_lessons, "check_slides", held_check)
    app = behind_the_proxy(tmp_path)
    lesson = {"title": "A* on Romania", "slides": [{"title": "The answer", "text": "A* ends on the cheapest path, 418.",
                                                    "link": ROMANIA_LINK}]}
    answers: list[tuple[int, str]] = []

    def check(headers: dict) -> None:
        status, reply, body = call(port, "POST", "/lessons/check", {**headers, "Accept": "application/json"}, lesson)
        answers.append((status, reply.get("Retry-After"), json.loads(body)))

    with served(app, trusted_proxies=1, threads=24) as port:
        lecturers = [browser_at(port, f"10.1.0.{n}") for n in range(16)]
        threads = [threading.Thread(target=check, args=(headers,)) for headers in lecturers]
        for thread in threads:
            thread.start()
        for _ in range(2):
            assert under_way.acquire(timeout=120)
        wait_until(lambda: len(answers) == 14, what="the refusals")
        assert {(status, retry) for status, retry, _ in answers} == {(429, str(own_lessons.RETRY_SECONDS))}
        assert call(port, "GET", "/", {"X-Forwarded-For": "10.1.0.99"})[0] == 200
        release.set()
        for thread in threads:
            thread.join(120)
        checked = [body for status, _, body in answers if status == 200]
        assert len(checked) == 2 and all(body["slides"][0]["state"] == "ok" for body in checked)
        # a script without cookies is one client: its second check waits for its first, wherever a place is free
        release.clear()
        answers.clear()
        first = threading.Thread(target=check, args=({"X-Forwarded-For": "10.2.0.1"},))
        first.start()
        assert under_way.acquire(timeout=120)
        check({"X-Forwarded-For": "10.2.0.1"})
        assert answers[0][0] == 429 and "still being worked out" in answers[0][2]["error"]
        release.set()
        first.join(120)
        assert answers[1][0] == 200
