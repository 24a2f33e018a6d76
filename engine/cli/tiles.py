"""Sliding-tile commands: ``solve``, ``solve-batch``, ``scramble``, ``random``, ``check``."""

from __future__ import annotations

import argparse

from engine.cli.output import emit
from engine.core.errors import PuzzleError
from engine.core.result import Budget
from engine.core.status import Status
from engine.domains.tiles.board import Board, parse_goal, parse_size, parse_tiles
from engine.domains.tiles.heuristics import heuristics
from engine.domains.tiles.random import random_solvable, scramble
from engine.domains.tiles.solvability import check_solvable
from engine.domains.tiles.solving import solve_board, solvers
from engine.search.jobs import answer


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


def budget_of(args: argparse.Namespace) -> Budget:
    """The budget the command line asked for (``--max-megabytes``: the search's own tables, default
    ``PUZZLE_SEARCH_MEGABYTES`` or 1024)."""
    megabytes = args.max_megabytes
    return Budget(args.max_nodes, args.max_seconds, *([megabytes * 2**20] if megabytes else []))


def cmd_solve(args: argparse.Namespace) -> int:
    board, goal = _read(args)
    params = {}
    for item in args.param:
        key, sep, value = item.partition("=")
        if not sep:
            raise PuzzleError(f"--param takes name=value, e.g. --param iterations=500 (got {item!r})")
        params[key.strip()] = value.strip()
    result = solve_board(board, goal, args.solver, args.heuristic, budget_of(args), params=params)
    data = {"size": board.size_name, "tiles": list(board.cells), "goal": list(goal.cells), **answer(result)}
    text = "\n".join([
        f"status:    {result.status}" + (f" ({result.message})" if result.message else ""),
        f"moves:     {result.moves}",
        f"length:    {data['length']}   optimal: {'proven' if result.optimal else 'not proven'}",
        f"expanded:  {result.nodes_expanded:,}   generated: {result.nodes_generated:,}   "
        f"peak frontier/depth: {result.peak_frontier:,}",
        f"seconds:   {result.seconds:.4f} searching, {result.load_seconds:.4f} loading kernels before   "
        f"solver: {result.solver}   heuristic: {result.heuristic or '-'}",
    ])
    emit(data, args.json, text)
    return 0 if result.status in (Status.SOLVED, Status.UNSOLVABLE) else 1


def cmd_solve_batch(args: argparse.Namespace) -> int:
    """The ``solve-batch`` job's own code here: on ``PUZZLE_SCHEDULER``'s long lane, else on this machine's cores."""
    import sys
    import threading

    from engine.domains.tiles.jobs import batch_job, batch_lines, check_batch

    with (open(args.file) if args.file != "-" else sys.stdin) as lines:
        boards = batch_lines(lines.read())
    params = check_batch({"size": args.size, "goal": args.goal, "boards": boards,
                          "solver": args.solver, "heuristic": args.heuristic, "max_nodes": args.max_nodes,
                          "max_seconds": args.max_seconds})
    result = batch_job(params, lambda fraction, info: None, threading.Event())
    rows = [f"{number:4}  {r['status']:16} {r.get('length') if r.get('length') is not None else '-':>4}  "
            f"{r.get('nodes_expanded', 0):>14,}  {r.get('seconds', 0.0):9.4f}  {r.get('moves', '')}"
            for number, r in enumerate(result["results"], 1)]
    text = "\n".join(["   #  status           moves        expanded    seconds  answer", *rows,
                      f"{result['solved']} of {result['boards']} solved with {result['solver']} + "
                      f"{', '.join(result['used']) or '-'}: {result['nodes_expanded']:,} nodes expanded, "
                      f"{result['search_seconds']:.3f} s searching in all, {result['seconds']:.3f} s from the first "
                      f"chunk sent to the last answer, {result['tasks']} chunks on {result['workers']} workers",
                      *([result["message"]] if result["message"] else [])])
    emit(result, args.json, text)
    return 0 if result["solved"] == result["boards"] else 1


def cmd_scramble(args: argparse.Namespace) -> int:
    _, goal = _read(args)
    board, moves = scramble(goal, args.moves, args.seed)
    emit({"size": goal.size_name, "tiles": list(board.cells), "scramble": moves}, args.json,
          f"{board.text()}\nscramble: {moves}")
    return 0


def cmd_random(args: argparse.Namespace) -> int:
    _, goal = _read(args)
    board = random_solvable(goal, args.seed)
    emit({"size": goal.size_name, "tiles": list(board.cells)}, args.json, board.text())
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    board, goal = _read(args)
    verdict = check_solvable(board, goal)
    emit({"solvable": verdict.solvable, "permutation_parity": verdict.permutation_parity,
           "blank_distance": verdict.blank_distance, "explanation": verdict.explanation}, args.json,
          f"{'solvable' if verdict.solvable else 'unsolvable'}\n{verdict.explanation}")
    return 0


def _heuristic_help() -> str:
    """Each solver's heuristics, from the registries (a shape says the only board it is made for)."""
    known = heuristics()

    def shown(name: str) -> str:
        record = known.get(name)
        return f"{name} ({record.shape[0]}x{record.shape[1]})" if record is not None and record.shape else name

    return "by solver: " + "; ".join(f"{info.name}: {', '.join(shown(h) for h in info.heuristics)}"
                                      for info in solvers().values() if info.heuristics != ("",))


def add_commands(sub) -> None:
    p = sub.add_parser("solve", help="solve a sliding-tile position")
    _board_args(p)
    p.add_argument("--solver", default="idastar", choices=sorted(solvers()))
    p.add_argument("--heuristic", default="manhattan",
                   help=f"{_heuristic_help()} (pdb: the strongest database built)")
    p.add_argument("--max-nodes", type=int, default=Budget.max_nodes, help="node budget")
    p.add_argument("--max-seconds", type=float, default=Budget.max_seconds, help="time budget")
    p.add_argument("--max-megabytes", type=int, default=None,
                   help="memory budget of the search's tables (default 1024, or PUZZLE_SEARCH_MEGABYTES)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a dpso or ga parameter, e.g. --param iterations=500 --param seed=3 (repeatable)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=cmd_solve)

    p = sub.add_parser("solve-batch", help="solve many positions of one size (one per line of FILE), spread over "
                                          "PUZZLE_SCHEDULER's long-lane workers or this machine's cores")
    _board_args(p, tiles=False)
    p.add_argument("file", help='a file of positions, one per line as "solve" takes them ("-": standard input; '
                                "text after # is left out)")
    p.add_argument("--solver", default="idastar", choices=sorted(solvers()))
    p.add_argument("--heuristic", default="manhattan", help="as for solve (pdb: the strongest database built)")
    p.add_argument("--max-nodes", type=int, default=Budget.max_nodes, help="node budget of each solve")
    p.add_argument("--max-seconds", type=float, default=Budget.max_seconds, help="time budget of each solve")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=cmd_solve_batch)

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
