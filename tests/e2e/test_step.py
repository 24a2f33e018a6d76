"""The step-through and the lessons in a real browser: every algorithm to its end on tiles and on the graph."""

import re

import pytest
from playwright.sync_api import expect

from tests.support.waiting import wait_until

pytestmark = pytest.mark.e2e

PAIRS = [("bfs", "dfs"), ("ids", "ucs"), ("greedy", "astar"), ("idastar", "bidirectional")]


def load(page, problem, first, second, **fields):
    if page.locator("#setup-toggle").is_visible():  # the form folds away after a Load
        page.click("#setup-toggle")
    kind, _, size = problem.partition(":")
    page.select_option('#step-form select[name="problem"]', kind)
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    if size:
        page.select_option('#step-form select[name="size"]', size)
        expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    for name, value in fields.items():
        page.fill(f'#step-form input[name="{name}"]', value)
    page.select_option('#step-form select[name="first"]', first)
    page.select_option('#step-form select[name="second"]', second)
    page.click('#step-form button[type="submit"]')
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")


@pytest.fixture(scope="module")
def step_page(browser, live_server):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{live_server}/step")
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    yield page, errors
    context.close()


@pytest.mark.parametrize("problem", ["tiles:3x3", "numbered-graph"])
@pytest.mark.parametrize("first,second", PAIRS)
def test_every_algorithm_steps_to_the_end_with_the_engines_counts(step_page, live_server, problem, first, second):
    page, errors = step_page
    load(page, problem, first, second, **({"scramble": "6", "seed": "3"} if problem == "tiles:3x3" else {}))
    request = {"algorithms": [first, second], "depth_limit": 12}
    request.update({"problem": "numbered-graph", "heuristic": "straight-line", "start": 0, "goal": 6}
                   if problem == "numbered-graph" else
                   {"problem": "tiles", "size": "3x3", "goal": "blank-last", "heuristic": "manhattan",
                    "scramble": 6, "seed": 3})
    answer = page.request.post(f"{live_server}/api/step", data=request).json()
    panels = page.locator(".step-panel")
    line = panels.nth(0).get_attribute("data-line")
    page.click('#step-stepper [data-act="forward"]')
    page.click('#step-stepper [data-act="forward"]')
    assert panels.nth(0).get_attribute("data-line") != line  # the highlighted pseudocode line moves
    expect(panels.nth(0).locator('ol[aria-label="Pseudocode"] li[aria-current="step"]')).to_have_count(1)
    page.click('#step-stepper [data-act="end"]')
    for i, trace in enumerate(answer["traces"]):
        panel = panels.nth(i)
        expect(panel).to_have_attribute("data-algorithm", trace["algorithm"])
        expect(panel).to_have_attribute("data-done", "1")
        expect(panel).to_have_attribute("data-expanded", str(trace["result"]["nodes_expanded"]))
        expect(panel).to_have_attribute("data-generated", str(trace["result"]["nodes_generated"]))
        expect(panel.locator('[data-stat="expanded"]')).to_have_text(str(trace["result"]["nodes_expanded"]))
    # step back through an iteration boundary and forward again: no error on the way
    for _ in range(3):
        page.click('#step-stepper [data-act="back"]')
    page.click('#step-stepper [data-act="end"]')
    assert not errors, errors


def test_ida_star_iterations_are_steps_with_their_reason(step_page):
    page, errors = step_page
    load(page, "tiles:3x3", "idastar", "", scramble="10", seed="2")
    panel = page.locator(".step-panel").first
    for _ in range(40):
        page.click('#step-stepper [data-act="forward"]')
        if "New iteration" in (panel.locator(".caption").text_content() or ""):
            break
    expect(panel.locator(".caption")).to_contain_text("least f among them")
    expect(panel.locator('[data-stat="bound"]')).to_be_visible()
    assert not errors, errors


def test_tree_nodes_explain_themselves_and_new_scramble_changes_the_seed(step_page):
    page, errors = step_page
    load(page, "tiles:3x3", "astar", "")
    seed = page.input_value('#step-form input[name="seed"]')
    page.click("#setup-toggle")
    page.click("#new-scramble")
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    assert page.input_value('#step-form input[name="seed"]') != seed
    for _ in range(3):
        page.click('#step-stepper [data-act="forward"]')
    panel = page.locator(".step-panel").first
    panel.locator(".tree-scroll .t-frontier").first.click()
    expect(panel.locator(".node-details")).to_contain_text("f")
    expect(panel.locator(".node-details")).to_contain_text("frontier")
    size = panel.locator(".tree-scroll text").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 12
    # the graph hides the tile controls
    page.select_option('#step-form select[name="problem"]', "graph")
    expect(page.locator('#step-form [data-for="tiles"]')).to_be_hidden()
    expect(page.locator('#step-form [data-for="graph"]')).to_be_visible()
    assert not errors, errors


def test_a_lesson_played_through(page, live_server):
    page.goto(f"{live_server}/")
    page.click("text=Guided lessons")
    page.click("text=Breadth-first against depth-first")
    slides = 0
    while True:
        slides += 1
        expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
        expect(page.locator(".step-panel").first).to_be_visible()
        assert page.url.split("?")[0].endswith(f"/lessons/bfs-dfs/{slides}")  # the query names the step shown
        nxt = page.locator('a[rel="next"]')
        if slides == 4:
            expect(nxt).to_contain_text("Next lesson")  # the last slide leads on to the next lesson
            break
        nxt.click()
        page.wait_for_url(f"**/lessons/bfs-dfs/{slides + 1}*")
    assert slides == 4
    # the last slide opens on iterative deepening's third iteration
    expect(page.locator(".step-panel").first.locator(".caption")).to_contain_text("depth limit 2")


PROJECTOR = {"width": 853, "height": 480}  # 1280×720 at 150 %


def assert_on_screen(page, selector):
    """The element is displayed inside the viewport, once the layout has settled (the tree is drawn a frame later)."""
    width, height = PROJECTOR["width"], PROJECTOR["height"]

    def inside():
        box = page.locator(selector).bounding_box()
        assert box is not None, f"{selector} is not displayed"
        assert 0 <= box["x"] and box["x"] + box["width"] <= width + 0.5, (selector, box)
        assert 0 <= box["y"] and box["y"] + box["height"] <= height + 0.5, (selector, box)
        return True

    settled(inside)


def assert_code_line_shown(page, panel=0):
    """The marked line is inside the viewport and inside the box that scrolls the code (not hidden by it)."""
    line = page.locator(".step-panel").nth(panel).locator('li[aria-current="step"]')

    def shown():
        box, clip = line.bounding_box(), line.locator("xpath=../..").bounding_box()
        assert clip["y"] - 0.5 <= box["y"] and box["y"] + box["height"] <= clip["y"] + clip["height"] + 0.5, (box,
                                                                                                              clip)
        assert 0 <= box["y"] and box["y"] + box["height"] <= PROJECTOR["height"] + 0.5, box
        return True

    settled(shown)


def settled(check, timeout=5.0):
    """``check()`` passes within ``timeout`` (it raises AssertionError until then); its last failure if never."""
    try:
        wait_until(check, timeout, ignore=(AssertionError,))
    except AssertionError:
        check()
        raise


def step_of(page):
    return int(page.locator("#step-stepper").get_attribute("data-step"))


@pytest.fixture
def projector(browser):
    context = browser.new_context(viewport=PROJECTOR)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield page
    context.close()
    assert not errors, errors


def test_at_a_projector_after_load_the_player_the_code_line_and_the_tree_share_one_screen(projector, live_server):
    page = projector
    page.goto(f"{live_server}/step")
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    page.click('#step-form button[type="submit"]')
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    expect(page.locator("#step-form")).to_be_hidden()
    for _ in range(3):
        page.keyboard.press("PageDown")
    assert step_of(page) == 3
    assert_code_line_shown(page, 0)
    assert_code_line_shown(page, 1)
    for selector in ('#step-stepper [data-act="forward"]', '.step-panel >> nth=0 >> li[aria-current="step"]',
                     '.step-panel >> nth=1 >> li[aria-current="step"]', ".step-panel >> nth=0 >> .tree-scroll",
                     ".step-panel >> nth=0 >> .node-board", ".step-panel >> nth=0 >> .tree-scroll .t-current circle"):
        assert_on_screen(page, selector)
    # one click brings the form back, and Load folds it again
    page.click("#setup-toggle")
    expect(page.locator("#step-form")).to_be_visible()
    expect(page.locator("#setup-toggle")).to_be_hidden()


def test_a_clicker_and_the_keyboard_drive_the_step_through_and_each_step_is_announced(projector, live_server):
    page = projector
    page.goto(f"{live_server}/step")
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    page.press('#step-form input[name="seed"]', "Enter")  # no mouse: Enter submits, focus lands on "Step forward"
    expect(page.locator("#step-form")).to_be_hidden()
    expect(page.locator('#step-stepper [data-act="forward"]')).to_be_focused()
    page.keyboard.press("PageDown")
    assert step_of(page) == 1
    page.keyboard.press("ArrowRight")
    assert step_of(page) == 2
    page.keyboard.press("Space")  # on the focused button: one step, not two
    assert step_of(page) == 3
    expect(page.locator("#announcer")).to_contain_text("Step 3 of")
    caption = page.locator(".step-panel .caption").first.text_content()
    expect(page.locator("#announcer")).to_contain_text(caption)
    page.keyboard.press("PageUp")
    page.keyboard.press("ArrowLeft")
    assert step_of(page) == 1
    page.keyboard.press("End")
    total = int(page.locator('#step-stepper [data-role="total"]').text_content())
    assert step_of(page) == total > 3
    page.keyboard.press("Home")
    assert step_of(page) == 0
    # typing in a field is typing: the step stays
    page.click("#setup-toggle")
    page.focus('#step-form input[name="tiles"]')
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    assert step_of(page) == 0


def test_a_lesson_at_a_projector_steps_then_turns_the_slide(projector, live_server):
    page = projector
    page.goto(f"{live_server}/lessons/bfs-dfs/1")
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    for selector in ('#step-stepper [data-act="forward"]', '.step-panel li[aria-current="step"]', ".tree-scroll",
                     ".step-panel svg.graph"):
        assert_on_screen(page, selector)
    page.keyboard.press("PageDown")
    page.keyboard.press("ArrowRight")
    assert step_of(page) == 2
    assert_on_screen(page, '.step-panel li[aria-current="step"]')
    page.keyboard.press("End")
    page.keyboard.press("PageDown")  # past the last step: the next slide
    page.wait_for_url("**/lessons/bfs-dfs/2*")
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    page.keyboard.press("Home")
    page.keyboard.press("PageUp")  # before the first step: the slide before
    page.wait_for_url("**/lessons/bfs-dfs/1*")
    # a slide that opens deep in a search shows its marked line too
    page.goto(f"{live_server}/lessons/idastar/2")
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    total = page.locator("#step-stepper [data-role=total]").text_content()
    expect(page.locator("#slide-step")).to_have_text(f"step {step_of(page)} of {total}")
    assert_code_line_shown(page)
    assert_on_screen(page, '#step-stepper [data-act="forward"]')
    assert_on_screen(page, ".tree-scroll")


def test_a_graph_with_costs_is_rearranged_in_place_and_the_search_reruns(page, live_server):
    page.goto(f"{live_server}/step?problem=numbered-graph")
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    page.select_option('#step-form select[name="first"]', "ucs")
    page.select_option('#step-form select[name="second"]', "bfs")
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    page.keyboard.press("End")
    cheapest, fewest = page.locator(".step-panel .caption").nth(0), page.locator(".step-panel .caption").nth(1)
    expect(cheapest).to_contain_text("costing 12 (0 → 1 → 3 → 4 → 6)")
    expect(cheapest).to_contain_text("The cheapest path.")
    expect(fewest).to_contain_text("costing 16 (0 → 2 → 4 → 6)")
    expect(fewest).to_contain_text("not necessarily the cheapest")
    # the costs are drawn; making 3–4 dearer (keyboard: focus it, arrow up) sends uniform-cost search the short way
    cost = page.locator('#step-graph [data-edge="3,4"]')
    expect(cost).to_have_text("2")
    for _ in range(6):
        cost.focus()
        page.keyboard.press("ArrowUp")
    expect(cost).to_have_text("8")
    expect(cheapest).to_contain_text("costing 16 (0 → 2 → 4 → 6)")
    assert int(page.locator("#step-stepper").get_attribute("data-step")) == int(
        page.locator('#step-stepper [data-role="total"]').text_content())  # it reran and shows the end
    # a click makes node 5 the goal, at once
    page.locator('#step-graph [data-node="5"]').click()
    expect(page.locator('#step-form input[name="to"]')).to_have_value("5")
    expect(cheapest).to_contain_text("→ 5)")
    # dragging a node moves it and reruns too (A*'s h is measured on the drawing)
    node = page.locator('#step-graph [data-node="6"] circle').bounding_box()
    page.mouse.move(node["x"] + node["width"] / 2, node["y"] + node["height"] / 2)
    page.mouse.down()
    page.mouse.move(node["x"] - 60, node["y"] - 40, steps=4)
    page.mouse.up()
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    saved = page.evaluate("JSON.parse(localStorage.getItem('puzzle-playground-graph'))")
    assert saved["positions"][6][0] < 80 and saved["costs"][saved["edges"].index([3, 4])] == 8
    page.evaluate("localStorage.clear()")


def test_a_stars_frontier_list_drops_the_out_of_date_entry(page, live_server):
    page.goto(f"{live_server}/step")
    load(page, "tiles:3x3", "astar", "", scramble="16", seed="2")
    page.keyboard.press("End")
    panel = page.locator(".step-panel").first
    frontier = int(panel.locator('[data-stat="frontier"]').text_content())
    listed = panel.locator("ol.frontier li").count()
    more = panel.locator(".frontier-more").text_content()
    shown = listed + (int(more.split()[2]) if more.startswith("… and") else 0)
    assert shown == frontier == 147
    assert panel.locator(".tree-scroll .t-stale").count() + panel.locator(".tree-scroll .t-folded").count() >= 1


def frontier_shown_and_listed(panel) -> tuple[int, int]:
    frontier = int(panel.locator('[data-stat="frontier"]').text_content())
    more = panel.locator(".frontier-more").text_content()
    return frontier, panel.locator("ol.frontier li").count() + (int(more.split()[2]) if more.startswith("… and") else 0)


def test_bidirectional_searchs_frontier_count_is_what_its_two_queues_list(page, live_server):
    """At every step, up to the meeting that ends it, the count says as many nodes as the two queues list."""
    page.goto(f"{live_server}/step?problem=graph&algorithms=bidirectional")
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    panel = page.locator(".step-panel").first
    steps = len(page.request.post(f"{live_server}/api/step", data={
        "problem": "graph", "graph": "romania", "algorithms": ["bidirectional"]}).json()["traces"][0]["steps"])
    for step in range(1, steps + 1):
        page.click('#step-stepper [data-act="forward"]')
        expect(page).to_have_url(re.compile(rf"[?&]step={step}(&|$)"))
        shown, listed = frontier_shown_and_listed(panel)
        assert shown == listed, f"step {step}: the count says {shown}, the queues list {listed}"
    expect(panel).to_have_attribute("data-done", "1")
