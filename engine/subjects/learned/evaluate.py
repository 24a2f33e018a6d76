"""Seed 002's evaluation: random 15-puzzle positions solved by IDA* with Manhattan distance (MD), with the learned
V = MD + DB, and with the admissible pattern database (which also gives each position's optimal length).

Positions are grouped by optimal length d as in the paper's Figure 3 (G_{i,j}: i < d ≤ j, groups 10 wide). Per group:
mean nodes and time of each heuristic and the share of V's answers that are optimal. Overall reductions compare V with
MD on the positions both finished within their budget.

Which positions: the paper's 500 are "randomly made" and its Fig. 1 shows one "made by random sliding", so both
readings are offered (``positions_from``): ``uniform``, drawn uniformly from the solvable half (the default), and
``walk:N``, N random slides from the goal (``engine.domains.tiles.random.scramble``, the walk that never revisits a
position).

Time is the CPU time of the thread that ran the search (``time.thread_time``), not the wall clock: the two searches
of a position run at different moments, and on a shared machine the wall clock measures the neighbours' load as much
as the search. The budget still stops a search by the wall clock.
"""

from __future__ import annotations

import time
from functools import partial

from engine.core.errors import PuzzleError
from engine.core.result import Budget
from engine.core.status import Status
from engine.domains.tiles import goal_board
from engine.domains.tiles.board import Board
from engine.domains.tiles.random import MAX_SCRAMBLE, random_solvable, scramble
from engine.domains.tiles.solving import solve_board
from engine.serving.background import run_tasks
from engine.subjects.learned.catalogue import table_for

PAPER = {"node_reduction": 0.85, "time_reduction": 0.76, "optimal_share": 0.90}
GROUP_WIDTH = 10
MAX_POSITIONS = 2_000


HEURISTICS = ("pdb", "manhattan", "learned")
UNIFORM = "uniform"


def positions_source(value: object) -> str:
    """``uniform`` or ``walk:N`` (1 ≤ N ≤ MAX_SCRAMBLE), written the one way; anything else is a PuzzleError."""
    text = str(value if value is not None else UNIFORM).strip().lower()
    if text == UNIFORM:
        return text
    kind, _, slides = text.partition(":")
    if kind == "walk" and slides.isdigit() and 1 <= int(slides) <= MAX_SCRAMBLE:
        return f"walk:{int(slides)}"
    raise PuzzleError(f"positions_from must be \"uniform\" or \"walk:N\" with N random slides from the goal, "
                      f"1 to {MAX_SCRAMBLE} (got {text!r})")


def make_positions(goal: Board, count: int, seed: int, source: str = UNIFORM) -> list[Board]:
    """The evaluation's positions, reproducible from ``seed``: position i uses seed·1,000,003 + i."""
    source = positions_source(source)
    seeds = [seed * 1_000_003 + i for i in range(count)]
    if source == UNIFORM:
        return [random_solvable(goal, s) for s in seeds]
    slides = int(source.partition(":")[2])
    return [scramble(goal, slides, s)[0] for s in seeds]


def solve_position(board: Board, goal: Board, table: str, budget: Budget, heuristics=HEURISTICS, cancel=None) -> dict:
    """Solve one position with each heuristic; one left out (to compare tables quickly) counts as over budget."""
    row = {"tiles": list(board.cells)}
    for heuristic in HEURISTICS:
        if heuristic not in heuristics:
            row[heuristic] = {"status": Status.SKIPPED, "length": None, "nodes": 0, "seconds": 0.0}
            continue
        started = time.thread_time()
        result = solve_board(board, goal, "idastar", heuristic, budget, cancel=cancel, table=table)
        row[heuristic] = {"status": result.status, "length": result.length if result.status == Status.SOLVED else None,
                          "nodes": result.nodes_expanded, "seconds": round(time.thread_time() - started, 4),
                          "wall_seconds": round(result.seconds, 4)}
    row["optimum"] = row["pdb"]["length"]
    return row


def evaluate(table: str, count: int = 500, seed: int = 0, budget: Budget | None = None, progress=None,
             cancel=None, workers: int | None = None, goal: Board | None = None, heuristics=HEURISTICS,
             positions_from: str = UNIFORM) -> dict:
    if not 1 <= count <= MAX_POSITIONS:
        raise PuzzleError(f"the number of positions must be from 1 to {MAX_POSITIONS}")
    goal = goal or goal_board(4, 4, "blank-first")
    if "learned" in heuristics:
        table_for(goal, table)  # no search's time includes reading the table
    near = goal.move(goal.legal_moves()[0])
    for heuristic in heuristics:  # nor loading its kernels: each search's own, loaded once here, and nothing else
        solve_board(near, goal, "idastar", heuristic, table=table)
    budget = budget or Budget(max_nodes=2_000_000_000, max_seconds=300)
    positions = make_positions(goal, count, seed, positions_from)
    started = time.perf_counter()
    nodes = [0]

    def report(index: int, row: dict) -> None:
        nodes[0] += row["manhattan"]["nodes"]
        if progress:
            progress((index + 1) / count, {"nodes": nodes[0], "text": f"{index + 1} of {count} positions solved three "
                                                                      f"ways ({time.perf_counter() - started:.0f} s)"})

    rows = run_tasks([partial(solve_position, board, goal, table, budget, heuristics, cancel) for board in positions],
                     cancel, report, workers)
    if rows is None:
        return {"status": Status.CANCELLED}
    return {**summarise(rows, table, seed, budget, time.perf_counter() - started),
            "positions_from": positions_source(positions_from)}


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def summarise(rows: list[dict], table: str, seed: int, budget: Budget, seconds: float) -> dict:
    done = [r for r in rows if r["optimum"] is not None]
    both = [r for r in done if r["manhattan"]["status"] == Status.SOLVED and r["learned"]["status"] == Status.SOLVED]
    groups = []
    for low in sorted({(r["optimum"] - 1) // GROUP_WIDTH * GROUP_WIDTH for r in done}):
        members = [r for r in done if low < r["optimum"] <= low + GROUP_WIDTH]
        finished = [r for r in members if r in both]
        groups.append({
            "low": low, "high": low + GROUP_WIDTH, "positions": len(members), "both_finished": len(finished),
            **{f"{h}_nodes": _mean([r[h]["nodes"] for r in finished]) for h in ("manhattan", "learned", "pdb")},
            **{f"{h}_seconds": _mean([r[h]["seconds"] for r in finished]) for h in ("manhattan", "learned", "pdb")},
            "optimal_share": _mean([1.0 if r["learned"]["length"] == r["optimum"] else 0.0 for r in finished]),
            "mean_excess": _mean([r["learned"]["length"] - r["optimum"] for r in finished]),
        })
    learned_done = [r for r in done if r["learned"]["status"] == Status.SOLVED]
    md_nodes = sum(r["manhattan"]["nodes"] for r in both)
    md_seconds = sum(r["manhattan"]["seconds"] for r in both)
    overall = {
        "positions": len(rows), "with_optimum": len(done), "both_finished": len(both),
        "manhattan_over_budget": sum(1 for r in done if r["manhattan"]["status"] != Status.SOLVED),
        "learned_over_budget": sum(1 for r in done if r["learned"]["status"] != Status.SOLVED),
        "node_reduction": 1 - sum(r["learned"]["nodes"] for r in both) / md_nodes if md_nodes else None,
        "time_reduction": 1 - sum(r["learned"]["seconds"] for r in both) / md_seconds if md_seconds else None,
        "optimal_share": _mean([1.0 if r["learned"]["length"] == r["optimum"] else 0.0 for r in both]),
        "never_shorter": all(r["learned"]["length"] >= r["optimum"] for r in learned_done),
        # V alone (also when Manhattan was not run): what comparing two tables needs
        "learned_optimal_share": _mean([1.0 if r["learned"]["length"] == r["optimum"] else 0.0 for r in learned_done]),
        "learned_mean_nodes": _mean([r["learned"]["nodes"] for r in learned_done]),
        "learned_mean_excess": _mean([r["learned"]["length"] - r["optimum"] for r in learned_done]),
    }
    return {"status": Status.DONE, "table": table, "seed": seed, "budget": {"max_nodes": budget.max_nodes,
            "max_seconds": budget.max_seconds}, "groups": groups, "overall": overall, "rows": rows,
            "paper": PAPER, "seconds": round(seconds, 1)}
