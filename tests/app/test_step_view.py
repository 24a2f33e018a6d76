"""A view of /step is its query: one reader and one writer (app/step_view.py), a link that reopens the same searches."""

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from app.lessons import LESSONS, neighbours
from app.step_view import View, query_for, view_from_query
from engine.domains.tiles import Board
from engine.domains.tiles.problem import SlidingTileProblem
from engine.search import breadth_first_search, domain
from engine.search.domain import domain_kinds
from tests.engine.search.pancake import KIND as PANCAKE
from tests.support.pages import submitted_fields

APP = Path(__file__).resolve().parents[2] / "app"

LINK = ("problem=tiles&size=3x3&tiles=1,2,3,4,0,6,7,5,8&goal=blank-last&algorithms=bfs,astar:misplaced"
        "&heuristic=manhattan&depth_limit=12&show_h=1&step=7")


def test_the_writer_gives_back_the_query_the_reader_read():
    view = view_from_query(dict(pair.split("=") for pair in LINK.split("&")))
    assert view == View(algorithms=("bfs", "astar:misplaced"), show_h=True, step=7,
                        data={"size": "3x3", "goal": "blank-last", "tiles": [1, 2, 3, 4, 0, 6, 7, 5, 8]})
    assert query_for(view) == LINK


def test_a_graph_link_carries_the_graph_and_the_seed_graph_its_ends():
    drawn = ('{"nodes":[{"name":"a","x":10,"y":10},{"name":"b","x":90,"y":90}],'
             '"edges":[{"from":"a","to":"b","cost":3}],"start":"a","goal":"b"}')
    view = view_from_query({"problem": "numbered-graph", "graph": drawn, "algorithms": "ucs", "heuristic": "zero"})
    assert view.graph["edges"][0]["cost"] == 3
    assert view_from_query(dict(pair.split("=") for pair in query_for(view).split("&") if not pair.startswith("graph"))
                           ).graph is None
    assert "from=0&to=5" in query_for(view_from_query({"problem": "numbered-graph", "to": "5"}))


def test_the_view_api_answers_a_scramble_with_its_tiles_and_the_same_searches(client):
    answer = client.get("/api/step?problem=tiles&size=3x3&scramble=6&seed=3&algorithms=bfs&step=4").get_json()
    view = view_from_query(dict(pair.split("=") for pair in answer["view"].split("&")))
    assert view.data["tiles"] == answer["start"] and view.step == 4
    # the tiles alone give the same search, which BFS run here finds just as short
    again = client.get(f"/api/step?{answer['view']}").get_json()
    assert again["traces"][0]["steps"] == answer["traces"][0]["steps"]
    problem = SlidingTileProblem(Board(3, 3, tuple(view.data["tiles"])), Board(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0)))
    assert answer["traces"][0]["result"]["length"] == len(breadth_first_search(problem).moves)


@pytest.mark.parametrize("query,word", [("algorithms=bfs,dfs,ids", "one or two"), ("algorithms=quick", "unknown"),
                                        ("size=4x4", "at most 12 cells"), ("problem=numbered-graph&graph=[1", "JSON"),
                                        ("step=-1", "step")])
def test_a_bad_link_is_a_clear_400(client, query, word):
    for url in ([f"/api/step?{query}"] + ([f"/step?{query}"] if "size" not in query else [])):  # the page reads the
        # link; the board's size is refused when the searches are asked for
        response = client.get(url)
        assert response.status_code == 400 and word in response.get_data(as_text=True), url


def test_the_slides_run_in_one_line_across_lessons():
    slides = [(lesson.slug, n) for lesson in LESSONS for n in range(1, len(lesson.slides) + 1)]
    assert neighbours(*slides[0]) == (None, slides[1])
    assert neighbours(*slides[-1]) == (slides[-2], None)
    last_of_first = (LESSONS[0].slug, len(LESSONS[0].slides))
    assert neighbours(*last_of_first)[1] == (LESSONS[1].slug, 1)
    assert all(slide.walk <= 25 for lesson in LESSONS for slide in lesson.slides)


def test_a_lecturers_own_lesson_is_checked_against_the_trace(client):
    """On the seed's graph BFS's answer is 0 → 2 → 4 → 6, 3 edges (bfs-dfs/2 says so too); 11 is no figure there (no
    count, and no path's cost g in the tree)."""
    link = "/step?problem=numbered-graph&from=0&to=6&algorithms=bfs&heuristic=zero&step=19"
    lesson = {"title": "Mine", "slides": [{"title": "Done", "text": "BFS finds 0 → 2 → 4 → 6: 3 edges.", "link": link},
                                          {"title": "Wrong", "text": "BFS finds a path of 11 edges.", "link": link}]}
    page = client.post("/lessons/check", data={"lesson": json.dumps(lesson)}, follow_redirects=True)
    page = page.get_data(as_text=True)
    assert page.count('data-checked="ok"') == 1 and page.count('data-checked="unshown"') == 1
    assert "Not so at step 19: 11 (edges (the problem&#39;s, or of the path found): 8 or 3)." in page
    bad = client.post("/lessons/check", data={"lesson": '{"slides": [{"title": "x", "text": "y", "link": "/play"}]}'})
    assert bad.status_code == 400 and "/step link" in bad.get_data(as_text=True)


def test_the_form_submitted_without_javascript_opens_the_tile_view_it_names(client):
    """/step's form as a browser without JavaScript sends it: the shown editor (the tiles', the default view's, drawn
    by the template the tile view names) gives the query, and the page it opens is that board's view. 1 2 3 4/5 _ 6 7
    is two blank moves right from the 2×4 blank-last goal (hand-checked): breadth-first search finds RR."""
    fields = submitted_fields(client.get("/step").get_data(as_text=True), "step-form")
    names = [name for name, _ in fields]
    assert dict(fields)["problem"] == "tiles" and len(names) == len(set(names))  # one editor's fields, each once
    assert {"size", "scramble", "seed", "tiles", "goal", "heuristic"} <= set(names)
    sent = {**dict(fields), "size": "2x4", "tiles": "1 2 3 4/5 0 6 7", "first": "bfs", "second": ""}
    page = client.get("/step", query_string=sent)
    assert page.status_code == 200
    shown = dict(submitted_fields(page.get_data(as_text=True), "step-form"))
    assert [shown[name] for name in ("problem", "size", "tiles", "first")] == ["tiles", "2x4", "1 2 3 4 5 0 6 7", "bfs"]
    answer = client.get("/api/step", query_string=shown).get_json()
    assert (answer["problem"], answer["rows"], answer["cols"]) == ("tiles", 2, 4)
    assert answer["start"] == [1, 2, 3, 4, 5, 0, 6, 7] and answer["traces"][0]["result"]["moves"] == "RR"


def test_the_view_opened_without_a_problem_is_the_kind_the_registry_calls_the_default(client, monkeypatch):
    """The default view is read from the registry (``DomainKind.default``), not written in the app: with the pancake
    puzzle registered as the default and the tiles not, ``/step`` and ``/api/step`` open the pancakes."""
    assert View().problem == "tiles" and View().heuristic == "manhattan"  # the tile kind says it is the default
    kinds = {name: replace(kind, default=False) for name, kind in domain_kinds().items()}
    monkeypatch.setattr(domain.DOMAINS, "_entries", {**kinds, "pancake": replace(PANCAKE, default=True)})
    assert (View().problem, View().heuristic) == ("pancake", "")  # a kind typed as JSON: its example's h
    page = client.get("/step").get_data(as_text=True)
    assert '<option value="pancake" selected>' in page and 'data-default="pancake"' in page
    assert client.get("/api/step?algorithms=bfs").get_json()["problem"] == "pancake"


def test_the_shared_step_page_and_its_modules_name_no_kind():
    """Every view is a kind like the others (the numbered graph the app's own, in ``app/numbered_graph.py``): its
    editor is the template its view names, its option's words its view's, the default the registry's; the shared
    page and the step modules name none of them."""
    kinds = "tiles|graph|numbered-graph|grid|graph-data"
    branch = re.compile(rf"""["'](?:{kinds})["']|\b(?:domain_views|step_views|forms|view_heuristics)"""
                        rf"""(?:\.|\[["'])(?:{kinds.replace('-', '_')}|{kinds})\b""")
    for path in (APP / "templates" / "step" / "index.html", *APP.glob("step*.py")):
        assert not branch.search(path.read_text()), path


def test_the_problem_menu_offers_each_view_under_its_words_with_its_own_editor(client):
    """The menu's options and the editors are the views', in a fixed order (the default first): the words are those
    the page has always shown, now each view's own; every editor is drawn once, the shown one enabled."""
    page = client.get("/step?problem=grid").get_data(as_text=True)
    menu = page[page.index('<select name="problem"'):]
    options = re.findall(r'<option value="([^"]*)" (?:selected)?>([^<]*)</option>', menu[:menu.index("</select>")])
    assert options[:4] == [("tiles", "Sliding tiles"),
                           ("numbered-graph", "Numbered graph (seed 004, or the one you drew)"),
                           ("graph", "Graph typed as data (Romania, or your own)"),
                           ("grid", "Grid map: draw walls and weights")]
    others = sorted(set(domain_kinds()) - {name for name, _ in options[:4]})  # typed as JSON, under their titles
    assert options[4:] == [(name, domain_kinds()[name].title) for name in others] and others
    editors = re.findall(r'<fieldset [^>]*data-for="([^"]+)"[^>]*>', page)
    assert sorted(editors) == sorted(name for name, _ in options)
    assert re.findall(r'<fieldset [^>]*data-for="([^"]+)"(?![^>]*hidden)[^>]*>', page) == ["grid"]
    for element in ('id="grid-editor"', 'id="grid-map"', 'id="graph-editor"', 'id="graph-verdict"', 'id="step-graph"',
                    'id="new-scramble"'):
        assert page.count(element) == 1, element


def test_the_grid_form_submitted_without_javascript_opens_the_grid_it_carries(client):
    """The grid's editor (its view's template) sends the map in its ``data`` field. On .5./... (4 directions) from
    the top-left to the top-right corner, the way through the weight-5 cell costs 5 + 1 and the way round below
    1 + 1 + 1 + 1 (hand-computed): uniform-cost search finds 4."""
    fields = submitted_fields(client.get("/step?problem=grid").get_data(as_text=True), "step-form")
    assert dict(fields)["problem"] == "grid" and {"data", "heuristic"} <= {name for name, _ in fields}
    grid = {"rows": [".5.", "..."], "start": [0, 0], "goal": [2, 0], "connect": 4}
    sent = {**dict(fields), "data": json.dumps(grid), "heuristic": "manhattan", "first": "ucs", "second": ""}
    page = client.get("/step", query_string=sent)
    assert page.status_code == 200
    shown = dict(submitted_fields(page.get_data(as_text=True), "step-form"))
    assert (shown["problem"], json.loads(shown["data"]), shown["heuristic"]) == ("grid", grid, "manhattan")
    trace = client.get("/api/step", query_string=shown).get_json()["traces"][0]
    assert trace["result"]["cost"] == 4


#: Links as they were written before the numbered graph had a name of its own (the graph kind's view was "graph-data",
#: the numbered graph "graph" with its ends or its drawing), each taken from where it was held (the tests, the
#: lecture's own-lesson example, the README), beside the link of today that opens the same view.
DRAWN = ('{"nodes":[{"name":"a","x":10,"y":10},{"name":"b","x":90,"y":90}],'
         '"edges":[{"from":"a","to":"b","cost":3}],"start":"a","goal":"b"}')
OLD_LINKS = [
    ({"problem": "graph", "from": "0", "to": "6", "algorithms": "bfs", "heuristic": "zero", "step": "19"},
     {"problem": "numbered-graph", "from": "0", "to": "6", "algorithms": "bfs", "heuristic": "zero", "step": "19"}),
    ({"problem": "graph", "to": "5"}, {"problem": "numbered-graph", "to": "5"}),
    ({"problem": "graph", "graph": DRAWN, "algorithms": "ucs", "heuristic": "zero"},
     {"problem": "numbered-graph", "graph": DRAWN, "algorithms": "ucs", "heuristic": "zero"}),
    ({"problem": "graph-data", "data": "romania", "algorithms": "ucs,astar", "step": "12"},
     {"problem": "graph", "data": "romania", "algorithms": "ucs,astar", "step": "12"}),
    ({"problem": "graph-data", "algorithms": "bidirectional"}, {"problem": "graph", "algorithms": "bidirectional"}),
]


@pytest.mark.parametrize("old, new", OLD_LINKS)
def test_an_old_link_opens_the_view_it_opened(client, old, new):
    assert view_from_query(old) == view_from_query(new)
    before = client.get("/api/step", query_string=old).get_json()
    now = client.get("/api/step", query_string=new).get_json()
    assert before["problem"] == new["problem"] and before["view"] == now["view"] == query_for(view_from_query(new))
    assert [t["steps"] for t in before["traces"]] == [t["steps"] for t in now["traces"]]
    page = client.get("/step", query_string=old).get_data(as_text=True)
    assert f'<option value="{new["problem"]}" selected>' in page


def test_old_links_show_the_figures_their_views_showed(client):
    def answer(query):
        return client.get("/api/step", query_string=query).get_json()["traces"]

    (seed, _), _, (drawn, _), (romania, _), _ = OLD_LINKS
    # the seed's graph: BFS finds 0 → 2 → 4 → 6 (the lecture's bfs-dfs/2); the drawing's one road costs 3; uniform-cost
    # search and A* find Arad to Bucharest at 418 km (AIMA, Figure 3.24)
    assert answer(seed)[0]["result"]["path"] == [0, 2, 4, 6]  # numbered nodes: states are numbers
    assert answer(drawn)[0]["result"]["cost"] == 3
    assert [trace["result"]["cost"] for trace in answer(romania)] == [418, 418]


def test_the_old_request_of_the_numbered_graph_is_answered_as_the_numbered_graph(client):
    """The lecture's first slides sent ``{"problem": "graph"}`` without a graph (the README's form of the API)."""
    old = client.post("/api/step", json={"problem": "graph", "algorithms": ["bfs"], "heuristic": "zero"}).get_json()
    new = client.post("/api/step", json={"problem": "numbered-graph", "algorithms": ["bfs"],
                                         "heuristic": "zero"}).get_json()
    assert old["problem"] == new["problem"] == "numbered-graph"
    assert [(t["steps"], t["nodes"]) for t in old["traces"]] == [(t["steps"], t["nodes"]) for t in new["traces"]]
    assert new["traces"][0]["result"]["path"] == [0, 2, 4, 6] and (new["start"], new["goal"]) == (0, 6)


def test_a_lecturers_own_lesson_with_an_old_link_is_checked_as_before(client):
    link = "/step?problem=graph&from=0&to=6&algorithms=bfs&heuristic=zero&step=19"
    lesson = {"title": "Old", "slides": [{"title": "Done", "text": "BFS finds 0 → 2 → 4 → 6: 3 edges.", "link": link}]}
    page = client.post("/lessons/check", data={"lesson": json.dumps(lesson)}, follow_redirects=True)
    assert page.get_data(as_text=True).count('data-checked="ok"') == 1


def test_the_form_sent_without_javascript_switches_from_the_numbered_graph_to_a_typed_one(client):
    """The numbered graph's fields are still in the form when its user picks the typed graph and presses Load without
    JavaScript: what the form sends (``first``, not ``algorithms``) means the view it names, not an old link."""
    sent = {"problem": "graph", "first": "ucs", "second": "", "depth_limit": "12", "from": "0", "to": "6",
            "heuristic": "straight-line", "graph": ""}
    view = view_from_query(sent)
    assert view.problem == "graph" and view.heuristic == "straight-line"
    page = client.get("/step", query_string=sent).get_data(as_text=True)
    assert '<option value="graph" selected>' in page
    trace = client.get(f"/api/step?{query_for(view)}").get_json()["traces"][0]
    assert trace["result"]["cost"] == 418  # Romania, Arad to Bucharest (AIMA)
