"""DPSO and the GA as solvers (``solve(..., solver="dpso" | "ga")``); seed 001's experiment job is
``engine.subjects.meta.jobs``.

As solvers they are not optimal. Budget: the time budget is a deadline; the node budget caps evaluations (iterations
× swarm or population size). A run stops early when its best is as short as the Manhattan distance of the start,
since no solution can be shorter. Parameters come in ``options["params"]`` (the API's ``"params"`` object).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.params import choice, integer, text
from engine.core.result import SolveResult, Watch
from engine.core.status import Status
from engine.domains.tiles import goal_board, parse_size
from engine.domains.tiles.board import Board, position_from
from engine.domains.tiles.random import scramble
from engine.domains.tiles.solving import SolverInfo, register_solver
from engine.serving.jobs import JobView
from engine.subjects.meta.settings import DPSOParams, GAParams, params_from

if TYPE_CHECKING:
    from engine.subjects.meta.search import MetaRun

#: algorithm → (its parameters, the name of its size and of its length parameter)
SHAPES = {"dpso": (DPSOParams, "particles", "iterations"), "ga": (GAParams, "population", "generations")}


def start_manhattan(board: Board, goal: Board) -> int:
    from engine.domains.tiles.goal_arrays import goal_tables

    manhattan = goal_tables(goal).manhattan
    return int(sum(manhattan[tile, cell] for cell, tile in enumerate(board.cells)))


def meta_solve(algorithm: str, board: Board, goal: Board, watch: Watch, values: dict) -> tuple[SolveResult, MetaRun]:
    from engine.subjects.meta.search import run_dpso, run_ga  # the kernels load when a run starts

    run = {"dpso": run_dpso, "ga": run_ga}[algorithm]
    kind, size_name, length_name = SHAPES[algorithm]
    params = params_from(kind, values or {})
    cap = max(1, watch.budget.max_nodes // getattr(params, size_name))
    if getattr(params, length_name) > cap:
        setattr(params, length_name, cap)
    lower_bound = start_manhattan(board, goal)
    meta = run(board, goal, params, watch.progress, watch.cancel, stop_at=lower_bound,
               deadline=watch.start + watch.budget.max_seconds)
    extra = {"history": meta.curve(), "iterations": meta.iterations, "fitness": meta.best_score,
             "params": meta.params, "lower_bound": lower_bound}
    common = dict(nodes_expanded=meta.evaluations, nodes_generated=meta.evaluations, seconds=meta.seconds,
                  solver=algorithm, extra=extra)
    if meta.stopped == Status.CANCELLED:
        return SolveResult(Status.CANCELLED, message="cancelled", **common), meta
    if meta.solved:
        proof = meta.best_score == lower_bound
        note = "" if proof else (f"best of {meta.iterations:,} {length_name}; not proven optimal "
                                 f"(the Manhattan lower bound is {lower_bound})")
        return SolveResult(Status.SOLVED, meta.moves, proof, message=note, **common), meta
    if meta.stopped == Status.BUDGET_EXHAUSTED:
        return SolveResult(Status.BUDGET_EXHAUSTED, message=f"stopped by the time budget after {meta.iterations:,} "
                           f"{length_name}; best fitness {meta.best_score}", **common), meta
    return SolveResult(Status.NOT_SOLVED, message=f"no solution within {params.max_moves} moves after "
                       f"{meta.iterations:,} {length_name}: the best sequence leaves a Manhattan sum of "
                       f"{meta.best_score - params.max_moves}", **common), meta


def _solver(algorithm: str):
    def function(board: Board, goal: Board, heuristic: str, watch: Watch, options: dict) -> SolveResult:
        return meta_solve(algorithm, board, goal, watch, options.get("params") or {})[0]
    return function


def _run_view(name: str) -> JobView:
    """A swarm or a GA counts fitness evaluations, and the Metaheuristics page's form starts its runs."""
    return JobView(f"Running {name}", "evaluations", form="metaheuristic", form_values=lambda params: {
        "algorithm": params.get("solver"), "size": params.get("size"), **(params.get("params") or {})})


#: Seed 001 studies them up to the 15-puzzle; on 5×5 and 6×6 a run of their 150 moves ends far from the goal (its
#: Manhattan sum stays high), so they are not offered there rather than offered to fail.
META_MAX_CELLS = 16

register_solver(SolverInfo("dpso", "DPSO (binary particle swarm)", _solver("dpso"), ("",),
                           META_MAX_CELLS, False,
                           "Seed 001's swarm over 2-bit move codes; finds a solution, rarely the shortest.",
                           check_options=lambda values: params_from(DPSOParams, values),
                           warm_options={"params": {"iterations": 1, "particles": 4}},
                           job_view=_run_view("DPSO")))
register_solver(SolverInfo("ga", "Genetic algorithm", _solver("ga"), ("",),
                           META_MAX_CELLS, False,
                           "Seed 001's GA over the same encoding: roulette, two-point crossover, 3 elites.",
                           check_options=lambda values: params_from(GAParams, values),
                           warm_options={"params": {"generations": 1, "population": 4, "elites": 1}},
                           job_view=_run_view("the GA")))


def scrambled_position(params: dict) -> tuple[Board, Board]:
    """The position of a Metaheuristics-page run: the given tiles, or a no-revisit scramble of the goal."""
    if params.get("tiles"):
        return position_from(params)
    rows, cols = parse_size(text(params, "size", 10, "4x4"))
    goal = goal_board(rows, cols, choice(params, "goal", ("blank-last", "blank-first"), "blank-last"))
    board, _ = scramble(goal, integer(params, "depth", 1, 100, 10),
                        integer(params, "scramble_seed", 0, 2**31 - 1, 0))
    return board, goal
