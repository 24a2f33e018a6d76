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
]


@bp.get("/")
def home():
    return render_template("home.html", subjects=SUBJECTS)
