"""Every route that reads the pattern databases, on the app as it serves a minute after start-up: the start-up job
has built the 6-6-3 databases (``startup_tables_dir``, built by ``python -m engine tables build`` once per run), so
``pdb`` means a real table here, not the fallback the other app tests see."""

from __future__ import annotations

import re

import pytest

from engine.domains.tiles import goal_board
from engine.domains.tiles.random import scramble
from tests.app.conftest import visitor

GOALS = ("blank-first", "blank-last")


def position(goal_name: str) -> list[int]:
    """A 30-move scramble: IDA* with the database solves it in a moment."""
    return list(scramble(goal_board(4, 4, goal_name), 30, 7)[0].cells)


@pytest.fixture
def client(started_app):
    return visitor(started_app)


@pytest.mark.parametrize("goal", GOALS)
def test_the_heuristic_overlay_shows_the_database_groups_and_their_values(client, goal):
    tiles = position(goal)
    response = client.post("/api/heuristics", json={"size": "4x4", "goal": goal, "tiles": tiles})
    assert response.status_code == 200, response.get_data(as_text=True)
    shown = response.get_json()["pdb"]
    assert shown["name"] == "pdb-663" and len(shown["groups"]) == 3
    assert sorted(t for group in shown["groups"] for t in group["tiles"]) == list(range(1, 16))
    assert [len(group["tiles"]) for group in shown["groups"]] == [6, 6, 3]
    assert shown["direct_total"] == sum(group["value"] for group in shown["groups"])
    assert shown["mirrored_total"] == sum(group["mirrored"] for group in shown["groups"])
    assert shown["value"] == max(shown["direct_total"], shown["mirrored_total"])
    # The number drawn is the h the solver starts from: IDA*'s first bound with the same database.
    solved = client.post("/api/solve", json={"size": "4x4", "goal": goal, "tiles": tiles, "solver": "idastar",
                                             "heuristic": "pdb", "mode": "sync"}).get_json()
    assert solved["status"] == "solved" and solved["heuristic"] == "pdb-663" and solved["message"] == ""
    assert solved["extra"]["bounds"][0]["bound"] == shown["value"] <= solved["length"]


def test_the_overlay_on_other_boards_has_no_database(client):
    response = client.post("/api/heuristics", json={"size": "3x3", "tiles": [8, 6, 7, 2, 5, 4, 3, 0, 1]})
    assert response.status_code == 200 and response.get_json()["pdb"] is None


@pytest.mark.parametrize("page", ["/play", "/compare"])
def test_the_board_pages_offer_the_built_database(client, page):
    tiles = ",".join(map(str, position("blank-last")))
    response = client.get(f"{page}?size=4x4&goal=blank-last&tiles={tiles}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert 'value="idastar:pdb"' in html and 'value="idastar:pdb-663"' in html


def test_with_a_database_built_the_play_page_and_the_api_default_to_idastar_with_it(client):
    tiles = position("blank-last")
    page = client.get(f"/play?size=4x4&goal=blank-last&tiles={','.join(map(str, tiles))}").get_data(as_text=True)
    assert '<option value="idastar:pdb" selected>' in page
    solved = client.post("/api/solve", json={"size": "4x4", "goal": "blank-last", "tiles": tiles,
                                             "mode": "sync"}).get_json()
    assert (solved["solver"], solved["heuristic"], solved["optimal"]) == ("idastar", "pdb-663", True)


def test_the_solver_list_offers_the_built_database(client):
    values = {s["value"] for s in client.get("/api/solvers?size=4x4&goal=blank-first").get_json()["solvers"]}
    assert {"idastar:pdb", "astar:pdb", "idastar:pdb-663"} <= values


def test_the_play_and_compare_forms_solve_with_the_database(client):
    board = {"size": "4x4", "goal": "blank-last", "tiles": ",".join(map(str, position("blank-last"))), "mode": "sync"}
    solved = client.post("/play/solve", data={**board, "choice": "idastar:pdb"})
    assert solved.status_code == 200 and "proven optimal" in solved.get_data(as_text=True)
    compared = client.post("/compare/run", data={**board, "choice": ["idastar:pdb", "astar:pdb-663",
                                                                     "idastar:linear-conflict"]})
    assert compared.status_code == 200
    html = compared.get_data(as_text=True)
    assert html.count('class="compare-item"') == 3 and "not built" not in html


def test_a_tables_build_job_finds_the_tables_built(client, started_app):
    response = client.post("/api/jobs", json={"kind": "tables-build", "params": {"names": ["pdb-663/blank-first"]}})
    assert response.status_code == 202
    job = started_app.extensions["jobs"].wait(response.get_json()["job"], timeout=120)
    assert job["status"] == "done", job
    assert job["result"]["built"] == [] and job["result"]["tables"][0]["built"] is True


def test_a_race_of_ida_star_with_manhattan_against_the_database_shows_the_work_per_bound(client):
    board = {"size": "4x4", "goal": "blank-last", "tiles": ",".join(map(str, position("blank-last"))), "mode": "sync"}
    html = client.post("/compare/run", data={**board, "choice": ["idastar:manhattan", "idastar:pdb"]}).get_data(
        as_text=True)
    pattern = r'bounds-chart" data-solver="idastar:([\w-]+)".*?aria-label="[^"]*nodes per bound: ([^"]*)"'
    charts = dict(re.findall(pattern, html, re.S))
    assert set(charts) == {"manhattan", "pdb-663"}, charts
    per_bound = {name: [tuple(int(n.replace(",", "")) for n in re.findall(r"[\d,]+", item))
                        for item in text.split("; ")] for name, text in charts.items()}
    lengths = {int(n) for n in re.findall(r"<td>(\d+)</td><td>yes</td>", html)}
    assert len(lengths) == 1  # both are optimal: one length, and the last bound of each is that length
    length = lengths.pop()
    for bounds in per_bound.values():
        assert bounds[-1][0] == length
        assert [b for b, _ in bounds] == sorted({b for b, _ in bounds})  # each bound above the last
    # the database's h is at least Manhattan's on every position, so it starts no lower and expands fewer in total
    assert per_bound["pdb-663"][0][0] >= per_bound["manhattan"][0][0]
    assert sum(n for _, n in per_bound["pdb-663"]) < sum(n for _, n in per_bound["manhattan"])
