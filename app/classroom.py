"""A class: students' phones follow the lecturer's step-through, answer the questions the engine makes from it, and a
student practises alone.

The lecturer starts a class from any step-through view, lesson slide or race (``partials``' "Start a class" form
posts the page's view URL). The class gets a short code (``/class/<code>``, a QR code of that link) and the lecturer's
browser gets a secret in a cookie scoped to that class's paths; driving the class (moving its view, asking,
revealing, ending) needs the secret, so a student who knows the code can follow and answer but not drive (403).

Transport: students poll ``/class/<code>/state`` with ``If-None-Match`` (a 304 while nothing changed). Short requests
keep no connection or thread per student, whatever the server's connection model, and ``bench/classroom.py``
measures the propagation a class of 100 sees.

Classes live in the web process (a lock-protected dict of at most ``MAX_CLASSES``): a restart ends every class, and
a class ends when its lecturer has not touched it for ``IDLE_SECONDS``. A code is 8 letters from a 31-letter
alphabet (8.5 × 10^11 codes); a network address may miss ``MISSES_PER_MINUTE`` codes a minute (then every lookup from
it is refused for the minute), so finding one of 200 live classes by guessing takes an address about 130 years.
Following a class starts no job, so it never counts against a job quota.
"""

from __future__ import annotations

import io
import random
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlsplit, urlunsplit

import segno
from flask import Blueprint, abort, current_app, jsonify, make_response, redirect, render_template, request, url_for
from markupsafe import Markup
from werkzeug.exceptions import HTTPException

from app import refuse
from app.lessons import BY_SLUG
from app.solve_api import json_body
from app.step import request_for, step_traces, view_from_query
from app.subjects import Subject
from engine.core.errors import PuzzleError
from engine.search import questions

bp = Blueprint("classroom", __name__, url_prefix="/class")
SUBJECTS = [
    Subject("classroom.index", "Class", "Teach a class", "Students follow the lecturer's step-through on their "
            "phones and answer questions the engine makes from it; or practise alone, graded at once."),
]

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read off a projector and typed on a phone
CODE_LENGTH = 8
MAX_CLASSES = 200
IDLE_SECONDS = 3 * 3600  # a lecture and its break
MAX_STUDENTS = 400  # per class: polls and answers beyond this are refused
FOLLOWING_SECONDS = 5  # a student who polled this recently counts as following
MISSES_PER_MINUTE = 60  # unknown codes one address may look up a minute (a lecture hall behind one NAT mistypes)
MAX_VIEW = 2000  # characters of a view URL
VIEW_PATHS = ("/step", "/lessons/", "/compare")  # the pages a class can follow
SECRET_COOKIE = "pp_class"
POLL_MILLISECONDS = 700  # the student's poll: the lecturer's step reaches 95 % within about 0.7 s plus a request


@dataclass
class Asked:
    """A question put to the class and the answers so far (student id → choice; names only if given)."""

    number: int
    question: questions.Question
    answers: dict[str, int] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    revealed: bool = False

    def tally(self) -> list[int]:
        counts = [0] * len(self.question.choices)
        for choice in self.answers.values():
            counts[choice] += 1
        return counts


@dataclass
class Class:
    code: str
    secret: str
    view: str
    version: int = 1  # changes whenever what students see changes (view, question, reveal): their ETag
    touched: float = field(default_factory=time.monotonic)
    polls: dict[str, tuple[float, bool]] = field(default_factory=dict)  # student → (last poll, following)
    asked: Asked | None = None
    asked_count: int = 0

    def followers(self, now: float) -> tuple[int, int]:
        """(students polling lately, of whom following the lecturer)."""
        recent = [following for at, following in self.polls.values() if now - at <= FOLLOWING_SECONDS]
        return len(recent), sum(recent)


class Classes:
    """The classes this process holds, behind one lock; every method is short."""

    def __init__(self):
        self.lock = threading.Lock()
        self.by_code: dict[str, Class] = {}
        self.misses: dict[str, deque] = {}

    def _expire(self, now: float) -> None:
        for code in [c for c, k in self.by_code.items() if now - k.touched > IDLE_SECONDS]:
            del self.by_code[code]

    def start(self, view: str) -> Class:
        now = time.monotonic()
        with self.lock:
            self._expire(now)
            if len(self.by_code) >= MAX_CLASSES:
                raise Full(f"{MAX_CLASSES} classes are running on this server; try again when one ends")
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            while code in self.by_code:
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            lesson = Class(code, secrets.token_urlsafe(32), view)
            self.by_code[code] = lesson
            return lesson

    def find(self, code: str, address: str) -> Class:
        """The class with this code; a 404 for an unknown one, a 429 once this address has missed too often."""
        now = time.monotonic()
        code = code.upper()
        with self.lock:
            misses = self.misses.setdefault(address, deque())
            while misses and now - misses[0] > 60:
                misses.popleft()
            if len(misses) >= MISSES_PER_MINUTE:
                abort(429, "too many class codes tried from this address; wait a minute and check the code")
            lesson = self.by_code.get(code)
            if lesson is not None and now - lesson.touched > IDLE_SECONDS:
                del self.by_code[code]
                lesson = None
            if lesson is None:
                misses.append(now)
                if len(self.misses) > 10 * MAX_CLASSES:  # bounded: forget addresses that stopped missing
                    for stale in [a for a, m in self.misses.items() if not m or now - m[-1] > 60]:
                        del self.misses[stale]
                abort(404, "no class has this code (it may have ended); check the code on the projector")
            return lesson

    def end(self, code: str) -> None:
        with self.lock:
            self.by_code.pop(code, None)


class Full(PuzzleError):
    pass


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
    return current_app.extensions.setdefault("classes", Classes())


# ---- reading a view URL -------------------------------------------------------------------------------------------

def checked_view(url: object) -> str:
    """A view URL a class may follow: a path of this site's step-through, lessons or race pages with its query."""
    if not isinstance(url, str) or not url or len(url) > MAX_VIEW:
        raise PuzzleError(f"the view must be this site's page address (at most {MAX_VIEW} characters)")
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not parts.path.startswith(VIEW_PATHS) or ".." in parts.path:
        raise PuzzleError("a class can follow the step-through, a lesson slide or a race of this site")
    return urlunsplit(("", "", parts.path, parts.query, ""))


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
    else:
        raise PuzzleError("questions are made from the step-through and lesson slides")
    problem, _, traces = step_traces(data)
    return problem, traces


# ---- pages --------------------------------------------------------------------------------------------------------

def address() -> str:
    return request.remote_addr or "unknown"


def lecturer_of(lesson: Class) -> None:
    """Refuse a request that does not carry this class's secret (every student's, whatever code they know)."""
    if not secrets.compare_digest(request.cookies.get(SECRET_COOKIE, ""), lesson.secret):
        abort(403, "only the lecturer's browser can drive this class")
    lesson.touched = time.monotonic()


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
    lesson = classes().start(view)
    if request.form:
        response = redirect(url_for("classroom.lead", code=lesson.code), 303)
    else:
        response = jsonify({**lecturer_state(lesson), "qr": str(qr_svg(class_link(lesson)))})
    response.set_cookie(SECRET_COOKIE, lesson.secret, path=f"/class/{lesson.code}", httponly=True, samesite="Strict",
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
    if lesson.asked is not None:
        asked = lesson.asked
        state["question"] = {"number": asked.number, **asked.question.to_dict(reveal=asked.revealed)}
    return state


def lecturer_state(lesson: Class) -> dict:
    polling, following = lesson.followers(time.monotonic())
    state = {**student_state(lesson), "students": polling, "following": following, "link": class_link(lesson)}
    if lesson.asked is not None:
        asked = lesson.asked
        state["question"] = {"number": asked.number, **asked.question.to_dict(), "tally": asked.tally(),
                             "answers": len(asked.answers), "names": sorted(set(asked.names.values())),
                             "revealed": asked.revealed}
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
        student = student_id(student)
        with classes().lock:
            if student in lesson.polls or len(lesson.polls) < MAX_STUDENTS:
                lesson.polls[student] = (time.monotonic(), request.args.get("following", "1") == "1")
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
    """The lecturer's view changed: students following see it at their next poll."""
    lesson = classes().find(code, address())
    lecturer_of(lesson)
    view = checked_view(json_body().get("view"))
    with classes().lock:
        if view != lesson.view:
            lesson.view = view
            lesson.version += 1
    return jsonify(version=lesson.version)


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
    with classes().lock:
        lesson.asked_count += 1
        lesson.asked = Asked(lesson.asked_count, question)
        if at != step:
            lesson.view = with_step(lesson.view, at)
        lesson.version += 1
    return jsonify(lecturer_state(lesson))


@bp.post("/<code>/reveal")
def reveal(code: str):
    lesson = classes().find(code, address())
    lecturer_of(lesson)
    with classes().lock:
        if lesson.asked is not None and not lesson.asked.revealed:
            lesson.asked.revealed = True
            lesson.version += 1
    return jsonify(lecturer_state(lesson))


@bp.post("/<code>/answer")
def answer(code: str):
    """A student's answer to the open question (a later one replaces it until the answer is shown)."""
    lesson = classes().find(code, address())
    data = json_body()
    student = student_id(data.get("student"))
    asked = lesson.asked
    if asked is None or data.get("question") != asked.number:
        raise PuzzleError("this question is no longer open")
    if asked.revealed:
        raise PuzzleError("the answer has been shown; wait for the next question")
    choice = data.get("choice")
    if not isinstance(choice, int) or isinstance(choice, bool) or not 0 <= choice < len(asked.question.choices):
        raise PuzzleError(f"choice must be a number from 0 to {len(asked.question.choices) - 1}")
    name = data.get("name")
    with classes().lock:
        if student not in asked.answers and len(asked.answers) >= MAX_STUDENTS:
            raise PuzzleError("this class has as many answers as it takes")
        asked.answers[student] = choice
        if isinstance(name, str) and name.strip():
            asked.names[student] = name.strip()[:30]
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
