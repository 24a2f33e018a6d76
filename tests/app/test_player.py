"""The player's features of the Play page: the hint (JSON, htmx fragment and a whole page without JavaScript), a
solve posted without JavaScript, and positions exactly d moves from solved."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from engine.domains.tiles import Board, goal_board
from engine.domains.tiles.kernel_drivers import bfs_distances
from engine.domains.tiles.ranking_kernels import board_rank

SEED_004 = "8,6,7,2,5,4,3,0,1"  # docs/SPEC.md: BFS solves it in 31 moves
HTMX = {"HX-Request": "true"}


def test_the_hint_api_names_a_move_that_lowers_the_distance_from_31_to_30(client):
    response = client.post("/api/hint", json={"size": "3x3", "goal": "blank-last", "tiles": SEED_004})
    assert response.status_code == 200
    answer = response.get_json()
    assert (answer["before"], answer["after"], answer["optimal"]) == (31, 30, True)
    assert "lowers the distance from 31 to 30" in answer["text"]
    board = Board(3, 3, tuple(map(int, SEED_004.split(","))))
    distance = bfs_distances(goal_board(3, 3))[0]
    assert int(distance[board_rank(board.move(answer["move"]).cells)]) == 30


@pytest.mark.parametrize("body, message", [
    ({"size": "3x3", "tiles": "2,1,3,4,5,6,7,8,0"}, "unsolvable"),
    ({"size": "3x3", "tiles": "1,2,3"}, "9"),
    ({"size": "3x3"}, "missing field 'tiles'"),
])
def test_the_hint_api_refuses_bad_positions_with_a_message(client, body, message):
    response = client.post("/api/hint", json=body)
    assert response.status_code == 400 and message in response.get_json()["error"]


def test_the_hint_form_answers_a_fragment_to_htmx_and_the_whole_page_without_javascript(client):
    form = {"size": "3x3", "goal": "blank-last", "tiles": SEED_004}
    fragment = client.post("/play/hint", data=form, headers=HTMX).get_data(as_text=True)
    assert "lowers the distance from 31 to 30" in fragment and "<html" not in fragment
    page = client.post("/play/hint", data=form)
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "<html" in html and "lowers the distance from 31 to 30" in html
    assert f'data-tiles="{SEED_004}"' in html  # the same position, with the hint under it


def test_a_solve_posted_without_javascript_answers_the_page_with_the_solution(client):
    page = client.post("/play/solve", data={"size": "3x3", "goal": "blank-last", "tiles": SEED_004,
                                            "choice": "idastar:manhattan", "mode": "sync"})
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "<html" in html and "31 moves" in html and "proven optimal" in html


def test_a_position_at_a_distance_opens_on_a_shareable_url_that_says_how_far_it_is(client):
    response = client.get("/play?size=3x3&goal=blank-last&distance=12&seed=4")
    assert response.status_code == 302
    query = parse_qs(urlparse(response.headers["Location"]).query)
    assert query["at"] == ["12"]
    board = Board(3, 3, tuple(map(int, query["tiles"][0].split(","))))
    assert int(bfs_distances(goal_board(3, 3))[0][board_rank(board.cells)]) == 12
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "A position 12 moves from solved" in page


def test_a_distance_on_a_board_without_quick_optimal_solves_is_refused_on_the_page(client):
    response = client.get("/play?size=5x5&distance=10")
    assert response.status_code == 400
    assert "16 cells" in response.get_data(as_text=True)


def test_a_bad_custom_position_keeps_what_was_typed_and_sixteen_numbers_for_a_3x3_say_so(client):
    typed = ",".join(map(str, range(16)))
    html = client.get(f"/play?size=3x3&goal=blank-last&tiles={typed}").get_data(as_text=True)
    assert "expected 9 numbers (tiles 1..8 and 0 for the blank), got 16" in html
    assert f'<input name="tiles" value="{typed}"' in html and '<details class="custom" open>' in html


@pytest.mark.parametrize("size, offered", [("4x4", True), ("5x5", False), ("6x6", False)])
def test_dpso_and_the_ga_are_offered_up_to_the_15_puzzle(client, size, offered):
    html = client.get(f"/play?size={size}&random=1&seed=1", follow_redirects=True).get_data(as_text=True)
    assert ('value="dpso:"' in html) is offered and ('value="ga:"' in html) is offered
