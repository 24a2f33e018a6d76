import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e


def test_a_dpso_run_shows_its_curve_and_animates_to_the_goal(page, live_server):
    page.goto(f"{live_server}/meta/")
    expect(page.locator("svg.cycles polyline")).to_have_count(2)
    page.fill('input[name="depth"]', "10")
    page.fill('input[name="iterations"]', "300")
    page.click(".meta-form button.primary")
    result = page.locator('#meta-run .result[data-status="solved"]')
    expect(result).to_be_visible(timeout=60_000)
    expect(result.locator(".curve svg polyline")).to_have_count(1)
    expect(result).to_have_attribute("data-done", "1", timeout=30_000)
    goal = page.locator("#board").get_attribute("data-goal")
    expect(page.locator("#board")).to_have_attribute("data-tiles", goal)


def test_dpso_is_offered_on_the_board_page(page, live_server):
    page.goto(f"{live_server}/play?size=3x3&tiles=1,2,3,4,5,6,0,7,8")
    page.select_option("#solver-select", "ga:")
    page.click("#solve-button")
    expect(page.locator(".result")).to_contain_text("2 moves", timeout=30_000)
