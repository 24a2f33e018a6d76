"""The sliding-tile solvers, registered for the tile kind with ``engine.domains.tiles.solving.register_solver``:

* ``bfs``: breadth-first search over permutation ranks (numba), boards of at most 12 cells. Optimal.
* ``astar``: A* with the chosen heuristic, compiled (engine/domains/tiles/astar.py) on boards of at most 16 cells for
  every heuristic whose compiled record gives its h of a whole board, else the readable engine/search one (which the
  step-through views use). Optimal.
* ``idastar``: IDA* (numba kernel) with any heuristic the kernel computes. Optimal with an admissible one.
* ``idastar-spread``: the same IDA*, each bound's iteration split into tasks over a Dask cluster's workers or this
  machine's cores (engine/domains/tiles/parallel_ida.py). Optimal, the serial search's nodes per bound.
* ``table``: the exact distance table of a small board (at most 10 cells) used as a perfect heuristic.
* ``fast``: row-and-column reduction (engine/domains/tiles/reduction.py), any board up to 6×6 in well under a second,
not   optimal; ``extra["lower_bound"]`` is the Manhattan distance beside its length.
* ``near-optimal``: beams of growing width over the board's pattern database (5×5 and 6×6), else linear conflict
  (engine/domains/tiles/near_optimal.py), within about a second; not optimal.

Pattern-database heuristics (``pdb`` = the strongest built one, ``pdb-78``, ``pdb-663``; engine/domains/tiles/pdb.py)
never build a table inside a solve: a missing one falls back to the next (``pdb-78`` → ``pdb-663`` →
``linear-conflict``) and the result's ``heuristic`` names what was used, its ``message`` says why; a job's progress
reports name it and why from the start (``info["heuristic"]``, ``info["fallback"]``). Each solver imports
its kernels when it runs, so loading the registry compiles nothing.
"""

from __future__ import annotations

from engine.core import registry
from engine.core.result import SolveResult, Watch
from engine.domains.tiles.board import BFS_MAX_CELLS, PERFECT_MAX_CELLS, Board, goal_board
from engine.domains.tiles.heuristics import heuristic, search_heuristics
from engine.domains.tiles.problem import SlidingTileProblem
from engine.domains.tiles.random import random_solvable
from engine.domains.tiles.solving import SolverInfo, own_options, register_solver, solve_board, solvers
from engine.search.algorithms.astar import astar_search


def noted(result: SolveResult, note: str) -> SolveResult:
    """``result`` with ``note`` (why another heuristic was used) before its message."""
    if note:
        result.message = f"{note}. {result.message}" if result.message else note
    return result


def _say_fallback(watch: Watch, solver: str, asked: str, used: str, note: str) -> None:
    """A search with another heuristic than the one asked for says so in every progress report (a job's panel
    names it while it runs: a fallback to linear conflict can take minutes where the database takes seconds)."""
    if note:
        watch.carry(solver=solver, heuristic=used, asked=asked, fallback=note)


def _idastar(board: Board, goal: Board, name: str, watch: Watch, options: dict) -> SolveResult:
    """IDA* by its kernel; ``options[RESUME]``: where a search stopped by its cancel stood (its result's
    ``extra[RESUME]``), to go on from there."""
    from engine.domains.tiles.kernel_drivers import idastar

    options, resume = own_options(options)
    used, loaded, note = heuristic(name).inputs(goal, options)
    _say_fallback(watch, "idastar", name, used, note)
    return noted(idastar(board, goal, used, watch, loaded, resume=resume), note)


def _idastar_spread(board: Board, goal: Board, name: str, watch: Watch, options: dict) -> SolveResult:
    """IDA* with each bound's iteration spread as tasks over the cluster's long-lane workers (inside a job), the
    cluster named by ``PUZZLE_SCHEDULER``, or this machine's cores (engine/domains/tiles/parallel_ida.py);
    ``options[RESUME]`` as ``_idastar``'s."""
    from engine.domains.tiles.parallel_ida import spread_idastar
    from engine.domains.tiles.pools import pool_here

    options, resume = own_options(options)
    used, loaded, note = heuristic(name).inputs(goal, options)
    _say_fallback(watch, "idastar-spread", name, used, note)
    with pool_here() as pool:
        return noted(spread_idastar(board, goal, used, watch, pool, options, loaded=loaded, resume=resume), note)


def _astar(board: Board, goal: Board, name: str, watch: Watch, options: dict) -> SolveResult:
    """The compiled A* (engine/domains/tiles/astar.py) where it applies, else the readable one (engine/search)."""
    from engine.domains.tiles.astar import astar_fast, supports

    used, loaded, note = heuristic(name).inputs(goal, options)
    _say_fallback(watch, "astar", name, used, note)
    if supports(goal, used):
        result = astar_fast(board, goal, used, watch, loaded)
    else:
        result = astar_search(SlidingTileProblem(board, goal, used, options), watch=watch)
    result.heuristic = used
    result.optimal = result.optimal and heuristic(used).admissible
    return noted(result, note)


def _bfs(board: Board, goal: Board, name: str, watch: Watch, options: dict) -> SolveResult:
    from engine.domains.tiles.kernel_drivers import bfs_fast

    return bfs_fast(board, goal, watch)


def _table(board: Board, goal: Board, name: str, watch: Watch, options: dict) -> SolveResult:
    from engine.domains.tiles.kernel_drivers import perfect_solve

    return perfect_solve(board, goal, watch)


def _fast(board: Board, goal: Board, name: str, watch: Watch, options: dict) -> SolveResult:
    from engine.domains.tiles.reduction import fast_solve

    # "reduce": skip the short IDA* that answers positions close to home, so that loading the kernels before a
    # solve (``solvers.load_kernels``, one move from the goal) goes through the line-placing searches too
    return fast_solve(board, goal, watch, shortcut=not options.get("reduce"))


register_solver(SolverInfo("bfs", "Breadth-first search", _bfs, ("",), BFS_MAX_CELLS, True,
                           "Explores every position in order of distance; complete, optimal, memory-hungry.",
                           warm_options={}, quick=True))
register_solver(SolverInfo("astar", "A*", _astar, search_heuristics, 36, True,
                           "Best-first on f = g + h; optimal with an admissible heuristic; keeps every node seen.",
                           warm_options={}, quick=True))
register_solver(SolverInfo("idastar", "IDA*", _idastar, search_heuristics, 36, True,
                           "Depth-first with an f-bound raised each round; optimal, tiny memory.", warm_options={},
                           quick=True))
register_solver(SolverInfo("idastar-spread", "IDA* spread over the cluster", _idastar_spread, search_heuristics, 36,
                           True, "IDA* whose every round is split into tasks run at once by the cluster's workers "
                           "(or this machine's cores): the same answer length and nodes per round as IDA*, sooner "
                           "on a long search."))
register_solver(SolverInfo("table", "Distance table", _table, ("perfect",), PERFECT_MAX_CELLS, True,
                           "One BFS from the goal stores every distance; then the answer is read off, move by move.",
                           quick=True))
register_solver(SolverInfo("fast", "Fast (row and column reduction)", _fast, ("",), 36, False,
                           "Places a line at a time by small exact searches, the last 3x3 optimally: any board up to "
                           "6x6 in well under a second; not optimal (its length is shown beside the Manhattan "
                           "lower bound).", warm_options={"reduce": True}, quick=True))


def _near_optimal(board: Board, goal: Board, name: str, watch: Watch, options: dict) -> SolveResult:
    from engine.domains.tiles.near_optimal import near_optimal_solve

    return near_optimal_solve(board, goal, watch)


register_solver(SolverInfo("near-optimal", "Near-optimal (beam search)", _near_optimal, ("",), 36, False,
                           "Beams of growing width over the strongest heuristic built (on 5x5 and 6x6 a pattern "
                           "database): within a few per cent of the shortest on 5x5 in about a second; not "
                           "optimal (its length is shown beside the Manhattan lower bound).", warm_options={}))


@registry.warms_up
def warm_solvers() -> None:
    """A tiny solve by every registered solver with every heuristic offered for 3×3, the reduction on random 4×4 to
    6×6 boards, then the pattern-database kernel on a database of zeros."""
    goal = goal_board(3, 3, "blank-last")
    board = goal.apply("ULUL")
    for info in solvers().values():
        if info.warm_options is not None:
            for name in info.heuristics_for(board):
                solve_board(board, goal, info.name, name, **info.warm_options)
    # The reduction reaches its line-placing searches only on a real scramble of a board past 4x4: a random 5x5 and
    # 6x6 take every path the Play page's default solver takes there (tens of ms once loaded).
    for size in (4, 5, 6):
        goal = goal_board(size, size)
        solve_board(random_solvable(goal, seed=size), goal, "fast", "")
    _warm_pdb_kernel()


def _warm_pdb_kernel() -> None:
    """Compile the pattern-database IDA* kernel through its record, on a database of zeros with a stored one's array
    types (no table is needed), and the whole-search kernels."""
    from engine.domains.tiles.kernel_drivers import WholeSearch, idastar
    from engine.domains.tiles.pdb_kernel import blank_database

    goal = goal_board(4, 4)
    idastar(goal.apply("ULUL"), goal, "pdb", Watch(), {"database": blank_database(goal)})
    # and the whole searches a batch runs (``batch.solve_chunk``), with each heuristic that has one
    WholeSearch(goal, "pdb", {"database": blank_database(goal)}).solve(goal.apply("ULUL"), Watch())
    for name in ("manhattan", "linear-conflict"):
        WholeSearch(goal, name).solve(goal.apply("ULUL"), Watch())
