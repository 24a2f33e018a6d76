"""Work done inside a request is bounded per client: hints run in the web process, so a crowd asking for them at once
is told to ask again instead of taking every thread that serves pages; quick solves run there too, counted per client
(its signed cookie) and per process, and past either limit a solve goes as a job, so the person still gets the answer
and no client holds more than one web thread with them."""

from __future__ import annotations

import json
import threading

from app import submit
from engine.domains.graph import example
from tests.app.conftest import visitor
from tests.support.served import call, owner_cookie, served

SEED_004 = [8, 6, 7, 2, 5, 4, 3, 0, 1]  # 31 moves from the goal: the hint's "before"
BOARD = {"size": "3x3", "tiles": SEED_004}
ROMANIA = example("romania")  # AIMA's map: A* costs 418 km from Arad to Bucharest


def test_a_hint_at_a_time_per_browser_and_four_for_the_server_and_pages_still_answer(app, monkeypatch):
    import app.play as play

    real, release, under_way = play.hint, threading.Event(), threading.Semaphore(0)

    def held_hint(board, goal):  # the real hint, held until the test lets it finish: four are under way at once
        under_way.release()
        release.wait(60)
        return real(board, goal)

    monkeypatch.setattr(play, "hint", held_hint)
    browsers = [visitor(app) for _ in range(5)]
    answers = {}
    threads = [threading.Thread(target=lambda i=i: answers.__setitem__(i, browsers[i].post("/api/hint", json=BOARD)))
               for i in range(4)]
    for thread in threads:
        thread.start()
    for _ in threads:
        assert under_way.acquire(timeout=60)
    try:
        again = browsers[0].post("/api/hint", json=BOARD)
        assert again.status_code == 429 and "wait for it, then ask again" in again.get_json()["error"]
        fifth = browsers[4].post("/api/hint", json=BOARD)
        assert fifth.status_code == 429 and "ask again in a second" in fifth.get_json()["error"]
        form = {"size": "3x3", "tiles": ",".join(map(str, SEED_004))}
        page = browsers[4].post("/play/hint", data=form, headers={"HX-Request": "true"})
        assert page.status_code == 429 and "ask again" in page.get_data(as_text=True)
        assert browsers[4].get("/").status_code == 200
    finally:
        release.set()
        for thread in threads:
            thread.join()
    assert [answers[i].get_json()["before"] for i in range(4)] == [31] * 4
    assert browsers[4].post("/api/hint", json=BOARD).get_json()["before"] == 31  # room again


def test_clients_without_a_cookie_from_one_address_share_one_hint_at_a_time(app, monkeypatch):
    import app.play as play

    release, under_way = threading.Event(), threading.Semaphore(0)

    def held_hint(board, goal):
        under_way.release()
        release.wait(60)
        raise AssertionError("not reached: the test ends first")

    monkeypatch.setattr(play, "hint", held_hint)
    curl = app.test_client(use_cookies=False)
    thread = threading.Thread(target=lambda: curl.post("/api/hint", json=BOARD))
    thread.start()
    assert under_way.acquire(timeout=60)
    try:
        second = app.test_client(use_cookies=False).post("/api/hint", json=BOARD)
        assert second.status_code == 429 and "wait for it" in second.get_json()["error"]
        elsewhere = app.test_client(use_cookies=False).post("/api/hint", json={"size": "3x3", "tiles": "x"},
                                                            environ_base={"REMOTE_ADDR": "10.0.0.7"})
        assert elsewhere.status_code == 400  # another address is another client: read (and refused) as usual
    finally:
        release.set()
        thread.join()



class HeldQuickSolves:
    """``app.submit.quick_answer`` held until released: each quick solve the web process starts stays under way, so
    the next ones from the same or other clients are concurrent with it."""

    def __init__(self, monkeypatch):
        self.real, self.entered, self.release = submit.quick_answer, threading.Semaphore(0), threading.Event()
        self.calls: list[str] = []
        monkeypatch.setattr(submit, "quick_answer", self)

    def __call__(self, params: dict, kind: str = "solve"):
        self.calls.append(kind)
        self.entered.release()
        assert self.release.wait(120)
        return self.real(params, kind)

    def wait_for(self, count: int) -> None:
        for _ in range(count):
            assert self.entered.acquire(timeout=120)


def answered(app, port: int, cookie: str, body: dict) -> dict:
    """The solve's result: from the request, or from its job when the request answered 202 first."""
    status, _, text = call(port, "POST", "/api/solve", {"Cookie": cookie}, body)
    assert status in (200, 202), text
    data = json.loads(text)
    if status == 202:
        job = app.extensions["jobs"].wait(data["job"], timeout=120)
        assert job["status"] == "done", job
        data = job["result"]
    return data


def test_quick_solves_are_one_per_client_and_four_per_process_and_past_either_they_go_as_jobs(app, monkeypatch):
    runner = app.extensions["jobs"]
    assert runner.store.active() == []  # joins the cluster now, not inside a request thread
    held = HeldQuickSolves(monkeypatch)
    with served(app) as port:
        cookies = [owner_cookie(call(port, "GET", "/")[1]).split(";")[0] for _ in range(5)]
        results: dict[int, dict] = {}

        def solve(number: int) -> None:
            results[number] = answered(app, port, cookies[number], {"size": "3x3", "tiles": SEED_004})

        first = threading.Thread(target=solve, args=(0,))
        first.start()
        held.wait_for(1)
        # the same browser again while its first is under way: a tile solve and a graph's, both as jobs
        again = answered(app, port, cookies[0], {"size": "3x3", "tiles": SEED_004})
        graph = answered(app, port, cookies[0], {"problem": "graph", "graph": ROMANIA, "solver": "astar"})
        assert held.calls == ["solve"]
        assert again["length"] == 31 and graph["cost"] == 418
        mine = [job["kind"] for job in runner.store.select("1 = 1", (), limit=10)]
        assert sorted(mine) == ["solve", "solve"]
        # three other browsers fill the process's four places; a fifth browser's solve goes as a job
        others = [threading.Thread(target=solve, args=(n,)) for n in (1, 2, 3)]
        for thread in others:
            thread.start()
        held.wait_for(3)
        assert answered(app, port, cookies[4], {"size": "3x3", "tiles": SEED_004})["length"] == 31
        assert len(held.calls) == 4 and len(runner.store.select("1 = 1", (), limit=10)) == 3
        held.release.set()
        for thread in [first, *others]:
            thread.join(120)
        assert [results[n]["length"] for n in range(4)] == [31] * 4
        # the places came back: the first browser's next solve is quick again
        assert answered(app, port, cookies[0], {"size": "3x3", "tiles": SEED_004})["length"] == 31
        assert len(held.calls) == 5 and len(runner.store.select("1 = 1", (), limit=10)) == 3
