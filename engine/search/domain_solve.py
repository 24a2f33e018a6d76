"""The generic solvers every domain has, which ``engine.search.solve.solve`` (the one entry point) runs beside a
kind's own.

They are the readable searches (every ``Algorithm`` in ``engine.search.record``: bfs, dfs, ids, ucs, greedy,
astar, idastar, bidirectional) and, for a problem whose domain gives ``compiled()``, the compiled A* and IDA* built
from its hooks (``astar-compiled``, ``idastar-compiled``). Each runs under a ``Watch`` (budget, cancel, progress) and
answers the one result type, ``SolveResult``, as a kind's own solvers do: ``moves`` (the
problem's ``format_path``), ``length`` in moves, ``optimal`` only when the search proves it for this problem's costs
and heuristic, the counts, ``seconds`` (the search's own) apart from ``load_seconds``, and ``extra``: the ``path``
(the states as JSON, start to goal) and its ``cost``, and on a budget's end which limit ended it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.core.errors import PuzzleError
from engine.core.result import Budget, Progress, SolveResult, Watch
from engine.core.status import Status
from engine.search.domain import Domain, walk
from engine.search.record import ALGORITHMS, Algorithm
from engine.search.view import drawing_of

#: depth-first search's limit when none is given (the step-through's default)
DEPTH_LIMIT = 12
#: the deepest limit a request may give: the readable depth-first searches recurse once per move
MAX_DEPTH_LIMIT = 400


@dataclass(frozen=True)
class CompiledSearch:
    """A compiled search over a domain's hooks: the readable algorithm it equals (its record says what it
    promises) and its driver ``run(problem, watch=...)``."""

    label: str
    algorithm: str
    run: Callable[..., SolveResult]


def _compiled_astar(problem: Domain, watch: Watch) -> SolveResult:
    from engine.search.compiled import compiled_astar  # numba loads when a compiled search runs, not before

    return compiled_astar(problem, watch=watch, max_bytes=watch.budget.max_bytes)


def _compiled_idastar(problem: Domain, watch: Watch) -> SolveResult:
    from engine.search.compiled_ida import compiled_idastar

    return compiled_idastar(problem, watch=watch, max_bytes=watch.budget.max_bytes)


COMPILED = {"astar-compiled": CompiledSearch("A* (compiled)", "astar", _compiled_astar),
            "idastar-compiled": CompiledSearch("IDA* (compiled)", "idastar", _compiled_idastar)}


def has_compiled(problem: Domain) -> bool:
    return problem.has_compiled()


def generic_label(solver: str) -> str:
    """A generic solver's name for people ("Depth-first search", "A* (compiled)"); a name it does not know as given."""
    if solver in COMPILED:
        return COMPILED[solver].label
    return ALGORITHMS[solver].title if solver in ALGORITHMS else solver


def generic_solvers(problem: Domain) -> dict[str, str]:
    """The generic solvers offered for ``problem`` (name → label): every readable search, and the compiled ones when
    its domain has hooks."""
    names = {name: spec.title for name, spec in ALGORITHMS.items()}
    if has_compiled(problem):
        names.update({name: search.label for name, search in COMPILED.items()})
    return names


def run_generic(problem: Domain, solver: str, budget: Budget | None = None, progress: Progress | None = None,
                cancel: threading.Event | None = None, depth_limit: int = DEPTH_LIMIT) -> SolveResult:
    """Solve ``problem`` with the generic solver ``solver`` (checked by ``engine.search.solve.solve``);
    ``depth_limit`` is depth-first search's."""
    compiled = COMPILED.get(solver)
    spec = ALGORITHMS[compiled.algorithm if compiled else solver]
    load_seconds = load_compiled(problem, solver) if compiled else 0.0
    watch = Watch(budget, cancel, progress)
    try:
        result = compiled.run(problem, watch=watch) if compiled else spec.search(problem, watch, None, depth_limit)
    except RecursionError:  # a readable depth-first search on a path of thousands of moves
        result = SolveResult(Status.NOT_SOLVED, seconds=watch.elapsed, message=f"{spec.title} recurses once per "
                             "move and this path is too deep for it: use idastar-compiled")
    return settle(result, watch, solver, problem.heuristic_name if spec.uses_h else "", load_seconds,
                  _proves(problem, spec), problem)


def _proves(problem: Domain, spec: Algorithm) -> bool:
    """Whether a path ``spec`` finds on ``problem`` is proven the cheapest: a search optimal in moves finds the
    cheapest path only when every move costs 1 or it orders by cost; one guided by h only when h is admissible."""
    return (problem.unit_costs or spec.cheapest) and (not spec.uses_h or problem.admissible)


def settle(result: SolveResult, watch: Watch, solver: str, heuristic: str, load_seconds: float, proven: bool,
           problem: Domain | None = None) -> SolveResult:
    """What every solve adds to its search's result (a kind's own solvers' too): the solver and heuristic
    asked for (unless the search names the one it used), the load time, which budget limit ended it, and no claim
    of optimality the heuristic cannot back; given the problem, a found path's states and cost (unless the search
    gave them, as the compiled ones do)."""
    result.solver, result.load_seconds = solver, load_seconds
    result.heuristic = result.heuristic or heuristic
    if result.status == Status.BUDGET_EXHAUSTED and watch.exhausted:
        result.extra.setdefault("budget", watch.exhausted)  # which limit ended it: nodes, seconds or memory
    if not proven and result.optimal:
        result.optimal = False
        result.message = result.message or "found with a heuristic that is not admissible: not proven optimal"
    if problem is not None and result.status == Status.SOLVED and "path" not in result.extra:
        states, cost = walk(problem, result.actions)
        encode = drawing_of(problem).encode
        result.extra.update(path=[encode(state) for state in states], cost=cost)
    return result


#: the compiled searches this process has loaded (``load_compiled``)
_loaded: set[tuple] = set()
_loading = threading.Lock()


def load_once(loaded: set, key: tuple, load: Callable[[], object]) -> float:
    """Run ``load`` (loading, on a fresh install compiling, what a solve runs) unless ``key`` is in ``loaded`` (then
    add it); the seconds it took, 0.0 when it had run already."""
    if key in loaded:
        return 0.0
    with _loading:
        if key in loaded:
            return 0.0
        started = time.perf_counter()
        load()
        loaded.add(key)
        return time.perf_counter() - started


def load_compiled(problem: Domain, solver: str) -> float:
    """Load the kernel a compiled solve of ``problem`` runs, by running it with a budget of one node (``load_once``)."""
    hooks = problem.compiled()
    if hooks is None:
        raise PuzzleError(f"the {problem.name} domain has no compiled search")
    return load_once(_loaded, (solver, hooks.children, hooks.h),
                     lambda: COMPILED[solver].run(problem, watch=Watch(Budget(max_nodes=1))))
