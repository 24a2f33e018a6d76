"""One search spread over a Dask cluster (engine/domains/tiles/parallel_ida.py) beside the serial IDA*: Korf's
instances one at a time, each solved by the serial kernel in this process and by ``spread_idastar`` on a local
cluster of ``--workers`` one-thread worker processes (or ``PUZZLE_SCHEDULER``'s long lane), the median wall time of
``--runs`` runs each, the nodes expanded, and whether every bound but the last expanded the same nodes.

The spread search's last bound stops wherever its tasks are when one finds a goal, so its count (and the answer among
equally short ones) may differ; the serial kernel orders a node's children by h there and usually finds the goal
early, so the gain is in the bounds before it.

Usage: python bench/spread_ida.py [--instances 3 21] [--heuristic pdb-663] [--workers 2] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from common import ROOT, header, load, table

from engine.core.registry import warm_up
from engine.core.result import Budget, Watch
from engine.domains.tiles.board import Board, goal_board
from engine.domains.tiles.heuristics import heuristic
from engine.domains.tiles.parallel_ida import spread_idastar
from engine.domains.tiles.pools import DaskPool
from engine.domains.tiles.solving import solve_board
from engine.serving.lanes import lane_workers
from tests.support.korf import korf_instances


def warm_worker(name: str) -> bool:
    from engine.domains.tiles import pdb

    warm_up()
    database, _ = pdb.resolve(name, goal_board(4, 4, "blank-first"))
    if database is not None:
        int(database.tables.sum())  # the table's pages into this process's memory
    return True


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--instances", type=int, nargs="+", default=[3, 21], help="Korf's numbers (1-100)")
    parser.add_argument("--heuristic", default="pdb-663")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from distributed import Client, LocalCluster

    header(f"IDA* + {args.heuristic}: serial beside spread over {args.workers} Dask workers")
    goal = goal_board(4, 4, "blank-first")
    address = os.environ.get("PUZZLE_SCHEDULER", "").strip()
    cluster = None if address else LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                                                dashboard_address=None, env={"PYTHONPATH": str(ROOT)})
    warm_worker(args.heuristic)
    rows = []
    with Client(address or cluster, set_as_default=False) as client:
        client.run(warm_worker, args.heuristic)
        pool = DaskPool(client, lane_workers(client, "long"))
        used, loaded, _ = heuristic(args.heuristic).inputs(goal, {})
        korf = {number: (optimum, cells) for number, optimum, cells in korf_instances()}
        for number in args.instances:
            optimum, cells = korf[number]
            board = Board(4, 4, cells)
            serial_times, spread_times, serial, spread = [], [], None, None
            for _ in range(args.runs):
                began = time.perf_counter()
                serial = solve_board(board, goal, "idastar", used, Budget(10**12, 3600))
                serial_times.append(time.perf_counter() - began)
                began = time.perf_counter()
                spread = spread_idastar(board, goal, used, Watch(Budget(10**12, 3600)), pool, loaded=loaded)
                spread_times.append(time.perf_counter() - began)
            same = spread.extra["bounds"][:-1] == serial.extra["bounds"][:-1] and spread.length == serial.length
            before_last = serial.extra["bounds"][-2]["expanded"] if len(serial.extra["bounds"]) > 1 else 0
            rows.append([number, optimum, spread.length, f"{serial.nodes_expanded:,}", f"{spread.nodes_expanded:,}",
                         f"{before_last:,}", f"{statistics.median(serial_times):.3f}",
                         f"{statistics.median(spread_times):.3f}",
                         f"{statistics.median(serial_times) / statistics.median(spread_times):.2f}",
                         "yes" if same else "NO"])
            print(f"#{number} done; {load()}", flush=True)
        pool.close()
    if cluster is not None:
        cluster.close()
    print(table(["#", "optimum", "spread length", "serial expanded", "spread expanded", "before the last bound",
                 "serial s", f"spread s ({pool.workers} workers)", "speed-up", "bounds equal"], rows))
    print(f"\n{load()} at the end")


if __name__ == "__main__":
    main()
