"""Lesson checks against the pages: many lecturers checking large own lessons while a visitor opens the home page.

Starts the real server (``python -m app``, as bench/classroom.py does) and runs ``--clients`` lecturers, each from its
own address with its own cookie, saving twelve views of 64×64 grid maps (``/api/views``) and then posting 12-slide
lessons of their short links to ``/lessons/check`` again and again (each post new words, so no stored verdict spares
the work); beside them one visitor opens ``/`` four times a
second. Then SIGTERM. Issue 43 measured GET / p95 2.5 s with 16 such clients when a check ran whole inside its
request; the target is p95 ≤ 1 s and SIGTERM ≤ 10 s.

Printed: GET / p50/p95/p99 and its errors, what the checks were answered (status counts), SIGTERM's time, the load.
Usage: python bench/lesson_checks.py [--clients 16] [--seconds 60]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import threading
import time
from collections import Counter
from urllib.parse import urlencode

from classroom import Client, free_port, percentile, start_server, stop_server, wait_for_server
from common import header, table

SIZE = 64


def grid_link(seed: int, step: int) -> str:
    """A 64×64 map with 20 % walls (seeded), corner to corner, breadth-first beside A*, at ``step``."""
    rng = random.Random(seed)
    rows = ["".join("#" if rng.random() < 0.2 else "." for _ in range(SIZE)) for _ in range(SIZE)]
    rows[0] = "." + rows[0][1:]
    rows[-1] = rows[-1][:-1] + "."
    data = {"rows": rows, "start": [0, 0], "goal": [SIZE - 1, SIZE - 1], "connect": 8}
    return "/step?" + urlencode({"problem": "grid", "data": json.dumps(data, separators=(",", ":")),
                                 "algorithms": "bfs,astar", "step": step})


def lesson(links: list[str], client: int, serial: int) -> dict:
    slides = [{"title": f"Slide {n}", "link": link,
               "text": f"After {40 * n} steps the frontier holds {n + 3} cells; lecturer {client}, take {serial}."}
              for n, link in enumerate(links, 1)]
    return {"title": f"Grid lesson {client}.{serial}", "slides": slides}


def lecturer(port: int, number: int, stop_at: float, statuses: Counter, lock: threading.Lock) -> None:
    client = Client(port, f"127.0.1.{number + 1}")
    client.call("/")
    # twelve 64×64 maps in their long /step links are about 80 KB, past a lesson's 64 KB: a lecturer saves each view
    # (Copy link) and the lesson names the short links, as the writer does
    links = [client.json("/api/views", {"view": grid_link(number * 1000 + n, 40 * n)})["link"] for n in range(1, 13)]
    serial = 0
    while time.monotonic() < stop_at:
        serial += 1
        # the lesson as a JSON body, its verdicts asked as data (a page would add only the template's time)
        _, status, _ = client.call("/lessons/check", lesson(links, number, serial),
                                   extra={"Accept": "application/json"})
        with lock:
            statuses[status] += 1
        if status == 429:
            time.sleep(1)  # as the answer asks
    client.close()


def visitor(port: int, stop_at: float, times: list[float], errors: list[int]) -> None:
    client = Client(port, "127.0.2.1")
    while time.monotonic() < stop_at:
        took, status, _ = client.call("/")
        (times.append(took) if status == 200 else errors.append(status))
        time.sleep(0.25)
    client.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=60)
    args = parser.parse_args()
    header(f"{args.clients} lecturers checking 12-slide lessons on {SIZE}×{SIZE} grids, a visitor on /, "
           f"{args.seconds:.0f} s")
    folder = tempfile.mkdtemp(prefix="lesson-checks-")
    port = free_port()
    server = start_server(folder, port, {})
    statuses: Counter = Counter()
    times: list[float] = []
    errors: list[int] = []
    try:
        wait_for_server(port, server, folder)
        stop_at = time.monotonic() + args.seconds
        lock = threading.Lock()
        threads = [threading.Thread(target=lecturer, args=(port, n, stop_at, statuses, lock), daemon=True)
                   for n in range(args.clients)]
        threads.append(threading.Thread(target=visitor, args=(port, stop_at, times, errors), daemon=True))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=args.seconds + 120)
    finally:
        stopped = stop_server(server)
    ms = [t * 1000 for t in times]
    print(table(["request", "count", "p50 ms", "p95 ms", "p99 ms", "max ms"],
                [["GET /", len(ms), *(f"{percentile(ms, q):.0f}" for q in (0.5, 0.95, 0.99)), f"{max(ms):.0f}"]]))
    print(f"GET / errors: {len(errors)} {Counter(errors)}")
    print(f"/lessons/check answered: {dict(sorted(statuses.items()))}")
    print(f"SIGTERM → server ended: {stopped}")
    print(f"load average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
