"""Take the README's screenshots (docs/*.png) from a running app: python scripts/screenshots.py [base-url]."""

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

BASE = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:5000"
DOCS = Path(__file__).resolve().parents[1] / "docs"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]

with sync_playwright() as p:
    browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    page.goto(f"{BASE}/play?size=4x4&goal=blank-last&scramble=40&seed=11")
    page.select_option("#solver-select", "idastar:linear-conflict")
    page.click("#solve-button")
    page.wait_for_selector(".result .mv")
    page.wait_for_timeout(2500)
    page.click('.result [data-act="play"]')
    page.screenshot(path=str(DOCS / "board.png"), full_page=True)
    page.goto(f"{BASE}/compare?size=3x3&goal=blank-last&tiles=8,6,7,2,5,4,3,0,1")
    page.check('input[value="bfs:"]')
    page.check('input[value="astar:manhattan"]')
    page.click("#compare-button")
    page.wait_for_selector(".compare-table")
    page.wait_for_timeout(3000)
    page.click('.compare-results [data-act="play"]')
    page.screenshot(path=str(DOCS / "compare.png"), full_page=True)
    page.goto(f"{BASE}/step")
    page.wait_for_selector(".step-panel")
    for _ in range(30):
        page.click('#step-stepper [data-act="forward"]')
    page.screenshot(path=str(DOCS / "step.png"), full_page=True)
    page.goto(f"{BASE}/classic/knights?rows=12&cols=12")
    page.wait_for_selector("#knights-stepper[data-loaded]")
    for _ in range(60):
        page.click('#knights-stepper [data-act="forward"]')
    page.screenshot(path=str(DOCS / "knights.png"), full_page=True)
    phone = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    phone.goto(f"{BASE}/play?size=3x3&scramble=12&seed=4")
    phone.screenshot(path=str(DOCS / "phone.png"))
    browser.close()
