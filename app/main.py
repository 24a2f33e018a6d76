"""The home page: what the playground offers."""

from flask import Blueprint, render_template

bp = Blueprint("main", __name__)

#: Every subject of the playground, shown on the home page and in the navigation; pages are added as they land.
SUBJECTS = [
    {"endpoint": "play.play", "title": "Play & solve", "blurb": "Slide the 8-puzzle, the 15-puzzle, 2×n and any board "
     "up to 6×6; ask BFS, A* or IDA* for an answer and watch it animate."},
    {"endpoint": "play.compare", "title": "Compare solvers", "blurb": "Race two to four solvers on the same position: "
     "boards side by side, lengths, nodes and time in a table and a chart."},
    {"endpoint": "research.index", "title": "2×n research lab", "blurb": "Recompute seed 000 live: diameters by full "
     "BFS, the Manhattan lower bound, the k-column sub-problem and upper bounds, as tables and charts."},
    {"endpoint": "meta.index", "title": "Swarms and genes", "blurb": "Seed 001's binary particle swarm (DPSO) and "
     "genetic algorithm hunt for 15-puzzle solutions: live fitness curves, the paper's experiment and its charts."},
    {"endpoint": "learned.index", "title": "Learned heuristic", "blurb": "Seed 002: train a table on random walks "
     "out of the goal, solve with V = MD + DB, and measure what giving up admissibility buys."},
    {"endpoint": "rectout.index", "title": "Rectangle-out", "blurb": "Seed 003's continuous puzzle: four plates in a "
     "box, one must leave through a narrow hole. Play it by hand on a canvas; search its feature points with A*."},
    {"endpoint": "classic.step_page", "title": "Step through a search", "blurb": "BFS, DFS, iterative deepening, A* "
     "and IDA* one node at a time on the 8-puzzle, 2×n or a graph: the frontier, the tree, two algorithms in step."},
    {"endpoint": "classic.index", "title": "Classic search", "blurb": "N queens three ways (pruning pays), the "
     "knight's tour (304 from a corner of 5×5) and every path through a graph, animated step by step."},
]


@bp.get("/")
def home():
    return render_template("home.html", subjects=SUBJECTS)
