"""Training, evaluation and the M curve as background jobs (kinds ``learned-train``, ``learned-evaluate`` and
``learned-curve``). The training kernel loads when a job runs, not when the kinds are registered."""

from __future__ import annotations

from dataclasses import asdict

from engine.core.errors import PuzzleError
from engine.core.params import choice, integer, number, text
from engine.core.result import Budget
from engine.core.status import Status
from engine.domains.tiles import goal_board
from engine.serving.jobs import JobView, full_size_jobs, job_kind, operator_size
from engine.subjects.learned.catalogue import check_params, trained_tables
from engine.subjects.learned.evaluate import MAX_POSITIONS, evaluate, positions_source


def check_train(params: dict) -> dict:
    """Training parameters; the number of walks must be given (a default of 10^8 walks would run for half an hour
    on an empty form)."""
    integer(params, "walks", 1, 10**9)  # present and a number; check_params applies the real ceiling
    checked = check_params(params)
    return {**asdict(checked), "tiles": list(checked.tiles),
            "goal": choice(params, "goal", ("blank-first", "blank-last"), "blank-first")}


@job_kind("learned-train", check=check_train,
          view=JobView("Training a learned table", "walks", count="walks", steady=True))
def train_job(params: dict, report, cancel) -> dict:
    """Train the learned table over random walks (seed 002's Algorithm 1)."""
    from engine.subjects.learned.train import train

    goal = goal_board(4, 4, params["goal"])
    learned = train(goal, check_params(params), report, cancel)
    if learned is None:
        return {"status": Status.CANCELLED}
    return {"status": Status.DONE, "name": learned.name, **learned.info}


def check_evaluate(params: dict) -> dict:
    tables = [t["name"] for t in trained_tables(goal_board(4, 4, "blank-first"))]  # listed, not loaded
    wanted = text(params, "table", 200, "")
    if not tables:
        raise PuzzleError("no learned table is trained for this goal yet: train one first")
    if wanted and wanted not in tables:
        raise PuzzleError(f"there is no trained table {wanted!r}")
    table = wanted or tables[0]
    return {"table": table, "count": integer(params, "count", 1, MAX_POSITIONS, 500),
            "seed": integer(params, "seed", 0, 2**31 - 1, 0),
            "max_seconds": number(params, "max_seconds", 1, 3_600, 300),
            "positions_from": positions_source(params.get("positions_from"))}


@job_kind("learned-evaluate", check=check_evaluate, view=JobView("Solving positions three ways", "nodes (Manhattan)"))
def evaluate_job(params: dict, report, cancel) -> dict:
    """Solve random positions with Manhattan distance, the learned table and the pattern database, and compare."""
    return evaluate(params["table"], params["count"], params["seed"],
                    Budget(max_nodes=5_000_000_000, max_seconds=params["max_seconds"]), report, cancel,
                    positions_from=params.get("positions_from", "uniform"))


#: The largest M curve a job measures unless the operator allows the full size (``full_size_jobs``): tables of up to
#: 10^7 walks (about 2 minutes of training each) on up to 100 positions, each search within a minute: about half an
#: hour of one long-lane worker. The paper's M = 10^8 trains for 18 to 25 minutes alone, and a curve of it hours.
PAGE_WALKS = 10_000_000
PAGE_POSITIONS = 100
PAGE_SECONDS = 60.0
FULL_COMMAND = "python -m engine learned curve --walks-list 700000,2000000,10000000,100000000 --positions 100"


def page_curve_walks() -> list[int]:
    """The values of M a curve job measures by default: the paper's, less those past the page's size."""
    from engine.subjects.learned.curve import CURVE_WALKS

    return [m for m in CURVE_WALKS if full_size_jobs() or m <= PAGE_WALKS]


def check_curve(params: dict) -> dict:
    """The M curve's parameters: ``walks`` (1 to 8 values of M, a list or "700000,2000000"), ``positions``
    (1..MAX_POSITIONS), ``seed`` (which positions), ``train_seed``, ``max_nodes`` and ``max_seconds`` (each search's
    budget); past the page's size (``PAGE_WALKS``, ``PAGE_POSITIONS``, ``PAGE_SECONDS``) only where the operator
    allows the full size."""
    from engine.subjects.learned.curve import MAX_NODES, MAX_SECONDS

    full = full_size_jobs()
    walks = params.get("walks") or page_curve_walks()
    if isinstance(walks, str):
        walks = walks.replace(",", " ").split()
    if not isinstance(walks, list) or not 1 <= len(walks) <= 8:
        raise PuzzleError("walks must be 1 to 8 values of M, e.g. 700000,2000000")
    walks = [check_params({"walks": w}).walks for w in walks]
    checked = {"walks": walks, "positions": integer(params, "positions", 1, MAX_POSITIONS, 100),
               "seed": integer(params, "seed", 0, 2**31 - 1, 0),
               "train_seed": integer(params, "train_seed", 0, 2**31 - 1, 0),
               "max_nodes": integer(params, "max_nodes", 1, 20_000_000_000, MAX_NODES),
               "max_seconds": number(params, "max_seconds", 1, 3_600, MAX_SECONDS if full else PAGE_SECONDS),
               "positions_from": positions_source(params.get("positions_from"))}
    if not full:
        over = ([f"M at most {PAGE_WALKS:,}"] if max(walks) > PAGE_WALKS else []) + \
            ([f"at most {PAGE_POSITIONS} positions"] if checked["positions"] > PAGE_POSITIONS else []) + \
            ([f"each search within {PAGE_SECONDS:.0f} s"] if checked["max_seconds"] > PAGE_SECONDS else [])
        if over:
            raise operator_size(f"a curve is measured with {', '.join(over)}", FULL_COMMAND)
    return checked


@job_kind("learned-curve", check=check_curve, view=JobView("Measuring the M curve", None), resumable=True)
def curve_job(params: dict, report, cancel) -> dict:
    """The M curve: one table per M (N = 200), each evaluated on the same positions (uniformly random, or N random
    slides from the goal). Stopped by its cancel, it answers with ``"resume"``: the points it measured
    (``resume_from``), which the next attempt does not measure again."""
    from engine.subjects.learned.curve import m_curve

    out = m_curve(tuple(params["walks"]), params["positions"], params["seed"],
                  Budget(params["max_nodes"], params["max_seconds"]), params["train_seed"], report, cancel,
                  params.get("positions_from", "uniform"), (params.get("resume_from") or {}).get("points", []))
    if out["status"] == Status.CANCELLED and "points" in out:
        out["resume"] = {"resume_from": {"points": out["points"]}}
    return out
