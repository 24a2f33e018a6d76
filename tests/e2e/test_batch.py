"""The batch page in a real browser: the solver offer follows the board, and a batch started from the form polls
until its table of answers replaces the progress."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

# seed 004's position (31 moves, the 8-puzzle's largest distance), one move from the goal, the goal itself
POSITIONS = "8 6 7 2 5 4 3 0 1  # seed 004\n1 2 3 4 5 6 7 0 8\n1 2 3 4 5 6 7 8 0"


def test_a_batch_from_the_form_polls_to_its_table_and_the_offer_follows_the_board(page, live_server):
    page.goto(f"{live_server}/batch")
    offer = page.locator("#batch-choice select option")
    page.select_option("#batch-size", "4x4")  # the 15-puzzle's pattern databases come with its board
    expect(page.locator('#batch-choice select option[value="idastar:pdb"]')).to_have_text("IDA* + pdb")
    page.select_option("#batch-size", "3x3")
    expect(page.locator('#batch-choice select option[value="idastar:pdb"]')).to_have_count(0)
    assert "IDA* + manhattan" in offer.all_inner_texts()
    page.fill("#batch-positions", POSITIONS)
    page.select_option("#batch-choice select", "idastar:manhattan")
    page.click("#batch-solve")
    expect(page.locator(".batch-result h3")).to_have_text("3 of 3 positions solved", timeout=120_000)
    expect(page.locator(".batch-result")).to_contain_text("IDA* + manhattan, 3×3:")  # the board as the app writes it
    rows = page.locator(".batch-result tbody tr")
    expect(rows).to_have_count(3)
    assert [rows.nth(i).locator("td").nth(2).inner_text() for i in range(3)] == ["31", "1", "0"]
    expect(page.locator("#batch-result .job")).to_have_count(0)  # the progress it polled is gone


# Korf's instance 88 (65 moves) takes Manhattan distance minutes: the batch is cancelled while it searches
KORF_88 = "15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4"
KORF_88_MOVES = 65
#: the 15-puzzle's blank-first goal, then positions 1, 2, 2 and 3 moves from it (straight lines and an L: their
#: Manhattan distance, which no shorter path beats)
EASY = ["0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
        "1 2 0 3 4 5 6 7 8 9 10 11 12 13 14 15", "4 1 2 3 8 5 6 7 0 9 10 11 12 13 14 15",
        "1 2 3 0 4 5 6 7 8 9 10 11 12 13 14 15"]


def test_a_cancelled_batch_shows_every_position_it_solved_and_their_total(page, live_server):
    page.goto(f"{live_server}/batch")
    page.select_option("#batch-size", "4x4")
    page.select_option("#batch-goal", "blank-first")
    page.fill("#batch-positions", "\n".join(EASY + [KORF_88] * 5))
    page.select_option("#batch-choice select", "idastar:manhattan")
    page.click("#batch-solve")
    progress = page.locator("#batch-result .job-text")
    # the easy five expand 8 nodes in all: thousands more are Korf's instance counted while its chunk runs
    expect(progress).to_contain_text(re.compile(r"\b[5-9] of 10 boards solved on \d+ workers?, \d{1,3}(,\d{3})+ nodes "
                                                r"expanded"), timeout=120_000)
    page.click("#batch-result .job button.cancel")
    heading = page.locator(".batch-result h3")
    expect(heading).to_have_text(re.compile(r"Cancelled: [5-9] of 10 positions solved"), timeout=60_000)
    solved = int(re.search(r"(\d+) of 10", heading.inner_text()).group(1))
    rows = page.locator(".batch-result tbody tr")
    expect(rows).to_have_count(10)
    statuses = [rows.nth(i).locator("td").nth(1).inner_text() for i in range(10)]
    assert statuses[:5] == ["solved"] * 5 and statuses.count("solved") == solved
    assert [rows.nth(i).locator("td").nth(2).inner_text() for i in range(5)] == ["0", "1", "2", "2", "3"]
    assert all(status in ("stopped", "not reached") for status in statuses[solved:])
    for i in range(10):  # a position never reached has no count and no time to show
        if statuses[i] == "not reached":
            assert [rows.nth(i).locator("td").nth(k).inner_text() for k in (3, 4)] == ["–", "–"]
    total = page.locator(".batch-result tfoot tr td").first
    # 0 + 1 + 2 + 2 + 3, and Korf's published 65 for each instance 88 a fast machine solved before the cancel
    expect(total).to_have_text(str(8 + KORF_88_MOVES * (solved - 5)))


def test_on_a_phone_an_answer_keeps_its_width_and_the_table_scrolls_sideways(browser, live_server):
    """Seed 004's 31 moves in a 390-px phone: the answer is a few lines of 14 moves or more, not a column a few
    letters wide."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server}/batch")
    page.fill("#batch-positions", "8 6 7 2 5 4 3 0 1")
    page.click("#batch-solve")
    answer = page.locator(".batch-result tbody td.moves").first
    expect(answer).to_have_text(re.compile(r"^[UDLR]{31}$"), timeout=120_000)
    line = float(answer.evaluate("(cell) => parseFloat(getComputedStyle(cell).lineHeight)"))
    assert answer.bounding_box()["height"] <= 4 * line + 16  # at most four lines and the cell's padding
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the box scrolls, not the page
    context.close()

