"""All 100 of Korf's 15-puzzle instances with IDA* and the additive pattern databases (+ reflection).

For each database (default: pdb-78, then pdb-663 beside it) every instance is solved ``--runs`` times; the table
prints per-instance length, nodes and the median seconds, then the totals: total search time (median over the runs),
mean nodes expanded and generated, and the database's build time and peak memory as recorded when it was built (a
missing table is built first, in a separate process, and that build is reported, never counted in a search).
Every length must equal the published optimum. The machine and its load average are printed first.
``--goal blank-last`` solves each instance half-turned towards the blank-last goal, through the blank-first database
(the same optimum).

``--workers 1 2``: the instances spread over a Dask cluster instead, one instance per task (``--per-task K``: K),
once per worker count (a local cluster of that many one-thread worker processes, or with ``PUZZLE_SCHEDULER`` the
cluster there, all of its workers): the wall time of all 100 (median over the runs), the CPU time the tasks took,
the speed-up over the first count, and whether every answer (length, moves, nodes expanded and generated per
instance) is identical across the counts. The workers load the kernels and read the database into memory before the
clock starts; each run goes round the clusters in turn, so a load that changes meanwhile weighs on each alike.

Usage: python bench/korf100.py [--first N] [--runs R] [--heuristic pdb-78 ...] [--goal blank-first|blank-last]
                               [--workers 1 2 [--per-task K]]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

from common import ROOT, header, load, table

from engine.core.registry import warm_up
from engine.core.result import Budget
from engine.domains.tiles import pdb
from engine.domains.tiles.board import Board, goal_board, half_turn
from engine.domains.tiles.solving import solve_board
from engine.serving import store
from tests.support.korf import korf_instances

#: The goal the databases are built for (the blank-last goal reads them through the half-turn).
STORED = goal_board(4, 4, "blank-first")


def ensure_built(grouping: str, goal_name: str) -> None:
    goal = goal_board(4, 4, goal_name)
    if pdb.is_built(grouping, goal):
        return
    print(f"{grouping}/{goal_name} is missing: building it in a separate process ...", flush=True)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "engine", "tables", "build", "--only", f"{grouping}/{goal_name}"],
                   cwd=ROOT, check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    print(f"built in {time.perf_counter() - start:.0f} s (wall, including the process start)\n", flush=True)


def run(heuristic: str, instances, goal: Board, runs: int) -> dict:
    rows, totals, nodes, generated, wrong = [], [], 0, 0, 0
    per_instance = []
    for number, optimum, cells in instances:
        board = Board(4, 4, cells)
        if goal.blank != 0:
            board = half_turn(board)  # the same instance, turned to face the blank-last goal
        times, result = [], None
        for _ in range(runs):
            result = solve_board(board, goal, "idastar", heuristic, Budget(10**12, 3600))
            times.append(result.seconds)
        ok = result.length == optimum and goal == board.apply(result.moves) and result.heuristic == heuristic
        wrong += not ok
        nodes += result.nodes_expanded
        generated += result.nodes_generated
        per_instance.append(times)
        rows.append([number, optimum, result.length, "yes" if ok else "NO", f"{result.nodes_expanded:,}",
                     f"{statistics.median(times):.4f}"])
    for r in range(runs):
        totals.append(sum(times[r] for times in per_instance))
    return {"rows": rows, "total": statistics.median(totals), "totals": totals, "mean_nodes": nodes / len(rows),
            "mean_generated": generated / len(rows), "all_optimal": wrong == 0}


def solve_instances(instances: list[tuple[int, ...]], heuristic: str, goal_name: str) -> list[dict]:
    """One task, in a Dask worker: each instance's answer, counts and the thread's CPU time."""
    goal = goal_board(4, 4, goal_name)
    answers = []
    for cells in instances:
        board = Board(4, 4, cells)
        if goal.blank != 0:
            board = half_turn(board)
        began = time.thread_time()
        result = solve_board(board, goal, "idastar", heuristic, Budget(10**12, 3600))
        answers.append({"length": result.length, "moves": result.moves, "expanded": result.nodes_expanded,
                        "generated": result.nodes_generated, "heuristic": result.heuristic,
                        "seconds": result.seconds, "cpu": time.thread_time() - began})
    return answers


def warm_worker(heuristic: str) -> float:
    """Load the kernels and read the database into this process's memory (not counted)."""
    began = time.perf_counter()
    warm_up()
    if heuristic in pdb.GROUPINGS:
        int(pdb.load(heuristic, STORED).tables.sum())
    return time.perf_counter() - began


def spread_once(client, heuristic: str, instances, goal_name: str, per_task: int) -> tuple[float, list[dict]]:
    """One run: the instances as tasks of ``per_task`` each (dealt in turn, so that hard neighbours part); its wall
    time and every instance's answer, in order."""
    start = time.perf_counter()
    tasks = -(-len(instances) // per_task)
    futures = [client.submit(solve_instances, [cells for _, _, cells in instances[i::tasks]], heuristic, goal_name,
                             pure=False) for i in range(tasks)]
    parts = client.gather(futures)
    wall = time.perf_counter() - start
    return wall, [parts[i % tasks][i // tasks] for i in range(len(instances))]


def main_spread(args, heuristics: list[str]) -> None:
    """One cluster per worker count (or ``PUZZLE_SCHEDULER``'s alone), all started and warmed first; then each run
    goes round the clusters in turn, so that a load that changes meanwhile weighs on every count alike."""
    from distributed import Client, LocalCluster

    instances = korf_instances()[:args.first]
    address = os.environ.get("PUZZLE_SCHEDULER", "").strip()
    counts = [0] if address else args.workers
    clusters = [None if address else LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                                  dashboard_address=None, env={"PYTHONPATH": str(ROOT)})
                for n in counts]
    clients = [Client(address or cluster, set_as_default=False) for cluster in clusters]
    counts = [sum(w["nthreads"] for w in client.scheduler_info(n_workers=-1)["workers"].values())
              for client in clients]
    for heuristic in heuristics:
        warm = [max(client.run(warm_worker, heuristic).values()) for client in clients]
        walls, cpus, answers = ([[] for _ in clients] for _ in range(3))
        for _ in range(args.runs):
            for k, client in enumerate(clients):
                wall, run_answers = spread_once(client, heuristic, instances, args.goal, args.per_task)
                walls[k].append(wall)
                cpus[k].append(sum(answer["cpu"] for answer in run_answers))
                answers[k] = run_answers
            print(f"  a run on each cluster; {load()}", flush=True)

        def key(answer: dict) -> tuple:
            return answer["length"], answer["moves"], answer["expanded"], answer["generated"]

        rows = []
        for k, workers in enumerate(counts):
            wrong = sum(a["length"] != optimum or a["heuristic"] != heuristic
                        for a, (_, optimum, _) in zip(answers[k], instances, strict=True))
            same = [key(a) for a in answers[k]] == [key(a) for a in answers[0]]
            rows.append([workers, f"{statistics.median(walls[k]):.3f}", " ".join(f"{w:.3f}" for w in walls[k]),
                         f"{statistics.median(cpus[k]):.3f}",
                         f"{statistics.median(walls[0]) / statistics.median(walls[k]):.2f}",
                         "yes" if not wrong else f"NO ({wrong})", "yes" if same else "NO", f"{warm[k]:.1f}"])
        print(f"\nIDA* + {heuristic}, {len(instances)} instances, {args.per_task} per task:")
        print(table(["workers", "wall s (median)", "each run", "task CPU s (median)", "speed-up",
                     "all optimal", "answers identical to the first", "warm-up s (not counted)"], rows))
    for client, cluster in zip(clients, clusters, strict=True):
        client.close()
        if cluster is not None:
            cluster.close()
    print(f"\n{load()} at the end")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--first", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--heuristic", action="append", help="pdb-78, pdb-663 (repeatable; default both)")
    parser.add_argument("--goal", choices=("blank-first", "blank-last"), default="blank-first",
                        help="blank-last: each instance half-turned, solved through the blank-first database")
    parser.add_argument("--workers", type=int, nargs="+",
                        help="spread the instances over Dask clusters of these many workers, one instance per task")
    parser.add_argument("--per-task", type=int, default=1, help="with --workers: instances per task (default 1)")
    args = parser.parse_args()
    heuristics = args.heuristic or ["pdb-78", "pdb-663"]
    header(f"Korf's 100 instances, IDA* + {', '.join(heuristics)}, goal {args.goal}")
    goal = goal_board(4, 4, args.goal)
    for heuristic in heuristics:
        if heuristic in pdb.GROUPINGS:
            ensure_built(heuristic, args.goal)
    if args.workers:
        main_spread(args, heuristics)
        return
    warm = warm_up()
    print(f"kernels loaded/compiled in {warm:.1f} s (not counted below)")
    for heuristic in heuristics:
        if heuristic in pdb.GROUPINGS:
            start = time.perf_counter()
            int(pdb.load(heuristic, STORED).tables.sum())  # read the memory-mapped file once: disk to page cache
            print(f"{heuristic} read into the page cache in {time.perf_counter() - start:.1f} s (not counted below)")
    print()
    summary = []
    for heuristic in heuristics:
        result = run(heuristic, korf_instances()[:args.first], goal, args.runs)
        print(f"IDA* + {heuristic}:")
        print(table(["#", "optimum", "found", "ok", "expanded", "median s"], result["rows"]))
        meta = store.meta(pdb.artefact(heuristic, STORED)) if heuristic in pdb.GROUPINGS else {}
        build = (f"{meta.get('build_seconds', '?')} s, peak {meta.get('peak_bytes', 0) / 1e9:.2f} GB"
                 if meta else "-")
        summary.append([heuristic, len(result["rows"]), "yes" if result["all_optimal"] else "NO",
                        f"{result['total']:.2f}", " ".join(f"{t:.2f}" for t in result["totals"]),
                        f"{result['mean_nodes']:,.0f}", f"{result['mean_generated']:,.0f}", build])
        print()
    print(f"load average after the runs: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    print(table(["database", "instances", "all optimal", "total s (median)", "each run", "mean expanded",
                 "mean generated", "build (recorded at build time)"], summary))


if __name__ == "__main__":
    main()
