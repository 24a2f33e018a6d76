"""The job fragments' convention: a finished job of kind K is drawn by templates/results/K.html."""

from engine import registry
from engine.jobs import job_kinds


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
