"""The solve and compare jobs of any domain's problem (a graph given as data, a grid map, ...): ``POST /api/solve`` and
``/api/compare`` with ``"problem": <domain>`` start them, as ``python -m engine jobs`` does.

Parameters: ``problem`` (a registered domain's name), the problem's own JSON under that name (``"graph": G``,
``"grid": {...}``), ``heuristic`` (one the domain offers; default its first), ``solver`` (``solve_problem``'s names)
or ``solvers`` (2 to ``MAX_COMPARE``, each ``"name"`` or ``"name:heuristic"``), ``depth_limit`` (depth-first
search's) and the budget (``engine.core.params.budget_from``). The answer is ``SolveResult``'s fields with the
``path`` (states as JSON, start to goal) and its ``cost`` beside them.
"""

from __future__ import annotations

from engine.core.errors import PuzzleError
from engine.core.params import budget_from, budget_params, integer, text
from engine.core.result import Budget, SolveResult
from engine.search.domain import domain_kind, domain_kinds
from engine.search.domain_solve import DEPTH_LIMIT, MAX_DEPTH_LIMIT, check_solver, solve_problem
from engine.serving.jobs import INTERACTIVE, LONG, MAX_PROBLEM_BYTES, JobView, Placement, job_kind

#: Solvers one compare runs at most: every readable search and both compiled ones.
MAX_COMPARE = 10
#: A request's budget when it names none: far beyond any graph a person types, bounded for a grid's readable IDA*.
DEFAULT_BUDGET = Budget(max_nodes=5_000_000, max_seconds=60.0)
#: Work up to this many nodes is a person waiting: the interactive lane (the rest goes to the long one).
INTERACTIVE_NODES = 5_000_000
#: A solve the web process tries itself, before it becomes a job, for at most this many nodes.
QUICK_NODES = 20_000


def build_problem(params: dict, heuristic: str | None = None):
    """The problem the parameters name, and what of them it was built from (its domain's name, its JSON, the
    heuristic it uses)."""
    kind = params.get("problem")
    if not isinstance(kind, str) or kind not in domain_kinds():
        shown = repr(kind) if isinstance(kind, str) and len(kind) <= 40 else "that"
        raise PuzzleError(f"problem must be one of {', '.join(map(repr, domain_kinds()))} (not {shown})")
    if kind not in params:
        raise PuzzleError(f'give the {kind} as "{kind}": its JSON (as /api/step takes it)')
    request = {"problem": kind, kind: params[kind]}
    heuristic = heuristic if heuristic is not None else params.get("heuristic")
    if heuristic not in (None, ""):
        request["heuristic"] = text({"heuristic": heuristic}, "heuristic", 40)
    problem = domain_kind(kind).build(request)
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


@job_kind("problem-solve", check=check_problem_solve, lane=problem_lane, view=JobView("Solving a graph or grid"),
          max_bytes=MAX_PROBLEM_BYTES)
def problem_solve_job(params: dict, report, cancel) -> dict:
    """One solver on a problem of any domain (a graph, a grid map): its path, cost and counts."""
    problem, clean = build_problem(params)
    result = solve_problem(problem, params["solver"], budget_from(params, DEFAULT_BUDGET), report, cancel,
                           params["depth_limit"])
    return {**clean, **answer(result)}


@job_kind("problem-compare", check=check_problem_compare, lane=problem_lane,
          view=JobView("Comparing solvers on a graph or grid"), max_bytes=MAX_PROBLEM_BYTES)
def problem_compare_job(params: dict, report, cancel) -> dict:
    """Several solvers on one problem of any domain, one after another, each within the same budget."""
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
        results.append(answer(solve_problem(problem, solver, budget, progress, cancel, params["depth_limit"])))
        if cancel.is_set():
            break
    return {**build_problem(params)[1], "results": results}
