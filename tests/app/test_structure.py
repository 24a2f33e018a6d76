"""The app's layout as ARCHITECTURE.md describes it, read from the files: a page module is registered by existing."""

from __future__ import annotations

import ast
from pathlib import Path

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
