"""A class: students' phones follow the lecturer's step-through, answer the questions the engine makes from it, and a
student practises alone.

The lecturer starts a class from any step-through view, saved view, lesson slide or race (``partials``' "Start a
class" form posts the page's view URL; a step-through view or a race is saved as a record, ``app.links``, so a typed
graph of any size becomes a short ``/v/<id>?step=N``). The class gets a short code (``/class/<code>``, a QR code of
that link) and the lecturer's browser gets a secret in a cookie scoped to that class's paths; driving the class
(moving its view, asking, revealing, ending) needs the secret, so a student who knows the code can follow and answer
but not drive (403).

A class is a row in the job database (``app.records``: its code, the hash of the secret, the view, the version, the
open question, answers, who started it, when it was started, last driven and expires), so it survives a restart of
the server and every web process that reads the same database serves it. A class expires when its lecturer has not
touched it for ``IDLE_SECONDS``.

Transport: students poll ``/class/<code>/state`` with ``If-None-Match`` (a 304 while nothing changed): one
primary-key read per poll. Which students polled lately is kept in this process and written in one batch at most
once a second (``Presence``), so a class of hundreds costs the database one small write a second. Short requests
keep no connection or thread per student, whatever the server's connection model, and ``bench/classroom.py``
measures the propagation a class of 100 sees.

Limits: a client (the owner cookie, or every cookieless request from one address: ``app.submit``) keeps at most
``PER_CLIENT`` classes (starting another ends its least recently driven one); a network address at most
``PER_ADDRESS``; the server at most ``MAX_CLASSES``, of which the last ``KEPT_FOR_NEW_ADDRESSES`` only for an address
with no class running, so one address that started many never stops a lecturer elsewhere. A code is 8 letters from a
31-letter alphabet (8.5 × 10^11 codes); an address may miss ``MISSES_PER_MINUTE`` codes a minute (then its further
misses are refused for the minute; a known class's polls never are), so finding one of 500 live classes by guessing
takes an address about 50 years. Following a class starts no job, so it never counts against a job quota.
"""

from __future__ import annotations

import hmac
import io
import json
import random
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit, urlunsplit

import segno
from flask import Blueprint, abort, jsonify, make_response, redirect, render_template, request, url_for
from markupsafe import Markup
from werkzeug.exceptions import HTTPException

from app import refuse
from app.lessons import BY_SLUG
from app.links import base_link, query_of, record_for, saved, short_link
from app.records import Allowance, ClassRows, app_extension, records, secret_hash
from app.solve_api import json_body
from app.step import request_for, step_traces, view_from_query
from app.subjects import Subject
from app.submit import anonymous_address, owner
from engine.core.errors import PuzzleError
from engine.search import questions
from engine.serving.cluster import anonymous_owner

bp = Blueprint("classroom", __name__, url_prefix="/class")
SUBJECTS = [
    Subject("classroom.index", "Class", "Teach a class", "Students follow the lecturer's step-through on their "
            "phones and answer questions the engine makes from it; or practise alone, graded at once."),
]

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read off a projector and typed on a phone
CODE_LENGTH = 8
MAX_CLASSES = 500
KEPT_FOR_NEW_ADDRESSES = 100  # the last places: only for an address with no class running
PER_ADDRESS = 20  # classes running from one network address (a department behind one NAT)
PER_CLIENT = 3  # classes one browser keeps; a fourth ends its least recently driven one
IDLE_SECONDS = 3 * 3600  # a lecture and its break
TOUCH_EVERY = 60  # seconds: how stale the lecturer's last touch may grow before it is written again
MAX_STUDENTS = 400  # per class: polls and answers beyond this are refused
FOLLOWING_SECONDS = 5  # a student who polled this recently counts as following
PRESENCE_WRITE_SECONDS = 1.0  # how often this process writes the polls it has seen
MISSES_PER_MINUTE = 60  # unknown codes one address may look up a minute (a lecture hall behind one NAT mistypes)
CODE_MISSES = Allowance("class-code-miss", 60.0)  # counted in the records: every web process on them together
MAX_VIEW = 2000  # characters of a view URL kept as it is (a lesson slide, a tile race); longer ones are saved views
VIEW_PATHS = ("/step", "/lessons/", "/compare", "/v/")  # the pages a class can follow
SECRET_COOKIE = "pp_class"
POLL_MILLISECONDS = 700  # the student's poll: the lecturer's step reaches 95 % within about 0.7 s plus a request


@dataclass(frozen=True)
class Class:
    """A class as its row holds it (``question``: {number, question (with its answer), revealed} or None)."""

    code: str
    secret: str  # the hash of the lecturer's secret
    view: str
    version: int
    question: dict | None
    touched: float

    @classmethod
    def of(cls, row: sqlite3.Row) -> Class:
        return cls(row["code"], row["secret"], row["view"], row["version"],
                   json.loads(row["question"]) if row["question"] else None, row["touched"])


class Classes:
    """The classes in the database, and what this process alone keeps: the polls not yet written."""

    def __init__(self, rows: ClassRows):
        self.rows = rows
        self.lock = threading.Lock()
        self.polls: dict[str, dict[str, tuple[float, int]]] = {}  # code → student → (when, following)
        self.written = 0.0

    def start(self, view: str, client: str, address: str) -> tuple[Class, str]:
        """A new class on ``view`` and the lecturer's secret; a 429 past the limits (module docstring)."""
        secret = secrets.token_urlsafe(32)
        now = time.time()

        def allow(db: sqlite3.Connection, now: float) -> None:
            mine = [code for (code,) in db.execute("SELECT code FROM classes WHERE owner = ? ORDER BY touched",
                                                   (client,))]
            for code in mine[:max(0, len(mine) - PER_CLIENT + 1)]:  # the client moved on from its oldest
                for table in ("class_answers", "class_students", "classes"):
                    db.execute(f"DELETE FROM {table} WHERE code = ?", (code,))
            total, here = db.execute("SELECT COUNT(*), COALESCE(SUM(address = ?), 0) FROM classes",
                                     (address,)).fetchone()
            if here >= PER_ADDRESS:
                abort(429, f"{PER_ADDRESS} classes started from your network address are running; end one of "
                      "them (or wait for it to end) before starting another")
            if total >= MAX_CLASSES or (here and total >= MAX_CLASSES - KEPT_FOR_NEW_ADDRESSES):
                abort(429, f"{total} classes are running on this server; try again when one ends")

        for _ in range(5):  # a code already taken (one in 10^9 with 500 running): draw again
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            row = {"code": code, "secret": secret_hash(secret), "view": view, "version": 1, "question": None,
                   "asked": 0, "owner": client, "address": address, "created": now, "touched": now,
                   "expires": now + IDLE_SECONDS}
            try:
                self.rows.start(row, allow)
            except sqlite3.IntegrityError:
                continue
            return Class(code, row["secret"], view, 1, None, now), secret
        raise PuzzleError("no free class code was found; try again")

    def find(self, code: str, address: str) -> Class:
        """The class with this code; a 404 for an unknown one, a 429 once this address has missed too often (its
        misses only: a class it knows is always found)."""
        code = code.upper()
        now = time.time()
        row = self.rows.find(code, now) if len(code) == CODE_LENGTH and code.isalnum() else None
        if row is not None:
            return Class.of(row)
        if not CODE_MISSES.take(address, MISSES_PER_MINUTE):
            abort(429, "too many class codes tried from this address; wait a minute and check the code")
        abort(404, "no class has this code (it may have ended); check the code on the projector")

    def polled(self, code: str, student: str, following: bool) -> None:
        """A student's poll, written with the others at most once a second."""
        now = time.time()
        with self.lock:
            students = self.polls.setdefault(code, {})
            if student in students or len(students) < MAX_STUDENTS:
                students[student] = (now, int(following))
            due = now - self.written >= PRESENCE_WRITE_SECONDS
        if due:
            self.write_polls()

    def write_polls(self) -> None:
        with self.lock:
            polls, self.polls = self.polls, {}
            self.written = now = time.time()
        rows = [(code, student, at, following) for code, students in polls.items()
                for student, (at, following) in students.items()]
        self.rows.seen(rows, now - 60)

    def followers(self, code: str) -> tuple[int, int]:
        """(students polling lately, of whom following the lecturer), from every process's polls."""
        self.write_polls()
        return self.rows.followers(code, time.time() - FOLLOWING_SECONDS)

    def touch(self, lesson: Class) -> None:
        now = time.time()
        if now - lesson.touched > TOUCH_EVERY:
            self.rows.update(lesson.code, "touched = ?, expires = ?", (now, now + IDLE_SECONDS))

    def move(self, lesson: Class, view: str) -> int:
        """The class's view is now ``view``: its version (a new one if the view changed)."""
        self.rows.update(lesson.code, "view = ?, version = version + 1", (view,), "AND view != ?", (view,))
        row = self.rows.find(lesson.code, 0)
        return row["version"] if row is not None else lesson.version

    def end(self, code: str) -> None:
        self.rows.end(code)
        with self.lock:
            self.polls.pop(code, None)


@bp.errorhandler(PuzzleError)
@bp.errorhandler(HTTPException)
def refused(error):
    """A class's JSON requests (the dock's and the bar's) get their refusals as JSON; pages get the usual page."""
    code = error.code if isinstance(error, HTTPException) else 400
    message = error.description if isinstance(error, HTTPException) else str(error)
    if request.is_json:
        return jsonify(error=message), code
    return refuse(code, message)


def classes() -> Classes:
    return app_extension("classes", lambda: Classes(ClassRows(records())))


# ---- reading a view URL -------------------------------------------------------------------------------------------

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
        key = records().save_view(record_for(url))
        return f"/v/{key}"
    if len(url) > MAX_VIEW:
        raise PuzzleError(f"the view must be this site's page address (at most {MAX_VIEW} characters)")
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


def view_traces(url: str) -> tuple[object, list[dict]]:
    """The problem a view shows and its recorded searches (what a question is made from)."""
    parts = urlsplit(url)
    if parts.path.startswith("/lessons/"):
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
        raise PuzzleError("questions are made from the step-through and lesson slides")
    problem, _, traces = step_traces(data)
    return problem, traces


# ---- pages --------------------------------------------------------------------------------------------------------

def address() -> str:
    return request.remote_addr or "unknown"


def client() -> str:
    """Who starts a class, as the job limits count clients: the browser's owner cookie, or, for a request without
    one, its address (every cookieless request from one address is one client)."""
    cookieless = anonymous_address()
    return anonymous_owner(cookieless) if cookieless else owner()


def lecturer_of(lesson: Class) -> None:
    """Refuse a request that does not carry this class's secret (every student's, whatever code they know)."""
    if not hmac.compare_digest(secret_hash(request.cookies.get(SECRET_COOKIE, "")), lesson.secret):
        abort(403, "only the lecturer's browser can drive this class")
    classes().touch(lesson)


def qr_svg(link: str) -> Markup:
    buffer = io.BytesIO()
    segno.make(link, error="m").save(buffer, kind="svg", scale=4, border=2, xmldecl=False, svgclass="qr",
                                     title="QR code of the class's link", svgns=True)
    return Markup(buffer.getvalue().decode())


def class_link(lesson: Class) -> str:
    return url_for("classroom.join", code=lesson.code, _external=True)


@bp.get("/")
def index():
    code = request.args.get("code", "").strip().replace("-", "").replace(" ", "")
    if code:
        lesson = classes().find(code, address())
        return redirect(url_for("classroom.join", code=lesson.code))
    return render_template("classroom/index.html")


@bp.post("/")
def start():
    """Start a class on the view the form names; the lecturer's browser gets the secret as a cookie."""
    view = checked_view(request.form.get("view") if request.form else json_body().get("view"))
    lesson, secret = classes().start(view, client(), address())
    if request.form:
        response = redirect(url_for("classroom.lead", code=lesson.code), 303)
    else:
        response = jsonify({**lecturer_state(lesson), "qr": str(qr_svg(class_link(lesson)))})
    response.set_cookie(SECRET_COOKIE, secret, path=f"/class/{lesson.code}", httponly=True, samesite="Strict",
                        max_age=IDLE_SECONDS)
    return response


@bp.get("/<code>")
def join(code: str):
    """A student's way in: the page stores the class in this tab and opens the lecturer's view (or links to it)."""
    lesson = classes().find(code, address())
    return render_template("classroom/join.html", lesson=lesson, poll=POLL_MILLISECONDS)


@bp.get("/<code>/lead")
def lead(code: str):
    """The lecturer's console without JavaScript: code, QR code, link, who follows."""
    lesson = classes().find(code, address())
    lecturer_of(lesson)
    return render_template("classroom/lead.html", lesson=lesson, qr=qr_svg(class_link(lesson)), link=class_link(lesson),
                           state=lecturer_state(lesson))


@bp.get("/<code>/qr.svg")
def qr(code: str):
    lesson = classes().find(code, address())
    response = make_response(str(qr_svg(class_link(lesson))))
    response.headers["Content-Type"] = "image/svg+xml"
    return response


def student_state(lesson: Class) -> dict:
    state = {"code": lesson.code, "view": lesson.view, "version": lesson.version, "poll": POLL_MILLISECONDS,
             "question": None}
    if lesson.question is not None:
        question = dict(lesson.question["question"])
        if not lesson.question["revealed"]:
            del question["answer"], question["reason"]
        state["question"] = {"number": lesson.question["number"], **question}
    return state


def lecturer_state(lesson: Class) -> dict:
    polling, following = classes().followers(lesson.code)
    state = {**student_state(lesson), "students": polling, "following": following, "link": class_link(lesson)}
    if lesson.question is not None:
        asked = lesson.question
        answers = classes().rows.answers(lesson.code, asked["number"])
        tally = [0] * len(asked["question"]["choices"])
        for answer in answers:
            tally[answer["choice"]] += 1
        state["question"] = {"number": asked["number"], **asked["question"], "tally": tally, "answers": len(answers),
                             "names": sorted({a["name"] for a in answers if a["name"]}),
                             "revealed": asked["revealed"]}
    return state


def student_id(value: object) -> str:
    if not isinstance(value, str) or not 8 <= len(value) <= 40 or not value.isalnum():
        raise PuzzleError("student must be the id this page made (8 to 40 letters and digits)")
    return value


@bp.get("/<code>/state")
def state(code: str):
    """What a student's page follows; a 304 while nothing changed (ETag = the class's version)."""
    lesson = classes().find(code, address())
    student = request.args.get("student")
    if student:
        classes().polled(lesson.code, student_id(student), request.args.get("following", "1") == "1")
    etag = f'"{lesson.code}-{lesson.version}"'
    if etag in request.headers.get("If-None-Match", ""):
        response = make_response("", 304)
    else:
        response = jsonify(student_state(lesson))
    response.headers["ETag"] = etag
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/<code>/console")
def console(code: str):
    lesson = classes().find(code, address())
    lecturer_of(lesson)
    return jsonify(lecturer_state(lesson))


@bp.post("/<code>/view")
def move(code: str):
    """The lecturer's view changed: students following see it at their next poll (``view``: as the class keeps it,
    a step-through view as its saved view's short address, which the lecturer's page then writes too)."""
    lesson = classes().find(code, address())
    lecturer_of(lesson)
    view = checked_view(json_body().get("view"))
    return jsonify(version=classes().move(lesson, view), view=view)


@bp.post("/<code>/ask")
def ask(code: str):
    """Ask a question of ``kind`` made from the class's view; a "which next" asked mid-expansion moves the class on
    to the step where it is decided (the answer says where)."""
    lesson = classes().find(code, address())
    lecturer_of(lesson)
    kind = json_body().get("kind")
    if kind not in questions.KINDS:
        raise PuzzleError(f"kind must be one of {', '.join(questions.KINDS)}")
    problem, traces = view_traces(lesson.view)
    step = view_step(lesson.view)
    for trace in traces:
        at = questions.first_step(kind, trace, min(step, len(trace["steps"])), problem)
        if at is not None:
            question = questions.ask(kind, trace, at, problem, random.Random())
            if question is not None:
                break
    else:
        raise PuzzleError(f"“{questions.KINDS[kind]}” has no answer at this step of this search; "
                          f"step on, or ask another question")
    classes().rows.ask(lesson.code, question.to_dict(), with_step(lesson.view, at) if at != step else lesson.view)
    return jsonify(lecturer_state(classes().find(lesson.code, address())))


@bp.post("/<code>/reveal")
def reveal(code: str):
    lesson = classes().find(code, address())
    lecturer_of(lesson)
    if lesson.question is not None and not lesson.question["revealed"]:
        shown = {**lesson.question, "revealed": True}
        classes().rows.update(lesson.code, "question = ?, version = version + 1", (json.dumps(shown),),
                              "AND version = ?", (lesson.version,))
        lesson = classes().find(lesson.code, address())
    return jsonify(lecturer_state(lesson))


@bp.post("/<code>/answer")
def answer(code: str):
    """A student's answer to the open question (a later one replaces it until the answer is shown)."""
    lesson = classes().find(code, address())
    data = json_body()
    student = student_id(data.get("student"))
    asked = lesson.question
    if asked is None or data.get("question") != asked["number"]:
        raise PuzzleError("this question is no longer open")
    if asked["revealed"]:
        raise PuzzleError("the answer has been shown; wait for the next question")
    choice = data.get("choice")
    count = len(asked["question"]["choices"])
    if not isinstance(choice, int) or isinstance(choice, bool) or not 0 <= choice < count:
        raise PuzzleError(f"choice must be a number from 0 to {count - 1}")
    name = data.get("name")
    name = name.strip()[:30] if isinstance(name, str) and name.strip() else None
    if not classes().rows.answer(lesson.code, asked["number"], student, choice, name, MAX_STUDENTS):
        raise PuzzleError("this class has as many answers as it takes")
    return jsonify(accepted=True)


@bp.post("/<code>/end")
def end(code: str):
    lesson = classes().find(code, address())
    lecturer_of(lesson)
    classes().end(lesson.code)
    if request.form is not None and not request.is_json:
        return redirect(url_for("classroom.index"), 303)
    return jsonify(ended=True)


# ---- practising alone ---------------------------------------------------------------------------------------------

#: Which searches each kind of question is asked about (the kinds whose answer a search's record makes interesting).
PRACTICE_PLAN = {"next": ("bfs", "ucs", "greedy", "astar"), "f": ("astar", "idastar"), "frontier": ("bfs", "astar"),
                 "bound": ("idastar",), "optimal": ("dfs", "bfs", "greedy", "astar")}
PRACTICE_SHOWN = 20  # expanded nodes listed (the latest): enough to see the order, short enough to read
PRACTICE_TRIES = 12  # problems tried for one question before giving up on that seed


@dataclass
class Practice:
    question: questions.Question
    problem: object
    trace: dict
    data: dict


def practice_question(seed: int) -> Practice:
    """The question a practice seed stands for: a random kind, search and problem (an 8-puzzle scramble, or a path
    on the seed's graph), at a random step where the question has an answer. The same seed gives the same question,
    so grading needs nothing stored."""
    rng = random.Random(seed)
    for _ in range(PRACTICE_TRIES):
        kind = rng.choice(sorted(PRACTICE_PLAN))
        algorithm = rng.choice(PRACTICE_PLAN[kind])
        if kind == "bound" or rng.random() < 0.6:
            data = {"problem": "tiles", "size": "3x3", "scramble": rng.randint(5, 9), "seed": rng.randrange(10**6)}
        else:
            start, goal = rng.sample(range(7), 2)
            data = {"problem": "graph", "start": start, "goal": goal}
        data["algorithms"] = [algorithm]
        problem, _, traces = step_traces(data)
        trace = traces[0]
        steps = range(len(trace["steps"]) + 1)
        candidates = [len(trace["steps"])] if kind == "optimal" else [
            n for n in steps if kind in questions.available(trace, n)]
        if candidates:
            question = questions.ask(kind, trace, rng.choice(candidates), problem, rng)
            if question is not None:
                return Practice(question, problem, trace, data)
    raise PuzzleError("no question could be made from this practice number; start a new run")


def practice_context(practice: Practice) -> dict:
    """What a student needs on the page to answer: the start (a board, or the graph's edges), what the search has
    done so far, and the node a question is about."""
    trace, step = practice.trace, practice.question.step
    done = trace["steps"][:step]
    expanded = [questions.node_label(trace, s["node"]) for s in done if s["event"] == "expand"]
    replay = questions.Replay(trace, step)
    nodes = trace["nodes"]
    cut = [f"{questions.node_label(trace, s['node'])} (f = {nodes[s['node']]['g'] + nodes[s['node']]['h']})"
           for s in done[replay.iteration_start:] if s["event"] == "prune"] if trace["cutoff"] == "f" else []
    context = {"title": trace["title"], "heuristic": trace["heuristic"] if trace["uses_h"] else "",
               "expanded": expanded[-PRACTICE_SHOWN:], "earlier": max(0, len(expanded) - PRACTICE_SHOWN),
               "bound": replay.bound, "cut": cut, "step": step, "steps": len(trace["steps"]),
               "path": trace["result"]["moves"] if practice.question.kind == "optimal" else ""}
    problem = practice.problem
    if practice.data["problem"] == "tiles":
        context["board"] = {"cols": problem.initial.cols, "cells": list(problem.initial.cells)}
        node = practice.question.node
        if node is not None:
            context["node_board"] = {"cols": problem.initial.cols, "cells": trace["nodes"][node]["state"]}
    else:
        context["edges"] = [f"{a}–{b} costs {cost}" for a, b, cost in problem.graph.edges()]
        context["ends"] = (problem.initial, problem.goal)
        if trace["uses_h"]:
            context["h"] = [problem.h(v) for v in problem.graph.names]
    return context


def _practice_numbers(values) -> tuple[int, int, int]:
    """(seed, score, asked) from a practice form or link, each a small whole number (garbage starts afresh)."""
    def read(name: str, top: int) -> int:
        text = str(values.get(name, ""))
        return int(text) if text.isdigit() and int(text) <= top else -1
    return read("seed", 10**9), max(0, read("score", 10**6)), max(0, read("asked", 10**6))


@bp.route("/practice", methods=["GET", "POST"])
def practice():
    """A run of questions: GET shows one (a new seed unless the link names one), POST grades the choice."""
    values = request.form if request.method == "POST" else request.args
    seed, score, asked = _practice_numbers(values)
    if seed < 0:
        seed = random.randrange(10**9)
    current = practice_question(seed)
    graded = None
    if request.method == "POST":
        choice = values.get("choice", "")
        if not choice.isdigit() or int(choice) >= len(current.question.choices):
            raise PuzzleError("choose one of the answers")
        graded = {"choice": int(choice), "right": int(choice) == current.question.answer}
        score, asked = score + graded["right"], asked + 1
    return render_template("classroom/practice.html", question=current.question, context=practice_context(current),
                           seed=seed, score=score, asked=asked, graded=graded, next_seed=random.randrange(10**9))
