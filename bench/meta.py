"""Seed 001 figures: DPSO and GA evaluations per second, and (with --experiment) the paper's whole experiment.

Usage: python bench/meta.py [--experiment [--trials 30] [--depths 10,20,30,40,50]] [--clamp] [--selection] [--record]
--record writes what was measured to engine/subjects/meta/recorded/ (experiment.json: the whole result and the counts
engine.subjects.meta.claims judges; clamp.json, selection.json: the tables), which the Swarm & GA page shows until a
full-size experiment job runs on the server.
--clamp re-measures the velocity clamp (vmax 0.5, 1, 2, 4) on ten depth-15 scrambles at the paper's Table 1 budget
(250 particles x 1,200 iterations); --selection compares the GA's roulette weights (1/(1 + fitness) and linear rank).
The experiment prints, per depth, solved / "optimal" trials at iterations 100, 1,000, 5,000, 10,000 (DPSO) and
generations 100 … 50,000 (GA), the equal-evaluation comparison, the truly-optimal share and the total time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np
from common import ROOT, header, table

from engine.core.records import Measurement
from engine.domains.tiles import goal_board
from engine.domains.tiles.random import scramble
from engine.subjects.meta import search
from engine.subjects.meta.claims import figures
from engine.subjects.meta.experiment import run_experiment
from engine.subjects.meta.search import run_dpso, run_ga
from engine.subjects.meta.settings import DPSOParams, GAParams


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


WEIGHTS = {"inverse": "1 / (1 + fitness)", "rank": "linear rank"}


def clamp_table(runs: int = 10, depth: int = 15, iterations: int = 1_200) -> dict:
    """DPSO with each velocity clamp on the same scrambles and seeds: solved (<= 150 moves) and "optimal"
    (<= depth, the paper's definition) runs, and the median best fitness; with the random initial velocities the
    paper describes, and with all velocities starting at 0 for comparison."""
    goal = goal_board(4, 4, "blank-last")
    boards = [scramble(goal, depth, 100 + i)[0] for i in range(runs)]
    rows = []
    random_start = search.initial_velocities
    for start, vmax in [(s, v) for s in ("random", "zero") for v in (0.5, 1.0, 2.0, 4.0)]:
        # the zero start is only a measurement, so it is patched in here rather than offered as a parameter
        search.initial_velocities = random_start if start == "random" else (lambda rng, shape, vmax: np.zeros(shape))
        results = [run_dpso(b, goal, DPSOParams(vmax=vmax, iterations=iterations, seed=i))
                   for i, b in enumerate(boards)]
        search.initial_velocities = random_start
        rows.append([start, vmax, f"{sum(r.best_score <= 150 for r in results)}/{runs}",
                     f"{sum(r.best_score <= depth for r in results)}/{runs}",
                     str(statistics.median(r.best_score for r in results)),
                     f"{statistics.median(r.seconds for r in results):.1f}"])
    print(f"\nvelocity clamp, {runs} scrambles of depth {depth} (seeds 100..), 250 particles x {iterations:,} "
          f"iterations; initial velocities uniform in [-vmax, vmax] (random) or 0 (zero):")
    print(table(["initial v", "vmax", "solved", "optimal (<= depth)", "median best fitness", "median s"], rows))
    return {"caption": f"Velocity clamp: {runs} scrambles of depth {depth} (seeds 100–{100 + runs - 1}), 250 "
                       f"particles × {iterations:,} iterations, run seeds 0–{runs - 1}; initial velocities random in "
                       f"[−vmax, vmax] or all zero",
            "rows": [[("random in [-vmax, vmax]" if r[0] == "random" else r[0]), str(r[1]), *r[2:5]] for r in rows]}


def selection_table(trials: int = 10, depths=(10, 20), generations: int = 10_000) -> dict:
    """The GA's two roulette weights on the same scrambles and seeds."""
    goal = goal_board(4, 4, "blank-last")
    rows = []
    for depth in depths:
        boards = [scramble(goal, depth, 200 + depth * 100 + i)[0] for i in range(trials)]
        for selection in ("inverse", "rank"):
            results = [run_ga(b, goal, GAParams(generations=generations, seed=i, selection=selection),
                              stop_at=0) for i, b in enumerate(boards)]
            solved = [r.first_reaching(150) for r in results if r.first_reaching(150) is not None]
            rows.append([str(depth), WEIGHTS[selection], f"{len(solved)}/{trials}",
                         f"{sum(r.best_score <= depth for r in results)}/{trials}",
                         str(statistics.median(solved)) if solved else "-",
                         str(statistics.median(r.best_score for r in results))])
    print(f"\nGA roulette weight, {trials} scrambles per depth, population 30, {generations:,} generations:")
    print(table(["depth", "weight", "solved", "optimal (<= depth)", "median generation solved",
                 "median best fitness"], rows))
    return {"caption": f"GA roulette weight: {trials} scrambles per depth, population 30, {generations:,} "
                       f"generations, run seeds 0–{trials - 1}", "rows": rows}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--experiment", action="store_true", help="run the full experiment (about 20 minutes)")
    parser.add_argument("--trials", type=int, default=30)
    parser.add_argument("--depths", default="10,20,30,40,50", help="the experiment's scramble depths")
    parser.add_argument("--clamp", action="store_true", help="the velocity-clamp table")
    parser.add_argument("--selection", action="store_true", help="the GA's roulette weights compared")
    parser.add_argument("--no-speed", action="store_true", help="skip the evaluations-per-second rows")
    parser.add_argument("--record", action="store_true",
                        help="write what was measured to engine/subjects/meta/recorded/")
    args = parser.parse_args()
    header("metaheuristics (seed 001)")
    goal = goal_board(4, 4, "blank-last")
    if not args.no_speed:
        board, _ = scramble(goal, 50, 12345)  # deep enough that no run stops early
        dpso_rate, dpso_s = rate(run_dpso, DPSOParams(iterations=400), board, goal)
        ga_rate, ga_s = rate(run_ga, GAParams(generations=4000), board, goal)
        print(table(["algorithm", "run", "median s", "evaluations/s (one core)"],
                    [["DPSO", "400 iterations x 250", f"{dpso_s:.2f}", f"{dpso_rate:,.0f}"],
                     ["GA", "4,000 generations x 30", f"{ga_s:.2f}", f"{ga_rate:,.0f}"]]))
        print(f"projected full-size single-core time per unsolved trial: DPSO {2_500_000 / dpso_rate:.1f} s, "
              f"GA {1_500_000 / ga_rate:.1f} s")
    if args.clamp:
        measurement = Measurement()
        clamp = clamp_table()
        if args.record:
            print("recorded in", measurement.write("meta", "clamp", clamp))
    if args.selection:
        measurement = Measurement()
        selection = selection_table()
        if args.record:
            print("recorded in", measurement.write("meta", "selection", selection))
    if not args.experiment:
        return
    started = time.perf_counter()
    measurement = Measurement()
    depths = tuple(int(d) for d in args.depths.split(","))
    result = run_experiment(depths=depths, trials=args.trials)
    print(f"\nexperiment: {args.trials} trials x {len(depths)} depths, both algorithms, both cores: "
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
    print("written to .cache/meta-experiment.json")
    if args.record:
        print("recorded in", measurement.write("meta", "experiment", {"figures": figures(result), "result": result}))


if __name__ == "__main__":
    main()
