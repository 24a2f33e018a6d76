"""What a solve or a compare will cost, guessed before it starts from what is cheap to know, and so where it starts.

A person waits for the interactive lane, so work that will surely take long starts on the long lane instead (and the
page says so before it starts): a budget past ``INTERACTIVE_SECONDS``, a breadth-first search over more than
``BFS_INTERACTIVE_STATES`` positions (its cost is the board's state count), an optimal solver on a board of more than
``OPTIMAL_INTERACTIVE_CELLS`` cells (an optimal 5×5 solve can run for its whole budget). Whatever the guess, no job
keeps the interactive lane past its slice (``engine.serving.cluster``): a solve that was guessed wrong goes on in the
background.

``quick_nodes`` says which solves the web process tries itself, without a worker, and under what node cap: a compiled
solver (``SolverInfo.quick``) with a heuristic whose record says it is quick (``Heuristic.quick``: cheap, nothing to
load), or none, on a board of at most ``QUICK_STATES`` positions ends within ``QUICK_NODES`` (the answer is sure); on a
larger board up to 4×4 a heuristic search is tried for ``QUICK_TRY_NODES`` (a few milliseconds: most scrambles and many
random 2×n positions end within them) and becomes a job if it has not ended.
"""

from __future__ import annotations

from math import factorial

from engine.domains.tiles.heuristics import heuristics
from engine.domains.tiles.solving import solvers
from engine.serving.jobs import INTERACTIVE, LONG, Placement

#: A solve or compare with at most this many seconds in all may start on the interactive lane.
INTERACTIVE_SECONDS = 120.0
#: Breadth-first search visits every position up to the answer: 2×5 (1.8 million) takes about a second, 3×4 (240
#: million) minutes.
BFS_INTERACTIVE_STATES = 2_000_000
OPTIMAL_INTERACTIVE_CELLS = 16
#: The 8-puzzle's 181,440 positions: every compiled search on a board this small ends within a few hundred thousand
#: nodes, a few milliseconds.
QUICK_STATES = 181_440
QUICK_NODES = 500_000
QUICK_TRY_NODES = 30_000
#: Solvers that spread their work over the long lane's workers (engine/domains/tiles/parallel_ida.py): a job of theirs
#: waits for a long-lane slot, never an interactive one.
SPREAD_SOLVERS = frozenset({"idastar-spread"})


def positions(cells: int) -> int:
    """How many positions a board of ``cells`` cells has that can reach a given goal (half the permutations)."""
    return factorial(cells) // 2


def _cells(params: dict) -> int:
    rows, _, cols = params["size"].partition("x")
    return int(rows) * int(cols)


def solve_placement(params: dict, optimal: dict[str, bool]) -> Placement:
    """The lane of a checked solve or compare, and why when it is the long one; ``optimal`` says per solver name
    whether it searches for a shortest answer."""
    runs = params.get("solvers") or [{"solver": params["solver"]}]
    seconds = len(runs) * params["max_seconds"]
    if seconds > INTERACTIVE_SECONDS:
        return Placement(LONG, f"a budget of {seconds:g} s in all is long work: it runs in the background")
    cells = _cells(params)
    for run in runs:
        if run["solver"] in SPREAD_SOLVERS:
            return Placement(LONG, "spread over the cluster's workers: it runs in the background, on the long lane "
                                   "whose workers take its tasks")
        if run["solver"] == "bfs" and positions(cells) > BFS_INTERACTIVE_STATES:
            return Placement(LONG, f"breadth-first search may visit all {positions(cells):,} positions of "
                                   f"{params['size']} (minutes of work): it runs in the background")
        if optimal.get(run["solver"]) and cells > OPTIMAL_INTERACTIVE_CELLS:
            return Placement(LONG, f"an optimal solve of {params['size']} can search for minutes: it runs in the "
                                   "background (the fast solver answers at once, not optimally)")
    return Placement(INTERACTIVE)


def is_quick(solver: str, heuristic: str) -> bool:
    """Whether the web process tries a small solve by ``solver`` with ``heuristic`` itself: a quick solver with a quick
    heuristic, or with none or its own (``""``, the table's ``"perfect"``)."""
    record, info = heuristics().get(heuristic), solvers().get(solver)
    return info is not None and info.quick and (record is None or record.quick)


def quick_nodes(params: dict) -> int:
    """The node cap under which the web process tries a checked solve itself; 0: it does not try."""
    if not is_quick(params["solver"], params["heuristic"]) or params.get("params"):
        return 0
    cells = _cells(params)
    if positions(cells) <= QUICK_STATES:
        return QUICK_NODES
    if cells <= OPTIMAL_INTERACTIVE_CELLS and params["heuristic"] in heuristics():
        return QUICK_TRY_NODES
    return 0


def quick_solves() -> list[dict]:
    """A solve request for each solver and heuristic the web process tries itself, on each size where it tries them
    (the 8-puzzle; 4×4 too for a heuristic search, whose kernels there are others): what it loads at start-up."""
    requests = []
    for name, info in solvers().items():
        for heuristic in (h for h in info.heuristics if is_quick(name, h)):
            requests.append({"size": "3x3", "tiles": [1, 2, 3, 4, 5, 6, 0, 7, 8], "solver": name,
                             "heuristic": heuristic})
            if heuristic in heuristics():
                requests.append({"size": "4x4", "tiles": list(range(1, 15)) + [0, 15], "solver": name,
                                 "heuristic": heuristic})
    return requests
