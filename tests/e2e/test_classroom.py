"""A class in a real browser: eight students' phones follow the lecturer's step-through, answer a question the engine
made from it, and the projector shows their answers and the right one."""

import pytest
from playwright.sync_api import expect

from tests.e2e.test_accessibility import serious
from tests.support.waiting import wait_until

pytestmark = pytest.mark.e2e

VIEW = "/step?problem=tiles&size=3x3&scramble=6&seed=3&algorithms=bfs&step=0"
PROJECTOR, PHONE = {"width": 853, "height": 480}, {"width": 390, "height": 844}


def watch_errors(page, errors):
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "status of 4" not in m.text else None)
    return page


def step_count(page) -> str:
    return page.locator("#step-stepper .step-count").text_content().strip()


def test_eight_phones_follow_the_lecturer_and_answer_which_node_is_next(browser, live_server):
    errors: list[str] = []
    lecturing = browser.new_context(viewport=PROJECTOR)
    # eight phones: a context each (a phone shows its page in the foreground; tabs behind another are throttled),
    # all in the one browser
    phones = [browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True) for _ in range(8)]
    try:
        lecturer = watch_errors(lecturing.new_page(), errors)
        lecturer.goto(live_server + VIEW)
        expect(lecturer.locator("#step-stepper")).to_have_attribute("data-ready", "1")
        lecturer.get_by_role("button", name="Start a class").click()
        code = lecturer.locator(".class-dock .class-code").text_content()
        assert len(code) == 8

        students = [watch_errors(phone.new_page(), errors) for phone in phones]
        for student in students:
            student.goto(f"{live_server}/class/{code}")
        for student in students:
            expect(student.locator("#step-stepper")).to_have_attribute("data-ready", "1")
            expect(student.locator(".class-bar")).to_contain_text("following the lecturer")
        expect(lecturer.locator(".class-dock .class-count")).to_have_text("8 following", timeout=5000)

        for _ in range(5):
            lecturer.keyboard.press("PageDown")
        shown = step_count(lecturer)
        assert shown.startswith("step 5 of")
        wait_until(lambda: all(step_count(s) == shown for s in students), timeout=2,
                   what=f"every student's page at {shown!r}")

        lecturer.locator(".class-dock select").select_option("next")
        lecturer.get_by_role("button", name="Ask").click()
        for number, student in enumerate(students):
            choices = student.locator(".class-bar button.class-choice")
            expect(choices.first).to_be_visible()
            choices.nth(number % choices.count()).click()
            expect(student.locator(".class-bar .class-sent")).to_be_visible()
        expect(lecturer.locator(".class-dock .class-answer-count")).to_have_attribute("data-answers", "8")
        tally = [int(n) for n in lecturer.locator(".class-dock .class-tally").all_text_contents()]
        assert sum(tally) == 8
        lecturer.get_by_role("button", name="Show the answer").click()
        right = lecturer.locator(".class-dock .class-choices li.right .class-choice")
        expect(right).to_have_count(1)
        expect(lecturer.locator(".class-dock .class-reason")).to_contain_text("first-in, first-out")
        for student in students:
            shown_right = student.locator(".class-bar .class-choices li.right .class-choice")
            expect(shown_right).to_have_text(right.text_content())
        # the lecturer's view moved to where the question is decided; the students' with it
        shown = step_count(lecturer)
        wait_until(lambda: all(step_count(s) == shown for s in students), timeout=2, what="the class at the question")

        # a student stepping alone is left alone, and "Follow the lecturer" snaps back
        alone = students[0]
        alone.locator('#step-stepper [data-act="back"]').click()
        expect(alone.locator(".class-bar")).to_contain_text("on your own")
        lecturer.keyboard.press("PageDown")
        shown = step_count(lecturer)
        wait_until(lambda: all(step_count(s) == shown for s in students[1:]), timeout=2, what="the others follow")
        assert step_count(alone) != shown
        alone.get_by_role("button", name="Follow the lecturer").click()
        wait_until(lambda: step_count(alone) == shown, timeout=2, what="the student back with the lecturer")
    finally:
        for context in (lecturing, *phones):
            context.close()
    assert not errors, errors


def test_the_class_pages_have_no_serious_accessibility_violation(browser, live_server):
    context = browser.new_context(viewport=PHONE, bypass_csp=True)  # axe is injected; the app never serves it
    try:
        page = context.new_page()
        page.goto(live_server + "/class/practice?seed=4")  # graded: the reason and the marked answers
        page.locator(".practice-choices button").first.click()
        expect(page.locator(".class-reason")).to_be_visible()
        assert serious(page) == []
        page.set_viewport_size(PROJECTOR)
        page.goto(live_server + VIEW)
        expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
        page.get_by_role("button", name="Start a class").click()
        page.locator(".class-dock select").select_option("frontier")
        page.get_by_role("button", name="Ask").click()
        expect(page.locator(".class-dock .class-answer-count")).to_be_visible()
        assert serious(page) == []
    finally:
        context.close()


#: a JS function of an element: whether the point at its centre shows the element itself (not the class bar over it)
SEEN_AT_CENTRE = """(el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && el.contains(hit);
}"""


def test_a_students_phone_shows_the_frontier_and_the_tree_clear_of_the_class_bar(browser, live_server):
    """The reviewer's case: a question open on BFS beside A*, the student on a phone looks at BFS's frontier and tree
    to answer "which node next"; neither may end up under the class bar however the page is scrolled."""
    errors: list[str] = []
    lecturing = browser.new_context(viewport=PROJECTOR)
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True)  # axe injected
    try:
        lecturer = watch_errors(lecturing.new_page(), errors)
        lecturer.goto(live_server + VIEW.replace("algorithms=bfs", "algorithms=bfs,astar"))
        expect(lecturer.locator("#step-stepper")).to_have_attribute("data-ready", "1")
        lecturer.get_by_role("button", name="Start a class").click()
        code = lecturer.locator(".class-dock .class-code").text_content()
        for _ in range(2):
            lecturer.locator('#step-stepper [data-act="forward"]').click()
        lecturer.locator(".class-dock select").select_option("next")
        lecturer.get_by_role("button", name="Ask").click()
        expect(lecturer.locator(".class-dock .class-answer-count")).to_be_visible()

        student = watch_errors(phone.new_page(), errors)
        student.goto(f"{live_server}/class/{code}")
        bar = student.locator(".class-bar")
        choices = bar.locator("button.class-choice")
        expect(choices.first).to_be_visible()
        expect(bar.locator(".class-prompt")).to_contain_text("Breadth-first search")
        # the reviewer saw the bar take 45 % of the screen; compact, it leaves at least three quarters to the page
        assert bar.bounding_box()["height"] <= PHONE["height"] / 4
        # two frames: the bar's measured height (a ResizeObserver, run before a frame is drawn) reached the page
        student.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")

        bfs = student.locator('.step-panel[data-algorithm="bfs"]')
        expect(bfs.locator("ol.frontier li").first).to_be_visible()
        for what in (bfs.locator("ol.frontier li").first, bfs.locator(".tree-scroll"), student.locator("footer.site")):
            # brought in from below (scrolling down to it, or the browser scrolling to it): it stops above the bar
            what.evaluate("(el) => el.scrollIntoView({block: 'end'})")
            assert what.evaluate(SEEN_AT_CENTRE), f"{what} is under the class bar"
        # the page's end scrolls clear of the bar: the last of the page above the bar's top edge
        student.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        footer_bottom = student.locator("footer.site").evaluate("(el) => el.getBoundingClientRect().bottom")
        assert footer_bottom <= bar.evaluate("(el) => el.getBoundingClientRect().top") + 0.5

        assert serious(student) == []  # the question open, over the step-through

        # folded to its row the choices go and the bar shrinks; unfolded, the question is answerable as before
        folded_from = bar.bounding_box()["height"]
        bar.get_by_role("button", name="Fold the class bar").click()
        expect(choices.first).to_be_hidden()
        assert bar.bounding_box()["height"] < folded_from
        expect(bar).to_contain_text("following the lecturer")
        bar.get_by_role("button", name="Fold the class bar").click()
        choices.first.click()
        expect(bar.locator(".class-sent")).to_be_visible()
        expect(lecturer.locator(".class-dock .class-answer-count")).to_have_attribute("data-answers", "1")
    finally:
        lecturing.close()
        phone.close()
    assert not errors, errors


def test_starting_a_class_below_the_editor_brings_the_stage_up_above_the_lecturers_strip(browser, live_server):
    """A lecturer who typed a graph starts the class from the controls under the editor: what the room watches then
    is the stepper and its searches: on screen, their top clear of the strip at the foot (853×480, the QR code open
    for the room)."""
    context = browser.new_context(viewport=PROJECTOR)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/step?problem=graph&data=romania&algorithms=ucs,astar")
        expect(page.locator("#step-panels .step-panel")).to_have_count(2)  # the searches drawn, as the lecturer sees
        page.get_by_role("button", name="Start a class").click()
        expect(page.locator(".class-dock .class-qr")).to_be_visible()

        def stage_up() -> bool:
            stepper, panels = page.locator("#step-stepper").bounding_box(), page.locator("#step-panels").bounding_box()
            return -1 <= stepper["y"] and panels["y"] + 40 < page.locator(".class-dock").bounding_box()["y"]
        wait_until(stage_up, what="the step controls on screen and the searches' top above the lecturer's strip")
    finally:
        context.close()
