"""The sliding-tile kind's own solvers: their registry (``SolverInfo``, ``register_solver``, ``solvers``) and
``solve_board(board, goal, solver, heuristic, budget)``, a board's solve through the one entry point,
``engine.search.solve.solve``.

Each subject registers its tile solvers with ``register_solver``: the tile solvers (bfs, astar, idastar, table, fast,
near-optimal, idastar-spread) in ``engine.domains.tiles.solvers``, DPSO and the GA in ``engine.subjects.meta.solvers``;
the tile kind (``engine.domains.tiles.kind``) carries them, so ``solve`` offers them for a board beside the generic
searches. The heuristics come from ``engine.domains.tiles.heuristics``. Lookups load every subject first
(``engine.core.registry.load_all``), so importing this module is enough, in a notebook as in the app. Nothing here
imports numba: the kernels load when a search runs, before its clock starts (``load_kernels``), and the result reports
that apart (``load_seconds``), so ``seconds`` is the search's own time.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.core import registry
from engine.core.errors import PuzzleError
from engine.core.result import Budget, Progress, SolveResult, Watch
from engine.core.status import Status
from engine.domains.tiles.board import BFS_MAX_CELLS, Board, goal_board
from engine.domains.tiles.heuristics import heuristics
from engine.domains.tiles.problem import SlidingTileProblem
from engine.domains.tiles.solvability import check_solvable
from engine.search.domain import KindSolver
from engine.search.domain_solve import load_once
from engine.search.solve import check_solver, solve

if TYPE_CHECKING:
    from engine.serving.jobs import JobView

SolverFunction = Callable[[Board, Board, str, Watch, dict], SolveResult]


class SolverInfo(KindSolver):
    """A tile solver: ``function(board, goal, heuristic, watch, options)`` and what it takes."""

    def __init__(self, name: str, label: str, function: SolverFunction,
                 heuristics: tuple[str, ...] | Callable[[], tuple[str, ...]], max_cells: int, optimal: bool,
                 description: str, check_options: Callable[[dict], object] | None = None,
                 warm_options: dict | None = None, job_view: JobView | None = None, quick: bool = False):
        self.name, self.label, self.function = name, label, function
        #: the heuristic names it takes, or a function giving them (A* and IDA* take whatever the registry holds);
        #: ("",): none; a name outside the heuristic registry ("perfect") is the solver's own
        self._heuristics = heuristics
        self.max_cells, self.optimal, self.description = max_cells, optimal, description
        #: validates the solver's own options (the API's "params"), raising PuzzleError; None: it takes none
        self.check_options = check_options
        #: the options of a tiny solve that compiles its kernels (``warm_up``); None: nothing of its own to compile
        self.warm_options = warm_options
        #: how a solve job's panel speaks of a run of this solver; None: as of any solve (a search counting nodes)
        self.job_view = job_view
        #: compiled, its work on a small board bounded by a node cap, loading nothing but its heuristic: the web
        #: process may try a small solve itself (``engine.domains.tiles.solve_cost.quick_nodes``)
        self.quick = quick

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

    # the kind's solver (``engine.search.domain.KindSolver``) on a ``SlidingTileProblem``
    def offered_for(self, problem: SlidingTileProblem) -> bool:
        """For the board's size, with the heuristic the problem names (if it names one)."""
        try:
            self.check(problem)
        except PuzzleError:
            return False
        return True

    def check(self, problem: SlidingTileProblem) -> str:
        return check_request(problem.initial, self.name, problem.asked_heuristic)[1]

    def load(self, problem: SlidingTileProblem, heuristic: str) -> float:
        return load_kernels(self, heuristic, problem.goal, problem.options)

    def run(self, problem: SlidingTileProblem, heuristic: str, watch: Watch) -> SolveResult:
        return with_path(problem.initial, self.function(problem.initial, problem.goal, heuristic, watch,
                                                        problem.options))

    def proves(self, heuristic: str) -> bool:
        record = heuristics().get(heuristic)
        return record is None or record.admissible


def with_path(board: Board, result: SolveResult, cells: bool = True) -> SolveResult:
    """A tile solver's result as the kind gives it: a found path's moves as the board's actions, one letter each,
    and its cost and (``cells``) the cells of every board along it in ``extra``."""
    if result.status == Status.SOLVED and not result.actions:
        result.actions = tuple(result.moves)
        result.extra["cost"] = len(result.moves)
        if cells:
            result.extra["path"] = cells_along(board, result.moves)
    return result


def cells_along(board: Board, moves: str) -> list[list[int]]:
    """The cells of every board a solver's moves pass through, start to goal (``settle``'s path of a tile solve,
    without a checked ``Board`` per move: the moves come from a search that made them on this board)."""
    cells, blank = list(board.cells), board.blank
    step = {"U": -board.cols, "D": board.cols, "L": -1, "R": 1}
    path = [cells[:]]
    for move in moves:
        target = blank + step[move]
        cells[blank], cells[target] = cells[target], 0
        blank = target
        path.append(cells[:])
    return path


SOLVERS: registry.Registry[SolverInfo] = registry.Registry("solver")
register_solver = SOLVERS.add


def solvers() -> dict[str, SolverInfo]:
    """Every registered solver, the tile solvers first (loads every subject's)."""
    return SOLVERS.all()


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


def solve_board(board: Board, goal: Board, solver: str = "idastar", heuristic: str | None = "manhattan",
                budget: Budget | None = None, progress: Progress | None = None, cancel: threading.Event | None = None,
                **options) -> SolveResult:
    """Solve ``board`` towards ``goal`` through ``engine.search.solve.solve`` (any of the tile kind's own solvers or a
    generic search); ``options`` are the solver's own. Bad input raises PuzzleError; an unsolvable position returns
    status ``unsolvable`` with the parity explanation, without searching."""
    problem = SlidingTileProblem(board, goal, heuristic or None, options)
    verdict = check_solvable(board, goal)
    if not verdict.solvable:
        check_solver(problem, solver)
        info = solvers().get(solver)
        return SolveResult(Status.UNSOLVABLE, solver=solver, heuristic=info.check(problem) if info else "",
                           message=f"this position is unsolvable. {verdict.explanation}")
    return solve(problem, solver, budget, progress, cancel)


#: The option that carries where a search stopped by its cancel stood (its result's ``extra[RESUME]``), for the
#: solvers that go on from there (IDA*, spread or not): a job that yields its worker continues in another.
RESUME = "resume"


def own_options(options: dict) -> tuple[dict, dict | None]:
    """A solve's options without ``RESUME``, and that (None when absent)."""
    return {key: value for key, value in options.items() if key != RESUME}, options.get(RESUME)


#: what this process has loaded already (``load_kernels``)
_loaded: set[tuple] = set()


def load_kernels(info: SolverInfo, heuristic: str, goal: Board, options: dict) -> float:
    """Load (on a fresh install, compile) what a solve by ``info`` with ``heuristic`` runs, and nothing else, by a
    tiny solve of the same kind; returns the seconds it took, 0.0 when this process has loaded it already.

    The tiny solve starts one move from the goal itself, so it runs the same code paths and loads the same tables;
    a solver offered only for small boards (breadth-first search, whose work grows with the whole state space even
    next to the goal) loads on a 2×3 board instead: its kernels are typed by their arrays, not by the board's size.
    """
    if info.warm_options is None:
        return 0.0
    options = own_options(options)[0]
    if info.max_cells <= BFS_MAX_CELLS:
        small = goal_board(2, 3, "blank-first" if goal.blank == 0 else "blank-last")
    else:
        small = goal
    key = (info.name, heuristic, small, json.dumps({**options, **info.warm_options}, sort_keys=True, default=str))
    near = small.move(small.legal_moves()[0])
    return load_once(_loaded, key, lambda: info.function(
        near, small, heuristic, Watch(Budget(max_nodes=10_000, max_seconds=10)), {**options, **info.warm_options}))

