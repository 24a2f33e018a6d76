"""Short links: a step-through view or a race of solvers saved as a record (``app.records``) and opened at
``/v/<id>``, presenting, at the saved step, on any screen.

A record is the view's query as ``app.step_view.query_for`` writes it, with the problem's JSON (a typed graph, a
grid) kept as JSON, under the page it belongs to: ``{"page": "step" | "step/compare", "query": {...}}``. Reading one
goes through ``view_from_query`` again, so a saved view is checked as a typed link is. ``/v/<id>?step=N`` (and
``show_h=1``) opens the same view at another step: the address a page opened from a record keeps while its user
steps, and what a class following a saved view sends its students.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from urllib.parse import parse_qsl, urlencode, urlsplit

from flask import Blueprint, abort, jsonify, request, url_for

from app import refuse, step
from app.quotas import charge
from app.records import TooLarge, records
from app.solve_api import json_body
from app.step_search import step_problem
from app.step_view import View, current_query, domain_views, query_for, request_for, view_from_query
from engine.core.errors import PuzzleError
from engine.core.params import flag, integer, text

bp = Blueprint("links", __name__)

SAVED_PAGES = {"/step": "step", "/step/compare": "step/compare"}
KEY = re.compile(r"[a-z2-7]{12}")
MAX_URL = 60_000  # characters of a view's address sent to be saved (the body's limit is 64 KB)


@bp.errorhandler(TooLarge)
def too_large(error: TooLarge):
    return refuse(413, str(error))


def step_record(view: View, page: str = "step", **extra: str) -> dict:
    """The record of a step-through view (``page``: the page showing it; ``extra``: that page's own fields)."""
    fields: dict[str, object] = dict(parse_qsl(query_for(view)))
    if "data" in fields and view.data is not None and not isinstance(view.data, str):  # a kind's JSON, kept as JSON
        fields["data"] = view.data
    if view.graph is not None:
        fields["graph"] = view.graph
    return {"page": page, "query": {**fields, **extra}}


def record_for(url: object) -> dict:
    """The record of a view's address on this site (``/step?…`` or ``/step/compare?…``); a ``PuzzleError`` naming what
    is wrong otherwise."""
    if not isinstance(url, str) or not url or len(url) > MAX_URL:
        raise PuzzleError(f"view must be this site's address of a view (at most {MAX_URL:,} characters)")
    parts = urlsplit(url)
    if (parts.scheme or parts.netloc) and parts.netloc != request.host:
        raise PuzzleError("view must be an address on this site")
    page = SAVED_PAGES.get(parts.path)
    if page is None:
        raise PuzzleError("a link is saved for the step-through (/step) or a race of solvers (/step/compare)")
    args = dict(parse_qsl(parts.query))
    view = view_from_query(args)
    step_problem(request_for(view))  # a view that cannot be shown is refused now, not when its link is opened
    if page == "step":
        return step_record(view)
    if view.problem not in domain_views():
        raise PuzzleError("solvers are raced on a problem of a registered domain (tile solvers: the Compare page)")
    solvers = text(args, "solvers", 400, "")
    return step_record(replace(view, step=0, show_h=False), page, **({"solvers": solvers} if solvers else {}))


def query_of(record: dict) -> dict[str, str]:
    """A record's query as the text fields of an address (what ``view_from_query`` reads), a view's old name read as
    today's (``current_query``: a record saved before a view was renamed keeps its key and opens the same view)."""
    return current_query({name: value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
                          for name, value in record["query"].items()})


def long_url(record: dict) -> str:
    return f"/{record['page']}?{urlencode(query_of(record), safe=',:')}"


def saved(key: str) -> dict:
    """The record ``key`` names, or a 404 that says so."""
    record = records().view(key) if KEY.fullmatch(key) else None
    if record is None:
        abort(404, "no saved view has this link; check the address, or open the step-through and copy a new one")
    return record


def saved_step_link(link: str) -> str:
    """The long ``/step?…`` address a short link ``/v/<id>`` (with its ``step`` and ``show_h``) names: what a lesson's
    slide written with a short link shows. A ``PuzzleError`` when it names no saved view of the step-through."""
    parts = urlsplit(link)
    key = parts.path.removeprefix("/v/")
    record = records().view(key) if parts.path.startswith("/v/") and KEY.fullmatch(key) else None
    if record is None or record["page"] != "step":
        raise PuzzleError(f"{link[:80]} is not the short link of a saved step-through view")
    query = query_of(record)
    args = dict(parse_qsl(parts.query))
    if "step" in args:  # as ``open_view`` reads such an address: its step and option, not the record's
        query["step"] = str(integer(args, "step", 0, 1_000_000, 0))
        query.pop("show_h", None)
        if flag(args, "show_h", False):
            query["show_h"] = "1"
    return f"/step?{urlencode(query, safe=',:')}"


def base_link(view: View) -> str:
    """The short address of a view at its step: the record of the view at step 0 without h shown (one record for
    every step of it) and the step and option in the query, as ``page.js`` writes the address of such a page."""
    key = records().save_view(step_record(replace(view, step=0, show_h=False)), charge)
    return short_link(key, view.step, view.show_h)


def short_link(key: str, step: int, show_h: bool) -> str:
    return f"/v/{key}?{'show_h=1&' if show_h else ''}step={step}"


@bp.post("/api/views")
def save():
    """Save the view ``{"view": "<its address>"}``: its short link (the same view gets the same link; a new one is
    charged to the client: ``app.quotas``)."""
    record = record_for(json_body().get("view"))
    key = records().save_view(record, charge)
    link = url_for("links.open_view", key=key)
    return jsonify(id=key, link=link, url=url_for("links.open_view", key=key, _external=True))


@bp.get("/api/views/<key>")
def view_api(key: str):
    """A saved view: its page and its long address (the step-through applies it without reloading)."""
    record = saved(key)
    return jsonify(id=key, page=record["page"], url=long_url(record))


@bp.get("/v/<key>")
def open_view(key: str):
    """The saved view, presenting: the stage first, at the saved step (or the ``step`` of this address)."""
    record = saved(key)
    args = query_of(record)
    if record["page"] == "step/compare":
        return step.compare_page(args)
    view = view_from_query(args)
    if "step" in request.args:  # the address of a page stepping on from the record
        view = replace(view, step=integer(request.args, "step", 0, 1_000_000, 0),
                       show_h=flag(request.args, "show_h", False))
    return step.render_step_page(view, {"step": view.step, "show_h": view.show_h, "present": True,
                                   "record": {"id": key}}, presenting=True)
