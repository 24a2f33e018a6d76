"""The solver registry and the one entry point for every sliding-tile solver: ``solve(board, goal, solver,
heuristic, budget)``.

The CLI, the web API, the compare view and the benchmarks all call this, so they report the same fields. The solvers
registered here:

* ``bfs``: breadth-first search over permutation ranks (numba), boards of at most 12 cells. Optimal.
* ``astar``: A* with the chosen heuristic, compiled (engine/tiles/astar.py) for manhattan and linear-conflict on
  boards of at most 16 cells, else the readable engine/search one (which the step-through views use). Optimal.
* ``idastar``: IDA* (numba kernel) with any heuristic the kernel computes. Optimal with an admissible one.
* ``table``: the exact distance table of a small board (at most 10 cells) used as a perfect heuristic.
* ``fast``: row-and-column reduction (engine/tiles/reduction.py), any board up to 6×6 in well under a second, not
  optimal; ``extra["lower_bound"]`` is the Manhattan distance beside its length.
* ``near-optimal``: beam search over a pattern database (engine/tiles/near_optimal.py), answers within a few per
  cent of the shortest on 5×5 in under a second; not optimal.

Other subjects register their own with ``register_solver`` (``engine.meta.solvers``: DPSO and GA); the heuristics
come from ``engine.tiles.heuristics``. Lookups load every subject first (``engine.registry.load_all``), so importing
this module is enough, in a notebook as in the app. Nothing here imports numba at the top: the kernels load when a
search runs.

Pattern-database heuristics (``pdb`` = the strongest built one, ``pdb-78``, ``pdb-663``; engine/tiles/pdb.py) never
build a table inside a solve: a missing one falls back to the next (``pdb-78`` → ``pdb-663`` → ``linear-conflict``)
and the result's ``heuristic`` names what was used, its ``message`` says why.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from engine import params as params_reader
from engine import registry
from engine.errors import PuzzleError
from engine.jobs import INTERACTIVE, LONG, job_kind
from engine.result import Budget, Progress, SolveResult, Watch
from engine.search.algorithms import astar_search
from engine.search.problem import SlidingTileProblem
from engine.status import Status
from engine.tiles.board import BFS_MAX_CELLS, PERFECT_MAX_CELLS, Board, goal_board, position_from
from engine.tiles.heuristics import heuristic, heuristics, search_heuristics
from engine.tiles.solvability import check_solvable, require_solvable

SolverFunction = Callable[[Board, Board, str, Watch, dict], SolveResult]


def _noted(result: SolveResult, note: str) -> SolveResult:
    if note:
        result.message = f"{note}. {result.message}" if result.message else note
    return result


def _idastar(board: Board, goal: Board, name: str, watch: Watch, options: dict) -> SolveResult:
    from engine.tiles.fast import KERNEL_MODES, idastar_fast

    used, inputs, note = heuristic(name).inputs(goal, options)
    return _noted(idastar_fast(board, goal, KERNEL_MODES[heuristic(used).kernel], watch, used, **inputs), note)


def _astar(board: Board, goal: Board, name: str, watch: Watch, options: dict) -> SolveResult:
    """The compiled A* (engine/tiles/astar.py) where it applies, else the readable one (engine/search)."""
    from engine.tiles.astar import astar_fast, supports

    used, _, note = heuristic(name).inputs(goal, options)
    if supports(goal, used):
        result = astar_fast(board, goal, used, watch)
    else:
        result = astar_search(SlidingTileProblem(board, goal, used, options), watch=watch)
    result.heuristic = used
    result.optimal = result.optimal and heuristic(used).admissible
    return _noted(result, note)


def _bfs(board: Board, goal: Board, name: str, watch: Watch, options: dict) -> SolveResult:
    from engine.tiles.fast import bfs_fast

    return bfs_fast(board, goal, watch)


def _table(board: Board, goal: Board, name: str, watch: Watch, options: dict) -> SolveResult:
    from engine.tiles.fast import perfect_solve

    return perfect_solve(board, goal, watch)


def _fast(board: Board, goal: Board, name: str, watch: Watch, options: dict) -> SolveResult:
    from engine.tiles.reduction import fast_solve

    return fast_solve(board, goal, watch)


def _near_optimal(board: Board, goal: Board, name: str, watch: Watch, options: dict) -> SolveResult:
    from engine.tiles.near_optimal import near_optimal_solve

    return near_optimal_solve(board, goal, watch)


class SolverInfo:
    def __init__(self, name: str, label: str, function: SolverFunction,
                 heuristics: tuple[str, ...] | Callable[[], tuple[str, ...]], max_cells: int, optimal: bool,
                 description: str, check_options: Callable[[dict], object] | None = None,
                 warm_options: dict | None = None):
        self.name, self.label, self.function = name, label, function
        #: the heuristic names it takes, or a function giving them (A* and IDA* take whatever the registry holds);
        #: ("",): none; a name outside the heuristic registry ("perfect") is the solver's own
        self._heuristics = heuristics
        self.max_cells, self.optimal, self.description = max_cells, optimal, description
        #: validates the solver's own options (the API's "params"), raising PuzzleError; None: it takes none
        self.check_options = check_options
        #: the options of a tiny solve that compiles its kernels (``warm_up``); None: nothing of its own to compile
        self.warm_options = warm_options

    @property
    def heuristics(self) -> tuple[str, ...]:
        return self._heuristics() if callable(self._heuristics) else self._heuristics

    def supports(self, board: Board) -> bool:
        return board.size <= self.max_cells

    def heuristics_for(self, board: Board) -> tuple[str, ...]:
        """The heuristics offered for ``board``: those made for its shape and available now (a pattern database on
        4×4; the learned table on 4×4 once one has been trained)."""
        known = heuristics()
        return tuple(h for h in self.heuristics if h not in known or known[h].offered_for(board))


_SOLVERS: dict[str, SolverInfo] = {}


def register_solver(info: SolverInfo) -> SolverInfo:
    _SOLVERS[info.name] = info
    return info


def solvers() -> dict[str, SolverInfo]:
    """Every registered solver, this module's first (loads every subject's)."""
    registry.load_all()
    return dict(_SOLVERS)


register_solver(SolverInfo("bfs", "Breadth-first search", _bfs, ("",), BFS_MAX_CELLS, True,
                           "Explores every position in order of distance; complete, optimal, memory-hungry.",
                           warm_options={}))
register_solver(SolverInfo("astar", "A*", _astar, search_heuristics, 36, True,
                           "Best-first on f = g + h; optimal with an admissible heuristic; keeps every node seen.",
                           warm_options={}))
register_solver(SolverInfo("idastar", "IDA*", _idastar, search_heuristics, 36, True,
                           "Depth-first with an f-bound raised each round; optimal, tiny memory.", warm_options={}))
register_solver(SolverInfo("table", "Distance table", _table, ("perfect",), PERFECT_MAX_CELLS, True,
                           "One BFS from the goal stores every distance; then the answer is read off, move by move."))
register_solver(SolverInfo("fast", "Fast (row and column reduction)", _fast, ("",), 36, False,
                           "Places a line at a time by small exact searches, the last 3x3 optimally: any board up to "
                           "6x6 in well under a second; not optimal (its length is shown beside the Manhattan "
                           "lower bound).", warm_options={}))
register_solver(SolverInfo("near-optimal", "Near-optimal (beam search)", _near_optimal, ("",), 36, False,
                           "Beams of growing width over the strongest heuristic built (on 5x5 the 6-6-6-6 pattern "
                           "database): answers close to the shortest on 5x5 and 6x6 within about a second; not "
                           "optimal.", warm_options={}))


def check_request(board: Board, solver: str, heuristic: str | None) -> tuple[SolverInfo, str]:
    """Validate a solver and heuristic for a board, without searching; returns the solver and the heuristic to use."""
    known = solvers()
    if not isinstance(solver, str) or solver not in known:
        shown = repr(solver) if isinstance(solver, str) and len(solver) <= 40 else "that"
        raise PuzzleError(f"unknown solver {shown}: choose one of {', '.join(known)}")
    if heuristic is not None and not isinstance(heuristic, str):
        raise PuzzleError("the heuristic must be a name such as manhattan")
    info = known[solver]
    if not info.supports(board):
        raise PuzzleError(f"{info.label} is offered for boards of at most {info.max_cells} cells; "
                          f"{board.size_name} has {board.size}")
    if info.heuristics == ("",):
        return info, ""
    heuristic = heuristic or info.heuristics[0]
    if heuristic not in info.heuristics:
        raise PuzzleError(f"{info.label} takes the heuristics {', '.join(info.heuristics)}; not {heuristic!r}")
    record = heuristics().get(heuristic)
    if record is not None and not record.fits(board):
        rows, cols = record.shape
        raise PuzzleError(f"the {record.label} heuristic is made for the {rows}x{cols} puzzle only; use manhattan or "
                          "linear-conflict")
    return info, heuristic


def solve(board: Board, goal: Board, solver: str = "idastar", heuristic: str | None = "manhattan",
          budget: Budget | None = None, progress: Progress | None = None, cancel: threading.Event | None = None,
          **options) -> SolveResult:
    """Solve ``board`` towards ``goal``. Bad input raises PuzzleError; an unsolvable position returns status
    ``unsolvable`` with the parity explanation, without searching."""
    info, heuristic = check_request(board, solver, heuristic)
    verdict = check_solvable(board, goal)
    if not verdict.solvable:
        return SolveResult(Status.UNSOLVABLE, solver=solver, heuristic=heuristic,
                           message=f"this position is unsolvable. {verdict.explanation}")
    watch = Watch(budget, cancel, progress)
    result = info.function(board, goal, heuristic, watch, options)
    record = heuristics().get(heuristic)
    if record is not None and not record.admissible:
        result.optimal = False
        result.message = result.message or "found with a heuristic that is not admissible: not proven optimal"
    result.solver = solver
    return result


#: Budgets a request may ask for at most (the web API and jobs); the CLI may go further.
MAX_REQUEST_NODES = 20_000_000_000
MAX_REQUEST_SECONDS = 900.0
#: A solve or compare with at most this many seconds in all runs on the interactive lane; a longer one is long work.
INTERACTIVE_SECONDS = 120.0


def budget_from(params: dict, default: Budget | None = None, max_seconds: float = MAX_REQUEST_SECONDS) -> Budget:
    default = default or Budget()
    return Budget(params_reader.integer(params, "max_nodes", 1, MAX_REQUEST_NODES, min(default.max_nodes,
                                                                                     MAX_REQUEST_NODES)),
                  params_reader.number(params, "max_seconds", 0.001, max_seconds, min(default.max_seconds,
                                                                                      max_seconds)))


def _name(params: dict, key: str, default: str) -> str:
    """A solver or heuristic name: text, or the default when absent (a list or object is refused by name)."""
    return params_reader.text(params, key, 40, default)


def check_solve(params: dict) -> dict:
    """The solve job's parameters, validated: position, solvability, solver and heuristic, budget, options."""
    board, goal = position_from(params)
    require_solvable(board, goal)
    info, heuristic = check_request(board, _name(params, "solver", "idastar"), _name(params, "heuristic", "manhattan"))
    options = params.get("params")
    if options is not None and not isinstance(options, dict):
        raise PuzzleError('"params" must be an object, e.g. {"iterations": 500, "seed": 3}')
    if info.check_options is not None:
        info.check_options(options or {})
    budget = budget_from(params, Budget(2_000_000_000, 120.0))
    clean = {"size": board.size_name, "goal": list(goal.cells), "tiles": list(board.cells), "solver": info.name,
             "heuristic": heuristic, "max_nodes": budget.max_nodes, "max_seconds": budget.max_seconds}
    if options:
        clean["params"] = options
    return clean


def check_compare(params: dict) -> dict:
    """The compare job's parameters: 2 to 4 solvers on one position, each validated, one budget for each."""
    board, goal = position_from(params)
    require_solvable(board, goal)
    entries = params.get("solvers")
    if not isinstance(entries, list) or not 2 <= len(entries) <= MAX_COMPARE:
        raise PuzzleError(f"pick between 2 and {MAX_COMPARE} solvers to compare")
    clean = []
    for entry in entries:
        if isinstance(entry, str):
            solver, _, heuristic = entry.partition(":")
            entry = {"solver": solver, "heuristic": heuristic}
        if not isinstance(entry, dict) or not isinstance(entry.get("solver"), str):
            raise PuzzleError('each compared solver is {"solver": ..., "heuristic": ...} or "solver:heuristic"')
        info, heuristic = check_request(board, entry["solver"], _name(entry, "heuristic", "") or None)
        clean.append({"solver": info.name, "heuristic": heuristic})
    budget = budget_from(params, Budget(300_000_000, 20.0))
    return {"size": board.size_name, "goal": list(goal.cells), "tiles": list(board.cells), "solvers": clean,
            "max_nodes": budget.max_nodes, "max_seconds": budget.max_seconds}


MAX_COMPARE = 4


def solve_lane(params: dict) -> str:
    runs = len(params.get("solvers", [None]))
    return INTERACTIVE if runs * params["max_seconds"] <= INTERACTIVE_SECONDS else LONG


@job_kind("solve", check=check_solve, lane=solve_lane)
def solve_job(params: dict, report, cancel) -> dict:
    """One solver on one position: the same parameters and answer as the API's ``POST /api/solve``."""
    board, goal = position_from(params)
    result = solve(board, goal, params["solver"], params["heuristic"], budget_from(params), report, cancel,
                   params=params.get("params"))
    return {"size": board.size_name, "tiles": list(board.cells), "goal": list(goal.cells), **result.to_dict()}


@job_kind("compare", check=check_compare, lane=solve_lane)
def compare_job(params: dict, report, cancel) -> dict:
    """Several solvers on one position, one after another, each within the same budget."""
    board, goal = position_from(params)
    budget = budget_from(params)
    entries = params["solvers"]
    warm = registry.warm_up()  # compiling is not any solver's time: shown apart, and only when it happened
    results = []
    for number, entry in enumerate(entries):
        def progress(fraction, info, number=number, name=entry["solver"]):
            report((number + (fraction or 0.0)) / len(entries),
                   {**info, "text": f"{name} ({number + 1} of {len(entries)}): {info.get('text', '')}"})

        progress(0.0, {})
        results.append(solve(board, goal, entry["solver"], entry["heuristic"] or None, budget, progress,
                             cancel).to_dict())
        if cancel.is_set():
            break
    return {"size": board.size_name, "tiles": list(board.cells), "goal": list(goal.cells), "results": results,
            **({"warm_up_seconds": round(warm, 3)} if warm else {})}


@registry.warms_up
def warm_solvers() -> None:
    """A tiny solve by every registered solver with every heuristic offered for 3×3 (and the 4×4 reduction's
    searches); then the pattern-database kernel, which needs a 4×4 table, with arrays of the right types."""
    goal = goal_board(3, 3, "blank-last")
    board = goal.apply("ULUL")
    for info in solvers().values():
        if info.warm_options is not None:
            for name in info.heuristics_for(board):
                solve(board, goal, info.name, name, **info.warm_options)
    solve(goal_board(4, 4).apply("ULUL"), goal_board(4, 4), "fast", "")
    _warm_pdb_kernel()


def _warm_pdb_kernel() -> None:
    """Compile the pattern-database IDA* kernel with the real array types and no work (the root has no move left
    to try), so no table is needed."""
    import numpy as np

    from engine.tiles.ida_kernels import ida_pdb_run

    i64 = np.zeros(16, dtype=np.int64)
    grid = np.zeros((2, 8), dtype=np.int64)
    trial = np.full(4, 4, dtype=np.int64)
    aux = (np.zeros((4, 4), dtype=np.int64), np.zeros(1, dtype=np.uint8), np.zeros(2, np.int64), grid,
           np.zeros(2, np.int64), i64, i64, grid.copy(), i64, i64, i64, grid.copy(), True, np.zeros(2, np.int64))
    ida_pdb_run(i64.copy(), np.zeros(5, dtype=np.int64), np.zeros(4, dtype=np.int64), trial,
                np.zeros(4, dtype=np.int64), np.zeros((16, 4), np.int64), np.zeros((16, 16), np.int64), aux, 0, 1)
