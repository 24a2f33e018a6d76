"""How a class reads the page it follows: a view URL checked and kept as the class keeps it (a step-through view as
its saved view's short address), its step, and the recorded searches a question is made from. Every step-through
view goes through ``app.step``'s reader and writer of its query (``view_from_query``, ``request_for``), which read
each domain's view from the registry: a class follows any registered domain with no list of them here."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit, urlunsplit

from app.lessons import BY_SLUG
from app.links import base_link, query_of, record_for, saved, short_link
from app.own_lessons import lessons, slide_view
from app.quotas import charge
from app.records import ID_LENGTH, records
from app.step import request_for, step_traces, view_from_query
from engine.core.errors import PuzzleError
from engine.search.domain import Domain

MAX_VIEW = 2000  # characters of a view URL kept as it is (a lesson slide, a tile race); longer ones are saved views
VIEW_PATHS = ("/step", "/lessons/", "/compare", "/v/")  # the pages a class can follow


def checked_view(url: object) -> str:
    """A view URL a class may follow, as the class keeps it: a lesson slide or a tile race as it is, a step-through
    view or a race of solvers as its saved view's short address (``/v/<id>?step=N``)."""
    if not isinstance(url, str) or not url:
        raise PuzzleError("the view must be this site's page address")
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not parts.path.startswith(VIEW_PATHS) or ".." in parts.path:
        raise PuzzleError("a class can follow the step-through, a saved view, a lesson slide or a race of this site")
    if parts.path.startswith("/v/"):
        return saved_view(parts.path.removeprefix("/v/"), dict(parse_qsl(parts.query)))
    if parts.path == "/step":
        return base_link(view_from_query(dict(parse_qsl(parts.query))))
    if parts.path == "/step/compare":
        key = records().save_view(record_for(url), charge)
        return f"/v/{key}"
    if len(url) > MAX_VIEW:
        raise PuzzleError(f"the view must be this site's page address (at most {MAX_VIEW} characters)")
    if parts.path.startswith("/lessons/own/") and "step" not in dict(parse_qsl(parts.query)):
        # the page's address before its script wrote the step (a form sent without JavaScript): the slide's own step
        return with_step(urlunsplit(("", "", parts.path, parts.query, "")), own_slide_view(parts.path).step)
    return urlunsplit(("", "", parts.path, parts.query, ""))


def saved_view(key: str, args: dict) -> str:
    """A saved view's address as a class keeps it: a step-through view at an explicit step, a race as it is."""
    record = saved(key)
    if record["page"] != "step":
        return f"/v/{key}"
    at = args if "step" in args else record["query"]
    step = at.get("step", "0")
    return short_link(key, int(step) if str(step).isdigit() and int(step) <= 1_000_000 else 0, at.get("show_h") == "1")


def view_step(url: str) -> int:
    """The step a view URL stands at (its ``step``, 0 when it has none)."""
    value = dict(parse_qsl(urlsplit(url).query)).get("step", "0")
    return int(value) if value.isdigit() else 0


def with_step(url: str, step: int) -> str:
    """The view at another step, the rest of its address as the page wrote it (the page compares addresses)."""
    parts = urlsplit(url)
    fields = [field for field in parts.query.split("&") if field and not field.startswith("step=")]
    return urlunsplit(("", "", parts.path, "&".join(fields + [f"step={step}"]), ""))


def own_slide_view(path: str):
    """The view an own lesson's slide (``/lessons/own/<id>/<n>``) shows: the one its link names."""
    lesson_id, _, number = path.removeprefix("/lessons/own/").partition("/")
    lesson = lessons().get(lesson_id) if len(lesson_id) == ID_LENGTH else None
    if lesson is None or not number.isdigit() or not 1 <= int(number) <= len(lesson["slides"]):
        raise PuzzleError("this lesson slide does not exist")
    return slide_view(lesson["slides"][int(number) - 1])


def view_traces(url: str) -> tuple[Domain, list[dict]]:
    """The problem a view shows and its recorded searches (what a question is made from)."""
    parts = urlsplit(url)
    if parts.path.startswith("/lessons/own/"):
        data = request_for(own_slide_view(parts.path))
    elif parts.path.startswith("/lessons/"):
        slug, _, number = parts.path.removeprefix("/lessons/").partition("/")
        lesson = BY_SLUG.get(slug)
        if lesson is None or not number.isdigit() or not 1 <= int(number) <= len(lesson.slides):
            raise PuzzleError("this lesson slide does not exist")
        data = lesson.slides[int(number) - 1].request
    elif parts.path == "/step":
        data = request_for(view_from_query(dict(parse_qsl(parts.query))))
    elif parts.path.startswith("/v/") and saved(parts.path.removeprefix("/v/"))["page"] == "step":
        data = request_for(view_from_query(query_of(saved(parts.path.removeprefix("/v/")))))
    else:
        raise PuzzleError("questions are made from the step-through, saved views and lesson slides")
    problem, _, traces = step_traces(data)
    return problem, traces

