"""What the page checklist in ARCHITECTURE.md asks of a new subject page, checked on the registered pages."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import url_for

from tests.e2e.test_accessibility import PAGES


def test_every_subject_page_is_in_the_accessibility_check(app):
    with app.test_request_context():
        subject_paths = {url_for(subject.endpoint) for subject in app.extensions["subjects"]}
    checked = {urlsplit(page).path for page in PAGES}
    assert len(subject_paths) >= 8 and "/research/" in subject_paths
    assert subject_paths - checked == set()
