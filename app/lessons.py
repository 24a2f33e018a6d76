"""The guided lessons: short slides that each drive the live step-through with a fixed request.

A slide's ``request`` is what the step-through page would send to ``/api/step``; ``step`` is where the player
stands when the slide opens: a step number, "end", or {"event": ..., "nth": k}, meaning just after the k-th step
of that kind in the first trace (so a slide can open on IDA*'s second iteration whatever the step count). The
positions are fixed scrambles (seeded), chosen so that the numbers the text talks about are on the screen.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Slide:
    title: str
    text: tuple[str, ...]
    request: dict = field(default_factory=dict)
    step: object = 0

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
                     {"problem": "graph", "algorithms": ["bfs"], "heuristic": "zero"}, 0),
               Slide("The first path found is a shortest one",
                     ("Here BFS has finished on the graph. Because it never looks at a longer path before every "
                      "shorter one, the first time it generates the goal it has a path with the fewest edges.",),
                     {"problem": "graph", "algorithms": ["bfs"], "heuristic": "zero"}, "end"),
               Slide("A stack: dive first",
                     ("Depth-first search (with a depth limit of 12) goes down one branch as far as it can. On the "
                      "same 8-puzzle scramble it returns a 12-move solution; BFS beside it finds 8 moves.",
                      "DFS kept only the path it was on; BFS kept a whole level of the tree."),
                     _tiles(["dfs", "bfs"], 8, 1, depth_limit=12), "end"),
               Slide("Iterative deepening: both at once",
                     ("Iterative deepening runs depth-limited searches with limits 0, 1, 2, … Each new iteration is a "
                      "step of its own: the caption says why the limit grew.",
                      "It finds the shortest path like BFS, with the memory of DFS, at the price of repeating the "
                      "shallow levels."),
                     _tiles(["ids", "bfs"], 8, 1), {"event": "bound", "nth": 3}),
           )),
    Lesson("astar", "A* and admissible heuristics",
           "Uniform-cost, greedy best-first and A*: what h adds, and why it must never overestimate.", (
               Slide("Uniform-cost search: g alone",
                     ("Uniform-cost search expands the node with the least path cost g. With every move costing 1 it "
                      "expands nodes in the same order as BFS, and it needs hundreds of expansions here."),
                     _tiles(["ucs", "astar"], 16, 7), "end"),
               Slide("A*: f = g + h",
                     ("A* orders its frontier by f = g + h, where h estimates the moves still needed (Manhattan "
                      "distance here). The variables beside the pseudocode show g, h and f of the current node.",
                      "Click a node in the tree to see why it was, or was not yet, chosen."),
                     _tiles(["astar"], 16, 7), 12),
               Slide("Greedy best-first: h alone",
                     ("Greedy best-first search trusts h alone. It reaches the goal after very few expansions, but "
                      "with 12 moves where A* finds 10: ignoring g, it cannot tell a long path from a short one."),
                     _tiles(["greedy", "astar"], 16, 7), "end"),
               Slide("Admissible: never an overestimate",
                     ("An h is admissible if it never says more moves than are really needed. Manhattan distance is: "
                      "every tile needs at least its distance in moves. With an admissible (and consistent) h, the "
                      "first goal A* expands lies on a shortest path, which is why the page says “a shortest path”."),
                     _tiles(["astar"], 16, 7), "end"),
           )),
    Lesson("idastar", "IDA*: A*'s answers in a depth-first search's memory",
           "Iterations bounded by f, and what IDA* pays in repeated work for keeping only one path.", (
               Slide("A* keeps every node it has seen",
                     ("A* remembers its whole frontier and every state reached. On this scramble the frontier grows "
                      "to hundreds of nodes; on the 15-puzzle it would be millions."),
                     _tiles(["astar", "idastar"], 16, 2), "end"),
               Slide("IDA*'s first iteration",
                     ("IDA* starts with the bound f ≤ h(start) and searches depth-first, cutting off every child whose "
                      "f = g + h is above the bound. Its memory is the path on the stack."),
                     _tiles(["idastar"], 16, 2), {"event": "prune", "nth": 4}),
               Slide("Why the next bound is what it is",
                     ("When an iteration fails, the next bound is the least f that was cut off: no path below it "
                      "was left unexplored, so the bound never jumps past the optimum."),
                     _tiles(["idastar"], 16, 2), {"event": "bound", "nth": 2}),
               Slide("The price: repeated work",
                     ("IDA* expands the shallow nodes again in every iteration and, without a list of reached "
                      "states, reaches some states by several paths. Compare the expanded counts: more work, "
                      "almost no memory, and the same optimal length."),
                     _tiles(["idastar", "astar"], 16, 2), "end"),
           )),
    Lesson("heuristics", "Heuristics compared",
           "Misplaced tiles, Manhattan distance, linear conflict: a better-informed h expands fewer nodes.", (
               Slide("Misplaced tiles against Manhattan distance",
                     ("Both are admissible. Misplaced tiles counts tiles not at home (at most 8); Manhattan distance "
                      "adds up how far each tile is from home. A* with the larger h expands far fewer nodes."),
                     _tiles(["astar:misplaced", "astar:manhattan"], 16, 1), "end"),
               Slide("Linear conflict",
                     ("Two tiles in their goal row (or column) but in the wrong order must pass each other: one of "
                      "them leaves the line and comes back, two moves Manhattan distance does not count. Adding them "
                      "keeps h admissible and larger still."),
                     _tiles(["astar:manhattan", "astar:linear-conflict"], 16, 1), "end"),
               Slide("Pattern databases",
                     ("A pattern database stores, for a group of tiles, the exact number of moves those tiles need, "
                      "found once by a search backwards from the goal. Adding the groups' values gives the strongest "
                      "h here; it is what solves random 15-puzzles in seconds.",
                      "Try it on the compare page: IDA* with Manhattan distance against IDA* with the pattern "
                      "database on the same 15-puzzle."),
                     _tiles(["astar:linear-conflict"], 16, 1), "end"),
           )),
)

BY_SLUG = {lesson.slug: lesson for lesson in LESSONS}
