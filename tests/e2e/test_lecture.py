"""A lecture from the projector (1280×720 at 150 %: 853×480 CSS px) with a clicker: every slide shows the numbers its
words state, a few presses reach the next slide and lesson, and any step of /step has a link that reopens it."""

import re
import struct
from xml.etree import ElementTree

import pytest
from playwright.sync_api import expect

from app.lessons import LESSONS

pytestmark = pytest.mark.e2e

PROJECTOR = {"width": 853, "height": 480}
NAMES = {0, 1, 2, 8, 15}  # the puzzles' names and "limits 0, 1, 2, …", as tests/app/test_lessons.py reads them
ORDER = [(lesson.slug, number, slide) for lesson in LESSONS for number, slide in enumerate(lesson.slides, 1)]

# Whether some text on the stage (not the slide's own words) shows the number whole, inside the window and not
# hidden by the box around it: the element at the middle of its line is that text's element.
SHOWN = """([number]) => {
  const walker = document.createTreeWalker(document.getElementById('step-panels'), NodeFilter.SHOW_TEXT);
  const pattern = new RegExp(`(^|[^0-9])${number}([^0-9]|$)`);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!pattern.test(node.textContent)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      if (r.width === 0 || x < 0 || y < 0 || x > innerWidth || y > innerHeight) continue;
      const top = document.elementFromPoint(x, y), holder = node.parentElement;
      if (top && (top === holder || holder.contains(top) || top.contains(holder))) return true;
    }
  }
  return false;
}"""


@pytest.fixture(scope="module")
def projector(browser):
    context = browser.new_context(viewport=PROJECTOR)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, errors


def ready(page):
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    page.wait_for_function("() => new Promise((done) => requestAnimationFrame(() => done(true)))")


def path_of(page):
    return page.url.split("://", 1)[1].split("/", 1)[1].split("?")[0]


@pytest.mark.parametrize("at", range(len(ORDER)), ids=[f"{slug}/{n}" for slug, n, _ in ORDER])
def test_each_slide_shows_its_numbers_and_the_clicker_reaches_the_next_slide(projector, live_server, at):
    page = projector
    slug, number, slide = ORDER[at]
    page.goto(f"{live_server}/lessons/{slug}/{number}")
    ready(page)
    numbers = {int(n) for paragraph in slide.text for n in re.findall(r"\d+", paragraph)} - NAMES
    hidden = [n for n in sorted(numbers) if not page.evaluate(SHOWN, [n])]
    assert not hidden, f"{slug}/{number}: not on screen at 853×480: {hidden}"
    board = page.locator(".step-panel .current-node > :first-child").first.bounding_box()
    assert board and 0 <= board["y"] and board["y"] + board["height"] <= PROJECTOR["height"] + 0.5, board
    if at + 1 == len(ORDER):
        return
    next_slug, next_number, _ = ORDER[at + 1]
    for _ in range(25):
        page.keyboard.press("PageDown")
        if path_of(page) != f"lessons/{slug}/{number}":
            break
    page.wait_for_url(f"**/lessons/{next_slug}/{next_number}*")  # a lesson's last slide opens the next lesson


def test_after_a_checkbox_is_clicked_the_clicker_still_steps(projector, live_server):
    page = projector
    page.goto(f"{live_server}/lessons/astar/2")
    ready(page)
    step = int(page.locator("#step-stepper").get_attribute("data-step"))
    for box in ("#show-h", "#large-text", ".step-panel .tree-tools input[type=checkbox]"):
        page.locator(box).first.click()
        page.keyboard.press("PageDown")
        step += 1
        expect(page.locator("#step-stepper")).to_have_attribute("data-step", str(step))
    page.keyboard.press("PageUp")
    expect(page.locator("#step-stepper")).to_have_attribute("data-step", str(step - 1))
    page.locator("#large-text").click()  # this screen's own choice: put it back for the other tests
    page.evaluate("localStorage.clear()")


def test_a_step_s_link_reopens_that_step_in_a_new_browser(browser, projector, live_server):
    page = projector
    page.goto(f"{live_server}/step")
    ready(page)
    page.select_option('#step-form select[name="first"]', "astar")
    page.select_option('#step-form select[name="second"]', "ucs")
    ready(page)
    page.click('#step-form button[type="submit"]')
    ready(page)
    for _ in range(12):
        page.keyboard.press("PageDown")
    expect(page.locator("#step-stepper")).to_have_attribute("data-step", "12")
    link = page.url
    assert "step=12" in link and "tiles=" in link  # the scramble is written as its tiles
    captions = page.locator(".step-panel .caption").all_text_contents()
    fresh = browser.new_context(viewport=PROJECTOR)
    try:
        other = fresh.new_page()
        other.goto(link)
        ready(other)
        expect(other.locator("#step-stepper")).to_have_attribute("data-step", "12")
        assert other.locator(".step-panel .caption").all_text_contents() == captions
        assert other.url == link
    finally:
        fresh.close()


def test_the_tree_is_saved_as_svg_and_png_for_slides(browser, live_server):
    context = browser.new_context(viewport={"width": 1366, "height": 768}, accept_downloads=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/lessons/astar/2")
        ready(page)
        panel = page.locator(".step-panel").first
        with page.expect_download() as saved:
            panel.get_by_role("button", name="Save the tree as an SVG picture").click()
        text = open(saved.value.path(), encoding="utf-8").read()
        labels = panel.locator(".tree-scroll svg > g.nodes text:not(.t-f):not(.t-count)").all_text_contents()
        assert text.startswith("<svg") and all(f">{label}</text>" in text for label in labels), labels
        assert 'fill="rgb(' in text  # the page's colours travel with the file
        with page.expect_download() as saved:
            panel.get_by_role("button", name="Save the tree as a PNG picture").click()
        assert open(saved.value.path(), "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    finally:
        context.close()


def saved(page, button) -> bytes:
    with page.expect_download() as download:
        button.click()
    return open(download.value.path(), "rb").read()


def assert_svg_with(data: bytes, texts: list[str]) -> None:
    root = ElementTree.fromstring(data)  # well-formed XML whose root is an SVG
    assert root.tag == "{http://www.w3.org/2000/svg}svg" and float(root.get("width")) > 0
    shown = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert all(text in shown for text in texts), (texts, shown)


def assert_png(data: bytes) -> None:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])  # the IHDR chunk: the picture's size in pixels
    assert width > 0 and height > 0


def test_a_race_chart_and_a_board_are_saved_as_svg_and_png_for_slides(browser, live_server):
    context = browser.new_context(viewport={"width": 1366, "height": 768}, accept_downloads=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/compare?size=3x3&goal=blank-last&tiles=8,6,7,2,5,4,3,0,1")
        page.click("#compare-button")  # IDA* + manhattan and + linear conflict, the page's choice
        chart = page.locator(".bounds-chart").first
        expect(chart).to_be_visible(timeout=60_000)
        bounds = chart.locator("text.bar-label").all_text_contents()
        assert bounds[-1] == "f ≤ 31"  # the seed's 31-move answer ends the last iteration
        assert_svg_with(saved(page, chart.get_by_role("button", name=re.compile("as an SVG picture"))), bounds)
        assert_png(saved(page, chart.get_by_role("button", name=re.compile("as a PNG picture"))))

        page.goto(f"{live_server}/step?problem=tiles&size=3x3&tiles=1,2,3,4,0,5,7,8,6&goal=blank-last&algorithms=bfs")
        ready(page)
        panel = page.locator(".step-panel").first
        board = panel.locator(".node-board").get_attribute("data-cells").split(",")
        data = saved(page, panel.get_by_role("button", name="Save the current node's picture as an SVG picture"))
        assert_svg_with(data, [tile for tile in board if tile != "0"])
        assert_png(saved(page, panel.get_by_role("button", name="Save the current node's picture as a PNG picture")))
    finally:
        context.close()


# Each panel's head (the caption, the counts, the current node's g, h and f) lies whole inside the window and inside
# its own panel's box (which clips what overflows it).
HEADS_SHOWN = """() => [...document.querySelectorAll('.step-panel')].flatMap((panel) => {
  const box = panel.getBoundingClientRect();
  return [...panel.querySelectorAll('.step-head .caption, .step-head dl.stats, .current-node > .muted')].map((el) => {
    const r = el.getBoundingClientRect();
    const inside = r.top >= Math.max(0, box.top) - 0.5 && r.bottom <= Math.min(innerHeight, box.bottom) + 0.5;
    return inside ? null : `${panel.dataset.algorithm} ${el.className}: ${Math.round(r.top)}–${Math.round(r.bottom)}`;
  }).filter(Boolean);
})"""


def test_two_searches_on_a_typed_graph_keep_their_heads_on_a_projector(projector, live_server):
    """Romania, breadth-first beside A*, at 853×480: at every step, in large text too, and after a tree node is
    clicked in either panel, each panel's caption, counts and g, h, f stay on screen."""
    page = projector
    page.goto(f"{live_server}/step?problem=graph&algorithms=bfs,astar")
    ready(page)
    page.click('#step-form button[type="submit"]')
    ready(page)
    steps = int(re.search(r"of (\d+)", page.locator("#step-stepper .step-count").text_content()).group(1))
    try:
        for large in (False, True):
            if large:
                page.locator("#large-text").check()
            page.keyboard.press("Home")
            for step in range(steps + 1):
                expect(page.locator("#step-stepper")).to_have_attribute("data-step", str(step))
                assert page.evaluate(HEADS_SHOWN) == [], f"step {step}, large text {large}"
                page.keyboard.press("PageDown")
            page.keyboard.press("t")  # two searches on a short screen: the trees in place of the lists
            for panel in page.locator(".step-panel").all():
                panel.locator(".tree-scroll [data-id]").last.click()
                assert page.evaluate(HEADS_SHOWN) == [], f"after a click in a tree, large text {large}"
            page.keyboard.press("t")
    finally:
        page.locator("#large-text").uncheck()
        page.evaluate("localStorage.clear()")


ROMANIA = {"Arad", "Zerind", "Oradea", "Sibiu", "Timisoara", "Lugoj", "Mehadia", "Drobeta", "Craiova", "Rimnicu Vilcea",
           "Fagaras", "Pitesti", "Bucharest", "Giurgiu", "Urziceni", "Hirsova", "Eforie", "Vaslui", "Iasi", "Neamt"}


def test_the_enlarged_map_names_every_city_and_follows_the_clicker(projector, live_server):
    """On the projector, a panel's corner names only the start, the goal and the path; Enlarge shows the whole map
    of Romania (its 20 cities, as in Russell & Norvig) and keeps following PageDown; at the end A*'s path is the
    book's Arad, Sibiu, Rimnicu Vilcea, Pitesti, Bucharest (4 roads marked); Escape closes it and the clicker
    steps the page again."""
    page = projector
    page.goto(f"{live_server}/step?problem=graph&data=romania&algorithms=ucs,astar")
    ready(page)
    page.click('#step-form button[type="submit"]')
    ready(page)
    panel = page.locator('.step-panel[data-algorithm="astar"]')
    corner = set(panel.locator(".current-node svg text.node-name").all_text_contents())
    assert {"Arad", "Bucharest"} <= corner and len(corner) < len(ROMANIA)
    panel.locator(".current-node svg").click()  # presenting, the picture itself enlarges
    dialog = page.locator("dialog.picture-large")
    expect(dialog).to_be_visible()
    assert set(dialog.locator("svg text.node-name").all_text_contents()) == ROMANIA
    stepper = page.locator("#step-stepper")
    for _ in range(3):
        before = int(stepper.get_attribute("data-step"))
        page.keyboard.press("PageDown")
        expect(stepper).to_have_attribute("data-step", str(before + 1))
        expect(dialog.locator("h2")).to_contain_text(f"step {before + 1}")
        assert dialog.locator("svg").get_attribute("data-node") == panel.locator(".current-node svg").get_attribute(
            "data-node")
    page.keyboard.press("End")
    expect(dialog.locator("svg")).to_have_attribute("data-node", "Bucharest")
    marked = dialog.locator("svg line.edge.on")
    expect(marked).to_have_count(4)
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    panel.locator("button.enlarge").focus()  # the keyboard's way: the button shows once it has the focus
    expect(panel.locator("button.enlarge")).to_be_visible()
    page.keyboard.press("Enter")
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    page.keyboard.press("Home")
    expect(stepper).to_have_attribute("data-step", "0")
    page.keyboard.press("PageDown")
    expect(stepper).to_have_attribute("data-step", "1")


#: Per panel: whether the frontier's first entry lies whole inside the panel and the window
FRONTIER_HEAD = """() => [...document.querySelectorAll('.step-panel')].map((panel) => {
  const box = panel.getBoundingClientRect();
  const first = panel.querySelector('ol.frontier li');
  const r = first && first.getClientRects()[0];
  return !!r && r.top >= Math.max(0, box.top) - 0.5 && r.bottom <= Math.min(innerHeight, box.bottom) + 0.5;
})"""


def loaded_romania_race(page, live_server):
    """Uniform-cost beside A* on typed Romania, loaded (the presenting layout)."""
    page.goto(f"{live_server}/step?problem=graph&data=romania&algorithms=ucs,astar&heuristic=given")
    ready(page)
    page.click('#step-form button[type="submit"]')
    ready(page)
    return page


def test_two_searches_on_romania_show_the_head_of_each_frontier(projector, live_server):
    """Issue 42: at 853×480, uniform-cost beside A* on Romania at step 12 showed one line of each frontier and none
    in large text. Each frontier's first entry is on screen, in large text too."""
    page = loaded_romania_race(projector, live_server)
    try:
        for large in (False, True):
            if large:
                page.locator("#large-text").check()
            page.keyboard.press("Home")
            for _ in range(12):
                page.keyboard.press("PageDown")
            expect(page.locator("#step-stepper")).to_have_attribute("data-step", "12")
            page.wait_for_function("() => new Promise((done) => requestAnimationFrame(() => done(true)))")
            assert page.evaluate(FRONTIER_HEAD) == [True, True], f"large text {large}"
    finally:
        page.locator("#large-text").uncheck()
        page.evaluate("localStorage.clear()")


# The smallest size on screen, in px to 1/100, of the texts a selector finds (an SVG's text scaled by its picture's
# size).
SMALLEST_TEXT = """(selector) => {
  const sizes = [...document.querySelectorAll(selector)].filter((t) => t.getBBox().width > 0).map((t) => {
    const m = t.getScreenCTM();
    return parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
  });
  return sizes.length ? Math.round(Math.min(...sizes) * 100) / 100 : null;  // a computed size keeps 1/64 px
}"""
# The tree nodes, as far as they show in their box, that a tree's tools or its "Legend" lie on.
TOOLS_ON_NODES = """() => [...document.querySelectorAll('.step-panel')].flatMap((panel) => {
  const tools = [...panel.querySelectorAll('.tree-tools, .tree-legend-box > summary')]
    .map((e) => e.getBoundingClientRect());
  const box = panel.querySelector('.tree-scroll').getBoundingClientRect();
  return [...panel.querySelectorAll('.tree-scroll [data-id]')].map((node) => {
    const r = node.getBoundingClientRect();
    const seen = { left: Math.max(r.left, box.left), right: Math.min(r.right, box.right),
                   top: Math.max(r.top, box.top), bottom: Math.min(r.bottom, box.bottom) };
    const hit = seen.left < seen.right && seen.top < seen.bottom &&
      tools.some((t) => seen.left < t.right && t.left < seen.right && seen.top < t.bottom && t.top < seen.bottom);
    return hit ? `${panel.dataset.algorithm} node ${node.dataset.id}` : null;
  }).filter(Boolean);
})"""
CONTROLS_ON_SCREEN = """() => [...document.querySelectorAll('.player-controls button, #copy-link')]
  .every((b) => {
    const r = b.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  })"""


#: The corner maps' labels that run past their picture's sides, each with the name it stands for.
LABELS_OUTSIDE = """() => [...document.querySelectorAll('.current-node svg')].flatMap((svg) => {
    const box = svg.getBoundingClientRect();
    return [...svg.querySelectorAll('text')].filter((text) => {
        const r = text.getBoundingClientRect();
        return r.left < box.left - 0.5 || r.right > box.right + 0.5;
    }).map((text) => text.textContent);
})"""
#: The corner maps' shortened names, each with the whole name its node's tooltip gives.
SHORTENED = """() => [...document.querySelectorAll('.current-node svg text.node-name')]
    .filter((text) => text.textContent.endsWith('…'))
    .map((text) => [text.textContent, text.parentNode.querySelector('title')?.textContent,
                     getComputedStyle(text).pointerEvents])"""


def test_romanias_map_and_tree_read_at_14_px_on_a_projector_with_no_tool_on_a_node(projector, live_server):
    """Issue 42: at 853×480, uniform-cost beside A* on Romania drew the corner map's names at 8.2 px and its costs at
    6.6 px, the tree's values at 12 px, and the tree's toolbar and "Legend" over its nodes. At every step to 12 and
    in large text: each map's names and costs and each tree's labels are at least 14 px on screen, enlarged too; no
    tool lies on a node, also after a node is clicked; the player's controls stay on screen."""
    page = loaded_romania_race(projector, live_server)
    try:
        for large in (False, True):
            if large:
                page.locator("#large-text").check()
            page.keyboard.press("Home")
            costed, shortened = 0, set()
            for step in range(13):
                expect(page.locator("#step-stepper")).to_have_attribute("data-step", str(step))
                page.wait_for_function("() => new Promise((done) => requestAnimationFrame(() => done(true)))")
                where = f"step {step}, large text {large}"
                assert page.evaluate(SMALLEST_TEXT, ".current-node svg text.node-name") >= 14, where
                assert page.evaluate(LABELS_OUTSIDE) == [], where
                for short, whole, pointer in page.evaluate(SHORTENED):  # hovered, it shows the whole name
                    assert whole in ROMANIA and whole.startswith(short[:-1]) and pointer != "none", where
                shortened.update(whole for _, whole, _ in page.evaluate(SHORTENED))
                costs = page.evaluate(SMALLEST_TEXT, ".current-node svg text.edge-cost")  # once a road is taken
                assert costs is None or costs >= 14, where
                costed += costs is not None
                assert page.evaluate(CONTROLS_ON_SCREEN), where
                page.keyboard.press("t")  # two searches on a short screen: the trees in place of the lists
                page.wait_for_function("() => new Promise((done) => requestAnimationFrame(() => done(true)))")
                assert page.evaluate(SMALLEST_TEXT, ".tree-scroll svg text") >= 14, where
                assert page.evaluate(TOOLS_ON_NODES) == [], where
                assert page.evaluate(CONTROLS_ON_SCREEN), where
                page.keyboard.press("t")
                page.keyboard.press("PageDown")
            assert costed > 6, f"roads' costs drawn at {costed} of 13 steps"
            assert "Rimnicu Vilcea" in shortened  # A*'s third node: wider than the corner, it was cut short
            page.keyboard.press("t")
            for panel in page.locator(".step-panel").all():
                panel.locator(".tree-scroll [data-id]").last.click()
                assert abs(page.evaluate("document.querySelector('.stage').getBoundingClientRect().top")) < 1
                assert page.evaluate(TOOLS_ON_NODES) == [], f"after a click, large text {large}"
            page.keyboard.press("t")
        page.locator('.step-panel[data-algorithm="astar"] .current-node svg').click()
        dialog = page.locator("dialog.picture-large")
        expect(dialog).to_be_visible()
        expect(dialog.locator("svg text.node-name")).to_have_count(len(ROMANIA))
        assert page.evaluate(SMALLEST_TEXT, "dialog.picture-large svg text") >= 14
        page.keyboard.press("Escape")
        expect(dialog).to_be_hidden()
    finally:
        page.evaluate("document.querySelector('dialog.picture-large')?.close()")
        page.locator("#large-text").uncheck()
        page.evaluate("localStorage.clear()")


def test_a_slide_in_large_text_scrolls_its_own_column_and_keeps_the_controls(projector, live_server):
    """Issue 42: in large text the first slide of the A* lesson ran to 506–709 px of a 480 px projector with no
    scroll. Its column now scrolls to its last link, the player stays on screen, and the tree's "+n" is 14 px."""
    page = projector
    page.goto(f"{live_server}/lessons/astar/1")
    ready(page)
    try:
        page.locator("#large-text").check()
        column = page.locator(".stage .lesson")
        assert page.evaluate(CONTROLS_ON_SCREEN)
        box = column.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= PROJECTOR["height"]
        last = column.locator("a").last
        last.scroll_into_view_if_needed()
        link = last.bounding_box()
        assert 0 <= link["y"] and link["y"] + link["height"] <= PROJECTOR["height"]
        # the column scrolled, not the page under the stage
        assert abs(page.evaluate("document.querySelector('.stage').getBoundingClientRect().top")) < 1
        page.keyboard.press("t")  # two searches on a short screen: the trees in place of the lists
        page.wait_for_function("() => new Promise((done) => requestAnimationFrame(() => done(true)))")
        assert page.evaluate(SMALLEST_TEXT, ".tree-scroll svg text.t-count") >= 14
    finally:
        page.locator("#large-text").uncheck()
        page.evaluate("localStorage.clear()")
