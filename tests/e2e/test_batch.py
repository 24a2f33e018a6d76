"""The batch page in a real browser: the solver offer follows the board, and a batch started from the form polls
until its table of answers replaces the progress."""

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
    rows = page.locator(".batch-result tbody tr")
    expect(rows).to_have_count(3)
    assert [rows.nth(i).locator("td").nth(2).inner_text() for i in range(3)] == ["31", "1", "0"]
    expect(page.locator("#batch-result .job")).to_have_count(0)  # the progress it polled is gone
