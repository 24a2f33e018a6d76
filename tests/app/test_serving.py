"""Serving a class: the job API, limits per browser, ownership, cross-site requests, and no 500 from bad input."""

import pytest

from engine.serving.jobs import job_kinds
from tests.app.conftest import visitor
from tests.support.pages import job_id
from tests.support.waiting import wait_until

SEED_004 = [8, 6, 7, 2, 5, 4, 3, 0, 1]
EIGHTEEN_QUEENS = {"n": 18, "methods": ["bitmask"]}  # minutes of work: it is still running when we look


def status(client, job: str) -> str:
    return client.get(f"/api/jobs/{job}").get_json()["status"]


def test_one_job_api_for_every_kind(client, app):
    response = client.post("/api/jobs", json={"kind": "research-maxmd", "params": {"n": 8}})
    assert response.status_code == 202
    body = response.get_json()
    assert body["status"] == "queued" and body["url"] == f"/api/jobs/{body['job']}"
    job = app.extensions["jobs"].wait(job_id(response), timeout=120)
    assert job["status"] == "done" and job["result"]["max_md"] == 75  # seed 000's Table 2, n = 8
    listed = client.get("/api/jobs").get_json()
    assert [j["id"] for j in listed["jobs"]] == [job_id(response)]
    assert listed["kinds"]["research-bfs"]["lane"] == "long" and listed["kinds"]["solve"]["lane"] == "by budget"
    shown = client.get(f"/api/jobs/{body['job']}").get_json()
    assert "owner" not in shown and "worker" not in shown  # who ran it stays inside the server


@pytest.mark.parametrize("kind, params, message", [
    ("solve", {"size": "3x3", "tiles": SEED_004, "solver": ["bfs"]}, "solver must be text"),
    ("compare", {"size": "3x3", "tiles": SEED_004, "solvers": ["bfs"]}, "between 2 and 4"),
    ("classic-queens", {"n": 19}, "N must be a whole number from 1 to 18"),
    ("classic-knights", {"rows": 7, "cols": 7}, "at most 36 squares"),
    ("research-bfs", {"rows": 4, "cols": 4}, "at most 14 cells"),
    ("research-maxmd", {"n": 7, "method": "brute"}, "n must be a whole number from 1 to 6"),
    ("research-subproblem", {"n": 30, "k": 4}, "states"),
    ("research-tables", {"k3_max": 12}, "k3_max must be a whole number from 7 to 9"),
    ("research-bounds", {"n_max": 1000}, "n_max must be a whole number from 4 to 40"),
    ("rectout-solve", {"state": [[0, 0, 0]]}, "a state is 4 poses"),
    ("meta-experiment", {"trials": 1000}, "trials must be a whole number from 1 to 100"),
    ("learned-train", {}, "walks is missing"),
    ("learned-evaluate", {"count": 10**9}, None),
    ("no-such-kind", {}, "unknown job kind"),
])
def test_every_kind_checks_its_parameters_when_submitted(client, kind, params, message):
    response = client.post("/api/jobs", json={"kind": kind, "params": params})
    assert response.status_code == 400
    if message:
        assert message in response.get_json()["error"]
    assert client.get("/api/jobs").get_json()["jobs"] == []  # nothing was queued


def test_limits_per_browser_answer_429(app):
    student = visitor(app)
    # four jobs none of which can end during the test (hours to days of work; a quick one, e.g. a method skipped
    # for its n, would free a place between the two refusals below)
    long_work = [("classic-queens", {"n": 16, "methods": ["backtracking"]}),  # its limit: 18 is skipped at once
                 ("classic-queens", {"n": 12, "methods": ["generate-and-test"]}),
                 ("classic-knights", {"rows": 6, "cols": 6, "start": 0}),
                 ("classic-knights", {"rows": 6, "cols": 6, "start": 1})]
    started = [job_id(student.post("/api/jobs", json={"kind": kind, "params": params})) for kind, params in long_work]
    refused = student.post("/api/jobs", json={"kind": "research-maxmd", "params": {"n": 3}})
    assert refused.status_code == 429 and "cancel one" in refused.get_json()["error"]
    page = student.post("/research/start/maxmd", data={"n": "3"})  # the page says the same, as a fragment
    assert page.status_code == 429 and "wait for one to finish" in page.get_data(as_text=True)
    neighbour = visitor(app)
    assert neighbour.post("/api/jobs", json={"kind": "research-maxmd", "params": {"n": 3}}).status_code == 202
    for job in started:
        assert student.post(f"/api/jobs/{job}/cancel").status_code == 200


def test_only_the_browser_that_started_a_job_can_cancel_it(app):
    owner, other = visitor(app), visitor(app)
    job = job_id(owner.post("/api/jobs", json={"kind": "classic-queens", "params": EIGHTEEN_QUEENS}))
    refused = other.post(f"/api/jobs/{job}/cancel")
    assert refused.status_code == 403 and "only the browser that started" in refused.get_json()["error"]
    assert other.post(f"/jobs/{job}/cancel").status_code == 403
    assert other.get(f"/api/jobs/{job}").status_code == 200  # reading a result by its id stays open
    assert "Cancel</button>" not in other.get(f"/jobs/{job}").get_data(as_text=True)
    assert owner.post(f"/api/jobs/{job}/cancel").get_json()["status"] in ("cancelled", "running")


def test_a_running_count_is_cancelled_by_the_job_itself(client, app):
    job = job_id(client.post("/classic/queens/count", data={"n": "18", "bitmask": "on"}))
    wait_until(lambda: status(client, job) == "running")
    wait_until(lambda: client.get(f"/api/jobs/{job}").get_json()["info"].get("nodes", 0) > 0)
    html = client.post(f"/jobs/{job}/cancel").get_data(as_text=True)
    final = app.extensions["jobs"].wait(job, timeout=180)
    assert final["status"] == "cancelled" and final["error"] is None  # no worker had to be replaced
    assert "cancelled" in html


def test_a_solve_does_not_wait_behind_long_jobs(client, app):
    long_job = job_id(client.post("/api/jobs", json={"kind": "classic-queens", "params": EIGHTEEN_QUEENS}))
    wait_until(lambda: status(client, long_job) == "running")
    response = client.post("/api/solve", json={"size": "3x3", "tiles": SEED_004, "mode": "job"})
    solved = app.extensions["jobs"].wait(job_id(response), timeout=60)
    assert solved["status"] == "done" and solved["result"]["length"] == 31
    assert solved["lane"] == "interactive" and status(client, long_job) == "running"
    client.post(f"/api/jobs/{long_job}/cancel")


def test_a_job_behind_a_long_one_shows_how_long_it_has_waited_and_what_holds_the_lane(client, app):
    long_job = job_id(client.post("/api/jobs", json={"kind": "classic-queens", "params": EIGHTEEN_QUEENS}))
    wait_until(lambda: status(client, long_job) == "running")
    queued = job_id(client.post("/api/jobs", json={"kind": "classic-knights", "params": {"rows": 5, "cols": 5}}))
    html = client.get(f"/jobs/{queued}").get_data(as_text=True)
    assert status(client, queued) == "queued"
    assert "<dt>waiting</dt>" in html and "<dt>elapsed</dt>" not in html
    title = job_kinds()["classic-queens"].view_for(EIGHTEEN_QUEENS).title.lower()
    assert f"waiting for a worker of the long lane; busy with: {title}" in html
    for job in (queued, long_job):
        client.post(f"/api/jobs/{job}/cancel")


def test_pages_reattach_to_a_running_job_and_list_it_after_a_reload(client):
    first = job_id(client.post("/classic/queens/count", data={"n": "18", "bitmask": "on"}))
    again = client.post("/classic/queens/count", data={"n": "18", "bitmask": "on"})
    assert job_id(again) == first and "You already had this running" in again.get_data(as_text=True)
    mine = client.get("/jobs/mine").get_data(as_text=True)
    assert "Your running jobs" in mine and f'data-job="{first}"' in mine
    client.post(f"/jobs/{first}/cancel")


@pytest.mark.parametrize("headers", [{"Origin": "https://elsewhere.example"}, {"Sec-Fetch-Site": "cross-site"},
                                     {"Sec-Fetch-Site": "same-site", "Origin": "https://sub.localhost"}])
def test_a_cross_site_request_is_refused(client, headers):
    for url, data in [("/classic/queens/count", {"n": "8"}), ("/meta/experiment", {"trials": "1"})]:
        response = client.post(url, data=data, headers=headers)
        assert response.status_code == 403 and "another site" in response.get_data(as_text=True)
    response = client.post("/api/solve", json={"size": "3x3", "tiles": SEED_004}, headers=headers)
    assert response.status_code == 403
    assert client.get("/api/jobs").get_json()["jobs"] == []


@pytest.mark.parametrize("headers", [{}, {"Sec-Fetch-Site": "same-origin"}, {"Origin": "http://localhost"},
                                     {"Sec-Fetch-Site": "none"}])
def test_our_pages_and_api_clients_get_through(client, headers):
    response = client.post("/classic/queens/count", data={"n": "6"}, headers=headers)
    assert response.status_code == 200 and "4" in response.get_data(as_text=True)


@pytest.mark.parametrize("method, url, body", [
    # infinities and overflowing numbers where an integer is read
    ("post", "/api/solve", {"size": "3x3", "tiles": SEED_004, "max_nodes": "Infinity"}),
    ("post", "/api/compare", {"size": "3x3", "tiles": SEED_004, "solvers": ["bfs", "idastar"], "max_nodes": 1e300}),
    ("post", "/api/rectout/slide", {"state": [[6.5, 1.22, 0], [6.5, 3.66, 0], [6.5, 6.1, 0], [6.5, 8.54, 1e308]],
                                    "piece": 0, "dx": 1, "dy": 0}),
    ("post", "/api/step", {"problem": "tiles", "size": "3x3", "scramble": 1e300}),
    ("post", "/api/classic/paths", {"nodes": 1e300, "edges": []}),
    # names sent as lists or objects
    ("post", "/api/solve", {"size": "3x3", "tiles": SEED_004, "solver": {"a": 1}}),
    ("post", "/api/classic/paths", {"strategy": ["bfs"]}),
    ("post", "/api/step", {"algorithms": [["bfs"]]}),
    # NaN as a budget
    ("post", "/api/solve", {"size": "3x3", "tiles": SEED_004, "max_seconds": "NaN"}),
])
def test_malformed_json_values_are_400_not_500(client, method, url, body):
    response = getattr(client, method)(url, json=body)
    assert response.status_code == 400, response.get_data(as_text=True)[:300]


def test_raw_json_constants_and_deep_nesting_are_400(client):
    for raw in ('{"size": "3x3", "tiles": [8,6,7,2,5,4,3,0,1], "max_nodes": Infinity}',
                '{"size": "3x3", "tiles": [8,6,7,2,5,4,3,0,1], "max_seconds": NaN}',
                '{"size": "3x3", "tiles": [8,6,7,2,5,4,3,0,1], "max_nodes": 1e999}',
                '{"a": ' + "[" * 20_000 + "]" * 20_000 + "}"):
        response = client.post("/api/solve", data=raw, content_type="application/json")
        assert response.status_code == 400, raw[:80]


@pytest.mark.parametrize("method, url, data", [
    ("get", "/play?size=3x3&tiles=1,2,3,4,5,6,7,%C2%B9,0", None),  # superscript digits
    ("post", "/research/start/maxmd", {"n": "abc"}),
    ("post", "/meta/run", {"scramble_seed": "abc"}),
    ("post", "/classic/knights/count", {"rows": "1"}),
    ("post", "/meta/experiment", {"trials": "lots"}),  # checked at submission, not inside the job
    ("get", "/api/position?size=3x3&scramble=10000", None),  # past the longest scramble: refused, not walked
])
def test_malformed_form_and_query_values_are_400(client, method, url, data):
    response = getattr(client, method)(url, data=data) if data is not None else getattr(client, method)(url)
    assert response.status_code == 400, response.get_data(as_text=True)[:300]
    assert client.get("/api/jobs").get_json()["jobs"] == []


def test_sync_mode_is_bounded(client):
    one_move = list(range(1, 15)) + [0, 15]  # with a pattern database: no solve the web process tries itself
    response = client.post("/api/solve", json={"size": "4x4", "tiles": one_move, "heuristic": "pdb", "mode": "sync",
                                               "max_seconds": 900})
    data = response.get_json()
    assert response.status_code == 200 and data["length"] == 1
    job = client.get("/api/jobs").get_json()["jobs"][0]
    assert job["params"]["max_seconds"] == 10.0


def test_a_small_solve_is_answered_by_the_web_process_and_a_capped_one_becomes_a_job(client, monkeypatch):
    from app.submit import warm_quick_solves

    warm_quick_solves()  # as the server does at start: loading the kernels is no search's time
    data = client.post("/api/solve", json={"size": "3x3", "tiles": SEED_004, "solver": "bfs"}).get_json()
    assert data["length"] == 31 and data["optimal"] and data["solver"] == "bfs"
    assert client.get("/api/jobs").get_json()["jobs"] == []  # no worker was asked
    # this search needs 14,195 nodes: past the cap, a job
    monkeypatch.setattr("engine.domains.tiles.solve_cost.QUICK_NODES", 100)
    data = client.post("/api/solve", json={"size": "3x3", "tiles": SEED_004, "solver": "idastar",
                                             "heuristic": "manhattan", "mode": "sync"}).get_json()
    assert data["length"] == 31 and data["nodes_expanded"] == 14_195
    [job] = client.get("/api/jobs").get_json()["jobs"]
    assert job["kind"] == "solve" and job["status"] == "done"


def test_missing_tables_are_built_by_a_job_at_start_up(tmp_path, scheduler_address):
    from app import create_app, init_jobs
    from engine.domains.tiles.pdb_catalogue import missing

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "jobs.sqlite"), "DATA_DIR": str(tmp_path),
                      "SCHEDULER": scheduler_address, "BUILD_TABLES": True})
    runner = init_jobs(app)
    try:
        [job] = runner.store.active(owner="server", kind="tables-build")
        assert job["params"]["names"] == missing() and job["params"]["names"][0].startswith("pdb-663")
        page = visitor(app).get("/play?size=4x4", follow_redirects=True).get_data(as_text=True)
        assert "pattern databases are being built" in page
        other = visitor(app).get("/play?size=3x3", follow_redirects=True).get_data(as_text=True)
        assert "pattern databases are being built" not in other
        runner.cancel(job["id"])
    finally:
        runner.shutdown()


def test_a_script_that_opened_no_page_is_given_no_name_and_still_holds_what_it_starts(app):
    """Names are given to pages a browser loads (``app.identity``): a script's request is its network's cookieless
    client, which sees and cancels what it started."""
    script = app.test_client()  # keeps cookies, as a requests.Session does, but has not opened any page yet
    response = script.post("/api/jobs", json={"kind": "classic-queens", "params": EIGHTEEN_QUEENS})
    assert response.status_code == 202 and script.get_cookie("pp_owner") is None
    assert [j["id"] for j in script.get("/api/jobs").get_json()["jobs"]] == [job_id(response)]
    assert script.post(f"/api/jobs/{job_id(response)}/cancel").status_code == 200


def test_a_client_without_cookies_can_cancel_what_its_address_started(app):
    curl = app.test_client(use_cookies=False)
    job = job_id(curl.post("/api/jobs", json={"kind": "classic-queens", "params": EIGHTEEN_QUEENS}))
    assert [j["id"] for j in curl.get("/api/jobs").get_json()["jobs"]] == [job]
    assert visitor(app).post(f"/api/jobs/{job}/cancel").status_code == 403  # a browser is not that client
    elsewhere = curl.post(f"/api/jobs/{job}/cancel", environ_base={"REMOTE_ADDR": "10.1.2.3"})
    assert elsewhere.status_code == 403
    assert curl.post(f"/api/jobs/{job}/cancel").get_json()["status"] in ("cancelled", "running")


def test_cookieless_jobs_from_one_address_count_as_one_client_and_a_browser_there_is_not_starved(app):
    curl = app.test_client(use_cookies=False)
    korf_88 = [15, 2, 12, 11, 14, 13, 9, 5, 1, 3, 8, 7, 0, 10, 6, 4]  # billions of nodes: still running at the end
    answers = [curl.post("/api/solve", json={"size": "4x4", "goal": "blank-first", "tiles": korf_88, "mode": "job",
                                             "solver": "idastar", "max_seconds": 100, "max_nodes": 10**10 + i})
               for i in range(100)]
    accepted = [job_id(answer) for answer in answers if answer.status_code == 202]
    refused = [answer for answer in answers if answer.status_code == 429]
    assert len(accepted) == 4 and len(refused) == 96 and "cancel one" in refused[0].get_json()["error"]
    browser = visitor(app)  # the same address (the test client's)
    response = browser.post("/api/solve", json={"size": "3x3", "tiles": SEED_004, "solver": "idastar", "mode": "job"})
    solved = app.extensions["jobs"].wait(job_id(response), timeout=60)
    assert solved["status"] == "done" and solved["result"]["length"] == 31
    # it did not wait its turn behind theirs: they are all still there, at most one of them on each lane
    assert {status(curl, job) for job in accepted} <= {"queued", "running"}
    for job in accepted:
        assert curl.post(f"/api/jobs/{job}/cancel").status_code == 200


def test_per_address_limits_say_how_to_raise_them(app):
    from engine.serving.cluster import Limits

    app.extensions["jobs"].limits = Limits(per_address=2)
    started = [job_id(visitor(app).post("/api/jobs", json={"kind": "classic-knights",
                                                           "params": {"rows": 6, "cols": 6, "start": start}}))
               for start in (0, 1)]
    refused = visitor(app).post("/api/jobs", json={"kind": "classic-knights",
                                                   "params": {"rows": 6, "cols": 6, "start": 2}})
    assert refused.status_code == 429 and "PUZZLE_PER_ADDRESS" in refused.get_json()["error"]
    solve = visitor(app).post("/api/solve", json={"size": "4x4", "tiles": list(range(1, 16)) + [0], "mode": "sync"})
    assert solve.status_code == 200  # a browser with nothing running still gets its solve
    for job in started:
        app.extensions["jobs"].cancel(job)


def test_an_app_built_without_jobs_serves_its_pages_and_says_why_a_job_cannot_start(tmp_path):
    from app import create_app
    from app.submit import warm_quick_solves

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "jobs.sqlite"), "DATA_DIR": str(tmp_path)})
    assert "jobs" not in app.extensions  # no cluster was started
    client = app.test_client()
    assert client.get("/").status_code == 200
    assert client.get("/play?size=4x4&scramble=10&seed=1", follow_redirects=True).status_code == 200
    warm_quick_solves()
    assert client.post("/api/solve", json={"size": "3x3", "tiles": SEED_004}).get_json()["length"] == 31
    refused = client.post("/api/jobs", json={"kind": "research-maxmd", "params": {"n": 8}})
    assert refused.status_code == 503 and "init_jobs" in refused.get_json()["error"]


def test_the_cookie_is_secure_behind_https_and_job_answers_hide_the_workers_address(app):
    plain = app.test_client().get("/")
    assert "Secure" not in plain.headers["Set-Cookie"]
    forged = app.test_client().get("/", headers={"X-Forwarded-Proto": "https"})  # from no proxy it was told of
    assert "Secure" not in forged.headers["Set-Cookie"]  # (behind a trusted one: tests/app/test_proxy.py)
    secure = app.test_client().get("/", base_url="https://localhost").headers["Set-Cookie"]
    assert "Secure" in secure and "HttpOnly" in secure
    student = visitor(app)
    job = job_id(student.post("/api/jobs", json={"kind": "research-maxmd", "params": {"n": 3}}))
    assert app.extensions["jobs"].wait(job, timeout=60)["worker"].startswith("tcp://")  # the runner knows it
    for answer in (student.get(f"/api/jobs/{job}"), student.get(f"/jobs/{job}"), student.get("/api/jobs")):
        assert "tcp://" not in answer.get_data(as_text=True) and '"worker"' not in answer.get_data(as_text=True)
