"""The M curve: how V = MD + DB changes with the number of training walks M (N = 200), every table evaluated on
the same positions (uniformly random, or N random slides from the goal:
``engine.subjects.learned.evaluate.positions_source``).

The positions' Manhattan-distance and pattern-database solves do not depend on the table, so they are computed once
(``baseline``) and stored beside the tables (a JSON file named by count, seed and budget); each table then only adds
its own IDA* + V solves. A point of the curve is ``engine.subjects.learned.evaluate.summarise`` of the merged rows: node
and time reduction against MD over the positions both finished, V's optimal share and mean excess, grouped by optimal
length as in the paper's Figure 3.

Every search has a node budget (default 2×10⁹ expansions, about a minute of one core for MD) and a wall-clock
budget far above it: which positions finish then depends on the positions, not on how busy the machine is. Times are
the searching thread's CPU time (``engine.subjects.learned.evaluate``), so the time reduction survives a shared machine
too.
"""

from __future__ import annotations

import json

from engine.core.errors import PuzzleError
from engine.core.result import Budget
from engine.core.status import Status
from engine.domains.tiles import goal_board
from engine.serving import store
from engine.subjects.learned.catalogue import TrainingParams
from engine.subjects.learned.evaluate import PAPER, UNIFORM, evaluate, positions_source, summarise
from engine.subjects.learned.train import train

CURVE_WALKS = (700_000, 2_000_000, 10_000_000, 100_000_000)
MAX_NODES = 2_000_000_000
MAX_SECONDS = 3_600.0


def _baseline_path(count: int, seed: int, budget: Budget, positions_from: str = UNIFORM):
    source = () if positions_from == UNIFORM else (positions_from,)  # uniform keeps the name stored baselines have
    name = store.artefact_name("mcurve-baseline", count, seed, budget.max_nodes, float(budget.max_seconds), "cpu-time",
                               *source)
    return store.data_dir() / name.replace(".npy", ".json")


def baseline(count: int, seed: int, budget: Budget, progress=None, cancel=None,
             positions_from: str = UNIFORM) -> list[dict] | None:
    """MD and PDB solves of the ``count`` positions (loaded if stored); None if cancelled."""
    positions_from = positions_source(positions_from)
    path = _baseline_path(count, seed, budget, positions_from)
    if path.exists():
        return json.loads(path.read_text())
    result = evaluate(None, count, seed, budget, progress, cancel, heuristics=("pdb", "manhattan"),
                      positions_from=positions_from)
    if result["status"] != Status.DONE:
        return None
    path.write_text(json.dumps(result["rows"]))
    return result["rows"]


def point(table: str, rows: list[dict], seed: int, budget: Budget, progress=None, cancel=None,
          positions_from: str = UNIFORM) -> dict | None:
    """One table evaluated on the baseline's positions: V's solves merged into the baseline rows, summarised."""
    learned = evaluate(table, len(rows), seed, budget, progress, cancel, heuristics=("learned",),
                       positions_from=positions_from)
    if learned["status"] != Status.DONE:
        return None
    merged = []
    for base, own in zip(rows, learned["rows"], strict=True):
        if base["tiles"] != own["tiles"]:
            raise PuzzleError("the stored baseline's positions do not match this seed")
        merged.append({**base, "learned": own["learned"]})
    return {**summarise(merged, table, seed, budget, learned["seconds"]), "positions_from": learned["positions_from"]}


def m_curve(walks=CURVE_WALKS, count: int = 100, seed: int = 0, budget: Budget | None = None, train_seed: int = 0,
            progress=None, cancel=None, positions_from: str = UNIFORM, done: list[dict] = ()) -> dict:
    """Train (or load) one table per M and evaluate each on the same positions. Progress: the baseline is the first
    fifth, each M an equal share of the rest (its training half, its evaluation half). ``done``: the points of the
    first Ms, from an earlier run stopped by its cancel, whose answer (``{"status": "cancelled", "points": ...}``)
    holds the points it had measured."""
    goal = goal_board(4, 4, "blank-first")
    budget = budget or Budget(MAX_NODES, MAX_SECONDS)
    share = 0.8 / len(walks)

    def part(start: float, width: float, label: str):
        if progress is None:
            return None
        return lambda f, info: progress(start + width * (f or 0.0),
                                        {**info, "text": f"{label}: {info.get('text', '')}"})

    positions_from = positions_source(positions_from)
    rows = baseline(count, seed, budget, part(0.0, 0.2, "Manhattan and PDB"), cancel, positions_from)
    if rows is None:
        return {"status": Status.CANCELLED}
    points = [point for point, m in zip(done, walks, strict=False) if point.get("walks") == m]
    for i, m in enumerate(walks):
        if i < len(points):
            continue
        start = 0.2 + i * share
        learned = train(goal, TrainingParams(walks=m, seed=train_seed), part(start, share / 2, f"training M = {m:,}"),
                        cancel)
        if learned is None:
            return {"status": Status.CANCELLED, "points": points}
        result = point(learned.name, rows, seed, budget, part(start + share / 2, share / 2, f"V, M = {m:,}"),
                       cancel, positions_from)
        if result is None:
            return {"status": Status.CANCELLED, "points": points}
        points.append({"walks": m, "table": learned.name, "training_seconds": learned.info["seconds"],
                       "training_cpu_seconds": learned.info.get("cpu_seconds"), "fill": learned.info["fill"],
                       "overall": result["overall"], "groups": result["groups"],
                       "paper": against_paper(result["overall"])})
    return {"status": Status.DONE, "positions": count, "positions_from": positions_from, "seed": seed,
            "max_nodes": budget.max_nodes,
            "max_seconds": budget.max_seconds, "points": points}


def against_paper(overall: dict) -> list[dict]:
    """The paper's three headline figures (M = 10⁸, 500 positions) beside one point's: ``met`` when ours is at least
    as good (for the reductions and the optimal share, higher is better)."""
    rows = []
    for key, label in (("node_reduction", "fewer nodes than MD"), ("time_reduction", "less time than MD"),
                       ("optimal_share", "of V's answers optimal")):
        ours = overall.get(key)
        rows.append({"key": key, "label": label, "paper": PAPER[key], "ours": ours,
                     "met": ours is not None and ours >= PAPER[key] - 0.005})
    return rows


def recorded_curves() -> list[dict]:
    """The M curves recorded by ``learned curve --record`` (``engine/subjects/learned/recorded/m-curve-*.json``), one
    per reading of the positions, uniform first: shown until a curve job has run here."""
    from engine.core.records import load_record, record_path

    names = sorted(p.stem for p in record_path("learned", "x").parent.glob("m-curve-*.json"))
    names.sort(key=lambda name: name != "m-curve-uniform")
    return [curve for name in names if (curve := load_record("learned", name))]


def recordable_curve(curve: dict) -> dict:
    """A finished curve as the repository records it: without the table files' names (which only this machine's
    data store knows)."""
    return {**curve, "points": [{k: v for k, v in p.items() if k != "table"} for p in curve["points"]]}


def record_name(positions_from: str) -> str:
    return "m-curve-" + positions_source(positions_from).replace(":", "-")
