"""``solve-problem``: one or several solvers on a problem of any domain (a graph given as data, a grid map, a
sliding-tile board of any shape), through the same solve and compare jobs as ``POST /api/solve`` and ``/api/compare``.

    python -m engine solve-problem --problem graph --file romania.json --solver astar
    python -m engine solve-problem --problem graph --data romania --solver astar --solver ucs --solver greedy --json
    python -m engine solve-problem --problem grid --file maze.json --solver idastar-compiled
    python -m engine solve-problem --problem tiles --data '[1,2,3,0,4,6,7,5,8]' --solver astar --solver ucs
    python -m engine solve-problem --problem tiles --data '[[1,2,3,4],[5,0,6,7]]' --solver astar
    python -m engine solve-problem --problem tiles --data '{"tiles":"1 5 2 3/4 0 6 7/8 9 10 11","goal":"blank-first"}'

The file (or ``--data``) holds what ``POST /api/solve`` takes under the problem's name: a graph's JSON or the name of
a built-in one, a grid's ``{"rows", "start", "goal", "connect"}``, a board's rows (any m×n) or a square board's
cells, or ``{"size", "tiles", "goal"}`` (``engine.domains.tiles.kind``). One solver prints the API's answer; several
print the compare job's, side by side. The exit status is 0 when every solver found a path, 1 otherwise, 2 on bad
input.
"""

from __future__ import annotations

import argparse
import json
import threading
from pathlib import Path

from engine.cli.output import emit
from engine.core.errors import PuzzleError

MAX_FILE_BYTES = 1 << 20


def _data(args: argparse.Namespace) -> object:
    if (args.file is None) == (args.data is None):
        raise PuzzleError("give the problem as --file FILE or as --data JSON (or a built-in graph's name)")
    if args.file is not None:
        file = Path(args.file)
        if not file.is_file():
            raise PuzzleError(f"no such file: {args.file}")
        if file.stat().st_size > MAX_FILE_BYTES:
            raise PuzzleError(f"{args.file} is larger than {MAX_FILE_BYTES >> 20} MB")
        source = file.read_text(encoding="utf-8")
    else:
        source = args.data
    try:
        return json.loads(source)
    except json.JSONDecodeError:
        if args.data is not None and source.isidentifier():  # a built-in example's name, unquoted
            return source
        raise PuzzleError(f"the {args.problem} is not JSON") from None


def _line(result: dict) -> str:
    if result["status"] != "solved":
        return f"{result['solver']}: {result['status']} ({result['message']})"
    path = " → ".join(json.dumps(s) if not isinstance(s, str) else s for s in result["path"])
    return (f"{result['solver']}{':' + result['heuristic'] if result['heuristic'] else ''}: cost {result['cost']:g}"
            f" in {result['length']} moves ({'optimal' if result['optimal'] else 'not proven optimal'}), "
            f"{result['nodes_expanded']:,} expanded, {result['nodes_generated']:,} generated\n    {path}")


def cmd_solve_problem(args: argparse.Namespace) -> int:
    from engine.serving.jobs import checked

    params = {"problem": args.problem, args.problem: _data(args), "depth_limit": args.depth_limit,
              "max_nodes": args.max_nodes, "max_seconds": args.max_seconds}
    if args.heuristic:
        params["heuristic"] = args.heuristic
    solvers = args.solver or ["astar"]
    if len(solvers) == 1:
        solver, _, heuristic = solvers[0].partition(":")
        job, clean = checked("solve", {**params, "solver": solver, **({"heuristic": heuristic} if heuristic
                                                                               else {})})
    else:
        job, clean = checked("compare", {**params, "solvers": solvers})
    answer = job.run(clean, lambda fraction, info: None, threading.Event())
    results = answer.get("results", [answer])
    emit(answer, args.json, "\n".join(_line(result) for result in results))
    return 0 if all(result["status"] == "solved" for result in results) else 1


def add_commands(sub) -> None:
    p = sub.add_parser("solve-problem", help="solve a graph, a grid map or another domain's problem (several "
                                             "solvers side by side)")
    p.add_argument("--problem", required=True, help="the domain: graph, grid, tiles, ...")
    p.add_argument("--file", help="the problem's JSON (a graph as data, a grid's rows, start and goal, a board's "
                                  "rows)")
    p.add_argument("--data", help="the problem's JSON inline, or a built-in graph's name (romania); a board: its rows "
                                  "[[1,2,3,4],[5,0,6,7]], or {\"size\", \"tiles\", \"goal\"}")
    p.add_argument("--solver", action="append", help="bfs, dfs, ids, ucs, greedy, astar, idastar, bidirectional, "
                   "astar-compiled, idastar-compiled; 'astar:zero' with a heuristic of its own; repeat to compare")
    p.add_argument("--heuristic", help="one the domain offers (a graph: given, straight-line, zero)")
    p.add_argument("--depth-limit", type=int, default=12, help="depth-first search's limit")
    p.add_argument("--max-nodes", type=int, default=5_000_000, help="node budget per solver")
    p.add_argument("--max-seconds", type=float, default=60.0, help="time budget per solver")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=cmd_solve_problem)
