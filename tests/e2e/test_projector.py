"""What a class reads on the projector (issue 50), as a lecturer tries it at 853×480 (1280×720 at 150 %) and at
1280×720 with a clicker: an own lesson's slide (its words on the left) with uniform-cost beside A* on Romania typed by
hand, stepped by PageDown; the lecturer's class strip; the enlarged map; the race page; and the phone's small texts."""

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from app.step_view import View, query_for

pytestmark = pytest.mark.e2e

PROJECTOR, HD, PHONE = {"width": 853, "height": 480}, {"width": 1280, "height": 720}, {"width": 390, "height": 844}
ROMANIA = json.loads((Path(__file__).resolve().parents[2] / "engine/domains/graph/examples/romania.json").read_text())
ROMANIA.pop("_about")
#: AIMA's Figure 3.24: after Arad's expansion A*'s frontier holds Sibiu at f = 140 + 253, Timisoara at 118 + 329 and
#: Zerind at 75 + 374, in that order
A_STAR_AFTER_ARAD = [("Sibiu", "f 393"), ("Timisoara", "f 447"), ("Zerind", "f 449")]


def typed_romania(step: int = 0, algorithms=("ucs", "astar")) -> str:
    """The step-through's link to uniform-cost beside A* on Romania as typed into the tables (the graph as JSON)."""
    view = View(problem="graph", data=ROMANIA, algorithms=algorithms, heuristic="given", step=step)
    return "/step?" + query_for(view)


def own_lesson(page, live_server, algorithms=("ucs", "astar"), step: int = 0) -> str:
    """A one-slide lesson written by the lecturer about the order of A*'s frontier: its link."""
    lesson = {"title": "Uniform-cost and A*", "slides": [{
        "title": "The frontier's order", "link": typed_romania(step, algorithms), "walk": 12,
        "text": "After Arad, A* holds Sibiu at f = 393, Timisoara at 447 and Zerind at 449; uniform-cost orders its "
                "frontier by g alone."}]}
    answer = page.request.post(f"{live_server}/lessons/check", form={"lesson": json.dumps(lesson)},
                               headers={"Accept": "application/json"})
    assert answer.ok, answer.text()
    return answer.json()["link"]


def ready(page):
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    page.wait_for_function("() => new Promise((done) => requestAnimationFrame(() => done(true)))")


def at_step(page, step: int):
    expect(page.locator("#step-stepper")).to_have_attribute("data-step", str(step))
    page.wait_for_function("() => new Promise((done) => requestAnimationFrame(() => done(true)))")


# Why an element is not read whole: cut by a box that clips it (any ancestor whose overflow is not visible, the
# window too), or under another element at its centre. null when it is whole and uncovered.
UNREAD = """(el) => {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return 'not shown';
  const inside = (box) => r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.top >= box.top - 0.5 &&
    r.bottom <= box.bottom + 0.5;
  if (!inside({ left: 0, top: 0, right: innerWidth, bottom: innerHeight })) return 'outside the window';
  for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
    const style = getComputedStyle(box);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    const b = box.getBoundingClientRect();
    const seen = { left: b.left + box.clientLeft, top: b.top + box.clientTop,
                   right: b.left + box.clientLeft + box.clientWidth, bottom: b.top + box.clientTop + box.clientHeight };
    if (!inside(seen)) return `cut by ${box.className || box.tagName}`;
  }
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return top && (top === el || el.contains(top)) ? null : `under ${top && (top.className.baseVal ?? top.className)}`;
}"""


def unread(locator) -> str | None:
    return locator.evaluate(UNREAD)


# Every text on screen whose size on screen (an SVG's scaled by its picture) is under 14 px, but for what a box
# hides from sight (a 1 px box, a hidden element).
SMALL_TEXTS = """() => {
  const small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    const el = node.parentElement, range = document.createRange();
    range.selectNodeContents(node);
    const shown = [...range.getClientRects()].some((r) => r.width > 1 && r.height > 1 && r.bottom > 0 &&
      r.top < innerHeight && r.right > 0 && r.left < innerWidth);
    if (!shown || getComputedStyle(el).visibility === 'hidden') continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement) { const m = el.getScreenCTM(); size *= Math.hypot(m.a, m.b); }
    if (size < 13.99) small.push(`${size.toFixed(1)} px: ${node.textContent.trim().slice(0, 40)}`);
  }
  return small;
}"""

# The labels of a tree that its box cuts: a label drawn partly inside the box and partly outside it.
TREE_LABELS_CUT = """() => [...document.querySelectorAll('.step-panel')].flatMap((panel) => {
  const box = panel.querySelector('.tree-scroll'), b = box.getBoundingClientRect();
  const seen = { left: b.left + box.clientLeft, top: b.top + box.clientTop,
                 right: b.left + box.clientLeft + box.clientWidth, bottom: b.top + box.clientTop + box.clientHeight };
  const drawn = [...box.querySelectorAll('svg text')].filter((t) => getComputedStyle(t).visibility !== 'hidden');
  return drawn.filter((t) => {
    const r = t.getBoundingClientRect();
    const meets = r.left < seen.right && r.right > seen.left && r.top < seen.bottom && r.bottom > seen.top;
    const whole = r.left >= seen.left - 0.5 && r.right <= seen.right + 0.5 && r.top >= seen.top - 0.5 &&
      r.bottom <= seen.bottom + 0.5;
    return meets && !whole;
  }).map((t) => `${panel.dataset.algorithm}: ${t.textContent}`);
})"""


@pytest.fixture
def screen(browser, request):
    context = browser.new_context(viewport=request.param)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, errors


@pytest.mark.parametrize("screen", [PROJECTOR, HD], ids=["853x480", "1280x720"], indirect=True)
def test_a_stars_frontier_is_read_whole_beside_uniform_cost_on_an_own_lessons_slide(screen, live_server):
    """Issue 50: at step 4 A*'s frontier box was 26 px high for 58 px of text at 853×480 (48 of 80 at 1280×720), its
    entries cut or under the tree's zoom buttons, the tree's labels cut ("Timi…", "f 4…"). Each panel's entries, its
    marked code line and its variables are now whole and uncovered, in order; the trees' labels are never cut by their
    box (at 853×480 the trees show in place of the lists, on T)."""
    page = screen
    page.goto(live_server + own_lesson(page, live_server) + "/1")
    ready(page)
    for _ in range(4):
        page.keyboard.press("PageDown")
    at_step(page, 4)
    a_star = page.locator('.step-panel[data-algorithm="astar"]')
    entries = a_star.locator("ol.frontier li")
    expect(entries).to_have_count(3)
    for number, (city, f) in enumerate(A_STAR_AFTER_ARAD):
        entry = entries.nth(number)
        assert city in entry.text_content() and f in entry.text_content()
        assert unread(entry) is None, (city, unread(entry))
    for panel in page.locator(".step-panel").all():
        for part in ("ol.pseudocode li[aria-current=step]", "dl.vars", ".step-frontier h3", ".step-head .caption"):
            assert unread(panel.locator(part)) is None, (panel.get_attribute("data-algorithm"), part)
    uniform = page.locator('.step-panel[data-algorithm="ucs"] ol.frontier li')
    named = [entry.locator(".at").text_content() for entry in uniform.all()]
    assert named == ["Zerind", "Timisoara", "Sibiu"]  # by g: 75, 118, 140
    for step in range(5, 13):  # the slide's walk: every entry shown is whole, its five first and "+n more"
        page.keyboard.press("PageDown")
        at_step(page, step)
        for entry in page.locator(".step-panel ol.frontier li:visible, .step-panel .frontier-rest:visible").all():
            assert unread(entry) is None, (step, entry.text_content(), unread(entry))
    page.keyboard.press("Home")
    for _ in range(4):
        page.keyboard.press("PageDown")
    if page.viewport_size == PROJECTOR:
        page.keyboard.press("t")
        expect(page.locator("#show-trees")).to_have_attribute("aria-pressed", "true")
        page.wait_for_function("() => new Promise((done) => requestAnimationFrame(() => done(true)))")
    for step in range(4, 13):  # the trees grow past their box: a label is shown whole or not at all
        at_step(page, step)
        assert page.evaluate(TREE_LABELS_CUT) == [], f"step {step}"
        for tool in page.locator(".step-panel .tree-tools button:visible").all():
            assert unread(tool) is None
        page.keyboard.press("PageDown")


@pytest.mark.parametrize("screen", [PROJECTOR], ids=["853x480"], indirect=True)
def test_one_search_beside_a_slides_words_shows_its_frontier_whole_on_a_projector(screen, live_server):
    """A* alone on a slide at 853×480, walked by PageDown from step 4 to 16: the frontier's entries (the first five,
    then "+n more") and the marked code line are whole at every step, and the current node's g, h and f stay one line
    under its picture (they were a paragraph cut at the panel's foot, and three lines in a 72 px column)."""
    page = screen
    page.goto(live_server + own_lesson(page, live_server, ("astar",), 4) + "/1")
    ready(page)
    expect(page.locator(".step-panel")).to_have_count(1)
    more = 0
    for step in range(4, 17):
        at_step(page, step)
        entries = page.locator(".step-panel ol.frontier li:visible, .step-panel .frontier-rest:visible").all()
        assert entries, step
        for entry in entries:
            assert unread(entry) is None, (step, entry.text_content(), unread(entry))
        more += page.locator(".step-panel .frontier-rest:visible").count()
        for part in ("ol.pseudocode li[aria-current=step]", ".step-head .caption", ".current-node .muted"):
            assert unread(page.locator(f".step-panel {part}")) is None, (step, part)
        values = page.locator(".step-panel .current-node .muted").bounding_box()
        assert values["height"] < 2 * 14 * 1.3, (step, values)  # one line of 14 px text
        page.keyboard.press("PageDown")
    assert more > 0  # past five entries, the rest is counted, not cut


def test_past_five_entries_a_frontier_says_how_many_more_wait(browser, live_server):
    """A frontier of more than five lists its first five, whole, and says "+n more", at 853×480: A* on Romania holds
    six after its fifth expansion."""
    context = browser.new_context(viewport=PROJECTOR)
    try:
        page = context.new_page()
        page.goto(live_server + typed_romania(0))
        ready(page)
        page.click('#step-form button[type="submit"]')
        ready(page)
        panel = page.locator('.step-panel[data-algorithm="astar"]')
        longest = 0
        for step in range(1, 30):
            page.keyboard.press("PageDown")
            at_step(page, step)
            size = int(panel.locator('[data-stat="frontier"]').text_content())
            longest = max(longest, size)
            shown = panel.locator("ol.frontier li:visible")
            expect(shown).to_have_count(min(size, 5))
            for entry in shown.all():
                assert unread(entry) is None, (step, entry.text_content(), unread(entry))
            rest = panel.locator(".frontier-rest")
            if size > 5:
                expect(rest).to_have_text(f"+{size - 5} more")
                assert unread(rest) is None
            elif size:
                expect(rest).to_be_hidden()
        assert longest > 5
    finally:
        context.close()


def overlaps(page) -> list[str]:
    return page.evaluate("""() => {
      const svg = document.querySelector('dialog.picture-large svg');
      const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      const others = [...svg.querySelectorAll('.node circle, text.node-name')];
      return [...svg.querySelectorAll('text.edge-cost')].flatMap((cost) => others
        .filter((o) => hit(cost.getBoundingClientRect(), o.getBoundingClientRect()))
        .map((o) => `${cost.textContent} over ${o.textContent || o.parentElement.dataset.node}`));
    }""")


@pytest.mark.parametrize("screen", [PROJECTOR, HD], ids=["853x480", "1280x720"], indirect=True)
def test_the_enlarged_maps_road_costs_lie_clear_of_every_city(screen, live_server):
    """Issue 50: enlarged, Romania hid 13 of its 23 road costs under a city's name or dot at 853×480 ("118" 86 %
    under "Arad"), 7 at 1280×720. Typed in or built in, at the start and later on, none lies on a dot or a name."""
    page = screen
    for link in (typed_romania(0), "/step?problem=graph&data=romania&algorithms=ucs,astar&heuristic=given&step=0"):
        page.goto(live_server + link)
        ready(page)
        page.click('#step-form button[type="submit"]')
        ready(page)
        page.locator('.step-panel[data-algorithm="astar"] .current-node svg').click()
        dialog = page.locator("dialog.picture-large")
        expect(dialog).to_be_visible()
        for _ in range(2):
            page.wait_for_function("() => new Promise((done) => requestAnimationFrame(() => done(true)))")
            expect(dialog.locator("svg text.edge-cost")).to_have_count(23)
            assert overlaps(page) == [], link[:60]
            page.keyboard.press("End")
        page.keyboard.press("Escape")


def test_the_lecturers_strip_is_a_sixth_of_the_projector_and_folds_its_qr_code_once_the_room_joined(browser,
                                                                                                   live_server):
    """Issue 50: the strip with its QR code took 179 of 480 px and stayed so after everyone had joined; its count and
    link were 13.6 px. It is now at most 80 px with the code, folds it once no one new joins (Q opens it again), and
    nothing on the stage or in it is under 14 px; the tree's "follow" and "Legend" never meet."""
    lecturing = browser.new_context(viewport=PROJECTOR)
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        lecturer = lecturing.new_page()
        lecturer.goto(live_server + typed_romania(0))
        ready(lecturer)
        lecturer.click('#step-form button[type="submit"]')  # presenting
        ready(lecturer)
        lecturer.get_by_role("button", name="Start a class").click()
        dock = lecturer.locator(".class-dock")
        qr = dock.locator("img.class-qr")
        expect(qr).to_be_visible()
        assert dock.bounding_box()["height"] <= PROJECTOR["height"] / 6
        assert unread(qr) is None and unread(dock.locator(".class-link")) is None
        assert lecturer.evaluate(SMALL_TEXTS) == []
        code = dock.locator(".class-code").text_content()

        student = phone.new_page()
        student.goto(f"{live_server}/class/{code}")
        expect(student.locator("#step-stepper")).to_have_attribute("data-ready", "1")
        expect(dock.locator(".class-count")).to_have_text("1 following")
        expect(qr).to_be_hidden(timeout=20_000)  # no one new for a few seconds: the room has joined
        assert dock.bounding_box()["height"] <= PROJECTOR["height"] / 6
        # the stage keeps the rest of the window, its player on screen and uncovered
        stage = lecturer.locator(".stage").bounding_box()
        assert stage["y"] >= -0.5 and stage["y"] + stage["height"] <= dock.bounding_box()["y"] + 0.5
        assert unread(lecturer.locator(".player-controls [data-act=forward]")) is None
        lecturer.keyboard.press("t")
        for panel in lecturer.locator(".step-panel").all():
            follow = panel.locator(".tree-tools label.follow").bounding_box()
            legend = panel.locator(".tree-legend-box > summary").bounding_box()
            assert follow["x"] + follow["width"] <= legend["x"] or legend["y"] >= follow["y"] + follow["height"]
        assert lecturer.evaluate(SMALL_TEXTS) == []
        lecturer.keyboard.press("q")
        expect(qr).to_be_visible()
        lecturer.keyboard.press("q")
        expect(qr).to_be_hidden()

        # the phone's small texts: the keys' hint and, once a question is asked, the name field
        lecturer.get_by_role("button", name="Ask").click()
        expect(student.locator(".class-name")).to_be_visible()
        for small in (".stage-bar .keys", ".class-name"):
            size = student.locator(small).first.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)")
            assert size >= 14, (small, size)
    finally:
        phone.close()
        lecturing.close()


def test_add_to_lesson_is_on_screen_while_presenting_on_a_projector(browser, live_server):
    """Issue 50: "Add to lesson" was hidden while presenting at 853×480. Loaded, two searches or one, it is on
    screen, uncovered, and opens the writer with this view."""
    context = browser.new_context(viewport=PROJECTOR)
    try:
        page = context.new_page()
        for algorithms in (("ucs", "astar"), ("astar",)):
            page.goto(live_server + typed_romania(4, algorithms))
            ready(page)
            page.click('#step-form button[type="submit"]')
            ready(page)
            add = page.locator("#add-to-lesson")
            assert unread(add) is None, unread(add)
            assert page.evaluate(SMALL_TEXTS) == []
        page.keyboard.press("PageDown")
        add.click()
        page.wait_for_url("**/lessons/write*")
        expect(page.locator(".writer-slide")).to_have_count(1)
    finally:
        context.close()


def test_a_races_result_comes_first_on_a_projector(browser, live_server):
    """Issue 50: at 853×480 a race's result landed under the 19-solver checklist, its second row cut. Once a race has
    run, its table comes first, on screen, above the checklist; nothing on screen is under 14 px."""
    context = browser.new_context(viewport=PROJECTOR)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/compare?size=3x3&goal=blank-last&tiles=8,6,7,2,5,4,3,0,1")
        assert page.evaluate(SMALL_TEXTS) == []
        page.click("#compare-button")
        table = page.locator("#compare-result .compare-table")
        expect(table).to_be_visible(timeout=60_000)
        page.wait_for_function("() => new Promise((done) => requestAnimationFrame(() => done(true)))")
        rows = table.locator("tbody tr")
        expect(rows).to_have_count(2)
        for row in rows.all():
            assert unread(row) is None, unread(row)
        result = page.locator("#compare-result").bounding_box()
        assert result["y"] < page.locator("fieldset.choices").bounding_box()["y"]
        assert page.evaluate(SMALL_TEXTS) == []
    finally:
        context.close()


@pytest.mark.parametrize("screen", [PROJECTOR], ids=["853x480"], indirect=True)
def test_no_text_under_14_px_on_a_projector(screen, live_server):
    """Issue 50: the Enlarge buttons, the form's labels, the class strip and the grid's S and G were 12.8–13.6 px at
    853×480. On the slide (the lists and the trees), enlarged, on the step-through's form and on a grid, none is."""
    page = screen
    page.goto(live_server + own_lesson(page, live_server) + "/1")
    ready(page)
    for _ in range(4):
        page.keyboard.press("PageDown")
    at_step(page, 4)
    assert page.evaluate(SMALL_TEXTS) == []
    page.keyboard.press("t")
    assert page.evaluate(SMALL_TEXTS) == []
    page.keyboard.press("t")
    page.locator(".step-panel .picture-tools .enlarge").first.focus()  # the keyboard's way to enlarge: shown on focus
    assert page.evaluate(SMALL_TEXTS) == []
    page.keyboard.press("Enter")
    expect(page.locator("dialog.picture-large")).to_be_visible()
    assert page.evaluate(SMALL_TEXTS) == []
    page.keyboard.press("Escape")
    page.goto(live_server + "/step?problem=grid&algorithms=astar")
    ready(page)
    assert page.evaluate(SMALL_TEXTS) == []  # the form, open
    page.click('#step-form button[type="submit"]')
    ready(page)
    assert page.evaluate(SMALL_TEXTS) == []  # S and G on the map
