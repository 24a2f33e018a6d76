"""Seed 002 figures: training speed (walks per second of the one training thread, and its CPU time, the median of
three runs per variant) and, with --full, the paper's training (M = 10^8, N = 200) followed by an evaluation against
Manhattan distance and the pattern database. --bound shows what limits training: the same walks into a table of
3,360 keys (which stays in the caches) and into the real table of 57.7 M keys.

Usage: python bench/learned.py [--walks 2000000] [--bound] [--full] [--positions 100] [--max-seconds 300]
The M curve itself: python -m engine learned curve --positions 100 --seed 0 --max-seconds 300 --json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile

from common import ROOT, header, table

from engine.core.result import Budget
from engine.domains.tiles import goal_board
from engine.serving import store
from engine.subjects.learned.catalogue import TrainingParams
from engine.subjects.learned.evaluate import PAPER, evaluate
from engine.subjects.learned.train import train

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


def bound(goal, walks: int) -> None:
    """Training speed into a table that fits the caches (tiles 14 and 15: 16·15·14 keys) against the real one: the
    ratio is what random memory access costs (median of three runs each, CPU time of the training thread)."""
    rows = []
    for tiles in ((14, 15), (10, 11, 12, 13, 14, 15)):
        runs = [train(goal, TrainingParams(walks=walks, tiles=tiles, seed=seed)).info for seed in (4, 5, 6)]
        cpu = statistics.median(r["cpu_seconds"] for r in runs)
        rows.append([" ".join(map(str, tiles)), f"{runs[0]['key_count']:,}", f"{cpu:.1f}", f"{walks / cpu:,.0f}"])
    print(table(["key tiles", "keys", "CPU s", "walks per CPU s"], rows))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--walks", type=int, default=2_000_000, help="walks for the speed measurement")
    parser.add_argument("--full", action="store_true", help="train M = 10^8 and evaluate (an hour or more)")
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--max-seconds", type=float, default=300)
    parser.add_argument("--no-speed", action="store_true", help="skip the walks-per-second rows")
    parser.add_argument("--bound", action="store_true", help="a cache-resident table against the real one")
    parser.add_argument("--variants", type=int, default=0, metavar="M",
                        help="train the three variants (value rule, undo) with M walks and compare V on the positions")
    args = parser.parse_args()
    header("learned heuristic (seed 002)")
    print(f"load average at start: {os.getloadavg()[0]:.2f} (CPU time is the figure to trust when it is high)")
    goal = goal_board(4, 4, "blank-first")
    rows = []
    variants = [] if args.no_speed else [("min-diff", False), ("at-min-steps", False), ("min-diff", True)]
    with tempfile.TemporaryDirectory() as scratch:  # a fresh directory, so nothing is loaded instead of trained
        saved = store._data_dir
        store.set_data_dir(scratch)
        train(goal, TrainingParams(walks=1000, length=200))  # compiled code loaded outside the timing
        for rule, undo in variants:
            runs = [train(goal, TrainingParams(walks=args.walks, value_rule=rule, allow_undo=undo, seed=seed)).info
                    for seed in (1, 2, 3)]
            wall = statistics.median(r["seconds"] for r in runs)
            cpu = statistics.median(r["cpu_seconds"] for r in runs)
            rows.append([rule, "yes" if undo else "no", f"{args.walks:,}", f"{wall:.1f}", f"{cpu:.1f}",
                         f"{args.walks / cpu:,.0f}", f"{100 * runs[0]['fill']:.2f} %",
                         f"{1e8 / args.walks * cpu / 60:.1f}"])
        if args.bound:
            bound(goal, args.walks)
        store._data_dir = saved
    if rows:
        print(table(["value rule", "undo", "walks", "wall s", "CPU s", "walks per CPU s", "fill",
                     "projected CPU min for 10^8"], rows))
    if args.full:
        full(goal, args.positions, args.max_seconds)
    if args.variants:
        compare_variants(goal, args.variants, min(args.positions, 20), args.max_seconds)


def full(goal, positions: int, max_seconds: float) -> None:
    learned = train(goal, TrainingParams())
    print(f"\nM = 10^8, N = 200: {learned.info['seconds']:.0f} s, {learned.info.get('cpu_seconds', '?')} CPU s "
          f"({learned.info['walks_per_second']:,} walks/s), "
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
