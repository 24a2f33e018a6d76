"""The guided lessons: short slides that each drive the live step-through with a fixed request.

A slide's ``request`` is what the step-through page would send to ``/api/step``; ``step`` is where the player
stands when the slide opens (``opening_step``), and ``shows`` names that step in words, on the slide; ``walk`` is how
many steps past it a clicker's PageDown walks before it opens the next slide (so a slide that opens mid-search is a
handful of presses long, not the rest of the search). The positions
are fixed scrambles (seeded). Every number and comparison the text makes is also written in ``claims``, which the
tests check against the engine's own trace (``tests/app/test_lessons.py``), so a slide cannot say what its board
does not show:

* ``step``: the step the slide opens at; ``iteration`` and ``bound``: the first search's iteration and bound there;
* ``expanded`` / ``frontier``: {algorithm: count} on the counters shown at that step;
* ``length``: {algorithm: moves} of each search's answer; ``moves``: {algorithm: its graph path, from the start};
* ``fewer_expanded``: (a, b), a's search expands fewer;
* ``shortest``: the searches whose answers are as short as breadth-first search's;
* ``same_problem_as``: the slide (number, in this lesson) whose start position this one shares;
* ``bfs_order``: uniform-cost search expands breadth-first search's nodes in the same order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.core.errors import PuzzleError


@dataclass(frozen=True)
class Slide:
    title: str
    text: tuple[str, ...]
    request: dict = field(default_factory=dict)
    step: object = 0
    shows: str = ""
    claims: dict = field(default_factory=dict)
    #: the steps the slide is about: a clicker walks this many steps past the opening one, then opens the next slide
    walk: int = 10

    def __post_init__(self):
        if isinstance(self.text, str):  # one paragraph written without the tuple's trailing comma
            object.__setattr__(self, "text", (self.text,))


@dataclass(frozen=True)
class Lesson:
    slug: str
    title: str
    summary: str
    slides: tuple[Slide, ...]


def _tiles(algorithms, scramble, seed, heuristic="manhattan", **extra):
    return {"problem": "tiles", "size": "3x3", "goal": "blank-last", "algorithms": algorithms,
            "scramble": scramble, "seed": seed, "heuristic": heuristic, **extra}


LESSONS = (
    Lesson("bfs-dfs", "Breadth-first against depth-first",
           "A queue against a stack: who finds the shortest path, and what each one keeps in memory.", (
               Slide("A queue: the oldest node first",
                     ("Breadth-first search keeps its frontier in a first-in, first-out queue. It expands every "
                      "node at depth 1 before any at depth 2, so the tree grows one full level at a time.",
                      "Step forward and watch the highlighted pseudocode line and the queue under it."),
                     {"problem": "numbered-graph", "algorithms": ["bfs"], "heuristic": "zero"}, 0,
                     shows="the start, before the first step", claims={"step": 0}, walk=19),
               Slide("The first path found is a shortest one",
                     ("Here BFS has finished on the graph: 0 → 2 → 4 → 6, 3 edges. Because it never looks at a "
                      "longer path before every shorter one, the first time it generates the goal it has a path with "
                      "the fewest edges.",),
                     {"problem": "numbered-graph", "algorithms": ["bfs"], "heuristic": "zero"}, "end",
                     shows="the end of the search",
                     claims={"step": 19, "moves": {"bfs": "0 2 4 6"}, "length": {"bfs": 3}, "shortest": ["bfs"]}),
               Slide("A stack: dive first",
                     ("Now an 8-puzzle, 8 moves from the goal. Depth-first search (with a depth limit of 12) goes "
                      "down one branch as far as it can and never steps onto a board already on its path. It returns "
                      "a 12-move solution; BFS beside it finds 8 moves.",
                      "DFS kept only the path it was on; BFS kept a whole level of the tree."),
                     _tiles(["dfs", "bfs"], 8, 1, depth_limit=12), "end",
                     shows="the end of both searches", claims={"length": {"dfs": 12, "bfs": 8}, "shortest": ["bfs"]}),
               Slide("Iterative deepening: both at once",
                     ("On the same 8-puzzle scramble, iterative deepening runs depth-limited searches with limits 0, "
                      "1, 2, … Each new iteration is a step of its own: the caption says why the limit grew; here "
                      "the third iteration starts, with limit 2.",
                      "It finds the shortest path like BFS, with the memory of DFS, at the price of repeating the "
                      "shallow levels."),
                     _tiles(["ids", "bfs"], 8, 1), {"event": "bound", "nth": 3},
                     shows="the start of iteration 3 (depth limit 2)",
                     claims={"iteration": 3, "bound": 2, "same_problem_as": 3, "length": {"ids": 8, "bfs": 8},
                             "shortest": ["ids", "bfs"]}),
           )),
    Lesson("astar", "A* and admissible heuristics",
           "Uniform-cost, greedy best-first and A*: what h adds, and why it must never overestimate.", (
               Slide("Uniform-cost search: g alone",
                     ("Uniform-cost search expands the node with the least path cost g. With every move costing 1 it "
                      "expands nodes in the same order as BFS would, and here it needs 631 expansions where A* beside "
                      "it needs 14.",),
                     _tiles(["ucs", "astar"], 16, 7), "end",
                     shows="the end of both searches",
                     claims={"expanded": {"ucs": 631, "astar": 14}, "bfs_order": "ucs", "length": {"ucs": 10,
                                                                                                "astar": 10}}),
               Slide("A*: f = g + h",
                     ("A* orders its frontier by f = g + h, where h estimates the moves still needed (Manhattan "
                      "distance here). The variables beside the pseudocode show g, h and f of the current node.",
                      "Click a node in the tree to see why it was, or was not yet, chosen."),
                     _tiles(["astar"], 16, 7), 12,
                     shows="step 12, during A*'s third expansion", claims={"step": 12, "expanded": {"astar": 3},
                                                                           "same_problem_as": 1}),
               Slide("Greedy best-first: h alone",
                     ("Greedy best-first search trusts h alone. It reaches the goal after 12 expansions, but with a "
                      "12-move path where A* finds 10: ignoring g, it cannot tell a long path from a short one.",),
                     _tiles(["greedy", "astar"], 16, 7), "end",
                     shows="the end of both searches",
                     claims={"expanded": {"greedy": 12}, "length": {"greedy": 12, "astar": 10}, "shortest": ["astar"],
                             "same_problem_as": 1}),
               Slide("Admissible: never an overestimate",
                     ("An h is admissible if it never says more moves than are really needed. Manhattan distance is: "
                      "every tile needs at least its distance in moves. With an admissible (and consistent) h, the "
                      "first goal A* expands lies on a shortest path, which is why the page says “a shortest path”: "
                      "10 moves, as many as breadth-first search needs.",),
                     _tiles(["astar"], 16, 7), "end",
                     shows="the end of the search", claims={"length": {"astar": 10}, "shortest": ["astar"]}),
           )),
    Lesson("idastar", "IDA*: A*'s answers in a depth-first search's memory",
           "Iterations bounded by f, and what IDA* pays in repeated work for keeping only one path.", (
               Slide("A* keeps every node it has seen",
                     ("A* remembers its whole frontier and every state reached. On this 16-move scramble its frontier "
                      "still holds 147 nodes when it finds the goal; on the 15-puzzle it would be millions. IDA* "
                      "beside it keeps only the path it is on.",),
                     _tiles(["astar", "idastar"], 16, 2), "end",
                     shows="the end of both searches", claims={"frontier": {"astar": 147}, "length": {"astar": 16}}),
               Slide("IDA*'s first iteration",
                     ("IDA* starts with the bound f ≤ h(start) and searches depth-first, cutting off every child whose "
                      "f = g + h is above the bound. Its memory is the path on the stack. Here the first iteration, "
                      "with bound 6, has just cut off its last child without finding the goal.",),
                     _tiles(["idastar"], 16, 2), {"event": "bound", "nth": 2, "offset": -1},
                     shows="the last step of iteration 1 (bound 6)",
                     claims={"iteration": 1, "bound": 6, "same_problem_as": 1}),
               Slide("Why the next bound is what it is",
                     ("When an iteration fails, the next bound is the least f that was cut off: no path below it "
                      "was left unexplored, so the bound never jumps past the optimum. One step after the last "
                      "slide, iteration 2 starts with bound 8.",),
                     _tiles(["idastar"], 16, 2), {"event": "bound", "nth": 2},
                     shows="the start of iteration 2 (bound 8)",
                     claims={"iteration": 2, "bound": 8, "same_problem_as": 2}),
               Slide("The price: repeated work",
                     ("IDA* expands the shallow nodes again in every iteration and, without a list of reached "
                      "states, reaches some states by several paths: 401 expansions against A*'s 234. More work, "
                      "almost no memory, and the same optimal length, 16 moves.",),
                     _tiles(["idastar", "astar"], 16, 2), "end",
                     shows="the end of both searches",
                     claims={"expanded": {"idastar": 401, "astar": 234}, "fewer_expanded": ("astar", "idastar"),
                             "length": {"idastar": 16, "astar": 16}, "same_problem_as": 1}),
           )),
    Lesson("heuristics", "Heuristics compared",
           "Misplaced tiles, Manhattan distance, linear conflict: a better-informed h expands fewer nodes.", (
               Slide("Misplaced tiles against Manhattan distance",
                     ("Both are admissible. Misplaced tiles counts tiles not at home (at most 8); Manhattan distance "
                      "adds up how far each tile is from home. A* with the larger h expands far fewer nodes: 36 "
                      "against 376, for the same 16 moves.",),
                     _tiles(["astar:misplaced", "astar:manhattan"], 16, 1), "end",
                     shows="the end of both searches",
                     claims={"expanded": {"astar:misplaced": 376, "astar:manhattan": 36},
                             "length": {"astar:misplaced": 16, "astar:manhattan": 16}}),
               Slide("Linear conflict",
                     ("Two tiles in their goal row (or column) but in the wrong order must pass each other: one of "
                      "them leaves the line and comes back, two moves Manhattan distance does not count. Adding them "
                      "keeps h admissible and larger still: on the same scramble A* expands 31 nodes instead of 36.",),
                     _tiles(["astar:manhattan", "astar:linear-conflict"], 16, 1), "end",
                     shows="the end of both searches",
                     claims={"expanded": {"astar:manhattan": 36, "astar:linear-conflict": 31},
                             "shortest": ["astar:manhattan", "astar:linear-conflict"], "same_problem_as": 1}),
               Slide("Beyond linear conflict: pattern databases",
                     ("The board shows A* with linear conflict, the strongest h the step-through offers. A pattern "
                      "database goes further: it stores, for a group of tiles, the exact number of moves those tiles "
                      "need, found once by a search backwards from the goal, and adds the groups' values. Its tables "
                      "are made for the 15-puzzle, too big to step through node by node.",
                      "Try it on the compare page: IDA* with Manhattan distance against IDA* with the pattern "
                      "database on the same 15-puzzle."),
                     _tiles(["astar:linear-conflict"], 16, 1), "end",
                     shows="the end of A* with linear conflict, the last slide's right-hand search",
                     claims={"expanded": {"astar:linear-conflict": 31}, "same_problem_as": 1}),
           )),
)

BY_SLUG = {lesson.slug: lesson for lesson in LESSONS}


def neighbours(slug: str, number: int) -> tuple[tuple[str, int] | None, tuple[str, int] | None]:
    """The slides before and after one, across lessons: the last slide of a lesson leads to the next lesson's first,
    the first to the previous lesson's last (None at the ends of the course)."""
    order = [(lesson.slug, n) for lesson in LESSONS for n in range(1, len(lesson.slides) + 1)]
    at = order.index((slug, number))
    return (order[at - 1] if at > 0 else None), (order[at + 1] if at + 1 < len(order) else None)


def opening_step(spec: object, traces: list[dict]) -> int:
    """Where a slide opens: a step number, "end", or {"event": e, "nth": k, "offset": d}, which is d steps after the
    k-th step of kind e in the first trace (so a slide can open on IDA*'s second iteration whatever the step count,
    or with offset -1 on the last step of its first)."""
    total = max(len(trace["steps"]) for trace in traces)
    if spec == "end":
        return total
    if isinstance(spec, int) and not isinstance(spec, bool):
        return max(0, min(spec, total))
    if (isinstance(spec, dict) and isinstance(spec.get("event"), str) and isinstance(spec.get("nth"), int)
            and isinstance(spec.get("offset", 0), int)):
        seen = 0
        for index, step in enumerate(traces[0]["steps"]):
            seen += step["event"] == spec["event"]
            if seen == spec["nth"]:
                return max(0, min(index + 1 + spec.get("offset", 0), total))
        return total
    raise PuzzleError('open_at must be a step number, "end" or {"event": ..., "nth": k}')


MAX_OWN_SLIDES = 30
DEFAULT_WALK, MAX_WALK = 10, 25  # a slide's steps for the clicker: the next slide is at most 25 presses away

#: numbers that name a thing rather than state a figure: the puzzles ("8-puzzle", "15 puzzle"), boards ("3x3",
#: "2×4"), and what is numbered in a course ("tile 8", "Figure 3.24", "slide 2")
NAMED = re.compile(r"\d+\s*-?\s*puzzles?\b|\d+\s*[x×]\s*\d+|\b(?:tiles?|figures?|fig\.|sections?|chapters?|"
                   r"slides?|pages?|lessons?|exercises?)\s+\d+(?:\.\d+)*", re.IGNORECASE)
#: a number as a person writes it: 7, 418, 140.5, 102,945,789 (thousands in groups of three); not a part of a word
NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?!\w)")


def stated_numbers(text: str) -> list[tuple[str, float, int]]:
    """Every number the words state, as (written, value, decimals): decimals whole ("140.5" is one number), the small
    ones too; the numbers that name a puzzle, a board or a figure are names (``NAMED``) and left out."""
    text = NAMED.sub(" ", text)
    return [(match.group(0), float(match.group(1).replace(",", "") + ("." + match.group(2) if match.group(2) else "")),
             len(match.group(2) or "")) for match in NUMBER.finditer(text)]


def shown_figures(traces: list[dict], step: int) -> set[float]:
    """Every number the step-through shows at ``step``: the step and the total, each search's counters and bound and
    its iteration, g, h and f of every node it has reached (the frontier, the tree, the caption), a graph's road costs
    and given h, and once done its length, cost and the result's counts."""
    total = max(len(trace["steps"]) for trace in traces)
    shown: set[float] = {float(step), float(total)}
    for trace in traces:
        events = trace["steps"][:step]
        counts: dict = {}
        reached = {0} if trace["nodes"] else set()
        iterations = 0
        for event in events:
            counts.update((k, event[k]) for k in ("expanded", "generated", "frontier", "bound", "cut") if k in event)
            iterations += event["event"] == "bound"
            if isinstance(event.get("node"), int):
                reached.add(event["node"])
        shown.add(float(iterations))
        nodes = trace["nodes"]
        for node_id in reached:
            if 0 <= node_id < len(nodes):
                node = nodes[node_id]
                g, h = node.get("g"), node.get("h")
                shown.update(float(v) for v in (g, h, node.get("depth")) if isinstance(v, int | float))
                if isinstance(g, int | float) and isinstance(h, int | float):
                    shown.add(float(g + h))
        scene = trace.get("scene") or {}
        graph = scene.get("graph")
        if not isinstance(graph, dict):
            graph = {}
        shown.update(float(e["cost"]) for e in graph.get("edges", ()) if isinstance(e.get("cost"), int | float))
        shown.update(float(v) for v in (scene.get("h") or {}).values() if isinstance(v, int | float))
        result = trace["result"]
        if step >= len(trace["steps"]):
            counts.update(expanded=result["nodes_expanded"], generated=result["nodes_generated"])
            if result["status"] == "solved":
                shown.update(float(n) for n in (result.get("length"), result.get("cost")) if isinstance(n, int | float))
                shown.update(float(part) for part in str(result.get("moves", "")).split() if part.isdigit())
        shown.update(float(v) for v in counts.values() if isinstance(v, int | float))
    return shown


def matches(value: float, decimals: int, shown: float) -> bool:
    """A stated number is one the board shows as the page writes it (three decimals at most: 418 is 418.0, 0.3 is
    0.1 + 0.2), or that figure rounded to the decimals the words give (1.41 for √2)."""
    on_screen = round(shown, 3)
    if abs(on_screen - value) <= 1e-9 * max(1.0, abs(value)):
        return True
    return decimals > 0 and abs(shown - value) < 0.5 * 10 ** -decimals


def read_own_lesson(data: object) -> dict:
    """A lecturer's lesson as JSON: {"title": ..., "slides": [{"title", "text", "link", "walk"}]}, each link
    "/step?...&step=N" or a saved view's "/v/<id>?step=N"
    (``walk``, optional: the steps past the opening one a clicker walks before the next slide, 0 to 25, default 10)."""
    if not isinstance(data, dict) or not isinstance(data.get("slides"), list) or not data["slides"]:
        raise PuzzleError('a lesson is {"title": …, "slides": [{"title": …, "text": …, "link": "/step?…"}, …]}')
    if len(data["slides"]) > MAX_OWN_SLIDES:
        raise PuzzleError(f"a lesson has at most {MAX_OWN_SLIDES} slides")
    slides = []
    for number, slide in enumerate(data["slides"], 1):
        if not isinstance(slide, dict) or not all(isinstance(slide.get(k), str) for k in ("title", "text", "link")):
            raise PuzzleError(f"slide {number} needs a title, a text and a link, each a string")
        if not slide["link"].startswith(("/step?", "/v/")) or len(slide["link"]) > 25_000 or len(slide["text"]) > 4000:
            raise PuzzleError(f"slide {number}: the link must be a /step link or a saved view's /v/ link (the "
                              "step-through's Copy link), and "
                              "the text at most 4,000 characters")
        walk = slide.get("walk", DEFAULT_WALK)
        if not isinstance(walk, int) or isinstance(walk, bool) or not 0 <= walk <= MAX_WALK:
            raise PuzzleError(f"slide {number}: walk must be a whole number of steps from 0 to {MAX_WALK}")
        slides.append({"title": slide["title"][:200] or f"Slide {number}", "text": slide["text"],
                       "link": slide["link"], "walk": walk})
    title = data.get("title")
    return {"title": title[:200] if isinstance(title, str) and title.strip() else "My lesson", "slides": slides}
