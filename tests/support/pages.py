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


def cancel_mid_search(client, response) -> tuple[dict, dict]:
    """Cancel the job a 202 started once it reports nodes: (the job as it ran, the job as the cancel left it)."""
    from tests.support.waiting import wait_until

    assert response.status_code == 202
    job_url = response.get_json()["url"]
    wait_until(lambda: client.get(job_url).get_json()["info"].get("nodes", 0) > 0)  # mid-search
    running = client.get(job_url).get_json()
    return running, client.post(job_url + "/cancel").get_json()
