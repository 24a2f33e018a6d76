"""One entry point for every sliding-tile solver: ``solve(board, goal, solver, heuristic, budget)``.

The CLI, the web API, the compare view and the benchmarks all call this, so they report the same fields. Solvers:

* ``bfs``: breadth-first search over permutation ranks (numba), boards of at most 12 cells. Optimal.
* ``astar``: A* with the chosen heuristic, compiled (engine/tiles/astar.py) for manhattan and linear-conflict on
  boards of at most 16 cells, else the readable engine/search one (which the step-through views use). Optimal.
* ``idastar``: IDA* (numba kernel) with manhattan, linear-conflict or a pattern database (4×4 only). Optimal.
* ``table``: the exact distance table of a small board (at most 10 cells) used as a perfect heuristic.
* ``fast``: row-and-column reduction (engine/tiles/reduction.py), any board up to 6×6 in well under a second, not
  optimal; ``extra["lower_bound"]`` is the Manhattan distance beside its length.

Later subjects register more (``register_solver``): the learned heuristic, DPSO and GA.

Pattern-database heuristics (``pdb`` = the strongest built one, ``pdb-78``, ``pdb-663``; engine/tiles/pdb.py) never
build a table inside a solve: a missing one falls back to the next (``pdb-78`` → ``pdb-663`` → ``linear-conflict``)
and the result's ``heuristic`` names what was used, its ``message`` says why.
"""

from __future__ import annotations

import threading
from typing import Callable

import numpy as np

from engine.errors import PuzzleError
from engine import params as params_reader
from engine.jobs import INTERACTIVE, LONG, job_kind
from engine.result import Budget, Progress, SolveResult, Watch
from engine.status import Status
from engine.search.algorithms import astar_search
from engine.search.problem import SlidingTileProblem
from engine.tiles import kernels
from engine.tiles.board import Board, position_from
from engine.tiles.fast import BFS_MAX_CELLS, PERFECT_MAX_CELLS, bfs_fast, idastar_fast, perfect_solve
from engine.tiles.pdb import PDB_HEURISTICS, resolve
from engine.tiles.solvability import check_solvable, require_solvable

SolverFunction = Callable[[Board, Board, str, Watch, dict], SolveResult]

IDA_MODES = {"manhattan": kernels.MODE_MANHATTAN, "linear-conflict": kernels.MODE_LINEAR_CONFLICT,
             **{name: kernels.MODE_PDB for name in PDB_HEURISTICS}, "learned": kernels.MODE_LEARNED}
SEARCH_HEURISTICS = ("manhattan", "linear-conflict") + PDB_HEURISTICS + ("learned",)
#: Heuristics that may overestimate: answers found with them are never called optimal.
NOT_ADMISSIBLE = {"learned"}


def _learned_table(goal: Board, options: dict):
    from engine.learned.train import table_for

    return table_for(goal, options.get("table"))


def with_database(heuristic: str, goal: Board) -> tuple[str, object, str]:
    """(heuristic to use, pattern database or None, note): resolves the pattern-database names without building."""
    if heuristic not in PDB_HEURISTICS:
        return heuristic, None, ""
    database, note = resolve(heuristic, goal)
    return (database.name if database is not None else "linear-conflict"), database, note


def _noted(result: SolveResult, note: str) -> SolveResult:
    if note:
        result.message = f"{note}. {result.message}" if result.message else note
    return result


def _idastar(board: Board, goal: Board, heuristic: str, watch: Watch, options: dict) -> SolveResult:
    if heuristic not in IDA_MODES:
        raise PuzzleError(f"IDA* takes the heuristics {', '.join(IDA_MODES)}; not {heuristic!r}")
    used, database, note = with_database(heuristic, goal)
    learned = _learned_table(goal, options) if used == "learned" else None
    return _noted(idastar_fast(board, goal, IDA_MODES[used], watch, used, learned=learned, database=database), note)


def _astar(board: Board, goal: Board, heuristic: str, watch: Watch, options: dict) -> SolveResult:
    """The compiled A* (engine/tiles/astar.py) where it applies, else the readable one (engine/search)."""
    from engine.tiles.astar import astar_fast, supports

    used, database, note = with_database(heuristic, goal)
    if supports(goal, used):
        result = astar_fast(board, goal, used, watch)
    else:
        result = astar_search(SlidingTileProblem(board, goal, used, database=database), watch=watch)
    result.heuristic = used
    result.optimal = result.optimal and used not in NOT_ADMISSIBLE
    return _noted(result, note)


def _bfs(board: Board, goal: Board, heuristic: str, watch: Watch, options: dict) -> SolveResult:
    return bfs_fast(board, goal, watch)


def _table(board: Board, goal: Board, heuristic: str, watch: Watch, options: dict) -> SolveResult:
    return perfect_solve(board, goal, watch)


def _fast(board: Board, goal: Board, heuristic: str, watch: Watch, options: dict) -> SolveResult:
    from engine.tiles.reduction import fast_solve

    return fast_solve(board, goal, watch)


class SolverInfo:
    def __init__(self, name: str, label: str, function: SolverFunction, heuristics: tuple[str, ...],
                 max_cells: int, optimal: bool, description: str,
                 check_options: Callable[[dict], object] | None = None):
        self.name, self.label, self.function = name, label, function
        self.heuristics, self.max_cells, self.optimal, self.description = heuristics, max_cells, optimal, description
        #: validates the solver's own options (the API's "params"), raising PuzzleError; None: it takes none
        self.check_options = check_options

    def supports(self, board: Board) -> bool:
        return board.size <= self.max_cells

    def heuristics_for(self, board: Board) -> tuple[str, ...]:
        """The heuristics offered for ``board``: the pattern database on 4×4; the learned table on 4×4 once one
        has been trained (for the blank-first goal by default)."""
        square = (board.rows, board.cols) == (4, 4)
        return tuple(h for h in self.heuristics
                     if (h not in PDB_HEURISTICS or square) and (h != "learned" or (square and learned_available())))


def learned_available() -> bool:
    from engine.learned.train import trained_tables

    return bool(trained_tables())


SOLVERS: dict[str, SolverInfo] = {}


def register_solver(info: SolverInfo) -> None:
    SOLVERS[info.name] = info


register_solver(SolverInfo("bfs", "Breadth-first search", _bfs, ("",), BFS_MAX_CELLS, True,
                           "Explores every position in order of distance; complete, optimal, memory-hungry."))
register_solver(SolverInfo("astar", "A*", _astar, SEARCH_HEURISTICS, 36, True,
                           "Best-first on f = g + h; optimal with an admissible heuristic; keeps every node seen."))
register_solver(SolverInfo("idastar", "IDA*", _idastar, SEARCH_HEURISTICS, 36, True,
                           "Depth-first with an f-bound raised each round; optimal, tiny memory."))
register_solver(SolverInfo("table", "Distance table", _table, ("perfect",), PERFECT_MAX_CELLS, True,
                           "One BFS from the goal stores every distance; then the answer is read off, move by move."))
register_solver(SolverInfo("fast", "Fast (row and column reduction)", _fast, ("",), 36, False,
                           "Places a line at a time by small exact searches, the last 3x3 optimally: any board up to "
                           "6x6 in well under a second; not optimal (its length is shown beside the Manhattan "
                           "lower bound)."))


def check_request(board: Board, solver: str, heuristic: str | None) -> tuple[SolverInfo, str]:
    """Validate a solver and heuristic for a board, without searching; returns the solver and the heuristic to use."""
    if not isinstance(solver, str) or solver not in SOLVERS:
        shown = repr(solver) if isinstance(solver, str) and len(solver) <= 40 else "that"
        raise PuzzleError(f"unknown solver {shown}: choose one of {', '.join(SOLVERS)}")
    if heuristic is not None and not isinstance(heuristic, str):
        raise PuzzleError("the heuristic must be a name such as manhattan")
    info = SOLVERS[solver]
    if not info.supports(board):
        raise PuzzleError(f"{info.label} is offered for boards of at most {info.max_cells} cells; "
                          f"{board.size_name} has {board.size}")
    if info.heuristics == ("",):
        return info, ""
    heuristic = heuristic or info.heuristics[0]
    if heuristic not in info.heuristics:
        raise PuzzleError(f"{info.label} takes the heuristics {', '.join(info.heuristics)}; not {heuristic!r}")
    if (heuristic in PDB_HEURISTICS or heuristic == "learned") and (board.rows, board.cols) != (4, 4):
        raise PuzzleError(f"the {'learned table' if heuristic == 'learned' else 'pattern database'} is made for the "
                          "4x4 puzzle only; use manhattan or linear-conflict")
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
    if heuristic in NOT_ADMISSIBLE:
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
    warm = warm_up()  # compiling is not any solver's time: shown apart, and only when it happened
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


_warm_lock = threading.Lock()
_warm = False


def warm_up() -> float:
    """Load (or, on a fresh install, compile) every kernel once, so no timed search pays for loading code; returns
    the seconds this call spent doing so (0.0 once warm), which callers show apart from their timings.

    Idempotent and thread-safe: a second caller waits for the first to finish, later callers return at once.
    Builds no table (tables are built by ``engine.tiles.tables_catalogue``).
    """
    global _warm
    if _warm:
        return 0.0
    with _warm_lock:
        if _warm:
            return 0.0
        import time

        from engine.tiles.board import goal_board

        started = time.perf_counter()
        goal = goal_board(3, 3, "blank-last")
        board = goal.apply("ULUL")
        for solver, heuristic in (("idastar", "manhattan"), ("idastar", "linear-conflict"), ("bfs", ""),
                                  ("astar", "manhattan"), ("astar", "linear-conflict"), ("fast", "")):
            solve(board, goal, solver, heuristic)
        solve(goal_board(4, 4).apply("ULUL"), goal_board(4, 4), "fast", "")  # the 4x4 reduction's searches
        for solver in ("dpso", "ga"):
            solve(board, goal, solver, "", params={"iterations": 1, "particles": 4, "generations": 1,
                                                   "population": 4, "elites": 1})
        # the learned kernel, on a one-tile pattern of the 3×3 board (same array types as the real table)
        from types import SimpleNamespace

        from engine.learned.pattern import Pattern

        pattern = Pattern(9, (8,))
        learned = SimpleNamespace(key_slot=pattern.key_slot(), key_radix=pattern.key_radix(),
                                  table=np.zeros(pattern.size, dtype=np.uint8))
        idastar_fast(board, goal, kernels.MODE_LEARNED, Watch(), "learned", learned=learned)
        _warm_pdb_kernel()
        # Rectangle-out's geometry kernels (a slide and every motion of the start)
        from engine.rectout.moves import motions
        from engine.rectout.puzzle import start_state

        motions(start_state())
        _warm = True
        return time.perf_counter() - started


def _warm_pdb_kernel() -> None:
    """Compile the pattern-database IDA* kernel with the real array types and no work (the root has no move left
    to try), so no table is needed."""
    i64 = np.zeros(16, dtype=np.int64)
    grid = np.zeros((2, 8), dtype=np.int64)
    trial = np.full(4, 4, dtype=np.int64)
    kernels.ida_pdb_run(i64.copy(), np.zeros(5, dtype=np.int64), np.zeros(4, dtype=np.int64), trial,
                        np.zeros(4, dtype=np.int64), np.zeros((4, 4), dtype=np.int64), np.zeros((16, 4), np.int64),
                        np.zeros((16, 16), np.int64), np.zeros(1, dtype=np.uint8), np.zeros(2, np.int64), grid,
                        np.zeros(2, np.int64), i64, i64, grid.copy(), i64, i64, i64, grid.copy(), True, 0, 1)


from engine.meta import solvers as _meta_solvers  # noqa: E402,F401  (registers dpso and ga; imports this module)
