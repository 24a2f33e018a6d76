"""axe-core over every page (and the states that add markup: a solution player, a running job, a slide): no serious
or critical violation. axe is injected into a context that bypasses the page's CSP; the app never serves it."""

import json
import os
import re
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from flask import url_for
from playwright.sync_api import expect

from app import create_app

pytestmark = pytest.mark.e2e

AXE = (Path(__file__).parent / "vendor" / "axe-4.14.1.min.js").read_text()
#: subject pages whose bare address draws a random position: opened on a seeded one instead
SEEDED = {"/play": "/play?size=3x3&random=1&seed=2", "/compare": "/compare?size=3x3&random=1&seed=2"}
#: pages and states a subject's own page does not show (other problems, sub-pages, a slide)
STATES = ["/step?problem=numbered-graph", "/step?problem=graph", "/step?problem=grid", "/classic/queens",
          "/classic/knights", "/classic/graph", "/lessons/astar/2", "/class/", "/class/practice?seed=4",
          "/batch?fill=korf100"]


def subject_pages() -> list[str]:
    """The home page and every registered subject's page (a new subject is checked by being registered)."""
    app = create_app({"TESTING": True, "DATA_DIR": os.environ["PUZZLE_DATA_DIR"], "BUILD_TABLES": False})
    with app.test_request_context():
        paths = [url_for(subject.endpoint) for subject in app.extensions["subjects"]]
    return ["/", *(SEEDED.get(path, path) for path in paths)]


PAGES = list(dict.fromkeys(subject_pages() + STATES))


@pytest.fixture(scope="module")
def axe_page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    page = context.new_page()
    yield page
    context.close()


def serious(page) -> list[str]:
    page.add_script_tag(content=AXE)
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.filter(v => ['serious', 'critical'].includes(v.impact))
            .map(v => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`);
    }""")
    return found


@pytest.mark.parametrize("path", PAGES)
def test_no_serious_or_critical_violation(axe_page, live_server, path):
    axe_page.goto(live_server + path)
    axe_page.wait_for_load_state("networkidle")
    assert serious(axe_page) == []


def test_a_solution_player_and_the_step_through_after_steps(axe_page, live_server):
    axe_page.goto(f"{live_server}/play?size=3x3&goal=blank-last&tiles=1,2,3,4,0,5,7,8,6")
    axe_page.click("#solve-button")
    expect(axe_page.locator(".result .player-controls")).to_be_visible()
    assert serious(axe_page) == []
    axe_page.check("#show-h")  # the heuristic drawn on the tile buttons leaves their names alone
    expect(axe_page.locator("#board .h-badge")).to_have_count(8)
    assert serious(axe_page) == []
    axe_page.goto(f"{live_server}/step")
    expect(axe_page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    for _ in range(5):
        axe_page.click('#step-stepper [data-act="forward"]')
    axe_page.locator(".tree-scroll [data-id]").first.click()
    assert serious(axe_page) == []
    axe_page.locator(".step-panel button.enlarge").first.click()  # the picture enlarged, over the page
    expect(axe_page.locator("dialog.picture-large")).to_be_visible()
    assert serious(axe_page) == []


def test_compare_with_its_results_and_research_with_its_bounds_table(axe_page, live_server):
    """The states whose markup (charts, a flagged table) only a finished job adds."""
    axe_page.goto(f"{live_server}/compare?size=3x3&goal=blank-last&tiles=8,6,7,2,5,4,3,0,1")
    axe_page.check("input[value='bfs:']")
    axe_page.click("#compare-button")
    expect(axe_page.locator(".compare-chart")).to_have_count(3, timeout=60_000)
    assert serious(axe_page) == []
    axe_page.goto(f"{live_server}/research/")
    axe_page.fill("#bounds input[name=n_max]", "4")
    axe_page.click("#bounds button.primary")
    expect(axe_page.locator("#bounds-out tr.flag").first).to_be_visible(timeout=120_000)
    assert serious(axe_page) == []
    axe_page.reload()  # the page drawn with the newest table, as a later visitor sees it
    expect(axe_page.locator("#bounds-out tr.flag").first).to_be_visible()
    assert serious(axe_page) == []
    axe_page.set_viewport_size({"width": 390, "height": 844})  # where the table and the chart scroll sideways
    try:
        axe_page.reload()
        expect(axe_page.locator("#bounds-out .chart")).to_have_attribute("tabindex", "0")
        scrolling = axe_page.evaluate("""() => [...document.querySelectorAll('.table-scroll, .chart, table')]
            .filter((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === 'auto')
            .map((el) => [el.tagName, ...['tabindex', 'role', 'aria-label'].map((a) => el.getAttribute(a))])""")
        assert scrolling and all(tab == "0" and (tag == "TABLE" or role == "region" and label)
                                 for tag, tab, role, label in scrolling), scrolling
        assert serious(axe_page) == []
    finally:
        axe_page.set_viewport_size({"width": 1280, "height": 900})


#: Pages opened at once, each in its own tab, while the others settle: the wait for a quiet network is most of a
#: page's time here, and tabs wait it out together.
TABS = 6


def test_no_page_is_wider_than_a_phone(browser, live_server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    tabs = [context.new_page() for _ in range(TABS)]
    wide = {}
    for first in range(0, len(PAGES), TABS):
        opened = list(zip(tabs, PAGES[first:first + TABS], strict=False))
        for tab, path in opened:
            tab.goto(live_server + path, wait_until="commit")
        for tab, path in opened:
            tab.wait_for_load_state("networkidle")
            width = tab.evaluate("document.documentElement.scrollWidth")
            if width > 390:
                wide[path] = width
    context.close()
    assert wide == {}


def test_the_step_through_presenting_with_the_tree_fitted(axe_page, live_server):
    """After Load the form folds and the stage fills the window; Fit, the legend and a folded count add markup."""
    axe_page.set_viewport_size({"width": 853, "height": 480})
    axe_page.goto(f"{live_server}/step")
    expect(axe_page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    axe_page.click('#step-form button[type="submit"]')
    expect(axe_page.locator("#setup-toggle")).to_be_visible()
    axe_page.keyboard.press("End")
    axe_page.keyboard.press("t")  # two searches on a short screen: the trees in place of the lists
    axe_page.locator(".step-panel").first.get_by_role("button", name="Fit the whole tree").click()
    axe_page.locator(".tree-legend-box > summary").first.click()
    assert serious(axe_page) == []
    axe_page.set_viewport_size({"width": 1280, "height": 900})


def one_move_from_goal(size: str) -> str:
    """The blank-last goal of a board with its last tile and the blank swapped: one move to solve, so a solve, a
    compare or a player takes milliseconds on any size."""
    rows, cols = (int(n) for n in size.split("x"))
    cells = [*range(1, rows * cols), 0]
    cells[-2:] = cells[-1], cells[-2]
    return f"size={size}&goal=blank-last&tiles={','.join(map(str, cells))}"


def press(page, url: str, fields: dict, button: str, done: str) -> None:
    page.goto(url)
    for selector, value in fields.items():
        page.fill(selector, value)
    page.click(button)
    expect(page.locator(done).first).to_be_visible(timeout=60_000)


def step_through(page, url: str) -> None:
    """Load two algorithms side by side and step both: the widest view of the step-through (a link that names its
    view, as the home page's "Type a graph" does, opens it already loaded)."""
    page.goto(url)
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    if "algorithms=" not in url:
        page.select_option("#step-form select[name=second]", "astar")
        page.click('#step-form button[type="submit"]')
    expect(page.locator(".step-panel")).to_have_count(2)
    for _ in range(5):
        page.click('#step-stepper [data-act="forward"]')
    expect(page).to_have_url(re.compile(r"[?&]step=5(&|$)"))


#: a view the lesson writer is opened with, as the step-through's "Add to lesson" sends it
WRITTEN_VIEW = "/step?problem=numbered-graph&from=0&to=6&algorithms=bfs&heuristic=zero&step=3"


def test_a_lecturers_own_lesson_its_writer_and_a_slide(axe_page, live_server):
    """The writer with a slide added, a stored lesson's page with its verdicts, and one of its slides presented."""
    from tests.app.test_own_lessons import FIVE_SLIDES

    axe_page.goto(f"{live_server}/lessons/write?add={quote(WRITTEN_VIEW)}")
    expect(axe_page.locator(".writer-slide")).to_have_count(1)
    assert serious(axe_page) == []
    answer = axe_page.request.post(f"{live_server}/lessons/check", form={"lesson": json.dumps(FIVE_SLIDES)},
                                   headers={"Accept": "application/json", "Origin": live_server})
    link = answer.json()["link"]
    axe_page.goto(live_server + answer.json()["summary"])
    assert serious(axe_page) == []
    axe_page.goto(f"{live_server}{link}/2")
    expect(axe_page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    assert serious(axe_page) == []


def lesson_slide(page, url: str) -> None:
    page.goto(url)
    page.locator("main a[href*='/lessons/']").first.click()
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    for _ in range(3):
        page.keyboard.press("PageDown")


def class_lecturer_and_student(page, url: str) -> None:
    """The class page sends the lecturer to a step-through to start a class; a student joins it by its code."""
    page.goto(url)
    page.locator("main a[href^='/step']").first.click()
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    page.get_by_role("button", name="Start a class").click()
    code = page.locator(".class-dock .class-code").text_content()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the lecturer's view with its class dock"
    page.goto(f"{url.rstrip('/')}/{code}")
    expect(page.locator(".class-bar")).to_contain_text("following the lecturer")


#: Each page the home page links to, by its path, and its main action: the one that adds the widest markup (a result
#: table, a chart, a player, a second search). Small inputs keep each action to seconds; a link to a random position
#: (the home page's "Play the 15-puzzle") is acted on at a position of the same size one move from solved.
MAIN_ACTIONS = {
    "/": lambda page, url: page.goto(url),
    "/play": lambda page, url: press(page, f"{url.split('?')[0]}?{one_move_from_goal(size_of(url))}", {},
                                     "#solve-button", ".result .player-controls"),
    "/compare": lambda page, url: press(page, f"{url.split('?')[0]}?{one_move_from_goal(size_of(url))}", {},
                                        "#compare-button", ".compare-item .board"),
    "/classic/": lambda page, url: press(page, f"{url}queens", {}, "#queens-out >> xpath=.. >> button.primary",
                                         "#queens-out .queens-results"),
    "/learned/": lambda page, url: press(page, url, {"input[name=walks]": "2000"},
                                         "#train-out >> xpath=.. >> button.primary", "#tables tr.trained"),
    "/research/": lambda page, url: press(page, url, {}, "#bfs button.primary", "#bfs-out .research-result"),
    "/meta/": lambda page, url: press(page, url, {'input[name="depth"]': "4", 'input[name="iterations"]': "50"},
                                      ".meta-form button.primary", "#meta-run .result"),
    "/rectout/": lambda page, url: press(page, url, {'#rectout-solve input[name="max_states"]': "50"},
                                         "#rectout-solve button.primary", "#rectout-out .result"),
    "/step": step_through,
    "/lessons/": lesson_slide,
    "/lessons/write": lambda page, url: press(page, f"{url}?add={quote(WRITTEN_VIEW)}", {}, "#writer-add",
                                              ".writer-slide"),
    "/class/": class_lecturer_and_student,
    "/batch": lambda page, url: press(page, url, {"#batch-positions": "1 2 3 4 5 6 7 0 8\n1 2 3 4 5 6 0 7 8"},
                                      "#batch-solve", ".batch-result tbody tr"),
}


def size_of(url: str) -> str:
    return parse_qs(urlsplit(url).query).get("size", ["3x3"])[0]


def home_links(page, live_server) -> list[str]:
    page.goto(live_server + "/")
    hrefs = page.eval_on_selector_all("a[href^='/']", "links => links.map((a) => a.getAttribute('href'))")
    return list(dict.fromkeys(["/", *hrefs]))


def test_no_page_is_wider_than_a_phone_after_its_main_action(browser, live_server):
    """Every page the home page links to, after its main action, fits a 390-px phone: no sideways scroll."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    links = home_links(page, live_server)
    unknown = [link for link in links if urlsplit(link).path not in MAIN_ACTIONS]
    assert unknown == [], "a page linked from the home page with no main action here"
    wide = {}
    for link in links:
        MAIN_ACTIONS[urlsplit(link).path](page, live_server + link)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            wide[link] = width
    context.close()
    assert len(links) >= len(MAIN_ACTIONS) and wide == {}
