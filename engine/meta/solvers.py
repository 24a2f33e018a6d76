"""DPSO and the GA as solvers (``solve(..., solver="dpso" | "ga")``) and as background jobs (kinds ``meta-run``,
``meta-experiment``).

As solvers they are not optimal. Budget: the time budget is a deadline; the node budget caps evaluations (iterations
× swarm or population size). A run stops early when its best is as short as the Manhattan distance of the start,
since no solution can be shorter. Parameters come in ``options["params"]`` (the API's ``"params"`` object).
"""

from __future__ import annotations

from engine.errors import PuzzleError
from engine.jobs import job_kind
from engine.meta.experiment import DEPTHS, run_experiment
from engine.meta.search import DPSOParams, GAParams, MetaRun, params_from, run_dpso, run_ga
from engine.result import BUDGET_EXHAUSTED, CANCELLED, SOLVED, SolveResult, Watch
from engine.solvers import SolverInfo, register_solver
from engine.tiles import goal_board
from engine.tiles.board import Board, position_from
from engine.tiles.random import scramble

NOT_SOLVED = "not_solved"
RUNS = {"dpso": (run_dpso, DPSOParams, "particles", "iterations"),
        "ga": (run_ga, GAParams, "population", "generations")}


def start_manhattan(board: Board, goal: Board) -> int:
    from engine.tiles.tables import goal_tables

    manhattan = goal_tables(goal).manhattan
    return int(sum(manhattan[tile, cell] for cell, tile in enumerate(board.cells)))


def meta_solve(algorithm: str, board: Board, goal: Board, watch: Watch, values: dict) -> tuple[SolveResult, MetaRun]:
    run, kind, size_name, length_name = RUNS[algorithm]
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
    if meta.stopped == "cancelled":
        return SolveResult(CANCELLED, message="cancelled", **common), meta
    if meta.solved:
        proof = meta.best_score == lower_bound
        note = "" if proof else (f"best of {meta.iterations:,} {length_name}; not proven optimal "
                                 f"(the Manhattan lower bound is {lower_bound})")
        return SolveResult(SOLVED, meta.moves, proof, message=note, **common), meta
    if meta.stopped == "budget":
        return SolveResult(BUDGET_EXHAUSTED, message=f"stopped by the time budget after {meta.iterations:,} "
                           f"{length_name}; best fitness {meta.best_score}", **common), meta
    return SolveResult(NOT_SOLVED, message=f"no solution within {params.max_moves} moves after {meta.iterations:,} "
                       f"{length_name}: the best sequence leaves a Manhattan sum of "
                       f"{meta.best_score - params.max_moves}", **common), meta


def _solver(algorithm: str):
    def function(board: Board, goal: Board, heuristic: str, watch: Watch, options: dict) -> SolveResult:
        return meta_solve(algorithm, board, goal, watch, options.get("params") or {})[0]
    return function


register_solver(SolverInfo("dpso", "DPSO (binary particle swarm)", _solver("dpso"), ("",), 36, False,
                           "Seed 001's swarm over 2-bit move codes; finds a solution, rarely the shortest."))
register_solver(SolverInfo("ga", "Genetic algorithm", _solver("ga"), ("",), 36, False,
                           "Seed 001's GA over the same encoding: roulette, two-point crossover, 3 elites."))


@job_kind("meta-experiment")
def experiment_job(params: dict, report, cancel) -> dict:
    depths = params.get("depths") or list(DEPTHS)
    try:
        depths = [int(d) for d in (depths.replace(",", " ").split() if isinstance(depths, str) else depths)]
        trials = int(params.get("trials", 30))
    except (TypeError, ValueError):
        raise PuzzleError("depths must be numbers such as 10 20 30, and trials a number") from None
    dpso = params_from(DPSOParams, {"iterations": params.get("iterations", 10_000),
                                    "particles": params.get("particles"), "vmax": params.get("vmax")})
    ga = params_from(GAParams, {"generations": params.get("generations", 50_000)})
    return run_experiment(depths, trials, dpso, ga, int(params.get("seed", 0) or 0), report, cancel)


def scrambled_position(params: dict) -> tuple[Board, Board]:
    """The position of a Metaheuristics-page run: the given tiles, or a no-revisit scramble of the goal."""
    if params.get("tiles"):
        return position_from(params)
    size = str(params.get("size", "4x4"))
    rows, _, cols = size.partition("x")
    goal = goal_board(int(rows), int(cols), params.get("goal", "blank-last"))
    board, _ = scramble(goal, int(params.get("depth", 10)), int(params.get("scramble_seed", 0) or 0))
    return board, goal
