"""Views and classes as records, in a real browser: a class started at 853×480 on Romania typed in, uniform-cost
beside A* at step 12, carries on across a restart of the server (a new process on the same database), and a copied
link opens the stage presenting at the same step in a fresh browser."""

import os
import re
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.e2e.test_accessibility import serious
from tests.support.waiting import wait_until

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
ROMANIA = (ROOT / "engine" / "domains" / "graph" / "examples" / "romania.json").read_text()
PROJECTOR, PHONE = {"width": 853, "height": 480}, {"width": 390, "height": 844}
#: the server as a process of its own (waitress, no job runner: classes and the step-through need none), so that
#: stopping it ends every connection it held, as a restart does
SERVE = ("import sys; from app import create_app; from app.serve import make_server; "
         "make_server(create_app({'BUILD_TABLES': False}), '127.0.0.1', int(sys.argv[1]), threads=8).run()")


class Server:
    def __init__(self, folder: Path):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.env = {**os.environ, "PUZZLE_DATABASE": str(folder / "jobs.sqlite"), "PUZZLE_DATA_DIR": str(folder),
                    "PUZZLE_BUILD_TABLES": "0", "PYTHONPATH": str(ROOT)}
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None

    def start(self):
        self.process = subprocess.Popen([sys.executable, "-c", SERVE, str(self.port)], env=self.env, cwd=ROOT,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until(self.answers, timeout=60, what="the server answering")

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                return True
        except OSError:
            assert self.process.poll() is None, "the server process ended"
            return False

    def stop(self):
        self.process.kill()
        self.process.wait(timeout=30)


def step_count(page) -> str:
    return page.locator("#step-stepper .step-count").text_content().strip()


def watch_errors(page, errors):
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def test_a_class_on_typed_romania_carries_on_across_a_restart_and_its_link_reopens_it(browser, tmp_path):
    server = Server(tmp_path)
    server.start()
    errors: list[str] = []
    lecturing = browser.new_context(viewport=PROJECTOR)
    phones = [browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True) for _ in range(3)]
    fresh = browser.new_context(viewport=PROJECTOR, bypass_csp=True)  # axe is injected; the app never serves it
    try:
        lecturer = watch_errors(lecturing.new_page(), errors)
        lecturer.goto(f"{server.url}/step?problem=graph&algorithms=ucs,astar")
        expect(lecturer.locator("#step-stepper")).to_have_attribute("data-ready", "1")
        lecturer.locator('#graph-editor [data-name="graph_json"]').fill(ROMANIA)  # typed (pasted) in
        lecturer.locator("#graph-editor [data-import]").click()
        lecturer.get_by_role("button", name="Load", exact=True).click()
        expect(lecturer.locator("#step-stage")).to_have_class(re.compile(r"\bpresenting\b"))
        expect(lecturer.locator("#step-stepper")).to_have_attribute("data-ready", "1")
        for _ in range(12):
            lecturer.keyboard.press("PageDown")
        assert step_count(lecturer).startswith("step 12 of")
        assert len(urlsplit(lecturer.url).query) > 3000  # the whole graph rides in the long address
        lecturer.get_by_role("button", name="Start a class").click()
        code = lecturer.locator(".class-dock .class-code").text_content()
        lecturer.wait_for_function("() => location.pathname.startsWith('/v/')")  # the class saved the view
        shown = step_count(lecturer)

        students = [watch_errors(phone.new_page(), errors) for phone in phones]
        for student in students:
            student.goto(f"{server.url}/class/{code}")
        for student in students:
            expect(student.locator("#step-stepper")).to_have_attribute("data-ready", "1")
            expect(student.locator(".class-bar")).to_contain_text("following the lecturer")
            expect(student.locator(".step-panel").first).to_contain_text("Uniform-cost search")
            expect(student.locator(".step-panel").nth(1)).to_contain_text("A*")
        wait_until(lambda: all(step_count(s) == shown for s in students), timeout=5, what="the phones at step 12")

        server.stop()
        # the bounds below are waits, not speeds: a loaded machine restarts a server slowly and the page backs off
        expect(lecturer.locator(".class-dock .class-connection")).to_contain_text("reconnecting", timeout=60_000)
        server.start()  # a new process, the same database
        expect(lecturer.locator(".class-dock .class-connection")).to_contain_text("Reconnected", timeout=60_000)
        expect(lecturer.locator(".class-dock .class-code")).to_have_text(code)
        for student in students:
            expect(student.locator(".class-bar")).to_contain_text("following the lecturer", timeout=60_000)
        lecturer.keyboard.press("PageDown")
        shown = step_count(lecturer)
        assert shown.startswith("step 13 of")
        wait_until(lambda: all(step_count(s) == shown for s in students), timeout=5, what="the phones at step 13")
        expect(lecturer.locator(".class-dock .class-count")).to_have_text("3 following", timeout=5000)

        lecturer.get_by_role("button", name="Copy link").click()
        link = wait_until(lambda: lecturer.locator("#copy-link").get_attribute("data-link"), timeout=5,
                          what="the copied link")
        assert len(urlsplit(link).path) == len("/v/") + 12 and not urlsplit(link).query
        viewer = watch_errors(fresh.new_page(), errors)
        viewer.goto(link)
        expect(viewer.locator("#step-stepper")).to_have_attribute("data-ready", "1")
        assert step_count(viewer) == shown
        expect(viewer.locator("#step-form")).to_be_hidden()
        stage = viewer.locator("#step-stage").bounding_box()
        assert stage["y"] >= -1 and stage["y"] + stage["height"] <= PROJECTOR["height"] + 1  # on the first screen
        expect(viewer.locator(".step-panel").nth(1).locator(".caption")).to_be_in_viewport()
        assert serious(viewer) == []
    finally:
        for context in (lecturing, *phones, fresh):
            context.close()
        server.stop()
    assert not errors, errors


def test_the_lecturers_panel_never_covers_the_stage_nor_keeps_the_clickers_keys(browser, tmp_path):
    server = Server(tmp_path)
    server.start()
    lecturing = browser.new_context(viewport=PROJECTOR)
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        lecturer = lecturing.new_page()
        view = "/step?problem=graph&data=romania&algorithms=ucs,astar&step=12"
        link = lecturer.request.post(f"{server.url}/api/views", data={"view": view}).json()["link"]
        lecturer.goto(server.url + link)
        expect(lecturer.locator("#step-stepper")).to_have_attribute("data-step", "12")
        start = lecturer.get_by_role("button", name="Start a class")
        box = start.bounding_box()
        assert box["y"] + box["height"] <= PROJECTOR["height"]  # on the first screen, beside the stage
        start.click()
        lecturer.get_by_role("button", name="QR").click()  # the room has joined: the QR code folds away
        select = lecturer.locator(".class-dock select")
        select.click()
        lecturer.keyboard.press("Escape")
        chosen = select.input_value()
        lecturer.keyboard.press("PageDown")  # the clicker steps; the question chosen stays
        expect(lecturer.locator("#step-stepper")).to_have_attribute("data-step", "13")
        assert select.input_value() == chosen

        def clear() -> bool:
            stage, dock = lecturer.locator("#step-stage").bounding_box(), lecturer.locator(".class-dock").bounding_box()
            return stage["y"] + stage["height"] <= dock["y"] + 1 and stage["height"] > PROJECTOR["height"] / 2

        wait_until(clear, timeout=5, what="the stage above the lecturer's panel")
        lecturer.get_by_role("button", name="Ask").click()
        expect(lecturer.locator(".class-dock .class-answer-count")).to_be_visible()
        wait_until(clear, timeout=5, what="the stage above the panel with a question's tally")

        # on a student's phone following a lesson slide, the board comes before the slide's words
        started = lecturer.request.post(f"{server.url}/class/", data={"view": "/lessons/astar/2"}).json()
        student = phone.new_page()
        student.goto(f"{server.url}/class/{started['code']}")
        expect(student.locator("#step-stepper")).to_have_attribute("data-ready", "1")
        board = student.locator(".step-panel").first.bounding_box()
        words = student.locator(".panel.lesson").bounding_box()
        assert board["y"] < words["y"]
        assert board["y"] < PHONE["height"]
    finally:
        lecturing.close()
        phone.close()
        server.stop()
