"""Work done inside a request is bounded per client: hints run in the web process, so a crowd asking for them at once
is told to ask again instead of taking every thread that serves pages."""

from __future__ import annotations

import threading

from tests.app.conftest import visitor

SEED_004 = [8, 6, 7, 2, 5, 4, 3, 0, 1]  # 31 moves from the goal: the hint's "before"
BOARD = {"size": "3x3", "tiles": SEED_004}


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
