"""The home page: what the playground offers (every registered subject, see ``app.subjects``)."""

from flask import Blueprint, render_template

bp = Blueprint("home", __name__)


@bp.get("/")
def index():
    return render_template("home/index.html")
