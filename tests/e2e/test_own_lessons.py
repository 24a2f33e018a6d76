"""A lecturer's own lesson, written in the app and presented from its link at 853×480 with a clicker: the link opens
slide 1, every slide is reached, each next slide within 25 presses of PageDown (as the built-in lessons,
tests/e2e/test_lecture.py), and the check's verdicts are never on a slide the class sees."""

import json
import re

import pytest
from playwright.sync_api import expect

from tests.app.test_own_lessons import FIVE_SLIDES, ROMANIA_LECTURE

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
    expect(summary).to_contain_text("(slides 2, 5)")
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


def test_a_lecture_on_typed_romania_from_its_link_by_pagedown_with_a_class_asked_which_node_next(browser,
                                                                                                 live_server):
    """The five-slide lecture on Romania typed in by hand (tests/app/test_own_lessons.py's ROMANIA_LECTURE, two of
    whose slides the check flags): its link opens slide 1 presenting at 853×480, PageDown alone reaches every slide,
    and no slide shows a verdict to the class; on slide 2 (after Arad's expansion) a class is asked which node is
    next and 30 phones' answers are tallied exactly."""
    context = browser.new_context(viewport=PROJECTOR)
    phones = [browser.new_context() for _ in range(30)]
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        checked = page.request.post(f"{live_server}/lessons/check", form={"lesson": json.dumps(ROMANIA_LECTURE)},
                                    headers={"Accept": "application/json", "Origin": live_server}).json()
        assert [s["state"] for s in checked["slides"]] == ["ok", "ok", "unshown", "unshown", "ok"]
        page.goto(live_server + checked["link"])
        for number, slide in enumerate(ROMANIA_LECTURE["slides"], 1):
            page.wait_for_url(f"**/lessons/own/*/{number}*")
            expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
            expect(page.locator("h1")).to_have_text(slide["title"])
            expect(page.locator(".stage .lesson")).to_contain_text(slide["text"])
            expect(page.locator(".check-verdict, .lesson .error")).to_have_count(0)
            assert "Not so" not in page.locator("main").text_content()
            if number == len(ROMANIA_LECTURE["slides"]):
                break
            for _ in range(25):
                page.keyboard.press("PageDown")
                if slide_number(page.url) == str(number + 1):
                    break
        page.get_by_role("link", name="The lesson’s summary").click()  # the summary, one click away
        expect(page.locator(".check-summary")).to_contain_text("slides 3, 4")

        page.goto(f"{live_server}{checked['link']}/2")
        expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
        expect(page.locator("#step-stepper")).to_have_attribute("data-step", "4")
        page.get_by_role("button", name="Start a class").click()
        code = page.locator(".class-dock .class-code").text_content()
        page.locator(".class-dock select").select_option("next")
        page.get_by_role("button", name="Ask").click()
        choices = page.locator(".class-dock .class-choice")
        expect(choices).to_have_count(3)
        # asked of the slide's first search, uniform-cost, whose frontier after Arad holds its three roads, as the
        # board writes them: Zerind 75, Timisoara 118, Sibiu 140 (AIMA Figure 3.1); it expands Zerind next
        prompt = page.locator(".class-dock .class-prompt")
        expect(prompt).to_have_text("Which node does Uniform-cost search expand next?")
        assert sorted(re.search(r"→ (\w+) \(g = (\d+)\)$", c).groups() for c in choices.all_text_contents()) == [
            ("Sibiu", "140"), ("Timisoara", "118"), ("Zerind", "75")]
        question = page.request.get(f"{live_server}/class/{code}/state").json()["question"]
        picks = [(n * 5) % 3 for n in range(30)]
        for n, (phone, pick) in enumerate(zip(phones, picks, strict=True)):
            phone.request.get(f"{live_server}/", headers={"Accept": "text/html"})  # a page load: its own cookie
            answer = phone.request.post(f"{live_server}/class/{code}/answer", data={
                "student": f"phone{n:05d}", "question": question["number"], "choice": pick},
                headers={"Origin": live_server})
            assert answer.ok, answer.text()
        expect(page.locator(".class-dock .class-answer-count")).to_have_attribute("data-answers", "30")
        tally = [int(n) for n in page.locator(".class-dock .class-tally").all_text_contents()]
        assert tally == [picks.count(c) for c in range(3)]
        page.get_by_role("button", name="Show the answer").click()
        expect(page.locator(".class-dock .class-choices li.right .class-choice")).to_contain_text("Zerind")
    finally:
        for phone in phones:
            phone.close()
        context.close()
    assert not errors, errors


def test_the_writer_shows_each_checked_slides_verdict_until_its_words_change(browser, live_server):
    context = browser.new_context(viewport=PROJECTOR)
    try:
        page = context.new_page()
        checked = page.request.post(f"{live_server}/lessons/check", form={"lesson": json.dumps(ROMANIA_LECTURE)},
                                    headers={"Accept": "application/json", "Origin": live_server}).json()
        page.goto(f"{live_server}/lessons/write?from={checked['id']}")
        slides = page.locator(".writer-slide")
        expect(slides).to_have_count(5)
        expect(slides.nth(2).locator(".writer-verdict")).to_have_text(
            "Not so at step 4: 449 (f of Timisoara: 447); 447 (f of Zerind: 449).")
        expect(slides.nth(1).locator(".writer-verdict")).to_contain_text("every number agrees")
        slides.nth(2).get_by_label("Your words").fill("Timisoara's f is 447 and Zerind's 449.")
        expect(slides.nth(2).locator(".writer-verdict")).to_be_hidden()
    finally:
        page.evaluate("localStorage.clear()")
        context.close()
