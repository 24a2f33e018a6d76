"""Command line: ``python -m engine solve|scramble|random|check|research ...``. Errors go to stderr, exit status 2."""

from __future__ import annotations

import argparse
import json
import sys

from engine.errors import PuzzleError
from engine.result import Budget, Watch
from engine.solvers import SOLVERS, solve
from engine.tiles.board import Board, parse_goal, parse_size, parse_tiles
from engine.tiles.random import random_solvable, scramble
from engine.tiles.solvability import check_solvable


def _board_args(parser: argparse.ArgumentParser, tiles: bool = True) -> None:
    parser.add_argument("--size", default="3x3", help="rows x columns, e.g. 3x3, 4x4, 2x5 (default 3x3)")
    parser.add_argument("--goal", default="blank-last",
                        help='blank-first, blank-last (default) or the goal\'s tiles, e.g. "1 2 3/4 5 6/7 8 0"')
    if tiles:
        parser.add_argument("tiles", help='the position, row by row: "8 6 7/2 5 4/3 0 1" or "8 6 7 2 5 4 3 0 1"')


def _read(args: argparse.Namespace) -> tuple[Board, Board]:
    rows, cols = parse_size(args.size)
    goal = parse_goal(args.goal, rows, cols)
    board = Board(rows, cols, parse_tiles(args.tiles, rows, cols)) if hasattr(args, "tiles") else goal
    return board, goal


def _emit(data: dict, as_json: bool, text: str) -> None:
    print(json.dumps(data) if as_json else text)


def cmd_solve(args: argparse.Namespace) -> int:
    board, goal = _read(args)
    params = {}
    for item in args.param:
        key, sep, value = item.partition("=")
        if not sep:
            raise PuzzleError(f"--param takes name=value, e.g. --param iterations=500 (got {item!r})")
        params[key.strip()] = value.strip()
    result = solve(board, goal, args.solver, args.heuristic, Budget(args.max_nodes, args.max_seconds), params=params)
    data = {"size": board.size_name, "tiles": list(board.cells), "goal": list(goal.cells), **result.to_dict()}
    text = "\n".join([
        f"status:    {result.status}" + (f" ({result.message})" if result.message else ""),
        f"moves:     {result.moves}",
        f"length:    {data['length']}   optimal: {'proven' if result.optimal else 'not proven'}",
        f"expanded:  {result.nodes_expanded:,}   generated: {result.nodes_generated:,}   "
        f"peak frontier/depth: {result.peak_frontier:,}",
        f"seconds:   {result.seconds:.4f}   solver: {result.solver}   heuristic: {result.heuristic or '-'}",
    ])
    _emit(data, args.json, text)
    return 0 if result.status in ("solved", "unsolvable") else 1


def cmd_scramble(args: argparse.Namespace) -> int:
    _, goal = _read(args)
    board, moves = scramble(goal, args.moves, args.seed)
    _emit({"size": goal.size_name, "tiles": list(board.cells), "scramble": moves}, args.json,
          f"{board.text()}\nscramble: {moves}")
    return 0


def cmd_random(args: argparse.Namespace) -> int:
    _, goal = _read(args)
    board = random_solvable(goal, args.seed)
    _emit({"size": goal.size_name, "tiles": list(board.cells)}, args.json, board.text())
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    board, goal = _read(args)
    verdict = check_solvable(board, goal)
    _emit({"solvable": verdict.solvable, "permutation_parity": verdict.permutation_parity,
           "blank_distance": verdict.blank_distance, "explanation": verdict.explanation}, args.json,
          f"{'solvable' if verdict.solvable else 'unsolvable'}\n{verdict.explanation}")
    return 0


def _progress_to_stderr(fraction: float | None, info: dict) -> None:
    """Long research runs print one progress line on stderr, rewritten in place, so stdout stays clean for --json."""
    share = f"{fraction:6.1%} " if fraction is not None else ""
    print(f"\r{share}{info.get('text', '')}"[:120].ljust(120), end="", file=sys.stderr, flush=True)


def cmd_research(args: argparse.Namespace) -> int:
    """Seed 000's computations, the same functions the Research page runs as jobs."""
    from engine.bounds.fullbfs import full_bfs
    from engine.bounds.maxmd import max_md_brute, max_md_exact
    from engine.bounds.subproblem import solve_subproblem
    from engine.bounds.table import bounds_table

    live = sys.stderr.isatty()  # a progress line helps a person at a terminal, and is noise in a log file
    watch = Watch(progress=_progress_to_stderr if live else None)
    if args.what == "bfs":
        rows, cols = parse_size(args.size)
        data = full_bfs(rows, cols, watch)
        text = (f"{rows}x{cols}: diameter {data['diameter']}, {data['positions']:,} positions, "
                f"{data['hardest_count']:,} at the diameter, e.g. {data['hardest'][0]}\n"
                f"positions per distance: {data['histogram']}")
    elif args.what == "maxmd":
        data = max_md_brute(args.n) if args.brute else max_md_exact(args.n)
        text = (f"2x{args.n}: largest Manhattan distance of a solvable position {data['max_md']}, "
                f"e.g. {data['position']}")
    elif args.what == "subproblem":
        data = solve_subproblem(args.n, args.k, watch, blank_home=not args.blank_anywhere)
        text = (f"f_{args.k}({args.n}) = {data['f']} over {data['states']:,} states; "
                f"hardest {data['hardest']} solved by blank path {data['blank_path']}")
    else:
        data = bounds_table(args.n_max, progress=_progress_to_stderr if live else None)
        lines = ["n  formula  maxMD  exact  paperUB  ourUB(k)"]
        for row in data["rows"]:
            lines.append(f"{row['n']:<3}{row['lower_formula']:>7}{row['max_md']:>7}{row['exact'] or '':>7}"
                         f"{row['paper_upper'] or '':>9}{row['upper']:>7}({row['upper_k']})"
                         + "".join(f"\n   ! {flag}" for flag in row["flags"]))
        text = "\n".join(lines)
    if live:
        print(file=sys.stderr)
    _emit(data, args.json, text)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description="Puzzle Playground engine")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("solve", help="solve a sliding-tile position")
    _board_args(p)
    p.add_argument("--solver", default="idastar", choices=sorted(SOLVERS))
    p.add_argument("--heuristic", default="manhattan",
                   help="manhattan, linear-conflict, pdb (4x4), perfect (table solver)")
    p.add_argument("--max-nodes", type=int, default=Budget.max_nodes, help="node budget")
    p.add_argument("--max-seconds", type=float, default=Budget.max_seconds, help="time budget")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a dpso or ga parameter, e.g. --param iterations=500 --param seed=3 (repeatable)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=cmd_solve)

    p = sub.add_parser("scramble", help="k random blank moves from the goal, never revisiting a position")
    _board_args(p, tiles=False)
    p.add_argument("--moves", type=int, default=20)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_scramble)

    p = sub.add_parser("random", help="a uniformly random solvable position")
    _board_args(p, tiles=False)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_random)

    p = sub.add_parser("check", help="is the position solvable? with the parity argument")
    _board_args(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_check)

    p = sub.add_parser("research", help="seed 000's 2xn computations: bfs, maxmd, subproblem, bounds")
    research = p.add_subparsers(dest="what", required=True)
    q = research.add_parser("bfs", help="full breadth-first search: diameter, histogram, hardest positions")
    q.add_argument("--size", default="2x4", help="a board of at most 12 cells, e.g. 2x5, 3x3, 3x4 (goal blank first)")
    q = research.add_parser("maxmd", help="the largest Manhattan distance of a solvable 2xn position")
    q.add_argument("--n", type=int, default=8)
    q.add_argument("--brute", action="store_true",
                   help="enumerate every arrangement (n <= 6) instead of the exact method")
    q = research.add_parser("subproblem", help="f_k(n): the k-column sub-problem's largest distance")
    q.add_argument("--n", type=int, default=7)
    q.add_argument("--k", type=int, default=1)
    q.add_argument("--blank-anywhere", action="store_true", help="goal: the k columns home, blank anywhere (UB*)")
    q = research.add_parser("bounds", help="the bounds table: lower, exact, paper's upper and the improved upper")
    q.add_argument("--n-max", type=int, default=12)
    for q in research.choices.values():
        q.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_research)
    p = sub.add_parser("jobs", help="the kinds of background job, their lane and what each does")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_jobs)
    return parser


def cmd_jobs(args: argparse.Namespace) -> int:
    from engine import registry
    from engine.jobs import job_kinds

    registry.load_all()
    kinds = {name: {"lane": kind.lane_label, "doc": kind.doc} for name, kind in sorted(job_kinds().items())}
    _emit(kinds, args.json, "\n".join(f"{name:22} {k['lane']:12} {k['doc']}" for name, k in kinds.items()))
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except PuzzleError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
