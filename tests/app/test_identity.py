"""Who a client is: an owner cookie the server signed; made-up ones are no one, and new ones cost something."""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import stat
import threading
import time

import pytest

from app import create_app
from app.identity import NewIdentities, cookie_for, instance_secret, owner_of
from tests.app.conftest import visitor
from tests.support.served import call, owner_cookie, served

SEED_004 = [8, 6, 7, 2, 5, 4, 3, 0, 1]
KORF_88 = [15, 2, 12, 11, 14, 13, 9, 5, 1, 3, 8, 7, 0, 10, 6, 4]  # billions of nodes: still running at the end


def set_cookie(response) -> str | None:
    """The owner cookie a response gives, if it gives one."""
    for header in response.headers.getlist("Set-Cookie"):
        if header.startswith("pp_owner="):
            return header.split(";")[0].removeprefix("pp_owner=")
    return None


@pytest.mark.slow
def test_sixty_made_up_cookies_from_one_address_get_at_most_16_jobs_and_a_browser_there_still_gets_its_own(app):
    """Through waitress behind a trusted proxy, clients told apart by ``X-Forwarded-For``."""
    runner = app.extensions["jobs"]
    assert runner.store.active() == []  # joins the cluster now, not inside a request thread
    here, elsewhere = {"X-Forwarded-For": "10.9.9.9"}, {"X-Forwarded-For": "10.8.8.8"}
    with served(app, trusted_proxies=1) as port:
        real = owner_cookie(call(port, "GET", "/", here)[1]).split(";")[0].removeprefix("pp_owner=")
        made_up = [secrets.token_hex(16) for _ in range(30)]  # the old form: any 32 hex digits
        # the real one, its signature altered: in its first character, since the last base64 character of a 20-byte
        # signature carries two bits of padding ('A' and 'B' there can decode alike and the cookie stay valid)
        cut = real.rindex(".") + 1
        made_up += [real[:cut] + ("A" if real[cut] != "A" else "B") + real[cut + 1:] for _ in range(10)]
        made_up += [cookie_for(secrets.token_hex(16), "another server's key") for _ in range(20)]
        answers = [call(port, "POST", "/api/solve", {**here, "Cookie": f"pp_owner={cookie}"},
                        {"size": "4x4", "goal": "blank-first", "tiles": KORF_88, "mode": "job", "solver": "idastar",
                         "max_seconds": 100, "max_nodes": 10**10 + i})
                   for i, cookie in enumerate(made_up)]
        accepted = [json.loads(body)["job"] for status, _, body in answers if status == 202]
        assert 1 <= len(accepted) <= 16
        assert {runner.store.get(job)["address"] for job in accepted} == {"10.9.9.9"}
        status, _, body = call(port, "POST", "/api/solve", {**here, "Cookie": f"pp_owner={real}"},
                               {"size": "3x3", "tiles": SEED_004, "solver": "idastar", "mode": "job"})
        assert status == 202, body
        solved = runner.wait(json.loads(body)["job"], timeout=60)
        assert solved["status"] == "done" and solved["result"]["length"] == 31
        # another address behind the same proxy is not these made-up clients
        status, _, _ = call(port, "POST", "/api/solve", elsewhere, {"size": "4x4", "goal": "blank-first",
                                                                    "tiles": KORF_88, "mode": "job"})
        assert status == 202
    for job in runner.store.active():
        runner.cancel(job["id"])


def test_a_signed_cookie_is_believed_and_names_its_owner(app):
    browser = visitor(app)
    cookie = browser.get_cookie("pp_owner").value
    owner = owner_of(cookie, app.secret_key)
    assert owner and len(owner) == 32
    assert set_cookie(browser.get("/")) is None  # believed: no new one
    assert owner_of(cookie, "another server's key") is None
    assert owner_of(owner, app.secret_key) is None  # the bare name is no cookie


def test_a_class_of_100_behind_one_address_joins_and_a_flood_of_new_names_stops_at_the_limit(app):
    def join(address: str) -> tuple[int, str | None]:
        response = app.test_client(use_cookies=False).get("/", environ_base={"REMOTE_ADDR": address})
        return response.status_code, set_cookie(response)

    class_of_100 = [join("10.0.0.1") for _ in range(100)]
    assert all(code == 200 for code, _ in class_of_100)
    assert len({cookie for _, cookie in class_of_100 if cookie}) == 100  # each student a name of their own
    flood = [join("10.0.0.1") for _ in range(200)]  # a script asking for more names
    assert all(code == 200 for code, _ in flood)  # still served, as the address's cookieless client
    assert sum(cookie is not None for _, cookie in flood) < 100
    assert join("10.0.0.2")[1] is not None  # another address is not held back


def test_two_web_processes_on_one_database_give_an_address_its_new_names_once_between_them(tmp_path):
    config = {"TESTING": True, "DATABASE": str(tmp_path / "jobs.sqlite"), "DATA_DIR": str(tmp_path)}
    first = create_app({**config, "NEW_IDENTITIES": NewIdentities(limit=3, window=600)})
    second = create_app({**config, "NEW_IDENTITIES": NewIdentities(limit=3, window=600)})

    def named(app, address: str = "10.0.0.1") -> bool:
        response = app.test_client(use_cookies=False).get("/", environ_base={"REMOTE_ADDR": address})
        assert response.status_code == 200  # served with or without a name
        return set_cookie(response) is not None

    assert [named(first), named(second), named(first), named(second), named(first)] == [True] * 3 + [False] * 2
    assert named(second, "10.0.0.2")  # another address is not held back
    for app in (first, second):  # ten minutes later: the names given then have left the window
        app.config["NEW_IDENTITIES"].clock = lambda: time.time() + 601
    assert named(second) and named(first)


def test_when_the_records_refuse_the_write_this_process_counts_alone_within_bounded_memory(app, monkeypatch):
    now = [1000.0]
    names = NewIdentities(limit=2, window=10.0)
    names.clock = lambda: now[0]
    monkeypatch.setattr(NewIdentities, "KEYS", 4)
    monkeypatch.setattr("app.records.Records.allow", lambda *args: (_ for _ in ()).throw(
        sqlite3.OperationalError("attempt to write a readonly database")))
    with app.app_context():
        assert [names.take("a") for _ in range(3)] == [True, True, False]
        now[0] += 10.0
        assert names.take("a")
        for address in "bcdefgh":
            names.take(address)
        assert len(names._here) <= 4


def test_the_secret_key_is_made_once_per_instance_folder_shared_and_private(tmp_path):
    keys = []
    threads = [threading.Thread(target=lambda: keys.append(instance_secret(tmp_path))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(keys)) == 1 and len(keys[0]) >= 32
    assert instance_secret(tmp_path) == keys[0]  # a restart reads it again
    assert stat.S_IMODE(os.stat(tmp_path / "secret_key").st_mode) == 0o600
    assert sorted(path.name for path in tmp_path.iterdir()) == ["secret_key"]  # no draft left behind


def test_a_restarted_app_on_the_same_instance_folder_believes_the_cookies_it_gave(tmp_path):
    first = create_app({"TESTING": True, "DATABASE": str(tmp_path / "jobs.sqlite"), "DATA_DIR": str(tmp_path)})
    cookie = set_cookie(first.test_client().get("/"))
    second = create_app({"TESTING": True, "DATABASE": str(tmp_path / "jobs.sqlite"), "DATA_DIR": str(tmp_path)})
    assert first.instance_path == second.instance_path
    assert set_cookie(second.test_client(use_cookies=False).get("/", headers={"Cookie": f"pp_owner={cookie}"})) is None
