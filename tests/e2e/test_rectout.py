import json

import pytest
from playwright.sync_api import expect

from tests.support.waiting import wait_until

pytestmark = pytest.mark.e2e


def state_of(page):
    return json.loads(page.locator("#rectout").get_attribute("data-state"))


def wait_for_state(page, condition, timeout=10.0):
    """Poll the page's position (the strict CSP forbids Playwright's evaluated wait functions)."""
    def reached():
        state = state_of(page)
        return state if condition(state) else None

    return wait_until(reached, timeout, "the position to get there")


def drag(page, start, end):
    """Drag with the mouse from one point of the canvas to another, given in cm (y up)."""
    box = page.locator("#rectout canvas").bounding_box()
    scale = box["width"] / 16.0  # the canvas shows x from -1.5 to 14.5 cm

    def pixel(x, y):
        return box["x"] + (x + 1.5) * scale, box["y"] + (14.5 - y) * scale

    page.mouse.move(*pixel(*start))
    page.mouse.down()
    for k in range(1, 11):
        page.mouse.move(*pixel(start[0] + (end[0] - start[0]) * k / 10, start[1] + (end[1] - start[1]) * k / 10))
    page.mouse.up()
    expect(page.locator("#rectout")).to_have_attribute("data-dragging", "0")  # its last request has landed


def test_dragging_a_plate_stops_at_contact(page, live_server):
    page.goto(f"{live_server}/rectout/")
    start = state_of(page)
    target = start[3]
    drag(page, (target[0], target[1]), (target[0], target[1] + 6))  # up, into the ceiling
    risen = wait_for_state(page, lambda s: s[3][1] > 11.7)[3]
    assert risen[1] == pytest.approx(13 - 1.22, abs=1e-6)
    drag(page, (risen[0], risen[1]), (risen[0], risen[1] - 8))  # down, into the plate below
    fallen = wait_for_state(page, lambda s: s[3][1] < 9)
    assert fallen[3][1] == pytest.approx(target[1], abs=1e-6)  # resting on plate 3, not inside it
    assert state_of(page)[:3] == start[:3]
    expect(page.locator("#rectout")).not_to_have_attribute("data-out", "1")


#: The position after the paper's first move (four diagonal slides) from the start: the search from here finds the
#: other five moves, the two pairs of plates turning together among them, in about 120 expansions (the whole search
#: from here, held to the paper's count, is tests/engine/domains/rectout's).
READY = [[4.88, 1.22, 0], [4.88, 3.66, 0], [8.12, 6.1, 0], [8.12, 11.78, 0]]


def test_the_answer_from_a_shared_position_plays_until_the_target_is_out(page, live_server):
    page.goto(f"{live_server}/rectout/?state={json.dumps(READY)}")
    start = state_of(page)
    assert start == READY
    page.fill('#rectout-solve input[name="max_states"]', "2000")
    page.click("#rectout-solve button.primary")  # weight 3, the form's default
    expect(page.locator("#rectout-out .rectout-result .badge")).to_have_text("solved", timeout=300_000)
    expect(page.locator(".rectout-result")).to_contain_text("8 motions, 5 moves as the paper counts")
    expect(page.locator(".rectout-moves li")).to_have_count(8)
    expect(page.locator(".rectout-player")).to_be_visible()
    page.locator('.rectout-player [data-act="speed"]').fill("100")
    expect(page.locator(".rectout-player")).to_have_attribute("data-done", "1", timeout=60_000)
    expect(page.locator("#rectout")).to_have_attribute("data-out", "1")
    end = state_of(page)
    assert end[3][1] < -4 and end[:3] != start[:3]  # the target wholly below the box; the others moved and turned
    expect(page.locator("#rectout .status")).to_contain_text("Out!")


def test_two_plates_chosen_together_turn_upright(page, live_server):
    page.goto(f"{live_server}/rectout/?state={json.dumps(READY)}")
    box = page.locator("#rectout canvas").bounding_box()
    scale = box["width"] / 16.0

    def click(x, y, **options):
        page.mouse.click(box["x"] + (x + 1.5) * scale, box["y"] + (14.5 - y) * scale, **options)

    click(2.0, 3.66)  # plate 2, then plate 3 as its partner
    page.keyboard.down("Shift")
    click(11.0, 6.1)
    page.keyboard.up("Shift")
    for _ in range(60):  # E turns the pair 2° clockwise at a time
        before = state_of(page)
        if before[1][2] <= -1.5707963 + 1e-6:
            break
        page.keyboard.press("e")
        wait_for_state(page, lambda s, b=before: s != b)
    state = state_of(page)
    assert state[1][2] == pytest.approx(-1.5707963, abs=1e-6) and state[2][2] == pytest.approx(-1.5707963, abs=1e-6)
    assert state[0] == READY[0] and state[3] == READY[3]
