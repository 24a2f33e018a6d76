"""All 100 of Korf's 15-puzzle instances with IDA* and the additive pattern databases (+ reflection).

For each database (default: pdb-78, then pdb-663 beside it) every instance is solved ``--runs`` times; the table
prints per-instance length, nodes and the median seconds, then the totals: total search time (median over the runs),
mean nodes expanded and generated, and the database's build time and peak memory as recorded when it was built (a
missing table is built first, in a separate process, and that build is reported, never counted in a search).
Every length must equal the published optimum. The machine and its load average are printed first.
``--goal blank-last`` solves each instance half-turned towards the blank-last goal, through the blank-first database
(the same optimum).

``--workers 1 2``: the instances as one batch over a Dask cluster instead (``engine.domains.tiles.batch.solve_boards``,
what the ``solve-batch`` job and ``python -m engine solve-batch`` run: guided chunks, two per worker at a time,
taken from a Dask queue by one long-lived task per worker thread), once
per worker count (the embedded cluster the app starts, ``engine.serving.lanes.start_local_cluster``, with that many
long-lane worker processes of one thread each and no interactive one; or with ``PUZZLE_SCHEDULER`` that cluster's
long lane): the wall time from the first chunk sent to the last answer (median over the runs, workers
warm: kernels loaded and the database read before the clock starts), the speed-up over the first count, the chunks,
whether every answer (length, moves, nodes expanded and generated per instance) is identical across the counts; then
where the CPU went (the solves, the worker processes, this process: the client and the local scheduler, Dask's idle
tick), the speed-up that CPU allows on an idle machine (what a loaded machine's wall times cannot show), and the
longest instances' share. Each run goes round the clusters in turn, so a load that changes meanwhile weighs on each
alike. ``--one-per-task``: every chunk one instance (what a chunk per instance costs, for comparison).

Usage: python bench/korf100.py [--first N] [--runs R] [--heuristic pdb-78 ...] [--goal blank-first|blank-last]
                               [--workers 1 2 [--one-per-task]]
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
from engine.domains.tiles import chunks, pdb
from engine.domains.tiles.batch import solve_boards
from engine.domains.tiles.board import Board, goal_board, half_turn
from engine.domains.tiles.pools import DaskPool, ThreadPool
from engine.domains.tiles.solving import solve_board
from engine.serving import store
from engine.serving.lanes import lane_workers
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


def warm_worker(heuristic: str) -> float:
    """Load the kernels and read the database into this process's memory (not counted)."""
    began = time.perf_counter()
    warm_up()
    if heuristic in pdb.GROUPINGS:
        int(pdb.load(heuristic, STORED).tables.sum())
    return time.perf_counter() - began


def process_cpu() -> float:
    return time.process_time()


def idle_tick(client, addresses: list[str], seconds: float = 2.0) -> tuple[float, float]:
    """The CPU a cluster burns per second of wall time with nothing to do: per worker (the mean), and in this
    process (the client and a local scheduler)."""
    workers, here, began = client.run(process_cpu, workers=addresses), time.process_time(), time.perf_counter()
    time.sleep(seconds)
    after, here_after = client.run(process_cpu, workers=addresses), time.process_time()
    wall = time.perf_counter() - began
    return (statistics.mean(after[w] - workers[w] for w in workers) / wall, (here_after - here) / wall)


def spread_once(client, pool, heuristic: str, boards: list[Board], goal: Board) -> dict:
    """One run of the batch (``engine.domains.tiles.batch.solve_boards``, as the ``solve-batch`` job and CLI run it):
    its wall time from the first chunk sent to the last answer, and the CPU it took in each worker process (the
    solves and Dask's side of them) and in this one (the client, and a local cluster's scheduler)."""
    workers_before, here_before = client.run(process_cpu, workers=pool.addresses), time.process_time()
    out = solve_boards(boards, goal, "idastar", heuristic, Budget(10**12, 3600), pool)
    workers_after, here_after = client.run(process_cpu, workers=pool.addresses), time.process_time()
    return {"wall": out["seconds"], "answers": out["results"], "tasks": out["tasks"],
            "solves": sum(answer["cpu"] for answer in out["results"]),
            "workers": {w: workers_after[w] - workers_before[w] for w in workers_before},
            "here": here_after - here_before}


def answer_key(answer: dict) -> tuple:
    """What must be identical whatever the number of workers."""
    return answer["length"], answer["moves"], answer["nodes_expanded"], answer["nodes_generated"]


def cpu_figures(runs: list[dict], tick: tuple[float, float]) -> dict:
    """Medians over the runs of one cluster: the solves' CPU, the worker processes' (all, and the busiest one's), this
    process's, what is not a solve, the idle tick's part (``idle_tick`` times the run's wall time), and the two lower
    bounds of a run's time on an idle machine with the idle tick left out (it grows with the wall time the load
    stretches): the busiest worker's CPU (``busy``), and all CPU (``whole``, to be shared by the cores)."""
    worker_tick, here_tick = tick

    def median(figure) -> float:
        return statistics.median(figure(run) for run in runs)

    def idle(run: dict) -> float:
        return run["wall"] * (worker_tick * len(run["workers"]) + here_tick)

    figures = {"solves": median(lambda run: run["solves"]),
               "workers": median(lambda run: sum(run["workers"].values())),
               "busiest": median(lambda run: max(run["workers"].values())),
               "here": median(lambda run: run["here"]),
               "idle": median(idle),
               "busy": median(lambda run: max(run["workers"].values()) - run["wall"] * worker_tick),
               "whole": median(lambda run: sum(run["workers"].values()) + run["here"] - idle(run))}
    figures["other"] = figures["workers"] + figures["here"] - figures["solves"]
    figures["other_share"] = figures["other"] / (figures["workers"] + figures["here"])
    return figures


def idle_bound(cpu: dict, workers: int, cores: int, solves: float) -> float:
    """The least a run could take on an idle machine, from ``cpu_figures`` with the solves' CPU taken as
    ``solves``: its busiest worker's CPU, and when the workers take every core, all its CPU over the cores."""
    shift = solves - cpu["solves"]
    busy = cpu["busy"] + shift / max(1, workers)
    return max(busy, (cpu["whole"] + shift) / cores) if workers >= cores else busy


def main_spread(args, heuristics: list[str]) -> None:
    """One cluster per worker count (or ``PUZZLE_SCHEDULER``'s alone), all started and warmed first; then each run
    goes round the clusters in turn, so that a load that changes meanwhile weighs on every count alike."""
    from distributed import Client

    from engine.serving.lanes import LocalWorkers, start_local_cluster

    if args.one_per_task:
        chunks.GUIDE = len(korf_instances())  # every chunk one board: what a task costs, for comparison
    instances = korf_instances()[:args.first]
    goal = goal_board(4, 4, args.goal)
    boards = [Board(4, 4, cells) if goal.blank == 0 else half_turn(Board(4, 4, cells)) for _, _, cells in instances]
    address = os.environ.get("PUZZLE_SCHEDULER", "").strip()
    counts = [0] if address else args.workers
    clusters = [None if address else start_local_cluster(LocalWorkers(long=n, interactive=0), memory_limit=2**31,
                                                         env={"PYTHONPATH": str(ROOT)})
                for n in counts]
    clients = [Client(address or cluster, set_as_default=False) for cluster in clusters]
    pools = [DaskPool(client, lane_workers(client, "long")) for client in clients]
    counts = [pool.workers for pool in pools]
    cores = os.cpu_count() or 1
    for heuristic in heuristics:
        warm = [max(client.run(warm_worker, heuristic).values()) for client in clients]
        ticks = [idle_tick(client, pool.addresses) for client, pool in zip(clients, pools, strict=True)]
        runs = [[] for _ in clients]
        for r in range(args.runs):
            for k, (client, pool) in enumerate(zip(clients, pools, strict=True)):
                runs[k].append(spread_once(client, pool, heuristic, boards, goal))
            print(f"  run {r + 1}: " + ", ".join(f"{n} worker(s) {runs[k][-1]['wall']:.3f} s"
                                                  for k, n in enumerate(counts)) + f"; {load()}", flush=True)

        rows, cpu_rows, cpus = [], [], []
        walls = [statistics.median(run["wall"] for run in runs_k) for runs_k in runs]
        first = [answer_key(a) for a in runs[0][0]["answers"]]
        for k, workers in enumerate(counts):
            answers = runs[k][-1]["answers"]
            wrong = sum(a["length"] != optimum or a["heuristic"] != heuristic
                        for a, (_, optimum, _) in zip(answers, instances, strict=True))
            same = all([answer_key(a) for a in run["answers"]] == first for run in runs[k])
            rows.append([workers, f"{walls[k]:.3f}", " ".join(f"{run['wall']:.3f}" for run in runs[k]),
                         f"{walls[0] / walls[k]:.2f}", runs[k][-1]["tasks"], "yes" if not wrong else f"NO ({wrong})",
                         "yes" if same else "NO", f"{warm[k]:.1f}"])
            cpu = cpu_figures(runs[k], ticks[k])
            cpu_rows.append([workers, f"{cpu['solves']:.3f}", f"{cpu['workers']:.3f}", f"{cpu['busiest']:.3f}",
                             f"{cpu['here']:.3f}", f"{cpu['other']:.3f} ({cpu['other_share']:.0%})",
                             f"{cpu['idle']:.3f}"])
            cpus.append(cpu)
        print(f"\nIDA* + {heuristic}, {len(instances)} instances as one batch "
              f"({'one board per chunk' if args.one_per_task else 'in guided chunks: large first, small last'}"
              f"), median of {args.runs} runs (wall: from the first chunk sent to the last answer, workers warm):")
        print(table(["workers", "wall s (median)", "each run", "speed-up (wall)", "chunks", "all optimal",
                     "answers identical (length, moves, nodes)", "warm-up s (not counted)"], rows))
        print("\nCPU seconds per run (medians). solves: each solve's thread CPU (its setup included); worker "
              "processes: all their CPU (the solves and Dask's side); this process: the client and the local "
              "scheduler; not solving: the CPU that is not a solve (and its share); idle tick: what Dask's processes "
              f"burn per second of wall time even with nothing to do ({ticks[0][0]:.3f} per worker, "
              f"{ticks[0][1]:.3f} here, measured before the runs) times this run's wall time:")
        print(table(["workers", "solves", "worker processes", "busiest worker", "this process", "not solving",
                     "idle tick"], cpu_rows))
        measured = [idle_bound(cpu, workers, cores, cpu["solves"]) for cpu, workers in zip(cpus, counts, strict=True)]
        alike = [idle_bound(cpu, workers, cores, cpus[0]["solves"]) for cpu, workers in zip(cpus, counts, strict=True)]
        print(f"speed-up the CPU allows on an idle {cores}-core machine (a run lasts at least its busiest worker's "
              "CPU, and all its CPU over the cores when the workers take them all; idle ticks left out): "
              + ", ".join(f"{counts[k]} worker(s) {measured[0] / measured[k]:.2f}" for k in range(len(counts)))
              + "; with every count's solves taking the first count's CPU (the overheads alone): "
              + ", ".join(f"{counts[k]} worker(s) {alike[0] / alike[k]:.2f}" for k in range(len(counts)))
              + " (the same solves took " + ", ".join(f"{cpus[k]['solves'] / cpus[0]['solves'] - 1:+.0%}"
                                                      for k in range(1, len(counts)))
              + " CPU on more workers: memory and caches shared with each other and the machine's other work)")
        longest = sorted(zip(runs[0][-1]["answers"], instances, strict=True), key=lambda pair: -pair[0]["cpu"])[:3]
        total = runs[0][-1]["solves"]
        print("longest instances, their share of all solves' CPU: "
              + ", ".join(f"#{number} {answer['cpu'] * 1000:.1f} ms ({answer['cpu'] / total:.1%})"
                          for answer, (number, _, _) in longest)
              + f"; a perfect split of the solves over two workers: {total / max(total / 2, longest[0][0]['cpu']):.2f}")
    for client, cluster, pool in zip(clients, clusters, pools, strict=True):
        pool.close()
        client.close()
        if cluster is not None:
            cluster.close()
    print(f"\n{load()} at the end")


def main_threads(args, heuristics: list[str], goal: Board) -> None:
    """The batch on thread pools of each size in ``--threads``, taken in turn within each run (a load that changes
    meanwhile weighs on each alike): wall medians, the speed-up over the first size, answers identical."""
    boards = [Board(4, 4, cells) if goal.blank == 0 else half_turn(Board(4, 4, cells))
              for _, _, cells in korf_instances()[:args.first]]
    for heuristic in heuristics:
        warm_worker(heuristic)
        walls: dict[int, list[float]] = {n: [] for n in args.threads}
        answers: dict[int, list] = {}
        for run in range(args.runs):
            for n in args.threads:
                pool = ThreadPool(n)
                try:
                    out = solve_boards(boards, goal, "idastar", heuristic, Budget(10**12, 3600), pool)
                finally:
                    pool.close()
                walls[n].append(out["seconds"])
                answers.setdefault(n, [answer_key(a) for a in out["results"]])
                assert answers[n] == [answer_key(a) for a in out["results"]], "answers differ between runs"
            print(f"  run {run + 1}: " + ", ".join(f"{n} thread(s) {walls[n][-1]:.3f} s" for n in args.threads)
                  + f"; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        first = statistics.median(walls[args.threads[0]])
        rows = [[n, f"{statistics.median(walls[n]):.3f}", " ".join(f"{w:.3f}" for w in walls[n]),
                 f"{first / statistics.median(walls[n]):.2f}",
                 "yes" if answers[n] == answers[args.threads[0]] else "NO"] for n in args.threads]
        print(f"\nIDA* + {heuristic}, {len(boards)} instances as one batch on this process's threads, median of "
              f"{args.runs} runs:")
        print(table(["threads", "wall s (median)", "each run", "speed-up", "answers identical (length, moves, nodes)"],
                    rows))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--first", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--heuristic", action="append", help="pdb-78, pdb-663 (repeatable; default both)")
    parser.add_argument("--goal", choices=("blank-first", "blank-last"), default="blank-first",
                        help="blank-last: each instance half-turned, solved through the blank-first database")
    parser.add_argument("--workers", type=int, nargs="+",
                        help="spread the instances over Dask clusters of these many workers, one instance per task")
    parser.add_argument("--threads", type=int, nargs="+",
                        help="the same batch on this process's threads instead (what `python -m engine solve-batch` "
                             "runs without PUZZLE_SCHEDULER): no Dask task, no scheduler, one copy of the tables")
    parser.add_argument("--one-per-task", action="store_true",
                        help="with --workers: every chunk one board (what a chunk per instance costs, to compare)")
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
    if args.threads:
        main_threads(args, heuristics, goal)
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
