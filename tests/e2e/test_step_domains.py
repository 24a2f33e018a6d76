"""The step-through on a graph typed as data and on a grid drawn with the mouse: an edit searches again at once."""

import json
import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from engine.domains.graph import example

pytestmark = pytest.mark.e2e


#: a 16 × 10 map: a wall to go round and three heavy cells under it
MAP = {"rows": ["." * 16] * 2 + ["." * 8 + "#" + "." * 7] * 5 + ["." * 8 + "#" + "." + "555" + "..."] + ["." * 16] * 2,
       "start": [1, 5], "goal": [14, 5], "connect": 8}


def open_view(page, live_server, problem, **query):
    page.set_viewport_size({"width": 1280, "height": 1200})  # the whole map on screen while the mouse drags
    page.goto(f"{live_server}/step?{urlencode({'problem': problem, **query})}")
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    page.select_option('#step-form select[name="first"]', "astar")
    page.select_option('#step-form select[name="second"]', "")
    expect(page.locator(".step-panel")).to_have_count(1)
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    page.click('#step-stepper [data-act="end"]')


def test_dragging_the_goal_on_a_grid_searches_again(page, live_server):
    open_view(page, live_server, "grid", data=json.dumps(MAP))
    caption = page.locator(".step-panel .caption")
    expect(caption).to_contain_text("(14, 5)")  # the map's goal
    grid = page.locator("#grid-map")
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    cell = (box["width"] / 16, box["height"] / 10)

    def centre(x, y):
        return box["x"] + (x + 0.5) * cell[0], box["y"] + (y + 0.5) * cell[1]

    page.mouse.move(*centre(14, 5))
    page.mouse.down()
    page.mouse.move(*centre(14, 3), steps=4)
    page.mouse.move(*centre(13, 1), steps=4)
    page.mouse.up()
    expect(page.locator('#grid-editor input[data-name="grid_goal_y"]')).to_have_value("1")
    expect(caption).to_contain_text("→ (13, 1))")  # the new answer ends at the cell the goal was dropped on
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    expect(page.locator('#grid-editor input[data-name="grid_goal_x"]')).to_have_value("13")
    # painting a wall across the way also searches again
    page.select_option('#grid-editor select[data-name="grid_brush"]', "#")
    before = caption.text_content()
    page.mouse.move(*centre(11, 0))
    page.mouse.down()
    for y in range(0, 10):
        page.mouse.move(*centre(11, y), steps=2)
    page.mouse.up()
    expect(caption).to_contain_text("No solution")
    assert caption.text_content() != before


def test_editing_a_typed_graph_searches_again(page, live_server):
    open_view(page, live_server, "graph")
    caption = page.locator(".step-panel .caption")
    expect(caption).to_contain_text("costing 418 (Arad → Sibiu → Rimnicu Vilcea → Pitesti → Bucharest)")
    expect(page.locator("#graph-verdict")).to_contain_text("admissible and consistent")
    edges = example("romania")["edges"]
    road = next(i for i, e in enumerate(edges) if {e["from"], e["to"]} == {"Pitesti", "Bucharest"})
    page.fill(f'#graph-editor input[aria-label="edge {road + 1} cost"]', "300")
    # Pitesti–Bucharest at 300 makes the way through it 617: Fagaras's 450 is now the cheapest (a hand check)
    expect(caption).to_contain_text("costing 450 (Arad → Sibiu → Fagaras → Bucharest)")
    # an h above a true cost is called out
    page.fill('#graph-editor input[aria-label="node 1 h"]', "500")  # Arad: the cheapest way costs 450
    expect(page.locator("#graph-verdict")).to_contain_text("not admissible: h(Arad) = 500")


#: Costs whose sums a binary float cannot hold exactly: 0.1 + 0.2 is 0.30000000000000004 in Python and JavaScript.
DECIMAL_GRAPH = {"nodes": [{"name": "A", "h": 0.3}, {"name": "B", "h": 0.2}, {"name": "C", "h": 0}],
                 "edges": [{"from": "A", "to": "B", "cost": 0.1}, {"from": "B", "to": "C", "cost": 0.2},
                           {"from": "A", "to": "C", "cost": 0.4}],
                 "start": "A", "goal": "C", "directed": False}


def test_decimal_costs_read_as_people_write_them(page, live_server):
    """The caption, the counters, the frontier, the tree and a clicked node's details show 0.3, not 0.30000000000000004
    (the sum of 0.1 and 0.2 as a float)."""
    query = urlencode({"problem": "graph", "algorithms": "astar", "heuristic": "given",
                       "data": json.dumps(DECIMAL_GRAPH)})
    page.goto(f"{live_server}/step?{query}")
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    panel = page.locator(".step-panel")
    for _ in range(6):  # expand A, B and C generated, expand B, A skipped, C generated again: g = 0.1 + 0.2
        page.click('#step-stepper [data-act="forward"]')
    expect(panel.locator(".caption")).to_contain_text("Generate A → B → C (g 0.3 · h 0 · f 0.3)")
    page.locator('.tree-scroll [data-id]').last.click()
    expect(panel.locator(".node-details")).to_contain_text("0.3")
    page.click('#step-stepper [data-act="end"]')
    expect(panel.locator(".caption")).to_contain_text("costing 0.3 (A → B → C)")
    shown = panel.inner_text() + panel.locator(".tree-scroll svg").text_content()
    assert re.findall(r"\d\.\d{4,}", shown) == []


def test_an_overestimating_h_is_named_in_the_caption_not_called_cheapest(page, live_server):
    """A* under a given h that overestimates (h(A) = 100, A one road from the goal) takes the road of 10 where
    uniform-cost takes 2: its caption says cheapest under this h, not proven, never "The cheapest path"."""
    from tests.app.test_step_domains import OVERESTIMATING

    query = urlencode({"problem": "graph", "algorithms": "ucs,astar", "heuristic": "given",
                       "data": json.dumps(OVERESTIMATING)})
    page.goto(f"{live_server}/step?{query}")
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    page.click('#step-stepper [data-act="end"]')
    ucs, astar = page.locator(".step-panel .caption").all()
    expect(ucs).to_contain_text("costing 2 (S → A → G)")
    expect(ucs).to_contain_text("The cheapest path.")
    expect(astar).to_contain_text("costing 10 (S → G)")
    expect(astar).to_contain_text("cheapest under this h; not proven")
    assert "The cheapest path." not in astar.text_content()


def test_the_step_through_on_romania_links_to_its_solvers_side_by_side(page, live_server):
    page.goto(f"{live_server}/step?problem=graph&data=romania")
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    link = page.locator("#compare-solvers")
    expect(link).to_be_visible()
    link.click()
    # AIMA's Romania: A* and uniform-cost find Arad → Bucharest at 418 via Rimnicu Vilcea and Pitesti
    expect(page.locator("main")).to_contain_text("Arad → Sibiu → Rimnicu Vilcea → Pitesti → Bucharest")
    expect(page.locator("main")).to_contain_text("418")
    # a board races as any kind does: the 8-puzzle three blank moves from its goal, R D R the one shortest way
    # (each move brings a tile home; hand-checked), found by breadth-first search, A* and IDA* (the first three raced)
    page.goto(f"{live_server}/step?problem=tiles&size=3x3&tiles=1,2,3,0,4,6,7,5,8&algorithms=bfs")
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    page.locator("#compare-solvers").click()
    expect(page.locator(".compare-item[data-moves='RDR']").nth(2)).to_be_attached()


def test_city_names_in_the_search_tree_never_overlap(page, live_server):
    page.goto(f"{live_server}/step?problem=graph&data=romania&algorithms=ucs")
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    page.click('#step-stepper [data-act="end"]')
    expect(page.locator("svg.tree text", has_text="Rimnicu Vilcea").first).to_be_attached()
    boxes = page.eval_on_selector_all(
        "svg.tree g[data-id] > text:first-of-type",
        "texts => texts.map(t => { const b = t.getBBox(); return [b.x, b.y, b.x + b.width, t.textContent]; })")
    rows = {}
    for left, top, right, name in boxes:
        rows.setdefault(round(top), []).append((left, right, name))
    assert len(boxes) > 10 and any(len(row) > 3 for row in rows.values())
    for row in rows.values():
        row.sort()
        for (_, right, name), (left, _, other) in zip(row, row[1:], strict=False):
            assert right <= left, f"{name} overlaps {other}"


def test_a_domain_without_a_page_module_steps_to_its_goal_with_the_generic_picture(page, live_server, monkeypatch):
    from engine.search import domain
    from tests.engine.search.pancake import register

    # the pancake puzzle, registered in the served app for this test only: no file of the app names it
    monkeypatch.setattr(domain.DOMAINS, "_entries", domain.domain_kinds())
    register()
    page.goto(f"{live_server}/step?problem=pancake&data=[2,0,1]&algorithms=bfs")
    expect(page.locator("#step-stepper")).to_have_attribute("data-ready", "1")
    expect(page.locator('#step-form select[name="problem"]')).to_have_value("pancake")
    picture = page.locator(".step-panel .generic-state").first
    expect(picture).to_have_attribute("data-state", "[2,0,1]")
    page.click('#step-stepper [data-act="end"]')
    # 2 0 1: flip all three (1 0 2), then the top two: the sorted stack, two flips
    expect(picture).to_have_attribute("data-state", "[0,1,2]")
    expect(picture.locator(".generic-cell")).to_have_text(["0", "1", "2"])
    expect(picture.locator(".generic-moves")).to_have_text("moves: 3 2")
    expect(page.locator(".step-panel .caption").first).to_contain_text("Done: 2 moves")
    expect(page.locator("#compare-solvers")).to_be_visible()


def test_a_tile_race_opened_at_its_own_address_plays_its_boards_to_the_goal(page, live_server):
    # one move from each side of the goal's centre: the blank goes up, right, down, down (worked by hand)
    page.goto(f"{live_server}/step/compare?" + urlencode({
        "problem": "tiles", "size": "3x3", "tiles": "1,5,2,4,0,3,7,8,6", "goal": "blank-last",
        "algorithms": "bfs,astar", "heuristic": "manhattan"}))
    expect(page.locator(".compare-table tbody tr").first).to_contain_text("4")
    boards = page.locator(".compare-item .board")
    expect(boards.first.locator(".tile").first).to_be_visible()
    page.locator('.compare-results [data-act="speed"]').fill("30")
    expect(page.locator(".compare-results")).to_have_attribute("data-done", "1", timeout=15_000)
    assert boards.count() >= 2
    for board in boards.all():
        assert board.get_attribute("data-tiles") == "1,2,3,4,5,6,7,8,0"
