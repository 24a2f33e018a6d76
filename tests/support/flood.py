"""The records one client floods the server with (issue 49), shared by the test that bounds what they cost
(tests/app/test_one_client.py) and the benchmark that measures it (bench/record_flood.py): own lessons of a size
asked for, and step-through views of a large typed graph, each new."""

from __future__ import annotations

import json
from urllib.parse import urlencode

#: A small step-through view: what a lesson's slides and a class show.
LINK = "/step?problem=tiles&size=3x3&scramble=4&seed=1&algorithms=bfs&step=3"
#: 3,990 characters of a slide's words, with no number in them for the lesson checker to check.
WORDS = ("the frontier grows as the search goes on " * 100)[:3_990]


def lesson(title: str, size: int = 60_000) -> dict:
    """A lesson of about ``size`` bytes: slides of 4,000 characters of words on one small view."""
    return {"title": title, "slides": [{"title": f"slide {n}", "text": WORDS, "link": LINK}
                                       for n in range(max(1, size // 4_000))]}


def graph_view(variant: int) -> str:
    """A step-through view of a typed graph of about 45 KB, a different one for each ``variant``."""
    name = "n" * 30
    nodes = [{"name": f"{name}{i}", "x": i, "y": i + variant} for i in range(300)]
    edges = [{"from": f"{name}{i}", "to": f"{name}{i + 1}", "cost": 1} for i in range(299)]
    data = json.dumps({"nodes": nodes, "edges": edges, "start": f"{name}0", "goal": f"{name}299"},
                      separators=(",", ":"))
    return "/step?" + urlencode({"problem": "graph", "data": data, "algorithms": "bfs"}, safe='{}[]":, ')
