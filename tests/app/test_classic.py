import pytest

from engine.subjects.classic import graph
from tests.support.pages import job_id


def test_classic_pages_render(client):
    for url, text in [("/classic/", "N queens"), ("/classic/queens", "pruning pays"), ("/step", "Step through"),
                      ("/classic/knights", "Warnsdorff"), ("/classic/graph", "Every path")]:
        response = client.get(url)
        assert response.status_code == 200 and text in response.get_data(as_text=True), url
    assert 'href="/step"' in client.get("/").get_data(as_text=True)


def test_queens_comparison_answers_at_once_and_as_a_job(client, app):
    html = client.post("/classic/queens/count", data={"n": "8"}).get_data(as_text=True)
    assert html.count('class="count">92<') == 3
    response = client.post("/classic/queens/count", data={"n": "13", "bitmask": "1", "generate-and-test": "1"})
    job = app.extensions["jobs"].wait(job_id(response), timeout=120)
    assert job["status"] == "done"
    rows = {r["method"]: r for r in job["result"]["rows"]}
    assert rows["bitmask"]["solutions"] == 73712 and rows["generate-and-test"]["status"] == "skipped"
    fragment = client.get(f"/jobs/{job['id']}").get_data(as_text=True)
    assert "73,712" in fragment and "offered up to N = 12" in fragment


def test_queens_steps_and_bad_n(client):
    data = client.get("/api/classic/queens/steps?n=8").get_json()
    assert data["solved"] and data["events"][-1]["columns"] == [0, 4, 7, 5, 2, 6, 1, 3]
    for n, message in [("0", "from 1 to 18"), ("40", "from 1 to 18"), ("x", "whole number"), ("¹", "whole number")]:
        response = client.post("/classic/queens/count", data={"n": n})
        assert response.status_code == 400 and message in response.get_data(as_text=True)
    response = client.get("/api/classic/queens/count?n=40&method=bitmask")
    assert response.status_code == 400 and "background job" in response.get_json()["error"]


def test_knights_count_and_job(client, app):
    html = client.post("/classic/knights/count", data={"rows": "5", "cols": "5", "start": "0"}).get_data(as_text=True)
    assert 'class="count">304<' in html
    response = client.post("/classic/knights/count", data={"rows": "3", "cols": "9", "start": "0"})  # past 25 cells
    job = app.extensions["jobs"].wait(job_id(response), timeout=120)
    assert job["status"] == "done" and job["result"]["tours"] == 172  # as count_tours_reference(3, 9, 0) finds
    assert 'class="count">172<' in client.get(f"/jobs/{job['id']}").get_data(as_text=True)
    response = client.post("/classic/knights/count", data={"rows": "7", "cols": "7", "start": "0"})
    assert response.status_code == 400 and "at most 36" in response.get_data(as_text=True)
    tour = client.get("/api/classic/knights/warnsdorff?rows=12&cols=9").get_json()
    assert sorted(tour["tour"]) == list(range(108))


def test_knights_small_boards_answer_zero_tours(client):
    for rows, cols in ((1, 4), (1, 1), (2, 2), (3, 3)):
        response = client.post("/classic/knights/count", data={"rows": rows, "cols": cols, "start": "0"})
        assert response.status_code == 200
        assert f'class="count">{1 if rows * cols == 1 else 0}<' in response.get_data(as_text=True)


def test_graph_paths_api(client):
    data = client.post("/api/classic/paths", json={"strategy": "dfs"}).get_json()
    assert len(data["paths"]) == 4
    data = client.post("/api/classic/paths", json={"nodes": 3, "edges": [[0, 1]], "start": 0, "goal": 2,
                                                   "strategy": "bfs"}).get_json()
    assert data["paths"] == [] and "no path" in data["message"]
    response = client.post("/api/classic/paths", json={"nodes": 3, "edges": [[0, 7]]})
    assert response.status_code == 400 and "does not exist" in response.get_json()["error"]
    assert client.post("/api/classic/paths", data="nope").status_code == 400


def test_step_api(client):
    data = client.post("/api/step", json={"problem": "tiles", "size": "3x3", "tiles": "1 2 3/4 5 6/0 7 8",
                                          "algorithms": ["bfs", "idastar"]}).get_json()
    assert [t["result"]["moves"] for t in data["traces"]] == ["RR", "RR"]
    assert data["start"] == [1, 2, 3, 4, 5, 6, 0, 7, 8]
    data = client.post("/api/step", json={"problem": "tiles", "size": "2x4", "goal": "blank-first", "scramble": 6,
                                          "seed": 3, "algorithms": ["astar"]}).get_json()
    assert data["traces"][0]["result"]["status"] == "solved"
    for body, message in [({"size": "4x4"}, "at most 12 cells"), ({"tiles": "1 2 3/4 5 6/8 7 0"}, "cannot reach"),
                          ({"algorithms": ["magic"]}, "unknown algorithm"), ({"algorithms": []}, "one or two"),
                          ({"problem": "numbered-graph", "goal": 99}, "goal must be"),
                          ({"problem": "chess"}, "must be one of")]:
        response = client.post("/api/step", json=body)
        assert response.status_code == 400 and message in response.get_json()["error"], body


def test_every_lesson_slide_renders_and_its_request_is_answered(client):
    from markupsafe import escape

    from app.lessons import LESSONS

    assert len(LESSONS) >= 4
    assert 'href="/lessons/"' in client.get("/").get_data(as_text=True)
    for lesson in LESSONS:
        for number, slide in enumerate(lesson.slides, 1):
            page = client.get(f"/lessons/{lesson.slug}/{number}").get_data(as_text=True)
            assert str(escape(slide.title)) in page and all(len(p) > 20 for p in slide.text)
            answer = client.post("/api/step", json={**slide.request, "open_at": slide.step})
            assert answer.status_code == 200, (lesson.slug, number, answer.get_data(as_text=True))
            assert 0 <= answer.get_json()["open_step"] and str(escape(slide.shows)) in page
            assert all(t["result"]["status"] == "solved" for t in answer.get_json()["traces"])
    assert client.get("/lessons/astar/99").status_code == 404


@pytest.mark.parametrize("strategy", ["dfs", "bfs", "ids"])
def test_a_small_request_gets_a_bounded_answer(client, strategy):
    # 60 nodes and every edge (a 30 KB request): far more simple paths than any answer could list
    nodes = 60
    edges = [[a, b] for a in range(nodes) for b in range(a + 1, nodes)]
    response = client.post("/api/classic/paths", json={"nodes": nodes, "edges": edges, "strategy": strategy})
    result = response.get_json()
    assert response.status_code == 200 and not result["complete"] and "node numbers" in result["message"]
    numbers = sum(len(path) for path in result["paths"]) + sum(
        len(step["path"]) + sum(map(len, step["pending"])) for step in result["steps"])
    assert numbers <= graph.MAX_NUMBERS + nodes * (graph.PENDING_SHOWN + 2)  # the last step may pass it by one
    assert len(response.data) < 4 * 2**20
