"""A lecturer's own lessons as records: written in the app or uploaded as JSON, checked, stored, and presented from
their own link exactly as the built-in lessons are.

A lesson (``app.lessons.read_own_lesson``: a title and slides, each a title, words and a ``/step`` link or a saved
view's short link ``/v/<id>``, read as the view it names) is stored in
the job database's ``lessons`` table under the first 16 hex digits of the SHA-256 of its canonical JSON, so the same
lesson is one record and one link (``/lessons/own/<id>``, which presents it from slide 1; its summary with the
verdicts is ``/lessons/own/<id>/summary``). Each slide's verdict (every number its words state, read as what it names
and checked against the step-through at its step, ``app.slide_check``) is stored apart in ``lesson_checks``, keyed by
the hash of the slide's link and words and the checker's version: a slide is checked once, whatever lesson it is in.
Both are kept within the records' budget, least recently used first (``app.records``: opening a lesson or its
slides marks it used, so a lesson a lecturer opens stays), and a new lesson is charged to its client before it is
stored (``app.quotas``).

The check is bounded work in the request, not a job (issue 43): one request records traces for at most
``CHECK_SECONDS`` (each trace is itself bounded by ``engine.search.trace``'s budget, so a request ends within that plus
one trace), identical views are recorded once, and a lesson whose slides did not all fit is stored with the rest
marked "not checked yet" and a "Check the rest" button that carries on where it stopped. At most ``MAX_CHECKS`` checks
run at once in a web process and one per client (``app.submit.client``: its signed cookie, or its address for
requests without one); past that the answer is 429 with what to do.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from urllib.parse import parse_qsl

from flask import Blueprint, Response, abort, jsonify, redirect, render_template, request, url_for

from app.lessons import MAX_OWN_SLIDES, read_own_lesson
from app.links import saved_step_link
from app.quotas import charge
from app.records import ID_LENGTH, Records, app_extension, canonical, record_id, records
from app.slide_check import read_words
from app.step_search import step_traces
from app.step_view import request_for, view_from_query
from app.subjects import Subject
from app.submit import WebWork, client
from engine.core.errors import PuzzleError
from engine.core.params import integer, json_value
from engine.serving.cluster import QuotaExceeded

bp = Blueprint("own_lessons", __name__)
SUBJECTS = [Subject("own_lessons.write", "Write a lesson", "Write your own lesson",
                    "Add views of the step-through as slides, write your words, put them in order: every number is "
                    "checked against the board, and the lesson gets a link to present it from.",
                    section="own_lessons.", place=61)]

SCHEMA = ("CREATE TABLE IF NOT EXISTS lessons (id TEXT PRIMARY KEY, body TEXT NOT NULL, created REAL NOT NULL)",
          "CREATE TABLE IF NOT EXISTS lesson_checks (key TEXT PRIMARY KEY, verdict TEXT NOT NULL, "
          "checked REAL NOT NULL)")
CHECK_SECONDS = 8.0  # the traces one request may record: past it, the rest of the lesson waits for "Check the rest"
MAX_CHECKS = 2  # checks at once in one web process (each holds a thread and, being Python, much of the GIL)
RETRY_SECONDS = 5
MAX_SOURCE = 1_000_000  # 30 slides of 25,000-character links and 4,000-character words fit
VERDICT_BYTES = 512  # a slide's verdict beyond its numbers: its step, the keys, a sentence when its link fails


class LessonStore:
    """The lessons and the slides' verdicts: two tables beside the saved views, on the same records (``app.records``:
    its connection, its canonical JSON and its content-addressed ids)."""

    def __init__(self, rows: Records):
        self.rows = rows
        with rows.writing() as db:
            for statement in SCHEMA:
                db.execute(statement)
        rows.retain("lessons", "id", "body", "created")  # within the records' budget, least recently opened first
        rows.retain("lesson_checks", "key", "verdict", "checked")

    def put(self, lesson: dict, charge: Callable[[int], None] | None = None) -> str:
        """The lesson's id: stored now unless it was before (then only marked used); a new one is first charged
        (``charge(bytes)``, which raises to refuse: ``app.quotas``) its size and as much again for its slides'
        verdicts, which are at most its words and the numbers in them."""
        body = canonical(lesson)
        lesson_id = record_id(body)
        if self.rows.one("SELECT 1 FROM lessons WHERE id = ?", (lesson_id,)) is not None:
            self.rows.used("lessons", [lesson_id])
            return lesson_id
        size = len(body.encode())
        if charge is not None:
            charge(2 * size + VERDICT_BYTES * len(lesson["slides"]))
        with self.rows.writing() as db:
            now = self.rows.clock()
            db.execute("INSERT OR IGNORE INTO lessons (id, body, created) VALUES (?, ?, ?)", (lesson_id, body, now))
            self.rows.keep(db, "lessons", lesson_id, size, now)
        return lesson_id

    def get(self, lesson_id: str) -> dict | None:
        """The lesson (marked used: a lesson that is opened is kept)."""
        row = self.rows.one("SELECT body FROM lessons WHERE id = ?", (lesson_id,))
        if row is None:
            return None
        self.rows.used("lessons", [lesson_id])
        return json.loads(row["body"])

    def verdicts(self, slides: list[dict]) -> list[dict | None]:
        keys = [slide_key(slide) for slide in slides]
        found = {row["key"]: row["verdict"] for row in self.rows.connection().execute(
            f"SELECT key, verdict FROM lesson_checks WHERE key IN ({','.join('?' * len(keys))})", keys)}
        self.rows.used("lesson_checks", list(found))
        return [json.loads(found[key]) if key in found else None for key in keys]

    def put_verdict(self, slide: dict, verdict: dict) -> None:
        text = json.dumps(verdict)
        with self.rows.writing() as db:
            now = self.rows.clock()
            db.execute("INSERT OR REPLACE INTO lesson_checks (key, verdict, checked) VALUES (?, ?, ?)",
                       (slide_key(slide), text, now))
            self.rows.keep(db, "lesson_checks", slide_key(slide), len(text.encode()), now)


#: the checker's reading of words: a new one checks every slide again rather than show an older reading's verdict
CHECKER = "names-1"


def slide_key(slide: dict) -> str:
    return hashlib.sha256(json.dumps([slide["link"], slide["text"], CHECKER]).encode()).hexdigest()


def lessons() -> LessonStore:
    return app_extension("own_lessons", lambda: LessonStore(records()))


#: checks under way: one per client, ``MAX_CHECKS`` in the process; past either a 429 that says to press Check again
CHECKS = WebWork("lesson check", 1, MAX_CHECKS)


def slide_view(slide: dict):
    """The view a slide's link opens: a ``/step?…`` address, or a saved view's short link ``/v/<id>?step=N``."""
    link = saved_step_link(slide["link"]) if slide["link"].startswith("/v/") else slide["link"]
    return view_from_query(dict(parse_qsl(link.partition("?")[2])))


def check_slides(store: LessonStore, slides: list[dict], seconds: float | None = None) -> None:
    """Record and store the verdicts of the slides not yet checked, within ``seconds`` of traces (``CHECK_SECONDS``)."""
    deadline = time.monotonic() + (CHECK_SECONDS if seconds is None else seconds)
    recorded: dict[str, list[dict]] = {}
    for slide, verdict in zip(slides, store.verdicts(slides), strict=True):
        if verdict is not None:
            continue
        if time.monotonic() > deadline:
            break
        try:
            view = slide_view(slide)
            body = request_for(view)
            key = json.dumps(body, sort_keys=True)
            if key not in recorded:
                recorded[key] = step_traces(body)[2]
            traces = recorded[key]
        except PuzzleError as error:
            store.put_verdict(slide, {"error": f"its link does not open a view: {error}"})
            continue
        step = min(view.step, max(len(trace["steps"]) for trace in traces))
        readings = read_words(slide["text"], traces, step)
        store.put_verdict(slide, {"step": step, "stated": [r.written for r in readings],
                                  "unshown": [r.written for r in readings if not r.right],
                                  "readings": [r.to_dict() for r in readings]})


def report(lesson_id: str, lesson: dict, verdicts: list[dict | None]) -> dict:
    """The lesson's verdicts as data (``Accept: application/json``) and as the pages show them."""
    slides = []
    for number, (slide, verdict) in enumerate(zip(lesson["slides"], verdicts, strict=True), 1):
        state = "unchecked" if verdict is None else "error" if "error" in verdict else \
            "unshown" if verdict["unshown"] else "ok"
        slides.append({"number": number, "title": slide["title"], "link": slide["link"], "state": state,
                       "ok": state == "ok", **(verdict or {})})
    return {"id": lesson_id, "title": lesson["title"], "link": url_for("own_lessons.present", lesson_id=lesson_id),
            "summary": url_for("own_lessons.overview", lesson_id=lesson_id),
            "complete": all(v is not None for v in verdicts), "ok": all(s["ok"] for s in slides), "slides": slides}


def wants_data() -> bool:
    return request.accept_mimetypes.best_match(["text/html", "application/json"]) == "application/json"


def refused(code: int, message: str):
    if wants_data():
        response = jsonify(error=message)
    else:
        response = Response(render_template("error.html", code=code, message=message), mimetype="text/html")
    response.status_code = code
    if code == 429:
        response.headers["Retry-After"] = str(RETRY_SECONDS)
    return response


def stored_or_404(lesson_id: str) -> dict:
    lesson = lessons().get(lesson_id) if len(lesson_id) == ID_LENGTH else None
    if lesson is None:
        abort(404, description=f"there is no lesson {lesson_id}")
    return lesson


def checked_answer(lesson_id: str, lesson: dict):
    store = lessons()
    try:
        with CHECKS.slot(client()):
            check_slides(store, lesson["slides"])
    except QuotaExceeded as error:
        return refused(429, f"{error} (press Check again in {RETRY_SECONDS} seconds; your lesson is kept as you sent "
                       "it)")
    if wants_data():
        return jsonify(report(lesson_id, lesson, store.verdicts(lesson["slides"])))
    return redirect(url_for("own_lessons.overview", lesson_id=lesson_id), 303)


@bp.post("/lessons/check")
def check():
    """A lesson pasted, uploaded or written in the app: stored, checked within the budget, then its page (or, asked
    for JSON, its verdicts as data)."""
    upload = request.files.get("file")
    source = upload.read(MAX_SOURCE + 1).decode("utf-8", "replace") if upload and upload.filename \
        else request.form.get("lesson", "")
    if not source and request.is_json:
        source = request.get_data(as_text=True)
    try:
        if len(source) > MAX_SOURCE:
            raise PuzzleError(f"a lesson is at most {MAX_SOURCE:,} characters of JSON")
        lesson = read_own_lesson(json_value(source, "the lesson"))
        for number, one in enumerate(lesson["slides"], 1):  # a link that is no view is refused now, not when checked
            try:
                slide_view(one)
            except PuzzleError as error:
                raise PuzzleError(f"slide {number}'s link: {error}") from None
    except PuzzleError as error:
        if wants_data():
            return refused(400, str(error))
        raise
    return checked_answer(lessons().put(lesson, charge), lesson)


@bp.post("/lessons/own/<lesson_id>/check")
def check_rest(lesson_id: str):
    return checked_answer(lesson_id, stored_or_404(lesson_id))


@bp.get("/lessons/own/<lesson_id>")
def present(lesson_id: str):
    """The lesson's link: presenting from slide 1, so a clicker's PageDown steps at once (its summary, with the
    verdicts, one click away); asked for JSON, its verdicts as data."""
    lesson = stored_or_404(lesson_id)
    if wants_data():
        return jsonify(report(lesson_id, lesson, lessons().verdicts(lesson["slides"])))
    return redirect(url_for("own_lessons.slide", lesson_id=lesson_id, number=1))


@bp.get("/lessons/own/<lesson_id>/summary")
def overview(lesson_id: str):
    """The lesson's summary for its lecturer: every slide's verdict, presenting, editing and exporting it."""
    lesson = stored_or_404(lesson_id)
    checked = report(lesson_id, lesson, lessons().verdicts(lesson["slides"]))
    if wants_data():
        return jsonify(checked)
    return render_template("own_lessons/overview.html", lesson=lesson, checked=checked, lesson_id=lesson_id,
                           source=json.dumps(lesson, indent=1, ensure_ascii=False))


@bp.get("/lessons/own/<lesson_id>.json")
def export(lesson_id: str):
    """The lesson as the JSON it was made from: to keep, to edit, to load again."""
    lesson = stored_or_404(lesson_id)
    response = Response(json.dumps(lesson, indent=1, ensure_ascii=False), mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="lesson-{lesson_id}.json"'
    return response


@bp.get("/lessons/own/<lesson_id>/<int:number>")
def slide(lesson_id: str, number: int):
    """One slide presented as the built-in ones are: its words beside the live step-through at its step, the
    clicker's walk, then the next slide. The class sees this page: the check's verdicts stay in the summary and the
    writer (a planned wrong claim is not given away, nor a wrong flag shown)."""
    lesson = stored_or_404(lesson_id)
    if not 1 <= number <= len(lesson["slides"]):
        abort(404)
    own = lesson["slides"][number - 1]
    view = slide_view(own)
    shown = {"title": own["title"], "text": [p for p in own["text"].split("\n\n") if p.strip()] or [""],
             "shows": "the view its link opens", "request": request_for(view), "step": view.step,
             "walk": own["walk"]}
    total = len(lesson["slides"])
    here = url_for("own_lessons.overview", lesson_id=lesson_id)
    before = url_for("own_lessons.slide", lesson_id=lesson_id, number=number - 1) if number > 1 else None
    after = url_for("own_lessons.slide", lesson_id=lesson_id, number=number + 1) if number < total else None
    return render_template("own_lessons/slide.html", lesson={"title": lesson["title"], "slides": lesson["slides"]},
                           slide=shown, number=number, at=integer(request.args, "step", 0, 1_000_000, None),
                           show_h=view.show_h, home=here,
                           prev_link=(before, "← Previous slide") if before else None,
                           next_link=(after, "Next slide →", True) if after else (here, "End of the lesson", False))


@bp.get("/lessons/write")
def write():
    """Write a lesson in the app: add views as slides (``?add=<a /step link>`` from the step-through), write the words,
    reorder; ``?from=<id>`` starts from a stored lesson. The draft lives in the browser until it is checked."""
    start = stored_or_404(request.args["from"]) if request.args.get("from") else None
    checked = report(request.args["from"], start, lessons().verdicts(start["slides"]))["slides"] if start else []
    # each slide's verdict, for the writer to show beside its words while they and its link are as they were checked
    verdicts = [{"link": s["link"], "text": one["text"], "state": s["state"], "step": s.get("step"),
                 "readings": s.get("readings", []), "error": s.get("error")}
                for s, one in zip(checked, start["slides"] if start else [], strict=True)]
    return render_template("own_lessons/write.html", start=start, verdicts=verdicts, max_slides=MAX_OWN_SLIDES)
