"""Grid shortest paths per query: the compiled A* against SciPy, libtcod and pyastar2d, each query a fresh problem.

Each library gets the map once in its own form (its set-up, timed apart: our padded cells, SciPy's CSR matrix,
tcod's graph, pyastar2d's weights); then every query is timed from the call to the answer, the path as cells and
its cost. Ours is ``solve(GridDomain(grid, start, goal), "astar-compiled")``: a new problem each query,
nothing of an earlier query reused but the map's padded cells (``compiled.padded``, kept while the map lives, as
SciPy's matrix and tcod's graph are built once per map). The rule is the grid's: 8-connected without
corner cutting, a diagonal √2 (Moving AI's), or 4-connected; a move pays the weight of the cell it enters.

* SciPy ``csgraph.dijkstra`` from the start (it cannot stop at a goal: it labels every reachable cell), the path
  from its predecessors;
* libtcod (``tcod.path.Pathfinder`` on a ``CustomGraph``, A* with its own octile heuristic): its costs are whole
  numbers, so a straight move costs S and a diagonal round(S√2) with S as large as its int32 distances allow; the
  diagonal edges carry a condition (both cells beside it open), so it keeps the same rule;
* pyastar2d (C++ A*, 4-connected only: its diagonal rule is another), on the 4-connected maps.

Every answer's cost is recomputed from its path by the rule (a + b√2) and must equal ours to 1e-9: a row says how
many of its queries agree. A library that is not installed (``pip install -e .[bench]``) is skipped with a line.

Sections: ``arena`` (Moving AI's arena, its 130 scenarios), ``random256`` (256² maps, 30 % random walls, corner to
corner, a new map per query), ``four1024`` (1024² 4-connected, 30 % walls), ``eight1024`` (1024² 8-connected).

    PYTHONPATH=. python bench/grid.py [--sections arena,random256,four1024,eight1024] [--runs 3] [--maps 20]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np
from common import ROOT, header, load, table
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from engine.domains.grid.compiled import padded
from engine.domains.grid.model import MOVES, SQRT2, Grid, read_map, read_scenarios
from engine.domains.grid.problem import GridDomain
from engine.search.solve import solve

try:
    import tcod.path
except ImportError:
    tcod = None
try:
    import pyastar2d
except ImportError:
    pyastar2d = None

ARENA = ROOT / "tests" / "data" / "movingai" / "arena.map"
AGREE = 1e-9


def random_grid(size: int, walls: float, seed: int, connect: int) -> Grid:
    cells = np.random.default_rng(seed).random((size, size)) >= walls
    cells[0, 0] = cells[-1, -1] = True
    return Grid(cells, np.ones((size, size)), connect)


def joined_maps(size: int, walls: float, count: int, connect: int, seed: int = 1) -> list[Grid]:
    """The first ``count`` maps from ``seed`` on whose corners are joined (a corner is often shut in)."""
    maps = []
    while len(maps) < count:
        grid = random_grid(size, walls, seed, connect)
        if solve(GridDomain(grid, (0, 0), (size - 1, size - 1), _heuristic(grid)),
                         "astar-compiled").status == "solved":
            maps.append(random_grid(size, walls, seed, connect))  # the same map made again: its set-up not done
        seed += 1
    return maps


def _heuristic(grid: Grid) -> str:
    return "octile" if grid.connect == 8 else "manhattan"


def path_cost(grid: Grid, cells) -> float:
    """The rule's cost of a path of (x, y) cells, its straight and diagonal moves summed apart (a + b√2 when every
    weight is 1), so every library's path is costed alike."""
    cells = np.asarray(cells)
    steps = np.abs(np.diff(cells, axis=0)).sum(axis=1)
    entered = grid.weight[cells[1:, 1], cells[1:, 0]]
    return float(entered[steps == 1].sum() + SQRT2 * entered[steps == 2].sum())


# each library: set-up(grid) -> its form of the map; query(form, grid, start, goal) -> path as (x, y) cells or None

def ours_setup(grid: Grid):
    padded(grid)  # the padded cells the hooks read, kept per map (``compiled.padded``)
    return grid


def ours_query(grid: Grid, _, start, goal):
    result = solve(GridDomain(grid, start, goal, _heuristic(grid)), "astar-compiled")
    return result.extra["path"] if result.status == "solved" else None


def scipy_setup(grid: Grid) -> csr_matrix:
    """The grid's moves as a sparse matrix (cell y × width + x), the same moves and costs as ``Grid.moves``."""
    h, w = grid.open.shape
    ys, xs = np.nonzero(grid.open)
    rows, cols, costs = [], [], []
    inside = np.zeros((h + 2, w + 2), dtype=bool)
    inside[1:-1, 1:-1] = grid.open
    for _, dx, dy in MOVES[:grid.connect]:
        ok = inside[ys + 1 + dy, xs + 1 + dx]
        if dx and dy:
            ok &= inside[ys + 1, xs + 1 + dx] & inside[ys + 1 + dy, xs + 1]
        fy, fx, ty, tx = ys[ok], xs[ok], ys[ok] + dy, xs[ok] + dx
        rows.append(fy * w + fx)
        cols.append(ty * w + tx)
        costs.append((SQRT2 if dx and dy else 1.0) * grid.weight[ty, tx])
    return csr_matrix((np.concatenate(costs), (np.concatenate(rows), np.concatenate(cols))), shape=(h * w, h * w))


def scipy_query(matrix: csr_matrix, grid: Grid, start, goal):
    w = grid.width
    target = goal[1] * w + goal[0]
    distances, predecessors = dijkstra(matrix, indices=start[1] * w + start[0], return_predecessors=True)
    if not np.isfinite(distances[target]):
        return None
    numbers = [target]
    while predecessors[numbers[-1]] >= 0:
        numbers.append(int(predecessors[numbers[-1]]))
    numbers.reverse()
    return [(n % w, n // w) for n in numbers]


def tcod_setup(grid: Grid):
    h, w = grid.open.shape
    straight = 1 if grid.connect == 4 else 2**30 // (3 * (h + w) * 2)  # int32 distances: room for a winding path
    diagonal = round(straight * SQRT2)
    cost = np.where(grid.open, 1, 0).astype(np.int32)
    graph = tcod.path.CustomGraph((h, w))
    inside = np.zeros((h + 2, w + 2), dtype=bool)
    inside[1:-1, 1:-1] = grid.open
    for _, dx, dy in MOVES[:grid.connect]:
        if dx and dy:
            beside = inside[1:-1, 1 + dx:w + 1 + dx] & inside[1 + dy:h + 1 + dy, 1:-1]
            graph.add_edge((dy, dx), diagonal, cost=cost, condition=beside.astype(np.int8))
        else:
            graph.add_edge((dy, dx), straight, cost=cost)
    graph.set_heuristic(cardinal=straight, diagonal=diagonal if grid.connect == 8 else 0)
    return graph


def tcod_query(graph, grid: Grid, start, goal):
    finder = tcod.path.Pathfinder(graph)
    finder.add_root((start[1], start[0]))
    path = finder.path_to((goal[1], goal[0]))
    if len(path) == 0 or tuple(path[-1]) != (goal[1], goal[0]):
        return None
    return path[:, ::-1]


def pyastar_setup(grid: Grid) -> np.ndarray:
    return np.where(grid.open, grid.weight, np.inf).astype(np.float32)


def pyastar_query(weights: np.ndarray, grid: Grid, start, goal):
    path = pyastar2d.astar_path(weights, (start[1], start[0]), (goal[1], goal[0]), allow_diagonal=False)
    return None if path is None else path[:, ::-1]


LIBRARIES = {"compiled A* (ours)": (ours_setup, ours_query, True, True),
             "scipy csgraph.dijkstra": (scipy_setup, scipy_query, True, True),
             "libtcod Pathfinder": (tcod_setup, tcod_query, tcod is not None, True),
             "pyastar2d": (pyastar_setup, pyastar_query, pyastar2d is not None, False)}


def _cpu_and_wall(function, *args):
    started, cpu = time.perf_counter(), time.thread_time()
    value = function(*args)
    return value, time.thread_time() - cpu, time.perf_counter() - started


def compare(title: str, queries: list[tuple[Grid, tuple, tuple]], runs: int) -> None:
    """Times every library on every query (``runs`` rounds, interleaved), and prints the medians."""
    print(f"## {title}: {len(queries)} queries, {runs} rounds each")
    connect = queries[0][0].connect
    libraries = {}
    for name, (setup, query, installed, eight) in LIBRARIES.items():
        if not installed:
            print(f"# {name}: not installed, skipped (pip install -e .[bench])")
        elif connect == 8 and not eight:
            print(f"# {name}: skipped, its 8-connected rule is not this one")
        else:
            libraries[name] = (setup, query)
    setups = {name: [] for name in libraries}
    forms: dict[tuple[str, int], object] = {}
    for grid, _, _ in queries:
        for name, (setup, _) in libraries.items():
            if (name, id(grid)) not in forms:
                form, _, wall = _cpu_and_wall(setup, grid)
                forms[name, id(grid)] = form
                setups[name].append(wall)
    grid, start, goal = queries[0]
    for name, (_, query) in libraries.items():  # load kernels before timing
        query(forms[name, id(grid)], grid, start, goal)
    walls = {name: [[] for _ in queries] for name in libraries}
    cpus = {name: [[] for _ in queries] for name in libraries}
    costs = {name: [None] * len(queries) for name in libraries}
    for _ in range(runs):
        for i, (grid, start, goal) in enumerate(queries):
            for name, (_, query) in libraries.items():
                path, cpu, wall = _cpu_and_wall(query, forms[name, id(grid)], grid, start, goal)
                walls[name][i].append(wall)
                cpus[name][i].append(cpu)
                costs[name][i] = None if path is None else path_cost(grid, path)
    ours = costs["compiled A* (ours)"]
    rows = []
    for name in libraries:
        per_query = [statistics.median(w) for w in walls[name]]
        cpu = [statistics.median(c) for c in cpus[name]]
        agree = sum(a is not None and b is not None and abs(a - b) <= AGREE * max(1.0, b)
                    for a, b in zip(costs[name], ours, strict=True))
        rows.append([name, f"{statistics.median(per_query) * 1000:.3f}", f"{statistics.median(cpu) * 1000:.3f}",
                     f"{sum(per_query) * 1000:.1f}", f"{statistics.median(setups[name]) * 1000:.2f}",
                     f"{agree}/{len(queries)}"])
    print(table(["library", "median ms/query", "CPU ms/query", "all queries ms", "set-up ms/map",
                 "costs equal to ours"], rows))
    solved = [c for c in ours if c is not None]
    print(f"# {len(solved)} of {len(queries)} solved; {load()}\n")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sections", default="arena,random256,four1024,eight1024")
    parser.add_argument("--runs", type=int, default=3, help="rounds over the queries; a query's time is its median")
    parser.add_argument("--maps", type=int, default=20, help="random 256² maps (a query each)")
    parser.add_argument("--big-maps", type=int, default=3, help="random 1024² maps (a query each)")
    parser.add_argument("--walls", type=float, default=0.3)
    args = parser.parse_args()
    header("grid shortest paths per query, fresh problems (bench/grid.py)")
    sections = args.sections.split(",")
    if "arena" in sections:
        grid = read_map(Path(ARENA).read_text())
        scenarios = read_scenarios(Path(f"{ARENA}.scen").read_text())
        compare("Moving AI arena (49×49, 8-connected, octile)", [(grid, s.start, s.goal) for s in scenarios],
                args.runs)
    for name, size, connect, count in (("random256", 256, 8, args.maps), ("four1024", 1024, 4, args.big_maps),
                                       ("eight1024", 1024, 8, args.big_maps)):
        if name in sections:
            maps = joined_maps(size, args.walls, count, connect)
            compare(f"{size}² random maps, {args.walls:.0%} walls, {connect}-connected, corner to corner, a new map "
                    "per query", [(grid, (0, 0), (size - 1, size - 1)) for grid in maps], args.runs)
    print("# ms/query: wall clock of the call to the answer (path as cells and its cost), median over the queries of "
          "each query's median; CPU: this thread's CPU time, which a loaded machine inflates less")
    print(f"# {load()} at the end")


if __name__ == "__main__":
    main()
