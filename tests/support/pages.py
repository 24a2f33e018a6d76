"""Helpers for tests that drive the app through its pages and API."""

from __future__ import annotations

import re


def job_id(response) -> str:
    """The id of the job a response started: the JSON's ``job``, or the ``data-job`` of a progress fragment."""
    if response.is_json:
        return response.get_json()["job"]
    match = re.search(r'data-job="([0-9a-f]+)"', response.get_data(as_text=True))
    assert match, response.get_data(as_text=True)[:500]
    return match.group(1)
