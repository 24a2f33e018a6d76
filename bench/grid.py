"""The compiled grid A* against SciPy's Dijkstra on one map: a 1024×1024 grid with 30 % random walls (seeded),
8-connected without corner cutting, from the top-left corner to the bottom-right one.

Prints the medians of several runs of: the compiled A* (octile, its own search seconds), the compiled A* with h = 0
(Dijkstra's order, stopping at the goal), the readable A* once (it takes seconds), and
``scipy.sparse.csgraph.dijkstra`` from the start on the same graph (its CSR matrix built beforehand, not timed;
it labels every reachable cell, as it cannot stop at a goal). The costs must agree.

    PYTHONPATH=. python bench/grid.py [--size 1024] [--walls 0.3] [--seed 1] [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from common import header, load, median_time, table
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from engine.core.result import Budget
from engine.domains.grid.model import MOVES, SQRT2, Grid
from engine.domains.grid.problem import GridDomain
from engine.search.algorithms import astar_search
from engine.search.compiled import compiled_astar


def random_grid(size: int, walls: float, seed: int) -> Grid:
    cells = np.random.default_rng(seed).random((size, size)) >= walls
    cells[0, 0] = cells[-1, -1] = True
    return Grid(cells, np.ones((size, size)), 8)


def connected_grid(size: int, walls: float, seed: int) -> tuple[Grid, int]:
    """The first map from ``seed`` on whose corners are joined (at 30 % walls a corner is often shut in)."""
    while True:
        grid = random_grid(size, walls, seed)
        if compiled_astar(GridDomain(grid, (0, 0), (size - 1, size - 1), "octile")).status == "solved":
            return grid, seed
        seed += 1


def csr_of(grid: Grid) -> csr_matrix:
    """The grid's moves as a sparse matrix (cell y × width + x), the same moves and costs as ``Grid.moves``."""
    h, w = grid.open.shape
    ys, xs = np.nonzero(grid.open)
    rows, cols, costs = [], [], []
    padded = np.zeros((h + 2, w + 2), dtype=bool)
    padded[1:-1, 1:-1] = grid.open
    for _, dx, dy in MOVES:
        ok = padded[ys + 1 + dy, xs + 1 + dx]
        if dx and dy:
            ok &= padded[ys + 1, xs + 1 + dx] & padded[ys + 1 + dy, xs + 1]
        fy, fx, ty, tx = ys[ok], xs[ok], ys[ok] + dy, xs[ok] + dx
        rows.append(fy * w + fx)
        cols.append(ty * w + tx)
        costs.append((SQRT2 if dx and dy else 1.0) * grid.weight[ty, tx])
    return csr_matrix((np.concatenate(costs), (np.concatenate(rows), np.concatenate(cols))), shape=(h * w, h * w))


def _cpu(function, *args, **kwargs):
    """(what the call returns, this thread's CPU seconds for it)."""
    started = time.thread_time()
    value = function(*args, **kwargs)
    return value, time.thread_time() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--walls", type=float, default=0.3)
    parser.add_argument("--seed", type=int, default=1, help="the first seed tried (see connected_grid)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    grid, seed = connected_grid(args.size, args.walls, args.seed)
    header(f"grid A*: {args.size}×{args.size}, {args.walls:.0%} random walls (seed {seed}), corner to corner")
    start, goal = (0, 0), (args.size - 1, args.size - 1)
    rows = []
    for heuristic in ("octile", "zero"):
        problem = GridDomain(grid, start, goal, heuristic)
        compiled_astar(problem)  # load (or compile) the kernel before timing
        searches = [_cpu(compiled_astar, problem) for _ in range(args.runs)]
        seconds = statistics.median(r.seconds for r, _ in searches)
        cpu = statistics.median(c for _, c in searches)
        wall, result = median_time(lambda p=problem: compiled_astar(p), args.runs)
        rows.append([f"compiled A*, {heuristic}", f"{seconds * 1000:.1f}", f"{cpu * 1000:.1f}", f"{wall * 1000:.1f}",
                     f"{result.nodes_expanded:,}", f"{result.extra['cost']:.6f}"])
    started = time.perf_counter()
    readable = astar_search(GridDomain(grid, start, goal, "octile"), Budget(max_seconds=600))
    readable_seconds = time.perf_counter() - started
    rows.append(["readable A*, octile (1 run)", f"{readable_seconds * 1000:.0f}", "", f"{readable_seconds * 1000:.0f}",
                 f"{readable.nodes_expanded:,}", "(as above)" if readable.status == "solved" else readable.status])
    matrix = csr_of(grid)
    index = start[1] * args.size + start[0]
    wall, distances = median_time(lambda: dijkstra(matrix, indices=index), args.runs)
    cpu = statistics.median(_cpu(dijkstra, matrix, indices=index)[1] for _ in range(args.runs))
    rows.append(["scipy csgraph.dijkstra (all cells)", f"{wall * 1000:.1f}", f"{cpu * 1000:.1f}", f"{wall * 1000:.1f}",
                 f"{int(np.isfinite(distances).sum()):,} reached",
                 f"{distances[goal[1] * args.size + goal[0]]:.6f}"])
    print(table(["search", "search ms", "CPU ms", "call ms", "nodes expanded", "cost"], rows))
    print("\n# medians of the runs; search ms: the search's own clock (A*: from its arrays' set-up to the goal, the "
          "path's decoding not included); CPU ms: this thread's CPU time for the whole call, which a loaded machine "
          "inflates less than the clock")
    print(f"\n# {load()} at the end")


if __name__ == "__main__":
    main()
