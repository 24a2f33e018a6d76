"""The k-column sub-problem of seed 000 (Thm 1.2 / 4.1, Tables 3 and 5).

On the 2×n board with the paper's goal (blank in cell 0, tile t in cell t), only the 2k tiles whose goal cells lie in
the rightmost k columns are told apart; every other tile is an indistinguishable X. A state is the cells of those 2k
tiles and of the blank. Its goal is every state with the 2k tiles home (the blank anywhere else): from there the
rightmost k columns never need to move again and what is left is a 2×(n−k) puzzle. A multi-source breadth-first
search from all goal states gives each state's distance; f_k(n) is the largest. For k = 1 there are
2n(2n−1)(2n−2) states.

States are numbered by the rank of a partial permutation (``engine.domains.tiles.ranking``: digits, how many still-free
cells lie below each item's cell), so the distance table has exactly P(2n, 2k+1) entries.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.core.errors import PuzzleError
from engine.core.result import Watch
from engine.core.status import Status
from engine.domains.tiles.board import MOVES
from engine.domains.tiles.goal_arrays import neighbor_table
from engine.domains.tiles.ranking import lexicographic_radix
from engine.domains.tiles.ranking_kernels import rank_of_positions, unrank_positions

UNREACHED = 65535
MAX_STATES = 200_000_000


def state_count(n: int, k: int) -> int:
    """P(2n, m) with m = distinguished tiles + the blank (2k + 1, or 2k when the blank's goal cell is among them)."""
    total = 1
    for i in range(len(distinguished_tiles(n, k)) + 1):
        total *= 2 * n - i
    return total


@njit(cache=True, nogil=True)
def subproblem_bfs_run(distance, queue, cursor, neighbors, radix, quota):
    """Resumable FIFO breadth-first search. ``cursor`` = [head, tail]; returns 1 when done, 0 when paused."""
    m = radix.shape[0]
    items = np.empty(m, dtype=np.int64)
    done = 0
    while cursor[0] < cursor[1]:
        rank = queue[cursor[0]]
        cursor[0] += 1
        level = distance[rank]
        unrank_positions(rank, radix, items)
        blank = items[m - 1]
        for d in range(4):
            target = neighbors[blank, d]
            if target < 0:
                continue
            moved = -1
            for i in range(m - 1):
                if items[i] == target:
                    moved = i
            items[m - 1] = target
            if moved >= 0:
                items[moved] = blank
            child = rank_of_positions(items, radix)
            if moved >= 0:
                items[moved] = target
            items[m - 1] = blank
            if distance[child] == 65535:
                distance[child] = level + 1
                queue[cursor[1]] = child
                cursor[1] += 1
        done += 1
        if done >= quota:
            return 0
    return 1


def distinguished_tiles(n: int, k: int) -> list[int]:
    """Tiles whose goal cells are in the rightmost k columns (row-major goal, blank in cell 0)."""
    return [t for t in range(1, 2 * n) if t % n >= n - k]


def solve_subproblem(n: int, k: int, watch: Watch | None = None, blank_home: bool = True) -> dict:
    """f_k(n), the number of states at each distance, and a hardest state with an optimal blank path."""
    if not 1 <= k <= n:
        raise PuzzleError("k must be between 1 and n")
    if n > 200:
        raise PuzzleError("n is limited to 200")
    total = state_count(n, k)
    if total > MAX_STATES:
        raise PuzzleError(f"the {k}-column sub-problem of 2×{n} has {total:,} states; at most {MAX_STATES:,} fit "
                          f"this machine's budget")
    watch = watch or Watch()
    tiles = distinguished_tiles(n, k)
    m = len(tiles) + 1
    n_cells = 2 * n
    neighbors = neighbor_table(2, n)
    radix = lexicographic_radix(m, n_cells)
    distance = np.full(total, UNREACHED, dtype=np.uint16)
    queue = np.empty(total, dtype=np.int64 if total > 2**31 - 1 else np.int32)
    cursor = np.zeros(2, dtype=np.int64)
    occupied = set(tiles)
    for blank in ([0] if blank_home else range(n_cells)):
        if blank in occupied:
            continue
        rank = rank_of_positions(np.array(tiles + [blank], dtype=np.int64), radix)
        distance[rank] = 0
        queue[cursor[1]] = rank
        cursor[1] += 1
    while not subproblem_bfs_run(distance, queue, cursor, neighbors, radix, 2_000_000):
        watch.report(cursor[0] / total, {"nodes": int(cursor[0]),
                                         "text": f"{cursor[0]:,} of {total:,} states expanded"})
        if watch.cancel is not None and watch.cancel.is_set():
            return {"status": Status.CANCELLED, "n": n, "k": k}
    hardest_rank = int(queue[cursor[1] - 1])  # BFS order: the last state settled is among the farthest
    longest = int(distance[hardest_rank])
    histogram = np.bincount(distance[distance != UNREACHED]).tolist()
    items = np.empty(m, dtype=np.int64)
    unrank_positions(hardest_rank, radix, items)
    position = ["X"] * n_cells
    for tile, cell in zip(tiles, items[:-1], strict=True):
        position[int(cell)] = tile
    position[int(items[-1])] = 0
    return {"status": Status.DONE, "n": n, "k": k, "blank_home": blank_home, "f": longest, "states": total,
            "histogram": histogram,
            "hardest": position, "blank_path": _descend(distance, items, neighbors, radix),
            "hardest_count": int((distance == longest).sum()), "seconds": watch.elapsed}


def _descend(distance, items, neighbors, radix) -> str:
    """An optimal blank path from a state to the sub-problem's goal, read off the distance table."""
    items = items.copy()
    path = []
    d = int(distance[rank_of_positions(items, radix)])
    while d > 0:
        blank = int(items[-1])
        for move in range(4):
            target = int(neighbors[blank, move])
            if target < 0:
                continue
            trial = items.copy()
            trial[-1] = target
            for i in range(len(items) - 1):
                if trial[i] == target:
                    trial[i] = blank
            if int(distance[rank_of_positions(trial, radix)]) == d - 1:
                items, d = trial, d - 1
                path.append(MOVES[move])
                break
    return "".join(path)
