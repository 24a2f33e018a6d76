"""A lecturer's own lesson: its words read as a person reads them, checked against the step-through, stored under
its content's hash, and presented from its own link as the built-in lessons are (app/own_lessons.py)."""

import json

import pytest

from app import own_lessons
from app.lessons import stated_numbers
from app.step_view import View, query_for
from engine.domains.graph import example
from engine.serving.cluster import QuotaExceeded


def romania_link(step: int, data: object = "romania", algorithms=("astar",)) -> str:
    return "/step?" + query_for(View(problem="graph", data=data, algorithms=algorithms, heuristic="given",
                                     step=step))


def slower_road() -> dict:
    graph = example("romania")
    for edge in graph["edges"]:
        if {edge["from"], edge["to"]} == {"Arad", "Sibiu"}:
            edge["cost"] = 140.5
    return graph


#: AIMA's Figure 3.24 (A* on Romania, straight-line h): after Arad's expansion the frontier holds Sibiu at
#: 140 + 253 = 393, Timisoara at 118 + 329 = 447 and Zerind at 75 + 374 = 449 (steps: expand Arad, three children);
#: Pitesti is reached at 317 + 100 = 417; the answer costs 418, after 5 expansions before Bucharest is chosen.
FIVE_SLIDES = {"title": "A* on Romania", "slides": [
    {"title": "After Arad", "text": "After expanding Arad, A* holds Sibiu at f = 393, Timisoara at 447 and Zerind at "
                                    "449.", "link": romania_link(4)},
    {"title": "A wrong sum", "text": "Sibiu's f is 140 + 253 = 390.", "link": romania_link(4)},
    {"title": "The answer", "text": "A* ends on the cheapest path, 418, after 5 expansions; Pitesti had f = 417 on "
                                    "the way.", "link": romania_link(1000)},
    {"title": "A slower road", "text": "In this version the road from Arad to Sibiu is 140.5 long.",
     "link": romania_link(0, slower_road())},
    {"title": "A wrong count", "text": "Unlike on the 8-puzzle, A* needs 8 expansions to reach Bucharest here.",
     "link": romania_link(1000)},
]}


def test_numbers_are_read_as_written():
    words = "On the 15-puzzle and the 3x3 board, tile 8 moves; f = 417, 418.0 and 140.5 km, 102,945,789 nodes, 0 and 2."
    assert [(w, v) for w, v, _ in stated_numbers(words)] == [("417", 417), ("418.0", 418), ("140.5", 140.5),
                                                            ("102,945,789", 102_945_789), ("0", 0), ("2", 2)]


def test_a_five_slide_lesson_on_romania_is_judged_right_on_every_slide(client):
    answer = client.post("/lessons/check", data={"lesson": json.dumps(FIVE_SLIDES)},
                         headers={"Accept": "application/json"})
    assert answer.status_code == 200
    checked = answer.get_json()
    assert checked["complete"] and not checked["ok"]
    assert [s["unshown"] for s in checked["slides"]] == [[], ["390"], [], [], ["8"]]
    assert [s["state"] for s in checked["slides"]] == ["ok", "unshown", "ok", "ok", "unshown"]
    assert checked["slides"][0]["stated"] == ["393", "447", "449"]
    assert checked["link"] == f"/lessons/own/{checked['id']}"
    assert checked["summary"] == f"/lessons/own/{checked['id']}/summary"
    # the summary with the verdicts at the top, and the same lesson stored once: the same link
    page = client.get(checked["summary"]).get_data(as_text=True)
    assert page.index("check-summary") < page.index("own-slides")
    assert "5 slides; 2 with a number the board does not agree with at its step (slides 2, 5)" in page
    assert "Not so at step 4: 390 (f of Sibiu: 393)." in page
    again = client.post("/lessons/check", data={"lesson": json.dumps(FIVE_SLIDES)})
    assert again.status_code == 303 and again.headers["Location"].endswith(checked["summary"])


def test_a_one_slide_lesson_is_counted_as_one_slide(client):
    right = {"title": "One", "slides": [{"title": "After Arad", "text": "Zerind's f is 449.",
                                         "link": "/step?problem=graph&data=romania&algorithms=astar&step=4"}]}
    wrong = {**right, "slides": [{**right["slides"][0], "text": "Zerind's f is 447."}]}
    pages = []
    for lesson in (right, wrong):
        checked = client.post("/lessons/check", data={"lesson": json.dumps(lesson)},
                              headers={"Accept": "application/json"}).get_json()
        pages.append(client.get(checked["summary"]).get_data(as_text=True))
    assert "The slide is checked: every number" in pages[0]
    assert "1 slide; 1 with a number the board does not agree with at its step (slide 1)." in pages[1]


def test_an_own_lesson_is_presented_from_its_link_as_a_built_in_one(client):
    checked = client.post("/lessons/check", data={"lesson": json.dumps(FIVE_SLIDES)},
                          headers={"Accept": "application/json"}).get_json()
    first = client.get(f"{checked['link']}/1").get_data(as_text=True)
    assert "After Arad" in first and 'rel="next"' in first and 'rel="prev"' not in first
    assert '"walk": 10' in first and '"step": 4' in first
    # the link presents from slide 1, where a clicker's PageDown steps at once; the summary is one click away
    opened = client.get(checked["link"])
    assert opened.status_code == 302 and opened.headers["Location"].endswith(f"{checked['link']}/1")
    assert f'href="{checked["summary"]}"' in first
    # the class sees the presenting page: a slide the check flagged shows its words and no verdict
    second = client.get(f"{checked['link']}/2").get_data(as_text=True)
    assert "Sibiu's f is 140 + 253 = 390." in second.replace("&#39;", "'")
    assert "check-verdict" not in second and "Not on the board" not in second
    last = client.get(f"{checked['link']}/5").get_data(as_text=True)
    assert 'rel="prev"' in last and 'rel="next"' not in last
    assert client.get(f"{checked['link']}/6").status_code == 404
    exported = client.get(f"{checked['link']}.json")
    assert exported.status_code == 200 and "attachment" in exported.headers["Content-Disposition"]
    assert [s["text"] for s in exported.get_json()["slides"]] == [s["text"] for s in FIVE_SLIDES["slides"]]
    assert client.get("/lessons/own/0123456789abcdef").status_code == 404


def test_a_check_is_bounded_and_carries_on_where_it_stopped(client, monkeypatch):
    monkeypatch.setattr(own_lessons, "CHECK_SECONDS", -1.0)  # no time at all: nothing recorded in this request
    checked = client.post("/lessons/check", data={"lesson": json.dumps(FIVE_SLIDES)},
                          headers={"Accept": "application/json"}).get_json()
    assert not checked["complete"] and {s["state"] for s in checked["slides"]} == {"unchecked"}
    assert "Check the rest" in client.get(checked["summary"]).get_data(as_text=True)
    monkeypatch.setattr(own_lessons, "CHECK_SECONDS", 60.0)
    rest = client.post(f"{checked['link']}/check", headers={"Accept": "application/json"}).get_json()
    assert rest["complete"] and [s["state"] for s in rest["slides"]] == ["ok", "unshown", "ok", "ok", "unshown"]


def test_checks_past_the_limit_are_answered_429_with_what_to_do(client):
    with own_lessons.CHECKS.slot("another lecturer"), own_lessons.CHECKS.slot("a third"):
        busy = client.post("/lessons/check", data={"lesson": json.dumps(FIVE_SLIDES)})
    assert busy.status_code == 429 and busy.headers["Retry-After"] == str(own_lessons.RETRY_SECONDS)
    assert "press Check again" in busy.get_data(as_text=True)
    with own_lessons.CHECKS.slot("me"), pytest.raises(QuotaExceeded, match="still being worked out"):
        with own_lessons.CHECKS.slot("me"):
            pass


@pytest.mark.parametrize(("lesson", "message"), [
    ('{"slides": [{"title": "x", "text": "y", "link": "/play"}]}', "/step link"),
    ("[" * 5000 + "]" * 5000, "lesson"),
    ('{"slides": [{"title": "x", "text": "y", "link": "/step?a=1", "walk": 99}]}', "walk"),
])
def test_a_lesson_that_is_not_one_is_refused_with_a_sentence(client, lesson, message):
    bad = client.post("/lessons/check", data={"lesson": lesson}, headers={"Accept": "application/json"})
    assert bad.status_code == 400 and message in bad.get_json()["error"]


def test_the_writer_opens_with_a_view_added_from_the_step_through(client):
    page = client.get("/lessons/write?add=" + romania_link(4))
    assert page.status_code == 200 and 'id="lesson-writer"' in page.get_data(as_text=True)
    assert 'id="add-to-lesson"' in client.get("/step").get_data(as_text=True)


def test_a_slide_may_be_a_saved_views_short_link(client):
    at_start = client.post("/api/views", json={"view": romania_link(0)}).get_json()["link"]
    at_four = client.post("/api/views", json={"view": romania_link(4)}).get_json()["link"]
    lesson = {"title": "Short links", "slides": [
        {**FIVE_SLIDES["slides"][0], "link": f"{at_start}?step=4"},  # the record at 0, opened at step 4
        {**FIVE_SLIDES["slides"][1], "link": at_four},  # the record's own step
        {**FIVE_SLIDES["slides"][0], "link": at_start}]}  # at step 0 nothing is expanded: 393, 447, 449 are not shown
    checked = client.post("/lessons/check", data={"lesson": json.dumps(lesson)},
                          headers={"Accept": "application/json"}).get_json()
    assert [s["unshown"] for s in checked["slides"]] == [[], ["390"], ["393", "447", "449"]]
    assert [s["step"] for s in checked["slides"]] == [4, 4, 0]
    assert '"step": 4' in client.get(f"{checked['link']}/1").get_data(as_text=True)
    race = client.post("/api/views", json={"view": romania_link(0).replace("/step?", "/step/compare?")}).get_json()
    for link in (race["link"], "/v/abcdefghijkl"):  # refused when the lesson is read, naming the slide
        bad = client.post("/lessons/check", data={"lesson": json.dumps({"slides": [lesson["slides"][0],
                                                                                   {**lesson["slides"][0],
                                                                                    "link": link}]})},
                          headers={"Accept": "application/json"})
        assert bad.status_code == 400
        assert "slide 2's link" in bad.get_json()["error"]
        assert "is not the short link of a saved step-through view" in bad.get_json()["error"]


def typed_romania_link(step: int) -> str:
    """AIMA's Romania typed in by hand (its JSON, as the graph editor sends it), uniform-cost beside A*."""
    return romania_link(step, example("romania"), ("ucs", "astar"))


#: A lecture on typed Romania (20 cities, 23 roads; AIMA Figure 3.1 and the straight-line distances of Figure 3.16):
#: at step 4 A* has expanded Arad and generated its three children; at the end of the view (uniform-cost's end, A* is
#: done long before) A* has expanded Arad, Sibiu, Rimnicu Vilcea, Fagaras and Pitesti, 5 nodes, and popped Bucharest
#: as the goal, by a path of cost 418 (Figure 3.24).
ROMANIA_LECTURE = {"title": "A* on Romania, typed in", "slides": [
    {"title": "The map", "text": "The map has 20 cities and 23 roads; A* starts at Arad with h = 366.",
     "link": typed_romania_link(0)},
    {"title": "After Arad", "text": "A* holds Sibiu at f = 140 + 253 = 393, Timisoara at 447 and Zerind at 449.",
     "link": typed_romania_link(4)},
    {"title": "Swapped", "text": "Timisoara's f is 449 and Zerind's 447.", "link": typed_romania_link(4)},
    {"title": "Too few", "text": "A* expanded only 4 nodes.", "link": typed_romania_link(1000)},
    {"title": "The answer", "text": "A* expanded 5 nodes and the path costs 418. Bucharest is 418 from Arad.",
     "link": typed_romania_link(1000)},
]}


def test_the_check_reads_what_each_number_names_on_typed_romania(client):
    checked = client.post("/lessons/check", data={"lesson": json.dumps(ROMANIA_LECTURE)},
                          headers={"Accept": "application/json"}).get_json()
    slides = checked["slides"]
    assert [s["unshown"] for s in slides] == [[], [], ["449", "447"], ["4"], []]
    names = [[(r["written"], r["names"]) for r in s["readings"]] for s in slides]
    assert names[0] == [("20", "the problem's cities"), ("23", "the problem's roads"), ("366", "h of Arad")]
    assert names[1] == [("140", ""), ("253", ""), ("393", "f of Sibiu"), ("447", "f of Timisoara"),
                        ("449", "f of Zerind")]
    assert [(r["names"], r["expected"]) for r in slides[2]["readings"]] == [("f of Timisoara", "447"),
                                                                           ("f of Zerind", "449")]
    assert [(r["names"], r["expected"]) for r in slides[3]["readings"]] == [("A*'s nodes expanded", "5")]
    # a number bound to nothing ("418 from Arad") is checked as shown anywhere, and the summary says so
    assert [(r["written"], r["names"], r["right"]) for r in slides[4]["readings"]] == [
        ("5", "A*'s nodes expanded", True), ("418", "A*'s path's cost", True), ("418", "", True)]
    page = client.get(checked["summary"]).get_data(as_text=True).replace("&#39;", "'")
    assert "Not so at step 4: 449 (f of Timisoara: 447); 447 (f of Zerind: 449)." in page
    assert "418: on the board (it names no node or quantity the check reads" in page
    # the class's page shows the words, never the verdict
    swapped = client.get(f"{checked['link']}/3").get_data(as_text=True)
    assert "Not so" not in swapped and "f of Timisoara" not in swapped
