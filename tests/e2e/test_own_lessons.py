"""A lecturer's own lesson, written in the app and presented from its link at 853×480 with a clicker: every slide
reached, each next slide within 25 presses of PageDown (as the built-in lessons, tests/e2e/test_lecture.py)."""

import pytest
from playwright.sync_api import expect

from tests.app.test_own_lessons import FIVE_SLIDES

pytestmark = pytest.mark.e2e

PROJECTOR = {"width": 853, "height": 480}


def slide_number(url: str) -> str:
    return url.split("?")[0].rpartition("/")[2]


def test_a_written_lesson_is_presented_from_its_link_with_the_clicker(browser, live_server):
    context = browser.new_context(viewport=PROJECTOR)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server}/lessons/write")
    page.fill('input[name="title"]', FIVE_SLIDES["title"])
    for number, slide in enumerate(FIVE_SLIDES["slides"], 1):
        page.fill("#writer-link", slide["link"])
        page.click("#writer-add")
        added = page.locator(".writer-slide").nth(number - 1)
        added.get_by_label("Title").fill(slide["title"])
        added.get_by_label("Your words").fill(slide["text"])
    page.get_by_role("button", name="Move up: slide 2").click()  # reorder, then put it back
    expect(page.locator(".writer-slide").first.get_by_label("Title")).to_have_value("A wrong sum")
    page.get_by_role("button", name="Move down: slide 1").click()
    page.get_by_role("button", name="Check and save").click()
    page.wait_for_url("**/lessons/own/*/summary")
    summary = page.locator(".check-summary")
    expect(summary).to_contain_text("slide 2, 5")
    assert summary.bounding_box()["y"] < PROJECTOR["height"]  # the verdicts where the lecturer is looking
    link = page.locator("p", has_text="Its link").locator("a").get_attribute("href")
    assert link.endswith(page.url.split("/")[-2])  # /lessons/own/<id>: the lesson's own link
    page.close()

    page = context.new_page()  # the lesson's link, opened afresh, presents it: PageDown steps at once, no click
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server}{link}")
    for number, slide in enumerate(FIVE_SLIDES["slides"], 1):
        page.wait_for_url(f"**/lessons/own/*/{number}*")
        expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
        expect(page.locator("h1")).to_have_text(slide["title"])
        expect(page.locator(".check-verdict")).to_have_count(0)  # the class sees no verdict
        if number == len(FIVE_SLIDES["slides"]):
            break
        for _ in range(25):
            page.keyboard.press("PageDown")
            if slide_number(page.url) == str(number + 1):
                break
        page.wait_for_url(f"**/lessons/own/*/{number + 1}*")
    context.close()
    assert not errors, errors
