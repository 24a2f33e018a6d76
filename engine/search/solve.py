"""The one entry point that solves a problem of any domain: ``solve(problem, solver, budget, progress, cancel)``.

A problem's solvers are its kind's own (``DomainKind.solvers``: the sliding tiles' distance tables, pattern
databases, beam search, DPSO and the GA, each a ``KindSolver``) and, beside them, the generic ones every domain has
(``engine.search.domain_solve``: every readable search and, for a domain with hooks, the compiled A* and IDA*); an
own solver takes the place of the generic one of its name (the tiles' compiled ``astar`` that of the readable A*).
The CLI, the web API, the solve and compare jobs, the step-through's race and the benchmarks call this, so every
answer is the one ``SolveResult`` with the same fields. Nothing here imports numba: the kernels load when a search
runs, before its clock starts, and the result reports that apart (``load_seconds``).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping

from engine.core.errors import PuzzleError
from engine.core.result import Budget, Progress, SolveResult, Watch
from engine.search.domain import Domain, KindSolver, domain_kinds
from engine.search.domain_solve import DEPTH_LIMIT, generic_solvers, run_generic, settle


def own_solvers(problem: Domain) -> Mapping[str, KindSolver]:
    """The solvers ``problem``'s kind carries for its own problems (none for a kind without them, or a problem of
    no registered kind)."""
    kind = domain_kinds().get(problem.name)
    return kind.solvers() if kind is not None and kind.solvers is not None else {}


def problem_solvers(problem: Domain) -> dict[str, str]:
    """The solvers offered for ``problem`` (name → label): its kind's own that take it, then the generic ones not
    named alike."""
    own = own_solvers(problem)
    names = {name: solver.label for name, solver in own.items() if solver.offered_for(problem)}
    names.update({name: label for name, label in generic_solvers(problem).items() if name not in own})
    return names


def check_solver(problem: Domain, solver: object) -> str:
    """``solver`` if it is offered for ``problem``, else a ``PuzzleError`` that says why (an own solver's own
    sentence: a board too large for it, a heuristic it does not take)."""
    own = own_solvers(problem)
    if isinstance(solver, str) and solver in own:
        own[solver].check(problem)
        return solver
    known = problem_solvers(problem)
    if not isinstance(solver, str) or solver not in known:
        shown = repr(solver) if isinstance(solver, str) and len(solver) <= 40 else "that"
        raise PuzzleError(f"unknown solver {shown} for this problem: choose one of {', '.join(known)}")
    return solver


def solve(problem: Domain, solver: str = "astar", budget: Budget | None = None, progress: Progress | None = None,
          cancel: threading.Event | None = None, depth_limit: int = DEPTH_LIMIT) -> SolveResult:
    """Solve ``problem`` with ``solver`` (a name of ``problem_solvers``); ``depth_limit`` is depth-first search's.
    A name not offered raises ``PuzzleError``."""
    own = own_solvers(problem).get(solver) if isinstance(solver, str) else None
    if own is None:
        return run_generic(problem, check_solver(problem, solver), budget, progress, cancel, depth_limit)
    heuristic = own.check(problem)
    load_seconds = own.load(problem, heuristic)
    watch = Watch(budget, cancel, progress)
    result = own.run(problem, heuristic, watch)
    return settle(result, watch, solver, heuristic, load_seconds, own.proves(heuristic), problem)
