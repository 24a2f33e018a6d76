"""Seed 002 figures: training speed (walks per second on both cores) and, with --full, the paper's training
(M = 10^8, N = 200) followed by an evaluation against Manhattan distance and the pattern database.

Usage: python bench/learned.py [--walks 2000000] [--full] [--positions 100] [--max-seconds 300]
"""

from __future__ import annotations

import argparse
import json
import tempfile

from common import ROOT, header, table

from engine import store
from engine.learned.evaluate import PAPER, evaluate
from engine.learned.train import TrainingParams, train
from engine.result import Budget
from engine.tiles import goal_board


HEURISTICS = ("manhattan", "learned", "pdb")


def cell(value, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def compare_variants(goal, walks: int, positions: int, max_seconds: float) -> None:
    """The paper's two open choices, measured: V's nodes and optimal share for each way of training."""
    rows = []
    for rule, undo in (("at-min-steps", False), ("min-diff", False), ("at-min-steps", True)):
        learned = train(goal, TrainingParams(walks=walks, value_rule=rule, allow_undo=undo))
        result = evaluate(learned.name, positions, 0, Budget(max_nodes=10_000_000_000, max_seconds=max_seconds),
                          heuristics=("pdb", "learned"))
        o = result["overall"]
        rows.append([rule, "yes" if undo else "no", f"{walks:,}", f"{100 * learned.info['fill']:.2f} %",
                     f"{o['learned_mean_nodes']:,.0f}", f"{100 * o['learned_optimal_share']:.0f} %",
                     f"+{o['learned_mean_excess']:.2f}", f"{learned.info['seconds']:.0f}"])
    print(f"\nthe open choices, V on {positions} random positions (optimum from the pattern database):")
    print(table(["value rule", "undo", "walks", "fill", "V mean nodes", "V optimal", "V mean excess",
                 "training s"], rows))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--walks", type=int, default=2_000_000, help="walks for the speed measurement")
    parser.add_argument("--full", action="store_true", help="train M = 10^8 and evaluate (about an hour)")
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--max-seconds", type=float, default=300)
    parser.add_argument("--no-speed", action="store_true", help="skip the walks-per-second rows")
    parser.add_argument("--variants", type=int, default=0, metavar="M",
                        help="train the three variants (value rule, undo) with M walks and compare V on the positions")
    args = parser.parse_args()
    header("learned heuristic (seed 002)")
    goal = goal_board(4, 4, "blank-first")
    rows = []
    variants = [] if args.no_speed else [("at-min-steps", False), ("min-diff", False), ("at-min-steps", True)]
    with tempfile.TemporaryDirectory() as scratch:  # a fresh directory, so nothing is loaded instead of trained
        saved = store._data_dir
        store.set_data_dir(scratch)
        train(goal, TrainingParams(walks=1000, length=200))  # compiled code loaded outside the timing
        for rule, undo in variants:
            result = train(goal, TrainingParams(walks=args.walks, value_rule=rule, allow_undo=undo, seed=1))
            rows.append([rule, "yes" if undo else "no", f"{args.walks:,}", f"{result.info['seconds']:.1f}",
                         f"{result.info['walks_per_second']:,}", f"{100 * result.info['fill']:.2f} %",
                         f"{1e8 / result.info['walks_per_second'] / 60:.1f}"])
        store._data_dir = saved
    if rows:
        print(table(["value rule", "undo", "walks", "seconds", "walks/s (2 cores)", "fill",
                     "projected min for 10^8"], rows))
    if args.full:
        full(goal, args.positions, args.max_seconds)
    if args.variants:
        compare_variants(goal, args.variants, min(args.positions, 20), args.max_seconds)


def full(goal, positions: int, max_seconds: float) -> None:
    learned = train(goal, TrainingParams())
    print(f"\nM = 10^8, N = 200: {learned.info['seconds']:.0f} s ({learned.info['walks_per_second']:,} walks/s), "
          f"fill {100 * learned.info['fill']:.2f} % (paper: about an hour in Node.js; target <= 20 minutes)")
    result = evaluate(learned.name, positions, 0, Budget(max_nodes=10_000_000_000, max_seconds=max_seconds))
    o = result["overall"]
    print(f"evaluation on {o['positions']} random positions ({result['seconds']:.0f} s): "
          f"{100 * o['node_reduction']:.0f} % fewer nodes (paper {100 * PAPER['node_reduction']:.0f} %), "
          f"{100 * o['time_reduction']:.0f} % less time (paper {100 * PAPER['time_reduction']:.0f} %), "
          f"{100 * o['optimal_share']:.0f} % optimal (paper {100 * PAPER['optimal_share']:.0f} %); "
          f"MD over budget on {o['manhattan_over_budget']}")
    print(table(["optimal d", "n", "MD nodes", "V nodes", "PDB nodes", "MD s", "V s", "PDB s", "V optimal"],
                [[f"{g['low']}<d<={g['high']}", g["positions"]]
                 + [cell(g[h + "_nodes"], ",.0f") for h in HEURISTICS]
                 + [cell(g[h + "_seconds"], ".3f") for h in HEURISTICS]
                 + [f"{100 * g['optimal_share']:.0f} %" if g["optimal_share"] is not None else "-"]
                 for g in result["groups"]]))
    (ROOT / ".cache").mkdir(exist_ok=True)
    (ROOT / ".cache" / "learned-evaluation.json").write_text(json.dumps(result))


if __name__ == "__main__":
    main()
