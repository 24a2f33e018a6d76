import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e


def fast(page, stepper):
    page.locator(f'{stepper} [data-act="speed"]').fill("100")
    page.click(f'{stepper} [data-act="play"]')


def test_the_queens_board_animates_to_a_solution(page, live_server):
    page.goto(f"{live_server}/classic/queens")
    page.fill('#queens-watch input[name="n"]', "6")
    page.click("#queens-watch button")
    expect(page.locator("#queens-stepper")).to_have_attribute("data-loaded", "1")
    fast(page, "#queens-stepper")
    expect(page.locator("#queens-stepper")).to_have_attribute("data-solved", "1", timeout=20_000)
    columns = [int(c) for c in page.locator("#queens-stepper").get_attribute("data-queens").split(",")]
    assert len(columns) == 6 and sorted(columns) == list(range(6))
    assert all(abs(columns[a] - columns[b]) != b - a for a in range(6) for b in range(a + 1, 6))
    expect(page.locator("#queens-stepper .sq.queen")).to_have_count(6)


def test_the_queens_comparison_counts_92(page, live_server):
    page.goto(f"{live_server}/classic/queens")
    page.click("form[hx-post] button.primary")
    expect(page.locator(".queens-results .count")).to_have_text(["92", "92", "92"])


def test_step_through_bfs_on_a_4_move_scramble_reaches_the_goal(page, live_server):
    page.goto(f"{live_server}/step")
    page.select_option('#step-form select[name="first"]', "bfs")
    page.select_option('#step-form select[name="second"]', "astar")
    page.fill('#step-form input[name="scramble"]', "4")
    page.click("#step-form button.primary")
    # the form's answer is shown (the page's own first answer, still on its way, would be dropped): step only then,
    # or the form's answer could land after the first step and start the player again
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    panels = page.locator(".step-panel")
    expect(panels).to_have_count(2)
    # step by hand a few times: the first expansion is the start node
    page.click('#step-stepper [data-act="forward"]')
    expect(panels.first).to_have_attribute("data-expanded", "1")
    fast(page, "#step-stepper")
    expect(page.locator("#step-stepper")).to_have_attribute("data-done", "1", timeout=30_000)
    for index in range(2):
        panel = panels.nth(index)
        expect(panel).to_have_attribute("data-done", "1")
        expect(panel.locator(".current-node .node-board")).to_have_attribute("data-cells", "1,2,3,4,5,6,7,8,0")
    bfs, astar = (int(panels.nth(i).get_attribute("data-expanded")) for i in range(2))
    assert astar <= bfs  # the point of the lockstep view
    page.click('#step-stepper [data-act="back"]')
    expect(page.locator("#step-stepper")).to_have_attribute("data-done", "0")


def test_graph_search_lists_the_seed_paths(page, live_server):
    page.goto(f"{live_server}/classic/graph")
    page.click('[data-graph="seed"]')
    page.select_option('#graph-search select[name="strategy"]', "bfs")
    with page.expect_response(lambda r: r.url.endswith("/api/classic/paths") and r.request.method == "POST"):
        page.click("#graph-search button.primary")
    # the search's steps loaded (the seed button left none): only then does play play them
    expect(page.locator('#graph-stepper [data-role="total"]')).not_to_have_text("0")
    fast(page, "#graph-stepper")
    expect(page.locator("#graph-stepper")).to_have_attribute("data-done", "1", timeout=20_000)
    # data-done may still be the previous run's (the page searches once as it opens): wait for the list itself too
    expect(page.locator("#paths-found li")).to_have_text(["0 → 2 → 4 → 6", "0 → 1 → 2 → 4 → 6", "0 → 1 → 3 → 4 → 6",
                                                          "0 → 2 → 1 → 3 → 4 → 6"], timeout=20_000)


def test_drawing_a_graph_and_a_missing_path(page, live_server):
    page.goto(f"{live_server}/classic/graph")
    page.click('[data-graph="clear"]')
    canvas = page.locator("#graph-canvas")
    box = canvas.bounding_box()
    for fx, fy in [(0.2, 0.5), (0.5, 0.5), (0.8, 0.5)]:
        page.mouse.click(box["x"] + fx * box["width"], box["y"] + fy * box["height"])
    expect(canvas.locator("[data-node]")).to_have_count(3)
    # join node 0 to node 1 by dragging
    page.mouse.move(box["x"] + 0.2 * box["width"], box["y"] + 0.5 * box["height"])
    page.mouse.down()
    page.mouse.move(box["x"] + 0.5 * box["width"], box["y"] + 0.5 * box["height"], steps=5)
    page.mouse.up()
    expect(canvas.locator("line")).to_have_count(1)
    page.fill('#graph-search input[name="goal"]', "2")
    page.click("#graph-search button.primary")
    caption = page.locator("#graph-stepper [data-role=caption]")
    expect(caption).to_contain_text("steps recorded")  # Play before the search's answer arrives plays nothing
    fast(page, "#graph-stepper")
    expect(caption).to_contain_text("no path from 0 to 2", timeout=10_000)
    page.click('[data-graph="seed"]')  # leave the stored graph as the seed's for other tests


def test_knights_tour_count_and_warnsdorff(page, live_server):
    page.goto(f"{live_server}/classic/knights?rows=8&cols=8")
    expect(page.locator("#warnsdorff")).to_have_attribute("data-length", "64")
    page.click("form[hx-post] button.primary")
    expect(page.locator(".knights-count .count")).to_have_text("304", timeout=30_000)
