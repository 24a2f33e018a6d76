"""The solve and compare jobs, one of each for every domain (``"problem": <kind>``; without it the default kind, the
sliding tiles): ``POST /api/solve`` and ``/api/compare``, the pages' forms and ``python -m engine jobs`` start them.

Each kind reads and runs its own parameters (``DomainKind.jobs``, a ``KindJobs``): the tiles' are the board's
(``engine.domains.tiles.jobs``: ``size``, ``tiles``, ``goal``, ``solver``, ``heuristic``, the solver's ``params``);
every other kind's, ``JSON_JOBS`` here: ``problem`` (a registered domain's name), the problem's own JSON under that
name (``"graph": G``, ``"grid": {...}``), ``heuristic`` (one the domain offers; default its first), ``solver``
(``engine.search.solve.solve``'s names) or ``solvers`` (2 to ``MAX_COMPARE``, each ``"name"`` or
``"name:heuristic"``), ``depth_limit`` (depth-first search's) and the budget (``engine.core.params.budget_from``).
The answer is ``SolveResult``'s fields with the ``path`` (states as JSON, start to goal) and its ``cost`` beside
them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.core.errors import PuzzleError
from engine.core.params import budget_from, budget_params, integer, text
from engine.core.result import Budget, SolveResult
from engine.search.domain import domain_kinds, requested_kind
from engine.search.domain_solve import DEPTH_LIMIT, MAX_DEPTH_LIMIT
from engine.search.solve import check_solver, solve
from engine.serving.jobs import INTERACTIVE, LONG, MAX_PROBLEM_BYTES, JobView, Placement, job_kind

#: Solvers one compare runs at most: every readable search and both compiled ones.
MAX_COMPARE = 10
#: A request's budget when it names none: far beyond any graph a person types, bounded for a grid's readable IDA*.
DEFAULT_BUDGET = Budget(max_nodes=5_000_000, max_seconds=60.0)
#: Work up to this many nodes is a person waiting: the interactive lane (the rest goes to the long one).
INTERACTIVE_NODES = 5_000_000
#: A solve the web process tries itself, before it becomes a job, for at most this many nodes.
QUICK_NODES = 20_000
#: ... and for at most this many seconds (only a backstop: the node cap bounds the work; time depends on how loaded
#: the machine is), shared by a compare's solvers.
QUICK_SECONDS = 5.0


def build_problem(params: dict, heuristic: str | None = None):
    """The problem the parameters name, and what of them it was built from (its domain's name, its JSON, the
    heuristic it uses)."""
    kind = requested_kind(params).name
    if kind not in params:
        raise PuzzleError(f'give the {kind} as "{kind}": its JSON (as /api/step takes it)')
    request = {"problem": kind, kind: params[kind]}
    heuristic = heuristic if heuristic is not None else params.get("heuristic")
    if heuristic not in (None, ""):
        request["heuristic"] = text({"heuristic": heuristic}, "heuristic", 40)
    problem = requested_kind(request).build(request)
    return problem, {"problem": kind, kind: params[kind], "heuristic": problem.heuristic_name}


def _entry(entry: object) -> tuple[str, str | None]:
    if not isinstance(entry, str) or not 0 < len(entry) <= 80:
        raise PuzzleError('each solver is a name such as "astar", or "astar:zero" with a heuristic of its own')
    solver, _, heuristic = entry.partition(":")
    return solver, heuristic or None


def _depth_limit(params: dict) -> dict:
    return {"depth_limit": integer(params, "depth_limit", 1, MAX_DEPTH_LIMIT, DEPTH_LIMIT)}


def check_problem_solve(params: dict) -> dict:
    problem, clean = build_problem(params)
    solver = check_solver(problem, text(params, "solver", 40, "astar"))
    return {**clean, "solver": solver, **_depth_limit(params),
            **budget_params(params, budget_from(params, DEFAULT_BUDGET))}


def check_problem_compare(params: dict) -> dict:
    problem, clean = build_problem(params)
    entries = params.get("solvers")
    if not isinstance(entries, list) or not 2 <= len(entries) <= MAX_COMPARE:
        raise PuzzleError(f"pick between 2 and {MAX_COMPARE} solvers to compare")
    for entry in entries:
        solver, heuristic = _entry(entry)
        check_solver(build_problem(params, heuristic)[0] if heuristic else problem, solver)
    return {**clean, "solvers": list(entries), **_depth_limit(params),
            **budget_params(params, budget_from(params, DEFAULT_BUDGET))}


def problem_lane(params: dict) -> Placement:
    if budget_from(params, DEFAULT_BUDGET).max_nodes <= INTERACTIVE_NODES:
        return Placement(INTERACTIVE)
    return Placement(LONG, f"a budget of more than {INTERACTIVE_NODES:,} nodes runs with the long work")


def answer(result: SolveResult) -> dict:
    """A result as the API shows it: its fields, with the path and its cost beside them rather than in ``extra``."""
    data = result.to_dict()
    extra = dict(data["extra"])
    data.update(path=extra.pop("path", None), cost=extra.pop("cost", None), extra=extra)
    return data


def problem_solve_job(params: dict, report, cancel) -> dict:
    """One solver on a problem of a kind read from its JSON (a graph, a grid map): its path, cost and counts."""
    problem, clean = build_problem(params)
    result = solve(problem, params["solver"], budget_from(params, DEFAULT_BUDGET), report, cancel,
                   params["depth_limit"])
    return {**clean, **answer(result)}


def problem_compare_job(params: dict, report, cancel) -> dict:
    """Several solvers on one problem of a kind read from its JSON, one after another, each within the same budget."""
    budget = budget_from(params, DEFAULT_BUDGET)
    entries = params["solvers"]
    results = []
    for index, entry in enumerate(entries):
        solver, heuristic = _entry(entry)

        def progress(fraction, info, index=index, entry=entry):
            report((index + (fraction or 0.0)) / len(entries),
                   {**info, "text": f"{entry} ({index + 1} of {len(entries)}): {info.get('text', '')}"})

        progress(0.0, {})
        problem = build_problem(params, heuristic)[0]
        results.append(answer(solve(problem, solver, budget, progress, cancel, params["depth_limit"])))
        if cancel.is_set():
            break
    return {**build_problem(params)[1], "results": results}


@dataclass(frozen=True)
class KindJobs:
    """How the solve and compare jobs read and run one kind's problems: each job's ``check`` (the parameters
    validated and cleaned, a ``PuzzleError`` naming a bad field), its run, its lane and its panel's words, the node
    cap under which the web process tries a checked solve or compare itself (0: never; ``app.submit``), and the
    templates that draw a finished solve and compare (in ``app/templates/``); the most solvers one compare
    takes; and the solve requests the web process runs at its start, so that the kernels of the ones it tries itself
    are loaded before anyone asks (``app.submit.warm_quick_solves``)."""

    check_solve: Callable[[dict], dict]
    check_compare: Callable[[dict], dict]
    solve: Callable[..., dict]
    compare: Callable[..., dict]
    lane: Callable[[dict], Placement]
    solve_view: Callable[[dict], JobView]
    compare_view: JobView
    quick_nodes: Callable[[dict], int]
    compare_quick_nodes: Callable[[dict], int]
    templates: tuple[str, str]
    max_compare: int = MAX_COMPARE
    quick_requests: Callable[[], list[dict]] = list


#: every kind whose problem is its JSON under its name (a graph, a grid map, a kind registered later)
JSON_JOBS = KindJobs(check_problem_solve, check_problem_compare, problem_solve_job, problem_compare_job, problem_lane,
                     lambda params: JobView("Solving a graph or grid"), JobView("Comparing solvers on a graph or grid"),
                     lambda params: QUICK_NODES, lambda params: QUICK_NODES // len(params["solvers"]),
                     ("partials/solve_problem.html", "partials/compare_problem.html"))


def every_kind_jobs() -> list[KindJobs]:
    """The jobs of every registered kind."""
    return [kind.jobs or JSON_JOBS for kind in domain_kinds().values()]


def kind_jobs(params: dict) -> KindJobs:
    """The jobs of the kind the parameters name (``problem``; the default kind without it)."""
    if not isinstance(params, dict):
        raise PuzzleError('"params" must be an object')
    return requested_kind(params).jobs or JSON_JOBS


def _lane(params: dict) -> Placement:
    return kind_jobs(params).lane(params)


def _view(params: dict, compare: bool) -> JobView:
    """A panel's words; a stored row naming a kind this server no longer registers still gets some."""
    try:
        jobs = kind_jobs(params)
    except PuzzleError:
        return JobView("Comparing solvers" if compare else "Solving")
    return jobs.compare_view if compare else jobs.solve_view(params)


@job_kind("solve", check=lambda params: kind_jobs(params).check_solve(params), lane=_lane,
          view=lambda params: _view(params, False), max_bytes=MAX_PROBLEM_BYTES, resumable=True)
def solve_job(params: dict, report, cancel) -> dict:
    """One solver on one problem of any domain (a sliding-tile position, a graph, a grid map), within a budget.
    Resumable where the kind's solver says where it stood (the tile kind's IDA*); without ``"resume"`` in its
    answer a stopped solve starts afresh."""
    return kind_jobs(params).solve(params, report, cancel)


@job_kind("compare", check=lambda params: kind_jobs(params).check_compare(params), lane=_lane,
          view=lambda params: _view(params, True), max_bytes=MAX_PROBLEM_BYTES, resumable=True)
def compare_job(params: dict, report, cancel) -> dict:
    """Several solvers on one problem of any domain, one after another, each within the same budget."""
    return kind_jobs(params).compare(params, report, cancel)
