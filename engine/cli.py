"""Command line: ``python -m engine solve|scramble|random|check|distances ...``. Errors go to stderr, exit status 2."""

from __future__ import annotations

import argparse
import json
import sys

from engine.errors import PuzzleError
from engine.result import Budget
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
    result = solve(board, goal, args.solver, args.heuristic, Budget(args.max_nodes, args.max_seconds))
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
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except PuzzleError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
