"""Nothing one client holds (issue 49): the records it may write, the class places its network may take, the names
its network may be given, the answers and followers it counts as, and the cookies it is given behind https."""

from __future__ import annotations

import json
import os

import pytest

from app import class_model, create_app
from app.records import records
from tests.support.flood import LINK, graph_view, lesson
from tests.support.served import call, served

PAGE = {"Accept": "text/html,application/xhtml+xml"}  # what a browser's navigation asks for


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "jobs.sqlite"), "DATA_DIR": str(tmp_path),
                       "BUILD_TABLES": False})


def browser(app, address: str):
    """A browser at ``address`` that has loaded a page, so it holds its owner cookie."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    assert client.get("/", headers=PAGE).status_code == 200
    assert client.get_cookie("pp_owner") is not None, address
    return client


def check(client, body: dict):
    return client.post("/lessons/check", data={"lesson": json.dumps(body)}, headers={"Accept": "application/json"})


def database_bytes(app) -> int:
    path = app.config["DATABASE"]
    return sum(os.path.getsize(p) for p in (path, path + "-wal") if os.path.exists(p))


def test_one_client_flooding_lessons_and_class_views_grows_the_database_by_a_bounded_amount(app):
    """The issue's flood, as requests rather than seconds: 14 lessons of 60 KB and 41 class moves of 45 KB a second
    for 80 s is 1,100 lessons and 3,300 moves; 300 of each, interleaved, wrote 35 MB without limits, past
    the 25 MB the issue allows for the whole 80 s."""
    lecturer = browser(app, "10.1.0.1")
    kept = check(lecturer, lesson("Before the flood", 8_000))
    assert kept.status_code == 200, kept.get_data(as_text=True)[:300]
    kept_id = kept.get_json()["id"]
    flood = browser(app, "10.6.6.6")
    started = flood.post("/class/", json={"view": graph_view(0)})
    assert started.status_code == 200, started.get_data(as_text=True)[:300]
    code = started.get_json()["code"]
    before = database_bytes(app)
    answers = []
    for n in range(300):
        answers.append(check(flood, lesson(f"flood {n}")).status_code)
        answers.append(flood.post(f"/class/{code}/view", json={"view": graph_view(n + 1)}).status_code)
    grown = database_bytes(app) - before
    assert set(answers) <= {200, 429} and answers.count(429) > 400, sorted(set(answers))
    assert grown <= 25 * 2**20, f"{grown / 2**20:.1f} MB"
    opened = lecturer.get(f"/lessons/own/{kept_id}", headers={"Accept": "application/json"})
    assert opened.status_code == 200 and opened.get_json()["title"] == "Before the flood"


def test_records_past_the_budget_go_least_recently_used_first_and_an_opened_lesson_stays(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "jobs.sqlite"), "DATA_DIR": str(tmp_path),
                      "BUILD_TABLES": False, "RECORDS_BUDGET": 300_000})
    now = [1_000_000.0]
    with app.app_context():
        records().clock = lambda: now[0]
    lecturer, other = browser(app, "10.1.0.1"), browser(app, "10.2.0.2")
    opened_id = check(lecturer, lesson("Opened", 20_000)).get_json()["id"]
    now[0] += 5
    forgotten_id = check(lecturer, lesson("Never opened", 20_000)).get_json()["id"]
    for n in range(10):  # 200 KB more: 240 KB kept, within the budget
        now[0] += 1
        assert check(other, lesson(f"other {n}", 20_000)).status_code == 200
    now[0] += 1_000  # the lecturer presents the first lesson again, long after
    assert lecturer.get(f"/lessons/own/{opened_id}", headers={"Accept": "application/json"}).status_code == 200
    for n in range(10, 15):  # 100 KB more: past the budget, the least recently used go
        now[0] += 1
        assert check(other, lesson(f"other {n}", 20_000)).status_code == 200
    assert lecturer.get(f"/lessons/own/{opened_id}", follow_redirects=True).status_code == 200
    assert lecturer.get(f"/lessons/own/{forgotten_id}", follow_redirects=True).status_code == 404
    with app.app_context():
        assert records().kept_size() <= 300_000


def test_a_class_moving_back_to_a_view_saved_before_writes_and_charges_nothing_new(app, monkeypatch):
    from app import quotas

    monkeypatch.setattr(quotas, "WRITES", 3)  # the start (its row and its view) and one more view
    lecturer = browser(app, "10.1.0.1")
    code = lecturer.post("/class/", json={"view": graph_view(1)}).get_json()["code"]
    with app.app_context():
        count = records().connection().execute("SELECT COUNT(*) FROM views").fetchone()[0]
    for n in range(10):  # back and forth between two views, each step of them
        moved = lecturer.post(f"/class/{code}/view", json={"view": graph_view(1 + n % 2) + f"&step={n}"})
        assert moved.status_code == 200, moved.get_data(as_text=True)[:300]
    with app.app_context():
        assert records().connection().execute("SELECT COUNT(*) FROM views").fetchone()[0] == count + 1
    refused = lecturer.post(f"/class/{code}/view", json={"view": graph_view(3)})
    assert refused.status_code == 429 and "ten minutes" in refused.get_json()["error"]


def test_120_addresses_of_one_ipv6_64_take_only_their_networks_share_of_class_places(app):
    """One actor with 120 addresses of one /64 once took 498 of the 500 places; a lecturer elsewhere got 429."""
    answers = []
    for host in range(1, 121):
        actor = browser(app, f"2001:db8:1:2::{host:x}")
        answers += [actor.post("/class/", json={"view": LINK}).status_code for _ in range(4)]
    assert set(answers) == {200, 429}
    with app.app_context():
        running = records().connection().execute("SELECT COUNT(*) FROM classes").fetchone()[0]
    assert running <= class_model.PER_ADDRESS
    lecturer = browser(app, "2001:db8:9:9::1")  # another network
    assert lecturer.post("/class/", json={"view": LINK}).status_code == 200


def test_a_scripts_cookieless_requests_behind_a_nat_leave_the_class_its_names(app):
    """A script's requests (``Accept: */*``, no cookie) once used up the address's 120 new names in a burst, and every
    student who came after shared one client."""
    script = app.test_client(use_cookies=False)
    for _ in range(200):
        response = script.get("/", headers={"Accept": "*/*"}, environ_base={"REMOTE_ADDR": "10.0.0.1"})
        assert response.status_code == 200 and "pp_owner=" not in response.headers.get("Set-Cookie", "")
    students = [browser(app, "10.0.0.1") for _ in range(100)]
    assert len({s.get_cookie("pp_owner").value for s in students}) == 100


def test_one_browser_answers_a_question_once_and_follows_as_one_student_whatever_ids_it_names(app):
    lecturer = browser(app, "10.1.0.1")
    code = lecturer.post("/class/", json={"view": LINK}).get_json()["code"]
    asked = lecturer.post(f"/class/{code}/ask", json={"kind": "next"})
    assert asked.status_code == 200, asked.get_data(as_text=True)[:300]
    number = asked.get_json()["question"]["number"]
    stuffer = browser(app, "10.3.0.3")
    for n in range(400):
        body = {"student": f"made{n:06d}", "question": number, "choice": 0}
        assert stuffer.post(f"/class/{code}/answer", json=body).status_code == 200
    for n in range(300):
        stuffer.get(f"/class/{code}/state?student=follow{n:06d}")
    honest = browser(app, "10.4.0.4")
    assert honest.post(f"/class/{code}/answer", json={"student": "honest01", "question": number,
                                                      "choice": 1}).status_code == 200
    console = lecturer.get(f"/class/{code}/console").get_json()
    assert console["question"]["answers"] == 2 and console["question"]["tally"][:2] == [1, 1]
    assert console["students"] == 1


def set_cookies(headers) -> dict[str, str]:
    return {header.split("=")[0]: header for header in headers.get_all("Set-Cookie") or []}


def test_every_cookie_is_secure_behind_https_and_only_then(app):
    """The lecturer's ``pp_class`` cookie, the only credential that drives a class, went without ``Secure``."""
    proxied = {"X-Forwarded-For": "10.7.7.7", "X-Forwarded-Proto": "https", **PAGE}
    with served(app, trusted_proxies=1) as port:
        for scheme in ("https", "http"):
            headers = {**proxied, "X-Forwarded-Proto": scheme}
            status, page, _ = call(port, "GET", "/class/", headers)
            owner = set_cookies(page)["pp_owner"]
            status, started, _ = call(port, "POST", "/class/", {**headers, "Cookie": owner.split(";")[0]},
                                      {"view": LINK})
            assert status == 200
            lecturer = set_cookies(started)["pp_class"]
            assert ("; Secure" in owner, "; Secure" in lecturer) == (scheme == "https",) * 2, (owner, lecturer)
    direct = app.test_client()  # over https to the app itself
    first = direct.get("/", headers=PAGE, base_url="https://localhost")
    response = direct.post("/class/", json={"view": LINK}, base_url="https://localhost")
    assert response.status_code == 200
    assert "; Secure" in first.headers["Set-Cookie"] and "; Secure" in response.headers["Set-Cookie"]


def test_a_network_is_an_ipv6_addresss_64_and_an_ipv4_address_itself():
    from app.identity import network

    assert network("2001:db8:1:2:aaaa:bbbb:cccc:dddd") == network("2001:db8:1:2::1") == "2001:db8:1:2::/64"
    assert network("2001:db8:1:3::1") != network("2001:db8:1:2::1")
    assert network("10.0.0.1") == "10.0.0.1" != network("10.0.0.2")
    assert network("::ffff:10.0.0.1") == "10.0.0.1"  # an IPv4 client of a dual-stack socket
    assert network("not an address") == "not an address" and len(network("x" * 500)) == 64
