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


def submitted_fields(page: str, form_id: str) -> list[tuple[str, str]]:
    """The (name, value) pairs a browser without JavaScript submits from the form ``form_id`` of ``page`` as it
    stands: named inputs (a checkbox or radio only when checked), selects (the selected option, else the first) and
    textareas, leaving out disabled ones and everything in a disabled fieldset."""
    from html.parser import HTMLParser

    class Form(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.inside, self.disabled_depth, self.fields = False, 0, []
            self.select = self.option = self.textarea = None

        def off(self, attrs) -> bool:
            return self.disabled_depth > 0 or "disabled" in attrs

        def handle_starttag(self, tag, attr_list):
            attrs = dict(attr_list)
            if tag == "form":
                self.inside = attrs.get("id") == form_id
            if not self.inside:
                return
            if tag == "fieldset":
                self.disabled_depth += 1 if self.disabled_depth or "disabled" in attrs else 0
            elif tag == "input" and attrs.get("name") and not self.off(attrs):
                kind = attrs.get("type", "text")
                if kind in ("checkbox", "radio"):
                    if "checked" in attrs:
                        self.fields.append((attrs["name"], attrs.get("value", "on")))
                elif kind not in ("button", "submit", "reset", "image", "file"):
                    self.fields.append((attrs["name"], attrs.get("value", "")))
            elif tag == "select" and attrs.get("name") and not self.off(attrs):
                self.select = {"name": attrs["name"], "options": [], "chosen": None}
            elif tag == "option" and self.select is not None:
                self.option = [attrs.get("value"), ""]
                self.select["options"].append(self.option)
                if "selected" in attrs and self.select["chosen"] is None:
                    self.select["chosen"] = self.option
            elif tag == "textarea" and attrs.get("name") and not self.off(attrs):
                self.textarea = [attrs["name"], ""]

        def handle_data(self, data):
            if self.option is not None:
                self.option[1] += data
            if self.textarea is not None:
                self.textarea[1] += data

        def handle_endtag(self, tag):
            if not self.inside:
                return
            if tag == "form":
                self.inside = False
            elif tag == "fieldset" and self.disabled_depth:
                self.disabled_depth -= 1
            elif tag == "option":
                self.option = None
            elif tag == "select" and self.select is not None:
                chosen = self.select["chosen"] or (self.select["options"] or [None])[0]
                if chosen is not None:
                    value, label = chosen
                    self.fields.append((self.select["name"], label.strip() if value is None else value))
                self.select = None
            elif tag == "textarea" and self.textarea is not None:
                self.fields.append(tuple(self.textarea))
                self.textarea = None

    parser = Form()
    parser.feed(page)
    return parser.fields
