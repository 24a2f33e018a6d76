"""The batch page (/batch): a form that starts the ``solve-batch`` job, with and without JavaScript, Korf's 100 filled
in, bad input answered with a sentence on the page, and the job's own page saying how the job ended."""

import re

import pytest

from app.job_pages import page_title
from engine.domains.tiles import goal_board
from engine.domains.tiles.korf import korf_instances
from tests.support.pages import job_id
from tests.support.waiting import wait_until

HTMX = {"HX-Request": "true"}
SEED_004 = "8 6 7 2 5 4 3 0 1"  # seed 004's position: 31 moves, the 8-puzzle's largest distance
KORF_1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"  # Korf's instance 1 (blank-first): 57 moves, minutes with Manhattan


def options(html: str, name: str) -> dict[str, str]:
    """A select's options (value → label) on a page."""
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S).group(1)
    return dict(re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select))


def textarea(html: str) -> str:
    return re.search(r'<textarea name="positions"[^>]*>(.*?)</textarea>', html, re.S).group(1)


def test_the_batch_offers_the_play_pages_solvers_with_their_labels_less_the_spread_search(client):
    batch = options(client.get("/batch?size=4x4&goal=blank-first").get_data(as_text=True), "choice")
    play = options(client.get("/play?size=4x4&goal=blank-first&tiles=" + KORF_1.replace(" ", ",")).get_data(
        as_text=True), "choice")
    # a batch spreads its positions over the workers: the spread search is the one the Play page offers alone
    assert {value: label for value, label in play.items() if not value.startswith("idastar-spread:")} == batch
    assert "idastar:pdb" in batch and "idastar:pdb-78" in batch  # the 15-puzzle's pattern databases
    # the offer follows the size: the fragment htmx swaps in when the board changes
    fragment = client.get("/batch/choices?size=3x3&goal=blank-last", headers=HTMX).get_data(as_text=True)
    assert "<html" not in fragment and "pdb" not in options(fragment, "choice")


def test_korfs_button_fills_in_the_hundred_for_the_15_puzzle_and_its_goal(client):
    html = client.get("/batch").get_data(as_text=True)
    korf = re.search(r'id="batch-korf" href="([^"]+)"', html).group(1)
    page = client.get(korf.replace("&amp;", "&")).get_data(as_text=True)
    lines = textarea(page).strip().split("\n")
    assert len(lines) == 100 and lines[0] == KORF_1  # Korf (1985), instance 1
    assert all(sorted(map(int, line.split())) == list(range(16)) for line in lines)
    assert re.search(r'<option value="4x4" selected', page) and re.search(r'<option value="blank-first" selected', page)
    assert sum(length for _, length, _ in korf_instances()) == 5305  # the published sum of the optimal lengths


def test_random_positions_fill_in_as_many_of_the_chosen_size(client):
    page = client.get("/batch?fill=random&size=2x4&goal=blank-last&count=4&seed=7").get_data(as_text=True)
    lines = textarea(page).strip().split("\n")
    assert len(lines) == 4 and all(sorted(map(int, line.split())) == list(range(8)) for line in lines)


BAD = [
    ({"positions": ""}, "type at least one position"),
    ({"positions": SEED_004 + "\n1 2 3\n"}, "position 2 of the batch"),
    ({"positions": "1 2 3 4 5 6 7 8 0\n2 1 3 4 5 6 7 8 0"}, "position 2 of the batch"),  # two tiles swapped: odd
    ({"positions": "\n".join([SEED_004] * 1001)}, "1,001 positions are more than one batch takes (1,000)"),
    ({"positions": SEED_004, "size": "99x99"}, "at most 36"),
    ({"positions": SEED_004, "max_seconds": "100000"}, "max_seconds"),
    ({"positions": SEED_004, "choice": "idastar:pdb-78"}, "4x4"),
]


@pytest.mark.parametrize("fields, words", BAD)
def test_bad_input_is_a_sentence_on_the_page_with_or_without_htmx(client, fields, words):
    form = {"size": "3x3", "goal": "blank-last", "choice": "idastar:manhattan", **fields}
    fragment = client.post("/batch/solve", data=form, headers=HTMX)
    assert fragment.status_code == 400 and words in fragment.get_data(as_text=True)
    assert "<html" not in fragment.get_data(as_text=True) and 'role="alert"' in fragment.get_data(as_text=True)
    page = client.post("/batch/solve", data=form)
    assert page.status_code == 400 and "<html" in page.get_data(as_text=True)
    assert words in page.get_data(as_text=True)


def test_a_batch_started_from_the_page_polls_and_its_page_says_it_is_done(client, app):
    form = {"size": "3x3", "goal": "blank-last", "choice": "idastar:manhattan", "max_seconds": "60",
            "positions": f"{SEED_004}  # seed 004\n\n1 2 3 4 5 6 7 0 8\n1 2 3 4 5 6 7 8 0\n"}
    fragment = client.post("/batch/solve", data=form, headers=HTMX)
    assert fragment.status_code == 200 and 'hx-trigger="every 1s"' in fragment.get_data(as_text=True)
    job = app.extensions["jobs"].wait(job_id(fragment), timeout=180)
    assert job["status"] == "done" and job["params"]["boards"] == [
        [8, 6, 7, 2, 5, 4, 3, 0, 1], [1, 2, 3, 4, 5, 6, 7, 0, 8], list(goal_board(3, 3).cells)]
    page = client.get(f"/jobs/{job_id(fragment)}").get_data(as_text=True)
    assert "<title>Solving a batch of positions: done ·" in page
    assert re.search(r"<h1>[^<]*done</h1>", page) and "…" not in re.search(r"<h1>.*?</h1>", page).group(0)
    assert "3 of 3 positions solved" in page and 'http-equiv="refresh"' not in page
    lengths = re.findall(r"<tr><td>\d+</td><td>solved</td><td>(\d+)</td>", page)
    assert lengths == ["31", "1", "0"]  # seed 004's 31 moves, one move, the goal itself


def test_a_batch_posted_without_javascript_follows_its_job_and_a_cancelled_one_says_so(client, app):
    form = {"size": "4x4", "goal": "blank-first", "choice": "idastar:manhattan", "positions": KORF_1 + "\n" + KORF_1}
    page = client.post("/batch/solve", data=form)
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "<html" in html
    job = job_id(page)
    assert f'http-equiv="refresh" content="2; url=/jobs/{job}"' in html  # reloads the job's page while it runs
    runner = app.extensions["jobs"]
    wait_until(lambda: runner.get(job)["status"] == "running", timeout=120, what="the batch to start")
    running = client.get(f"/jobs/{job}").get_data(as_text=True)
    assert "<h1>Solving a batch of positions</h1>" in running
    assert client.post(f"/jobs/{job}/cancel", headers=HTMX).status_code == 200
    assert runner.wait(job, timeout=60)["status"] == "cancelled"
    ended = client.get(f"/jobs/{job}").get_data(as_text=True)
    assert "<h1>Solving a batch of positions: cancelled</h1>" in ended and 'http-equiv="refresh"' not in ended


@pytest.mark.parametrize("status, title", [
    ("failed", "Solving a batch of positions: failed"),
    ("interrupted", "Solving a batch of positions: interrupted (the server stopped)"),
    ("queued", "Solving a batch of positions"), ("running", "Solving a batch of positions")])
def test_a_job_page_is_titled_by_how_the_job_ended(status, title):
    assert page_title({"kind": "solve-batch", "status": status, "params": {}}) == title


def test_the_page_is_linked_from_home_and_play(client):
    assert 'href="/batch"' in client.get("/").get_data(as_text=True)
    play = client.get("/play?size=4x4&goal=blank-first&tiles=" + KORF_1.replace(" ", ",")).get_data(as_text=True)
    assert 'href="/batch?size=4x4&amp;goal=blank-first"' in play


def test_the_24_puzzle_offers_the_spread_search_with_its_database_once_built(client, monkeypatch):
    from engine.domains.tiles import pdb

    tiles = ",".join(map(str, goal_board(5, 5, "blank-first").cells))  # any 5x5 position: the offer is the size's
    monkeypatch.setattr(pdb, "is_built", lambda grouping, goal: grouping == "pdb-6666")
    offered = options(client.get(f"/play?size=5x5&goal=blank-first&tiles={tiles}").get_data(as_text=True), "choice")
    assert offered["idastar-spread:pdb-6666"] == "IDA* spread over the cluster + pdb-6666"


def test_without_javascript_the_solvers_of_another_board_are_shown_with_what_was_typed(client):
    """The form's "Show the solvers for this board" (a GET of the whole form) keeps the positions and the budget."""
    page = client.get("/batch", query_string={"size": "4x4", "goal": "blank-first", "positions": KORF_1,
                                              "choice": "table:perfect", "max_seconds": "30"}).get_data(as_text=True)
    assert textarea(page) == KORF_1 and 'name="max_seconds" min="1" max="900" value="30"' in page
    assert "idastar:pdb" in options(page, "choice")  # the 8-puzzle's table is not offered on 4x4: the default then


def test_a_batch_reloaded_while_it_runs_fills_its_form_in_again(client):
    """A page reloaded while its batch runs puts the job back under the form, filled in as it was sent (js/jobs.js
    reads these values): the positions one per line and the solver and heuristic as the form's one choice."""
    from app.job_pages import form_values

    values = form_values({"kind": "solve-batch", "params": {
        "size": "3x3", "goal": list(goal_board(3, 3).cells), "boards": [[8, 6, 7, 2, 5, 4, 3, 0, 1]],
        "solver": "idastar", "heuristic": "manhattan", "max_seconds": 60}})
    assert values["positions"] == SEED_004 and values["choice"] == "idastar:manhattan"
    assert values["goal"] == "blank-last" and values["max_seconds"] == 60
    page = client.get("/batch").get_data(as_text=True)
    assert 'data-job-kind="solve-batch"' in page and 'name="positions"' in page and 'name="choice"' in page
