"""How long a hint takes (engine.domains.tiles.player.hint: a move on a shortest path and the distance), on random
positions of each board and on Korf's 100 15-puzzles, with the tables that are built in the store
(``$PUZZLE_DATA_DIR``).

Each position is hinted ``--runs`` times; the table prints, per board, the median of the per-position medians, the
slowest position's median, how many hints were exact (optimal) and the solver used. Kernels and tables are loaded
before the clock starts (one hint on the goal's neighbour). The machine and its load average are printed first.

Usage: PUZZLE_DATA_DIR=... python bench/hint.py [--positions N] [--runs R] [--korf N] [--sizes 3x3,2x5,3x4,4x4]
"""

from __future__ import annotations

import argparse
import random
import statistics

from common import header, median_time, table

from engine.domains.tiles import Board, goal_board, random_solvable
from engine.domains.tiles.player import hint
from tests.support.korf import korf_instances


def measure(name: str, goal: Board, boards: list[Board], runs: int) -> list[object]:
    hint(goal.move(goal.legal_moves()[0]), goal)  # loads the kernels and the tables
    times, exact, used = [], 0, set()
    for board in boards:
        seconds, answer = median_time(lambda board=board: hint(board, goal), runs)
        times.append(seconds)
        exact += answer.optimal
        used.add(f"{answer.solver} + {answer.heuristic}" if answer.heuristic else answer.solver)
    return [name, len(boards), f"{statistics.median(times) * 1000:.1f}", f"{max(times) * 1000:.1f}",
            f"{exact}/{len(boards)}", ", ".join(sorted(used))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--korf", type=int, default=100, help="how many of Korf's instances (0: none)")
    parser.add_argument("--sizes", default="3x3,2x5,3x4,4x4", help="the boards of random positions")
    args = parser.parse_args()
    header("Hints: a move on a shortest path and the distance")
    rng = random.Random(1)
    rows = []
    for rows_, cols in (tuple(map(int, size.split("x"))) for size in args.sizes.split(",")):
        goal = goal_board(rows_, cols)
        boards = [random_solvable(goal, rng.randrange(10**9)) for _ in range(args.positions)]
        rows.append(measure(f"{rows_}x{cols} random", goal, boards, args.runs))
    if args.korf:
        goal = goal_board(4, 4, "blank-first")
        boards = [Board(4, 4, cells) for _, _, cells in korf_instances()[:args.korf]]
        rows.append(measure(f"Korf's first {args.korf}", goal, boards, args.runs))
    print(table(["boards", "positions", "median ms", "slowest ms", "exact", "solver"], rows))


if __name__ == "__main__":
    main()
