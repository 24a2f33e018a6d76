"""The app's layout as ARCHITECTURE.md describes it, read from the files: a page module is registered by existing."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.support.waiting import wait_until

APP = Path(__file__).resolve().parents[2] / "app"


def blueprint_names() -> dict[str, str]:
    """Each module of app/ that makes a ``Blueprint``: its module name and the blueprint's name."""
    found = {}
    for path in APP.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Blueprint" and node.args:
                found[path.stem] = node.args[0].value
    return found


def test_every_blueprint_module_is_registered_and_its_subjects_are_in_the_navigation_in_place_order(app):
    names = blueprint_names()
    assert {"play", "research", "meta", "learned", "rectout", "classic", "step"} <= set(names)
    assert set(names.values()) == set(app.blueprints)
    subjects = app.extensions["subjects"]
    assert [s.place for s in subjects] == sorted(s.place for s in subjects)
    assert {s.endpoint.split(".")[0] for s in subjects} <= set(app.blueprints)


def test_every_htmx_form_of_these_pages_also_posts_without_javascript():
    """Where a form is the whole interaction, a browser without JavaScript posts it itself (``action``, ``method``)."""
    pages = ["research/index.html", "meta/index.html", "learned/index.html", "results/learned-train.html",
             "classic/queens.html", "classic/knights.html", "rectout/index.html"]
    for page in pages:
        forms = re.findall(r"<form [^>]*>", (APP / "templates" / page).read_text())
        posting = [form for form in forms if "hx-post=" in form]
        assert posting, page
        for form in posting:
            target = re.search(r'hx-post="([^"]+)"', form).group(1)
            assert f'action="{target}"' in form and 'method="post"' in form, (page, form)


def test_a_form_posted_without_javascript_gets_a_whole_page_and_htmx_gets_the_fragment(client):
    plain = client.post("/classic/queens/count", data={"n": "6", "bitmask": "on"}).get_data(as_text=True)
    htmx = client.post("/classic/queens/count", data={"n": "6", "bitmask": "on"},
                       headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "<!doctype html>" in plain and "<!doctype html>" not in htmx
    for answer in (plain, htmx):
        assert '<div class="queens-results" data-n="6">' in answer
        assert re.search(r"<td>bitmask</td><td class=\"count\">4</td>", answer)  # 6 queens: 4 solutions


def test_a_job_started_without_javascript_is_followed_on_its_own_page(client):
    page = client.post("/research/start/maxmd", data={"n": "3", "method": "exact"}).get_data(as_text=True)
    started = job_id_in(page)
    assert "<!doctype html>" in page and f'content="2; url=/jobs/{started}"' in page
    wait_until(lambda: "http-equiv" not in client.get(f"/jobs/{started}").get_data(as_text=True), 120,
               "the job's page to stop reloading")
    done = client.get(f"/jobs/{started}").get_data(as_text=True)
    assert "<!doctype html>" in done and "Back to the page" in done


def job_id_in(html: str) -> str:
    return re.search(r'data-job="([0-9a-f]+)"', html).group(1)


#: the one page template that sits flat in app/templates/: the error page every blueprint answers with
FLAT = {"error.html"}
#: folders shared by every blueprint: fragments, a job kind's result, macros
SHARED = {"partials", "results", "macros"}


def test_each_blueprint_renders_the_templates_of_its_own_folder():
    for module, blueprint in blueprint_names().items():
        for node in ast.walk(ast.parse((APP / f"{module}.py").read_text())):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "render_template" and node.args
                    and isinstance(node.args[0], ast.Constant)):
                name = node.args[0].value
                folder = name.split("/")[0] if "/" in name else None
                assert folder in {blueprint} | SHARED or name in FLAT, (module, name)
                assert (APP / "templates" / name).exists(), name
