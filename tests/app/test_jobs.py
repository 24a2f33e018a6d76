"""The job fragments' convention: a finished job of kind K is drawn by templates/results/K.html."""

import re

from engine.core import registry
from engine.serving.jobs import job_kinds


def test_every_result_template_draws_a_job_kind_and_every_kind_but_the_table_build_has_one(app):
    registry.load_all()
    kinds = {name for name in job_kinds() if not name.startswith("test-")}  # tests/support registers its own
    drawn = {name.removeprefix("results/").removesuffix(".html") for name in app.jinja_env.list_templates()
             if name.startswith("results/")}
    assert drawn <= kinds, drawn - kinds
    assert kinds - drawn == {"tables-build"}  # its result is the tables themselves: the job shows its message


def test_a_kind_without_a_result_template_shows_its_status_and_message(client, app):
    runner = app.extensions["jobs"]
    job_id, _ = runner.submit("tables-build", {"names": []}, owner="server")
    job = runner.wait(job_id, timeout=120)
    html = client.get(f"/jobs/{job_id}").get_data(as_text=True)
    assert f'data-job="{job_id}" data-status="{job["status"]}"' in html and 'class="job finished"' in html


def test_every_job_kind_declares_a_name_for_people_beside_its_registration():
    """Not the kind's own name made readable (the default for a kind that declares nothing): words of its own."""
    kinds = {name: kind for name, kind in job_kinds().items() if not name.startswith("test-")}
    views = {name: kind.view_for({}) for name, kind in kinds.items()}
    assert all(view.title[0].isupper() and name not in view.title.lower().replace(" ", "-")
               and view.title != name.replace("-", " ").capitalize() for name, view in views.items()), views
    assert job_kinds()["solve"].view_for({"solver": "dpso"}).unit == "evaluations"  # declared by seed 001's solver


def panel(app, **job) -> str:
    """The progress fragment a page polls, drawn for a job row as the runner returns it."""
    from flask import render_template

    from app.job_pages import kind_view

    row = {"id": "ab12", "kind": "solve", "params": {}, "status": "running", "fraction": None, "info": {},
           "elapsed": 0.5, "worker": None, "error": None, "result": None, **job}
    with app.test_request_context():
        return render_template("partials/job.html", job=row, job_id=row["id"], title=kind_view(row).title)


def test_a_panel_counts_in_its_kinds_unit_once_there_is_something_counted(app):
    starting = panel(app, info={"nodes": 0, "text": ""}, elapsed=4.0)
    assert "<dt>nodes</dt>" not in starting and "nodes/s" not in starting and "Solving…" in starting
    solving = panel(app, info={"nodes": 120_000}, elapsed=2.0)
    assert "120,000" in solving and "60,000 nodes/s" in solving
    trials = panel(app, kind="meta-experiment", info={"nodes": 7, "text": "7 of 20 trials"}, elapsed=3.5,
                   fraction=0.35)
    assert "Running the experiment…" in trials and "<dt>trials</dt>" in trials and "<dt>nodes</dt>" not in trials
    walks = panel(app, kind="learned-train", info={"nodes": 5_000_000, "walks": 50_000}, elapsed=10.0, fraction=0.5)
    assert "<dt>walks</dt>" in walks and "50,000" in walks and "5,000,000" not in walks
    swarm = panel(app, params={"solver": "dpso"}, info={"nodes": 3_000}, elapsed=1.5)
    assert "<dt>evaluations</dt>" in swarm


def test_a_time_left_only_where_the_fraction_grows_with_the_work(app):
    steady = panel(app, kind="learned-train", info={"walks": 50_000}, elapsed=10.0, fraction=0.5)
    assert "10 s left" in steady
    assert "left" not in panel(app, kind="learned-train", info={"walks": 50}, elapsed=1.0, fraction=0.5)  # too soon
    uneven = panel(app, kind="research-bounds", info={"nodes": 3}, elapsed=10.0, fraction=0.5)
    assert "left" not in uneven and "50 %" in uneven


def test_a_cancelled_job_says_cancelled_once(app):
    plain = panel(app, status="cancelled", error="cancelled", info={"nodes": 10})
    assert plain.count("cancelled") == 1 + plain.count('data-status="cancelled"')
    replaced = panel(app, status="cancelled", info={},
                     error="cancelled (it did not stop within 10 s, so its worker process was replaced)")
    assert "It did not stop within 10 s" in replaced
    assert replaced.count("cancelled") == 1 + replaced.count('data-status="cancelled"')


def test_a_panel_carries_the_form_its_job_was_sent_with(app):
    import html
    import json
    import re

    def form(**job):
        return json.loads(html.unescape(re.search(r'data-form="([^"]*)"', panel(app, **job)).group(1)))

    assert form(params={"size": "2x2", "goal": [0, 1, 2, 3], "tiles": [1, 0, 2, 3], "solver": "idastar",
                        "heuristic": "manhattan"}) == {"size": "2x2", "goal": "blank-first", "tiles": "1,0,2,3",
                                                       "solver": "idastar", "heuristic": "manhattan",
                                                       "choice": "idastar:manhattan"}
    assert form(params={"size": "2x2", "goal": [2, 1, 0, 3]})["goal"] == "2,1,0,3"
    assert form(kind="compare", params={"tiles": [1, 0], "solvers": [{"solver": "bfs", "heuristic": ""},
                                                                     {"solver": "astar", "heuristic": "pdb"}]}) == {
        "tiles": "1,0", "choice": ["bfs:", "astar:pdb"]}
    assert form(kind="classic-queens", params={"n": 15, "methods": ["bitmask"]}) == {
        "n": 15, "generate-and-test": "", "backtracking": "", "bitmask": "1"}
    assert form(params={"solver": "ga", "size": "3x3", "params": {"population": 50, "seed": 2}}) == {
        "algorithm": "ga", "size": "3x3", "population": 50, "seed": 2}


def test_a_reloaded_page_gets_its_form_back_under_the_forms_own_field_names():
    """The names are those of the forms' fields (templates/classic/queens.html, meta/index.html, play/index.html)."""
    from app.job_pages import form_values
    from engine.subjects.classic.queens import METHODS

    queens = form_values({"kind": "classic-queens", "params": {"n": 8, "methods": ["bitmask"]}})
    assert queens == {"n": 8, **{m: "1" if m == "bitmask" else "" for m in METHODS}}
    swarm = form_values({"kind": "solve", "params": {"solver": "dpso", "size": "3x3", "params": {"iterations": 5}}})
    assert swarm == {"algorithm": "dpso", "size": "3x3", "iterations": 5}
    solve = form_values({"kind": "solve", "params": {"size": "3x3", "goal": [1, 2, 3, 4, 5, 6, 7, 8, 0],
                                                     "solver": "idastar", "heuristic": "manhattan"}})
    assert solve["choice"] == "idastar:manhattan" and solve["goal"] == "blank-last"
    compare = form_values({"kind": "compare", "params": {"solvers": [{"solver": "bfs", "heuristic": ""},
                                                                     {"solver": "astar", "heuristic": "manhattan"}]}})
    assert compare == {"choice": ["bfs:", "astar:manhattan"]}


def test_a_count_that_stops_moving_is_said_to_wait_not_shown_as_a_falling_rate(app):
    """IDA* reports between slices; a solver that reports nothing for a while (a compare's next one loading) leaves
    the last count standing. The panel keeps the rate that count was reached at and says how long it has stood."""
    moving = panel(app, id="cd34", info={"nodes": 1_000_000, "bound": 52}, elapsed=2.0)
    assert "500,000 nodes/s" in moving and "still searching" not in moving
    standing = panel(app, id="cd34", info={"nodes": 1_000_000, "bound": 52}, elapsed=10.0)
    assert "1,000,000" in standing and "100,000 nodes/s" not in standing
    assert re.search(r"still searching bound 52[^<]*no new count for 8 s", standing), standing
    moving_again = panel(app, id="cd34", info={"nodes": 3_000_000, "bound": 53}, elapsed=11.0)
    assert "still searching" not in moving_again and "272,727 nodes/s" in moving_again  # 3,000,000 / 11 s
