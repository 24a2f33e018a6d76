"""Seed 001 figures: DPSO and GA evaluations per second, and (with --experiment) the paper's whole experiment.

Usage: python bench/meta.py [--experiment [--trials 30]]
The experiment prints, per depth, solved / "optimal" trials at iterations 100, 1,000, 5,000, 10,000 (DPSO) and
generations 100 … 50,000 (GA), the equal-evaluation comparison, the truly-optimal share and the total time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from common import ROOT, header, table

from engine.meta.experiment import run_experiment
from engine.meta.search import DPSOParams, GAParams, run_dpso, run_ga
from engine.tiles import goal_board
from engine.tiles.random import scramble


def rate(run, params, board, goal, runs=3) -> tuple[float, float]:
    run(board, goal, type(params)(**{**params.__dict__, "iterations" if hasattr(params, "particles") else
                                      "generations": 1}))  # compiled code loaded outside the timing
    rates, seconds = [], []
    for seed in range(runs):
        result = run(board, goal, type(params)(**{**params.__dict__, "seed": seed}))
        rates.append(result.evaluations / result.seconds)
        seconds.append(result.seconds)
    return statistics.median(rates), statistics.median(seconds)


def pair(counts: dict) -> str:
    return f"{counts['solved']}/{counts['optimal']}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--experiment", action="store_true", help="run the full experiment (about 20 minutes)")
    parser.add_argument("--trials", type=int, default=30)
    args = parser.parse_args()
    header("metaheuristics (seed 001)")
    goal = goal_board(4, 4, "blank-last")
    board, _ = scramble(goal, 50, 12345)  # deep enough that no run stops early
    dpso_rate, dpso_s = rate(run_dpso, DPSOParams(iterations=400), board, goal)
    ga_rate, ga_s = rate(run_ga, GAParams(generations=4000), board, goal)
    print(table(["algorithm", "run", "median s", "evaluations/s (one core)"],
                [["DPSO", "400 iterations x 250", f"{dpso_s:.2f}", f"{dpso_rate:,.0f}"],
                 ["GA", "4,000 generations x 30", f"{ga_s:.2f}", f"{ga_rate:,.0f}"]]))
    print(f"projected full-size single-core time per unsolved trial: DPSO {2_500_000 / dpso_rate:.1f} s, "
          f"GA {1_500_000 / ga_rate:.1f} s")
    if not args.experiment:
        return
    started = time.perf_counter()
    result = run_experiment(trials=args.trials)
    print(f"\nexperiment: {args.trials} trials x 5 depths, both algorithms, both cores: "
          f"{time.perf_counter() - started:.0f} s (target <= 1800 s)")
    rows = []
    for entry in result["table"]:
        d, g = entry["dpso"], entry["ga"]
        rows.append([entry["depth"], entry["mean_optimum"]]
                    + [pair(d["checkpoints"][c]) for c in (100, 1000, 5000, 10000)]
                    + [pair(g["checkpoints"][c]) for c in (100, 1000, 5000, 10000, 42000, 50000)]
                    + [f"{d['truly_optimal']}/{d['paper_optimal']}", f"{g['truly_optimal']}/{g['paper_optimal']}",
                       f"{d['seconds']:.0f}", f"{g['seconds']:.0f}"])
    print(table(["depth", "opt", "P100", "P1k", "P5k", "P10k", "G100", "G1k", "G5k", "G10k", "G42k", "G50k",
                 "P true opt", "G true opt", "P s", "G s"], rows))
    (ROOT / ".cache").mkdir(exist_ok=True)
    (ROOT / ".cache" / "meta-experiment.json").write_text(json.dumps(result))


if __name__ == "__main__":
    main()
