"""The tile kind's reading of the solve and compare jobs (``engine.search.jobs``, ``TILE_JOBS``): one solver, or two
to four side by side, on one position within a budget; the API's ``POST /api/solve`` and ``/api/compare`` and the
board and compare pages start them. The batch job: many positions, each solved as a solve job would, spread over the
long lane's workers (``POST /api/jobs`` with kind ``solve-batch``, and ``python -m engine solve-batch``).

A request's budget is bounded (``engine.core.params.budget_from``); the lane is decided by the budget.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass

from engine.core.errors import PuzzleError
from engine.core.params import budget_from, budget_params, text
from engine.core.result import Budget, Watch
from engine.core.status import Status
from engine.domains.tiles.board import Board, board_shape, parse_goal, parse_size, parse_tiles, position_from
from engine.domains.tiles.heuristics import heuristics
from engine.domains.tiles.problem import SlidingTileProblem
from engine.domains.tiles.solvability import require_solvable
from engine.domains.tiles.solve_cost import SPREAD_SOLVERS, quick_nodes, quick_solves, solve_placement
from engine.domains.tiles.solving import RESUME, check_request, solve_board, solvers
from engine.search.jobs import KindJobs, answer
from engine.search.solve import check_solver
from engine.serving.jobs import LONG, MAX_PROBLEM_BYTES, JobView, Placement, job_kind

#: Solvers one compare runs at most.
MAX_COMPARE = 4
#: Positions one batch solves at most.
MAX_BATCH = 1000
#: A board's own fields in a request (the rest are the solver's and the budget's)
BOARD_FIELDS = ("size", "tiles", "goal")


def board_position(params: dict) -> tuple[Board, Board]:
    """(position, goal) from a request's ``size``, ``tiles`` and ``goal``. Without ``size`` the board's shape comes
    from its ``tiles`` (``board_shape``: its rows, or a square's cells); ``tiles`` may be an object holding these
    fields too, as ``solve-problem --problem tiles --data`` gives the kind's JSON under its name."""
    if isinstance(params, dict) and isinstance(params.get("tiles"), dict):
        given = params["tiles"]
        unknown = sorted(set(given) - set(BOARD_FIELDS))
        if unknown:
            raise PuzzleError(f"a board given as an object holds {', '.join(BOARD_FIELDS)}; not {unknown[0][:40]!r}")
        params = {**{key: value for key, value in params.items() if key not in BOARD_FIELDS}, **given}
    if isinstance(params, dict) and params.get("size") is None and params.get("tiles") not in (None, ""):
        params = {**params, "size": board_shape(params["tiles"])}
    return position_from(params)


def _name(params: dict, key: str, default: str) -> str:
    """A solver or heuristic name: text, or the default when absent (a list or object is refused by name)."""
    return text(params, key, 40, default)


def _solver(board: Board, goal: Board, solver: str, heuristic: str | None) -> tuple[str, str]:
    """A solver offered for the board (one of the tile kind's own, or a generic search) and the heuristic it uses."""
    if solver in solvers():
        return solver, check_request(board, solver, heuristic)[1]
    check_solver(SlidingTileProblem(board, goal, heuristic), solver)
    heuristic = heuristic or "manhattan"
    record = heuristics().get(heuristic)
    if record is None or not record.fits(board):
        raise PuzzleError(f"{heuristic!r} is not a heuristic for {board.size_name}: use manhattan or linear-conflict")
    return solver, heuristic


def check_solve(params: dict) -> dict:
    """The solve job's parameters, validated: position, solvability, solver and heuristic, budget, options."""
    board, goal = board_position(params)
    require_solvable(board, goal)
    if params.get("solver") is None and params.get("heuristic") is None:
        # none named: the strongest solver ready for the board, as the Play page selects
        from engine.domains.tiles.player import strongest_solver

        params = {**params, **dict(zip(("solver", "heuristic"), strongest_solver(board, goal)[:2], strict=True))}
    solver, heuristic = _solver(board, goal, _name(params, "solver", "idastar"),
                                _name(params, "heuristic", "manhattan"))
    info = solvers().get(solver)
    options = params.get("params")
    if options is not None and not isinstance(options, dict):
        raise PuzzleError('"params" must be an object, e.g. {"iterations": 500, "seed": 3}')
    if info is not None and info.check_options is not None:
        known = info.check_options(options or {})
        # only the options the solver reads are kept (the rest would be stored as sent)
        names = {field.name for field in fields(known)} if is_dataclass(known) else set()
        options = {name: value for name, value in (options or {}).items() if name in names}
    budget = budget_from(params, Budget(2_000_000_000, 120.0))
    clean = {"size": board.size_name, "goal": list(goal.cells), "tiles": list(board.cells), "solver": solver,
             "heuristic": heuristic, **budget_params(params, budget)}
    if options:
        clean["params"] = options
    return clean


def check_compare(params: dict) -> dict:
    """The compare job's parameters: 2 to 4 solvers on one position, each validated, one budget for each."""
    board, goal = board_position(params)
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
        solver, heuristic = _solver(board, goal, entry["solver"], _name(entry, "heuristic", "") or None)
        clean.append({"solver": solver, "heuristic": heuristic})
    budget = budget_from(params, Budget(300_000_000, 20.0))
    return {"size": board.size_name, "goal": list(goal.cells), "tiles": list(board.cells), "solvers": clean,
            **budget_params(params, budget)}


def solve_lane(params: dict) -> Placement:
    return solve_placement(params, {name: info.optimal for name, info in solvers().items()})


def solve_view(params: dict) -> JobView:
    """As its solver says (a swarm counts evaluations), else a search counting nodes; the page's form names the
    solver and heuristic as one choice."""
    info = solvers().get(params.get("solver"))
    if info is not None and info.job_view is not None:
        return info.job_view
    return JobView("Solving", form_values=lambda p: {**p, "choice": f"{p.get('solver')}:{p.get('heuristic') or ''}"})


def compare_form(params: dict) -> dict:
    """The compare form names each solver and heuristic as one choice."""
    choices = [f"{s.get('solver')}:{s.get('heuristic') or ''}" for s in params.get("solvers", [])]
    return {**{k: v for k, v in params.items() if k != "solvers"}, "choice": choices}


#: The job parameter a solve, a compare or a batch stopped by its cancel continues from (its result's ``"resume"``
#: holds it, and the runner merges that into the parameters of the next attempt); never taken from a request.
RESUME_FROM = "resume_from"


def _solve(board: Board, goal: Board, solver: str, heuristic: str | None, budget: Budget, report, cancel,
           options: dict | None, resume: dict | None) -> tuple[dict, dict | None]:
    """One solve's answer (as the API shows it) and, when its cancel stopped it where it can go on, where it stood
    (the solver's ``extra[RESUME]``, out of the answer)."""
    carried = {RESUME: resume} if resume is not None else {}
    data = answer(solve_board(board, goal, solver, heuristic, budget, report, cancel, params=options, **carried))
    return data, data["extra"].pop(RESUME, None)


def solve_job(params: dict, report, cancel) -> dict:
    """One solver on one position: the same parameters and answer as the API's ``POST /api/solve``. Stopped by its
    cancel, an IDA* search (spread or not) answers with ``"resume"``: ``RESUME_FROM``, where it stood."""
    board, goal = position_from(params)
    data, stood = _solve(board, goal, params["solver"], params["heuristic"], budget_from(params), report, cancel,
                         params.get("params"), params.get(RESUME_FROM))
    out = {"size": board.size_name, "tiles": list(board.cells), "goal": list(goal.cells), **data}
    return {**out, "resume": {RESUME_FROM: stood}} if stood is not None else out


def compare_job(params: dict, report, cancel) -> dict:
    """Several solvers on one position, one after another, each within the same budget. Stopped by its cancel, it
    answers with ``"resume"``: the answers it has and where the solve under way stood, which the next attempt takes
    up (``RESUME_FROM``: ``done``, ``at``)."""
    board, goal = position_from(params)
    budget = budget_from(params)
    entries = params["solvers"]
    carried = params.get(RESUME_FROM) or {}
    results = list(carried.get("done", []))
    for index, entry in enumerate(entries[len(results):], len(results)):
        def progress(fraction, info, index=index, name=entry["solver"]):
            report((index + (fraction or 0.0)) / len(entries),
                   {**info, "text": f"{name} ({index + 1} of {len(entries)}): {info.get('text', '')}"})

        progress(0.0, {})
        data, stood = _solve(board, goal, entry["solver"], entry["heuristic"] or None, budget, progress, cancel, None,
                             carried.get("at") if index == len(carried.get("done", [])) else None)
        if stood is not None or (cancel.is_set() and index + 1 < len(entries)):
            # a solve stopped where it cannot go on starts again; one that ended is kept
            ended = data["status"] != Status.CANCELLED
            carried = {"done": [*results, data] if ended else results, **({"at": stood} if stood else {})}
            return {"size": board.size_name, "tiles": list(board.cells), "goal": list(goal.cells),
                    "results": [*results, data], "resume": {RESUME_FROM: carried}}
        results.append(data)
    # each solve loads only its own kernels, outside its time; their sum is shown apart, and only when it happened
    warm = sum(result["load_seconds"] for result in results)
    return {"size": board.size_name, "tiles": list(board.cells), "goal": list(goal.cells), "results": results,
            **({"warm_up_seconds": round(warm, 3)} if warm else {})}


def batch_lines(text: str) -> list[str]:
    """The positions of a batch typed or read as lines, one per line (the CLI's FILE, the batch page's box): text after
    ``#`` is left out, and so are lines left empty."""
    return [kept for line in text.splitlines() if (kept := line.split("#")[0].strip())]


def check_batch(params: dict) -> dict:
    """The batch job's parameters: ``boards`` (1 to ``MAX_BATCH`` positions, each as a solve's ``tiles``) of one
    ``size`` towards one ``goal``, one solver and heuristic, the budget of each solve."""
    boards = params.get("boards")
    if not isinstance(boards, list) or not 1 <= len(boards) <= MAX_BATCH:
        raise PuzzleError(f'"boards" must be a list of 1 to {MAX_BATCH} positions, each as a solve\'s "tiles"')
    if "size" not in params:
        raise PuzzleError("missing field 'size' (for example \"4x4\")")
    rows, cols = parse_size(params["size"])
    goal = parse_goal(params.get("goal", "blank-last"), rows, cols)
    clean_boards = []
    for number, tiles in enumerate(boards, 1):
        try:
            board = Board(goal.rows, goal.cols, parse_tiles(tiles, goal.rows, goal.cols))
            require_solvable(board, goal)
        except PuzzleError as error:
            raise PuzzleError(f"position {number} of the batch: {error}") from None
        clean_boards.append(list(board.cells))
    first = Board(goal.rows, goal.cols, tuple(clean_boards[0]))
    info, heuristic = check_request(first, _name(params, "solver", "idastar"), _name(params, "heuristic", "manhattan"))
    if info.name in SPREAD_SOLVERS:
        raise PuzzleError(f"a batch spreads its positions over the workers already: solve each with {info.name}'s "
                          "serial form (idastar) instead")
    budget = budget_from(params, Budget(2_000_000_000, 120.0))
    return {"size": first.size_name, "goal": list(goal.cells), "boards": clean_boards, "solver": info.name,
            "heuristic": heuristic, **budget_params(params, budget)}


def batch_form(params: dict) -> dict:
    """The batch page's form names the positions as lines and the solver and heuristic as one choice."""
    boards = params.get("boards") or []
    return {**{k: v for k, v in params.items() if k != "boards"},
            "positions": "\n".join(" ".join(map(str, cells)) for cells in boards if isinstance(cells, list)),
            "choice": f"{params.get('solver')}:{params.get('heuristic') or ''}"}


def batch_partial(params: dict) -> dict | None:
    """A batch cancelled while it waits for its next turn: the answer its earlier attempts make, every position they
    solved (``RESUME_FROM``) and the rest cancelled; None if it never ran."""
    carried = params.get(RESUME_FROM)
    if not carried:
        return None
    _, goal = position_from({**params, "tiles": params["boards"][0]})
    results = [result if result is not None else {"status": Status.CANCELLED, "tiles": list(cells)}
               for result, cells in zip(_carried_results(params), params["boards"], strict=True)]
    return batch_answer(params, goal, results, float(carried.get("seconds", 0.0)), int(carried.get("tasks", 0)),
                        int(carried.get("workers", 0)))


def _carried_results(params: dict) -> list[dict | None]:
    """Each position's answer from the batch's earlier attempts (``RESUME_FROM``), None where it has none."""
    results: list[dict | None] = [None] * len(params["boards"])
    for number, result in ((params.get(RESUME_FROM) or {}).get("solved") or {}).items():
        results[int(number)] = result
    return results


@job_kind("solve-batch", check=check_batch, lane=LONG, max_bytes=MAX_PROBLEM_BYTES, resumable=True,
          partial=batch_partial,
          view=JobView("Solving a batch of positions", "positions", count="boards", form_values=batch_form,
                       partial=True))
def batch_job(params: dict, report, cancel) -> dict:
    """Many positions of one size, each solved as a solve job would (its own budget), spread in chunks over the
    long lane's workers (engine/domains/tiles/batch.py): Korf's 100 on every core. Stopped by its cancel, it
    answers with every position solved so far and ``"resume"``: those answers (``RESUME_FROM``: ``solved``, by
    position, and the nodes its stopped solves expanded, which the next attempt's progress goes on counting from), so
    that the next attempt solves only the rest (and ``batch_partial`` answers from them if the batch is cancelled
    before that attempt)."""
    from engine.domains.tiles.batch import solve_boards
    from engine.domains.tiles.pools import pool_here

    _, goal = position_from({**params, "tiles": params["boards"][0]})
    boards = [Board(goal.rows, goal.cols, tuple(cells)) for cells in params["boards"]]
    carried = params.get(RESUME_FROM) or {}
    results = _carried_results(params)
    left = [index for index, result in enumerate(results) if result is None]
    with pool_here() as pool:
        out = solve_boards([boards[index] for index in left], goal, params["solver"], params["heuristic"],
                           budget_from(params), pool, Watch(cancel=cancel, progress=report),
                           earlier=[result for result in results if result is not None],
                           discarded_nodes=int(carried.get("discarded_nodes", 0)))
    for index, result in zip(left, out["results"], strict=True):
        results[index] = result
    seconds = float(carried.get("seconds", 0.0)) + out["seconds"]
    summary = batch_answer(params, goal, results, seconds, int(carried.get("tasks", 0)) + out["tasks"], out["slots"])
    solved = {str(index): result for index, result in enumerate(results) if result["status"] != Status.CANCELLED}
    if len(solved) < len(results) and cancel.is_set():
        stopped = sum(result.get("nodes_expanded", 0) for result in out["results"]
                      if result["status"] == Status.CANCELLED)
        summary["resume"] = {RESUME_FROM: {"solved": solved, "seconds": seconds, "tasks": summary["tasks"],
                                           "workers": out["slots"],
                                           "discarded_nodes": int(carried.get("discarded_nodes", 0)) + stopped}}
    return summary


def batch_answer(params: dict, goal: Board, results: list[dict], seconds: float, tasks: int, workers: int) -> dict:
    """A batch's answer: each position's, what the solves used (a database not built falls back, and each solve's
    message says why), and the totals of those it solved (moves, nodes, seconds searching)."""
    used = sorted({result["heuristic"] for result in results if result.get("heuristic")})
    note = next((result["message"] for result in results
                 if result.get("message") and result["status"] != Status.CANCELLED), "")
    solved = [result for result in results if result["status"] == Status.SOLVED]
    return {"size": params["size"], "goal": list(goal.cells), "solver": params["solver"],
            "heuristic": params["heuristic"], "used": used, "message": note, "results": results,
            "solved": len(solved), "boards": len(results),
            "moves": sum(result.get("length") or 0 for result in solved),
            "nodes_expanded": sum(result.get("nodes_expanded", 0) for result in results),
            "search_seconds": round(sum(result.get("seconds", 0.0) for result in results), 6),
            "seconds": round(seconds, 6), "tasks": tasks, "workers": workers}


TILE_JOBS = KindJobs(check_solve, check_compare, solve_job, compare_job, solve_lane, solve_view,
                     JobView("Comparing solvers", form_values=compare_form), quick_nodes, lambda params: 0,
                     ("partials/solve_tiles.html", "partials/compare_tiles.html"), MAX_COMPARE, quick_solves)
