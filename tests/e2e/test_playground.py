"""The board page and the compare view in a real browser."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

GOAL_3x3 = "1,2,3,4,5,6,7,8,0"
# From the blank-last goal the blank went U then L: blank R then D brings it back.
TWO_MOVES = "1,2,3,4,0,5,7,8,6"


def tiles(page, selector="#board"):
    return page.locator(selector).get_attribute("data-tiles")


def test_slide_by_click_and_keyboard_until_solved(page, live_server):
    page.goto(f"{live_server}/play?size=3x3&goal=blank-last&tiles={TWO_MOVES}")
    expect(page.locator("#status")).to_have_text("")
    page.locator('#board .tile[data-tile="5"]').click()  # the tile right of the blank: the blank moves R
    expect(page.locator("#move-count")).to_have_text("1")
    expect(page.locator("#announcer")).to_have_text("Slid left")  # told to screen readers too
    assert tiles(page) == "1,2,3,4,5,0,7,8,6"
    page.keyboard.press("ArrowUp")  # the tile below the blank slides up: the blank moves D
    expect(page.locator("#move-count")).to_have_text("2")
    expect(page.locator("#status")).to_contain_text("Solved!")
    assert tiles(page) == GOAL_3x3


def test_a_bad_position_in_the_url_shows_its_error_and_not_solved(page, live_server):
    page.goto(f"{live_server}/play?size=3x3&goal=blank-last&tiles=1,1,2")
    expect(page.locator("#position-error")).to_contain_text("not valid")
    expect(page.locator("#board")).to_have_attribute("data-tiles", GOAL_3x3)  # the goal it fell back to
    expect(page.locator("#status")).to_have_text("")
    expect(page.locator("#board")).not_to_have_class(re.compile(r"\bsolved\b"))
    page.locator('#board .tile[data-tile="8"]').click()
    page.locator('#board .tile[data-tile="8"]').click()  # and back: the player solved it
    expect(page.locator("#status")).to_contain_text("Solved! 2 moves")
    expect(page.locator("#board")).to_have_class(re.compile(r"\bsolved\b"))


def test_click_slides_a_whole_row(page, live_server):
    page.goto(f"{live_server}/play?size=3x3&goal=blank-last&tiles={GOAL_3x3}")
    page.locator('#board .tile[data-tile="7"]').click()  # two tiles left of the blank: both slide
    expect(page.locator("#move-count")).to_have_text("2")
    assert tiles(page) == "1,2,3,4,5,6,0,7,8"


def test_solve_animates_to_the_goal(page, live_server):
    page.goto(f"{live_server}/play?size=3x3&goal=blank-last&tiles=8,6,7,2,5,4,3,0,1")
    page.select_option("#solver-select", "idastar:linear-conflict")
    page.click("#solve-button")
    result = page.locator(".result")
    expect(result).to_contain_text("31 moves")
    expect(result.locator("dt:text-is('solver') + dd")).to_have_text("IDA* + linear-conflict")
    page.locator('.result [data-act="speed"]').fill("30")
    expect(result).to_have_attribute("data-done", "1", timeout=15_000)
    assert tiles(page) == GOAL_3x3
    expect(page.locator(".result .mv.current")).to_have_attribute("data-i", "30")
    # Step back once and forward again: the board follows.
    page.click('.result [data-act="back"]')
    assert tiles(page) != GOAL_3x3
    page.click('.result [data-act="forward"]')
    assert tiles(page) == GOAL_3x3


def test_cancel_a_long_4x4_job(page, live_server):
    # Korf's instance 88 (65 moves): IDA* + Manhattan needs billions of nodes, so it cannot finish before the cancel
    # (instance 1 can, on a quiet machine, with the faster kernels)
    korf_88 = "15,2,12,11,14,13,9,5,1,3,8,7,0,10,6,4"
    page.goto(f"{live_server}/play?size=4x4&goal=blank-first&tiles={korf_88}")
    page.select_option("#solver-select", "idastar:manhattan")
    page.click("#solve-button")
    job = page.locator(".job")
    expect(job.locator("progress")).to_be_visible(timeout=10_000)
    expect(job.locator(".job-nodes")).not_to_have_text("0", timeout=10_000)
    job.locator("button.cancel").click()
    # honoured within a second; past KILL_AFTER (10 s) the worker would be replaced and the job shown cancelled
    expect(page.locator(".job-status")).to_have_text("cancelled", timeout=30_000)


def test_a_job_the_page_shows_is_not_shown_again_in_the_running_jobs_list(page, live_server):
    """The list of running jobs, fetched as the page loads, may arrive after the page started one: that job stays in
    its place, once (a second copy would poll too, and its result would appear twice)."""
    korf_88 = "15,2,12,11,14,13,9,5,1,3,8,7,0,10,6,4"  # runs far longer than this test
    page.goto(f"{live_server}/play?size=4x4&goal=blank-first&tiles={korf_88}")
    page.select_option("#solver-select", "idastar:manhattan")
    page.click("#solve-button")
    job = page.locator("#solve-result .job")
    expect(job.locator(".job-nodes")).not_to_have_text("0", timeout=10_000)
    job_id = job.get_attribute("data-job")
    # the list arriving late, as htmx fetches it; resolved once the page's own handler has dealt with it
    page.evaluate("""() => new Promise((settled) => {
        document.addEventListener("htmx:afterSettle", (event) => {
            if (event.target.id === "my-jobs") window.setTimeout(settled, 0);
        });
        htmx.ajax("GET", "/jobs/mine", {target: "#my-jobs", swap: "innerHTML"});
    })""")
    expect(page.locator(f'[data-job="{job_id}"]')).to_have_count(1)
    expect(page.locator(".my-jobs")).to_have_count(0)
    job.locator("button.cancel").click()
    expect(page.locator("#solve-result .job-status")).to_have_text("cancelled", timeout=30_000)


def test_a_job_reattached_after_a_reload_is_back_in_its_place_with_its_form(page, live_server):
    korf_88 = "15,2,12,11,14,13,9,5,1,3,8,7,0,10,6,4"  # runs far longer than this test
    page.goto(f"{live_server}/play?size=4x4&goal=blank-first&tiles={korf_88}")
    page.select_option("#solver-select", "idastar:manhattan")  # not the menu's default
    page.click("#solve-button")
    expect(page.locator("#solve-result .job .job-nodes")).not_to_have_text("0", timeout=10_000)
    page.reload()
    job = page.locator("#solve-result .job")
    expect(job).to_have_attribute("data-kind", "solve")
    expect(job.locator(".job-head")).to_contain_text("Solving")
    expect(page.locator("#solver-select")).to_have_value("idastar:manhattan")
    expect(page.locator(".my-jobs")).to_have_count(0)  # the top panel is for jobs this page has no place for
    job.locator("button.cancel").click()
    expect(page.locator("#solve-result .job-status")).to_have_text("cancelled", timeout=30_000)
    assert page.locator("#solve-result").inner_text().count("cancelled") == 1


def test_compare_view_shows_two_solvers(page, live_server):
    page.goto(f"{live_server}/compare?size=3x3&goal=blank-last&tiles=8,6,7,2,5,4,3,0,1")
    page.check('input[value="bfs:"]')
    page.uncheck('input[value="idastar:linear-conflict"]')
    page.click("#compare-button")
    rows = page.locator(".compare-table tbody tr")
    expect(rows).to_have_count(2, timeout=60_000)  # a worker's first compare may load its kernels first
    expect(rows.nth(0)).to_contain_text("Breadth-first search")
    expect(rows.nth(1)).to_contain_text("IDA* + manhattan")
    for row in rows.all():
        expect(row.locator("td").nth(2)).to_have_text("31")
    expect(page.locator(".compare-item .board")).to_have_count(2)
    # Each board is captioned with the name the table and the solver menu use, not the registry's key.
    expect(page.locator(".compare-item figcaption strong")).to_have_text(["Breadth-first search", "IDA* + manhattan"])
    expect(page.locator(".compare-chart")).to_have_count(3)  # length, nodes, time
    expect(page.locator(".bounds-chart")).to_have_count(1)  # IDA*'s nodes per bound; BFS has no bounds
    page.locator('.compare-results [data-act="speed"]').fill("30")
    expect(page.locator(".compare-results")).to_have_attribute("data-done", "1", timeout=15_000)
    for board in page.locator(".compare-item .board").all():
        assert board.get_attribute("data-tiles") == GOAL_3x3


def test_shared_url_reopens_the_same_position(page, live_server, browser):
    page.goto(f"{live_server}/play?size=4x4&random=1&seed=5")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    position = tiles(page)
    shared = page.url
    assert position.replace(",", "%2C") in shared or position in shared
    other = browser.new_context().new_page()
    other.goto(shared)
    assert other.locator("#board").get_attribute("data-tiles") == position
    other.context.close()


def test_unsolvable_custom_position_is_refused_with_the_parity_argument(page, live_server):
    page.goto(f"{live_server}/play?size=3x3")
    page.click(".custom summary")
    page.fill('.custom-form input[name="tiles"]', "2 1 3/4 5 6/7 8 0")
    page.click(".custom-form button")
    expect(page.locator("#position-error")).to_contain_text("unsolvable")
    expect(page.locator("#position-error")).to_contain_text("odd")
    # the position stays on the board (it is the student's), and solving it is off
    assert tiles(page) == "2,1,3,4,5,6,7,8,0"
    expect(page.locator("#solve-button")).to_be_disabled()


def test_a_user_move_during_playback_stops_it_for_good(page, live_server):
    page.goto(f"{live_server}/play?size=3x3&goal=blank-last&tiles=8,6,7,2,5,4,3,0,1")
    page.select_option("#solver-select", "idastar:linear-conflict")
    page.click("#solve-button")
    result = page.locator(".result")
    expect(result).to_have_attribute("data-playing", "1")
    page.locator('.result [data-act="back"]').click()  # pauses; then play again
    page.locator('.result [data-act="play"]').click()
    expect(result).to_have_attribute("data-playing", "1")
    before = tiles(page)
    page.keyboard.press("ArrowLeft")
    expect(result).to_have_attribute("data-stale", "1")
    expect(result).to_have_attribute("data-playing", "0")
    expect(page.locator(".result .stale-note")).to_be_visible()
    expect(page.locator('.result [data-act="play"]')).to_be_disabled()
    expect(page.locator("#move-count")).to_have_text("1")
    after = tiles(page)
    assert after != before
    page.locator('.result [data-act="end"]').click(force=True)  # disabled: the board stays where the user left it
    assert tiles(page) == after


def test_player_buttons_have_names(page, live_server):
    page.goto(f"{live_server}/play?size=3x3&goal=blank-last&tiles={TWO_MOVES}")
    page.click("#solve-button")
    for name in ("Start", "Step back", "Step forward", "End"):
        expect(page.get_by_role("button", name=name, exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Play", exact=True).or_(
        page.get_by_role("button", name="Pause", exact=True))).to_be_visible()


def test_phone_keeps_board_and_player_in_one_viewport(browser, live_server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server}/play?size=3x3&goal=blank-last&tiles=8,6,7,2,5,4,3,0,1")
    page.click("#solve-button")
    expect(page.locator(".result .player-controls")).to_be_visible()
    page.wait_for_function("() => document.querySelector('#board').getBoundingClientRect().top >= 0")
    board = page.locator("#board").bounding_box()
    controls = page.locator(".result .player-controls").bounding_box()
    assert board["y"] >= 0 and controls["y"] + controls["height"] <= 844, (board, controls)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    # compare: the boards race side by side, two by two
    page.goto(f"{live_server}/compare?size=3x3&goal=blank-last&tiles={TWO_MOVES}")
    page.check('input[value="bfs:"]')
    page.click("#compare-button")
    items = page.locator(".compare-item .board")
    expect(items).to_have_count(3)
    first, second = items.nth(0).bounding_box(), items.nth(1).bounding_box()
    assert abs(first["y"] - second["y"]) < 2 and second["x"] > first["x"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()


def test_the_heuristic_on_the_board_follows_the_moves(page, live_server):
    page.goto(f"{live_server}/play?size=3x3&goal=blank-last&tiles=2,1,3,4,5,6,7,0,8")
    page.check("#show-h")
    badges = page.locator("#board .h-badge")
    expect(badges).to_have_count(8)
    expect(page.locator("#h-summary")).to_contain_text("Manhattan distance 3")
    expect(page.locator("#board .tile.h-conflict")).to_have_count(2)  # 2 and 1 swapped in their goal row
    page.locator('#board .tile[data-tile="8"]').click()
    expect(page.locator("#h-summary")).to_contain_text("Manhattan distance 2")


def _scrambled_4x4() -> str:
    from engine.domains.tiles import goal_board, scramble

    return ",".join(map(str, scramble(goal_board(4, 4), 24, 5)[0].cells))


@pytest.mark.parametrize("width, height", [(1366, 768), (390, 844)])
def test_after_solve_the_board_and_step_forward_share_the_screen_and_the_focus_is_in_the_result(
        browser, live_server, width, height):
    phone = width < 500
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone)
    page = context.new_page()
    page.goto(f"{live_server}/play?size=4x4&goal=blank-last&tiles={_scrambled_4x4()}")
    page.click("#solve-button")
    result = page.locator(".result")
    expect(result).to_have_attribute("data-playing", "1", timeout=30_000)
    assert page.evaluate("document.getElementById('solve-result').contains(document.activeElement)")
    board = page.locator("#board").bounding_box()
    forward = page.locator('.result [data-act="forward"]').bounding_box()
    assert board["y"] >= 0 and board["y"] + board["height"] <= height, board
    assert forward["y"] >= 0 and forward["y"] + forward["height"] <= height, forward
    for act in ("reset", "back", "play", "forward", "end"):
        box = page.locator(f'.result [data-act="{act}"]').bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, (act, box)
    # Play and Pause take the same room: End stays where it was
    end_playing = page.locator('.result [data-act="end"]').bounding_box()
    page.click('.result [data-act="play"]')
    expect(result).to_have_attribute("data-playing", "0")
    assert page.locator('.result [data-act="end"]').bounding_box() == end_playing
    context.close()


def test_a_long_solve_on_a_laptop_shows_its_progress_on_screen_and_a_busy_button_until_cancelled(browser, live_server):
    """At 1366×768 the progress box goes under the board, below the fold: the click brings it on screen, and the
    button says it is busy until the cancel."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    korf_88 = "15,2,12,11,14,13,9,5,1,3,8,7,0,10,6,4"  # IDA* + Manhattan runs far longer than this test
    page.goto(f"{live_server}/play?size=4x4&goal=blank-first&tiles={korf_88}")
    page.select_option("#solver-select", "idastar:manhattan")
    box = page.locator("#solve-result")
    # the area starts in the screen's last sixth: a heading, a progress bar and counts (over 100 px) do not fit there
    assert box.bounding_box()["y"] > 768 * 5 / 6
    button = page.locator("#solve-button")
    button.click()
    job = page.locator("#solve-result .job")
    expect(job.locator(".job-nodes")).not_to_have_text("0", timeout=30_000)
    expect(job).to_be_in_viewport(ratio=0.99)  # whole, but for a scroll's rounding to a pixel
    expect(button).to_have_attribute("aria-busy", "true")
    expect(button).to_be_disabled()
    expect(button).to_have_text("Solving…")
    job.locator("button.cancel").click()
    expect(page.locator("#solve-result .job-status")).to_have_text("cancelled", timeout=30_000)
    expect(button).to_be_enabled()
    expect(button).not_to_have_attribute("aria-busy", "true")
    expect(button).to_have_text("Solve from here")
    context.close()


def test_hint_undo_redo_restart_and_the_solved_moment(page, live_server):
    page.goto(f"{live_server}/play?size=3x3&goal=blank-last&tiles={TWO_MOVES}")
    page.click("#hint-button")
    expect(page.locator(".hint-answer")).to_contain_text("lowers the distance from 2 to 1")
    hinted = page.locator("#board .tile.hinted")
    expect(hinted).to_have_count(1)
    hinted.click()
    expect(page.locator("#move-count")).to_have_text("1")
    expect(page.locator(".hint-answer")).to_have_count(0)  # a hint is for the position it was asked on
    after_one = tiles(page)
    page.click("#undo-button")
    assert tiles(page) == TWO_MOVES
    expect(page.locator("#move-count")).to_have_text("0")
    page.click("#redo-button")
    assert tiles(page) == after_one
    page.click("#restart-button")
    assert tiles(page) == TWO_MOVES
    expect(page.locator("#play-again")).to_be_hidden()
    page.locator('#board .tile[data-tile="5"]').click()
    page.keyboard.press("ArrowUp")
    assert tiles(page) == GOAL_3x3
    expect(page.locator("#status")).to_contain_text("Solved! 2 moves")
    expect(page.locator("#play-again")).to_be_visible()
    # the restart began a new game without hints, so it is this browser's first record on the board
    expect(page.locator("#best")).to_contain_text("New best! Best in this browser on this board: 2 moves")
