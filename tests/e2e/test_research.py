import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e


def test_research_job_runs_to_completion_and_the_hardest_position_opens(page, live_server):
    page.goto(f"{live_server}/research/")
    page.select_option('#bfs select[name="board"]', "2x3")
    page.click("#bfs button.primary")
    expect(page.locator("#bfs-out .diameter")).to_have_text("21", timeout=60_000)
    page.locator("#bfs-out .hardest-link").first.click()
    expect(page.locator("#board")).to_be_visible()
    page.select_option("#solver-select", "bfs:")
    page.click("#solve-button")
    expect(page.locator(".result")).to_contain_text("21 moves")
