"""A class: students' phones follow the lecturer's step-through, answer the questions the engine makes from it, and a
student practises alone.

The lecturer starts a class from any step-through view, saved view, lesson slide or race (``partials``' "Start a
class" form posts the page's view URL; a step-through view or a race is saved as a record, ``app.links``, so a typed
graph of any size becomes a short ``/v/<id>?step=N``). The class gets a short code (``/class/<code>``, a QR code of
that link) and the lecturer's browser gets a secret in a cookie scoped to that class's paths; driving the class
(moving its view, asking, revealing, ending) needs the secret, so a student who knows the code can follow and answer
but not drive (403).

The class itself (its row, its limits, who follows it) is ``app.class_model``; how a class reads the view it follows
(any step-through view, through ``app.step``'s query codec and the registered domains) is ``app.class_views``;
practising alone is ``app.practice``.
"""

from __future__ import annotations

import hmac
import io
import json
import random

import segno
from flask import Blueprint, abort, jsonify, make_response, redirect, render_template, request, url_for
from markupsafe import Markup
from werkzeug.exceptions import HTTPException

from app import class_model, reached_over_https, refuse
from app.class_model import IDLE_SECONDS, MAX_STUDENTS, POLL_MILLISECONDS, SECRET_COOKIE, Class, classes
from app.class_polls import install as install_poll_answers
from app.class_views import checked_view, view_step, view_traces, with_step
from app.practice import practice_context, practice_numbers, practice_question
from app.quotas import charge
from app.records import secret_hash
from app.solve_api import json_body
from app.subjects import Subject
from app.submit import client, network_address
from engine.core.errors import PuzzleError
from engine.search import questions
from engine.serving.cluster import QuotaExceeded

bp = Blueprint("classroom", __name__, url_prefix="/class")
SUBJECTS = [
    Subject("classroom.index", "Class", "Teach a class", "Students follow the lecturer's step-through on their "
            "phones and answer questions the engine makes from it; or practise alone, graded at once."),
]

@bp.record_once
def answer_unchanged_polls(state) -> None:
    """Polls of a class that has not changed are answered before Flask (``app.class_polls``)."""
    install_poll_answers(state.app)


@bp.errorhandler(PuzzleError)
@bp.errorhandler(HTTPException)
def refused(error):
    """A class's JSON requests (the dock's and the bar's) get their refusals as JSON; pages get the usual page."""
    code = error.code if isinstance(error, HTTPException) else 429 if isinstance(error, QuotaExceeded) else 400
    message = error.description if isinstance(error, HTTPException) else str(error)
    if request.is_json:
        return jsonify(error=message), code
    return refuse(code, message)


# ---- pages --------------------------------------------------------------------------------------------------------

CLASS_ROW_BYTES = 300  # a class's row beside its view: code, hashes, owner, network, times


def address() -> str:
    """The network a request came from, as the class limits count it (an IPv6 address's /64: ``app.identity``)."""
    return network_address() or "unknown"


def student_key() -> str:
    """The asking browser's key as a student (``app.class_model.student_key`` of ``app.submit.client``)."""
    return class_model.student_key(client())


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
    charge(CLASS_ROW_BYTES + len(view))  # a start writes a row (and ends the client's oldest past its three)
    lesson, secret = classes().start(view, client(), address())
    if request.form:
        response = redirect(url_for("classroom.lead", code=lesson.code), 303)
    else:
        response = jsonify({**lecturer_state(lesson), "qr": str(qr_svg(class_link(lesson)))})
    response.set_cookie(SECRET_COOKIE, secret, path=f"/class/{lesson.code}", httponly=True, samesite="Strict",
                        max_age=IDLE_SECONDS, secure=reached_over_https())
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
    """The id a student's page made, checked (it says the request is a student's; who the student is, is
    ``student_key``)."""
    if not isinstance(value, str) or not 8 <= len(value) <= 40 or not value.isalnum():
        raise PuzzleError("student must be the id this page made (8 to 40 letters and digits)")
    return value


@bp.get("/<code>/state")
def state(code: str):
    """What a student's page follows; a 304 while nothing changed (ETag = the class's version)."""
    lesson = classes().find(code, address())
    student = request.args.get("student")
    if student:
        student_id(student)
        classes().polled(lesson.code, student_key(), request.args.get("following", "1") == "1")
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
    if not isinstance(kind, str) or kind not in questions.KINDS:
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
    student = student_key()
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


@bp.route("/practice", methods=["GET", "POST"])
def practice():
    """A run of questions: GET shows one (a new seed unless the link names one), POST grades the choice."""
    values = request.form if request.method == "POST" else request.args
    seed, score, asked = practice_numbers(values)
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
