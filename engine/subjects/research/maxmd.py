"""The Manhattan lower bound of seed 000: the largest Manhattan distance over all solvable positions of 2×n.

Goal: blank in cell 0, tile t in cell t (row-major). A position is solvable iff the parity of its permutation equals
the parity of the blank's distance from cell 0 (Thm 2.1).

Two methods:

* ``max_md_brute``: every one of the (2n)! arrangements, as the paper did (n ≤ 6), by Heap's algorithm (each step is
  one swap, so the Manhattan sum and the parity update in O(1)), split across cores by the content of the last cell.
* ``max_md_exact``: no enumeration. Fix the blank's cell b; then the best arrangement of the tiles is a maximum-weight
  assignment of tiles to the other cells (SciPy's ``linear_sum_assignment``). Its permutation may have the wrong
  parity for b. Murty's ranking of assignments (best first, each solution splitting its subproblem by fixing a prefix
  of its pairs and forbidding the next) lists assignments in decreasing weight; one best-first search over all blank
  cells at once stops at the first assignment of the right parity, which is therefore the optimum. Ties abound in
  Manhattan weights, so a right-parity assignment turns up after a handful of steps even for n = 100.
"""

from __future__ import annotations

import heapq
import itertools
import math
import os
from functools import partial

import numpy as np
from numba import njit, prange
from scipy.optimize import linear_sum_assignment

from engine.core.errors import PuzzleError
from engine.core.status import Status
from engine.domains.tiles.solvability import permutation_parity
from engine.serving.background import run_tasks
from engine.serving.parallel import PARALLEL_LOCK

BRUTE_MAX_N = 6
EXACT_MAX_N = 100


def cell_distance(a: int, b: int, cols: int) -> int:
    return abs(a // cols - b // cols) + abs(a % cols - b % cols)


def distance_matrix(n: int) -> np.ndarray:
    cells = 2 * n
    return np.array([[cell_distance(a, b, n) for b in range(cells)] for a in range(cells)], dtype=np.int64)


def lower_bound_formula(n: int) -> int:
    """Thm 1.1: n² + ⌊3n/2⌋ − 1."""
    return n * n + (3 * n) // 2 - 1


@njit(cache=True, nogil=True)
def _heap_max(items, last_tile, parity, dist, out):
    """Max MD over solvable arrangements whose last cell holds ``last_tile``; ``items`` are the other tiles, in
    cells 0..N-2 at the start, whose permutation has ``parity``.

    out = [best MD, number of arrangements reaching it, and the best arrangement (cells 0..N-1)].
    """
    m = items.shape[0]
    n_cells = m + 1
    perm = np.empty(n_cells, dtype=np.int64)
    for i in range(m):
        perm[i] = items[i]
    perm[m] = last_tile
    md = 0
    for c in range(n_cells):
        if perm[c] != 0:
            md += dist[perm[c], c]
    blank = 0
    for c in range(n_cells):
        if perm[c] == 0:
            blank = c
    best = -1
    count = 0
    counter = np.zeros(m, dtype=np.int64)
    i = 0
    while True:
        if parity == (dist[0, blank] % 2):
            if md > best:
                best = md
                count = 1
                for c in range(n_cells):
                    out[2 + c] = perm[c]
            elif md == best:
                count += 1
        # Next permutation of perm[0:m] by Heap's algorithm (iterative): one swap.
        while i < m and counter[i] >= i:
            counter[i] = 0
            i += 1
        if i >= m:
            break
        a = counter[i] if i % 2 == 1 else 0
        b = i
        ta, tb = perm[a], perm[b]
        if ta != 0:
            md -= dist[ta, a]
        if tb != 0:
            md -= dist[tb, b]
        perm[a], perm[b] = tb, ta
        if tb != 0:
            md += dist[tb, a]
        if ta != 0:
            md += dist[ta, b]
        if ta == 0:
            blank = b
        elif tb == 0:
            blank = a
        parity ^= 1
        counter[i] += 1
        i = 1
    out[0] = best
    out[1] = count


@njit(cache=True, nogil=True, parallel=True)
def _brute_rows(starts, parities, dist, results):
    """Each row of ``starts`` is the first arrangement with its last tile fixed in the last cell (the others in
    order); each row is enumerated on its own core."""
    n_cells = starts.shape[1]
    for row in prange(starts.shape[0]):
        _heap_max(starts[row, :n_cells - 1].copy(), starts[row, n_cells - 1], parities[row], dist, results[row])


def max_md_brute(n: int, progress=None, cancel=None) -> dict:
    """Enumerate all (2n)! arrangements of 2×n (n ≤ 6): the largest MD of a solvable one, how many reach it.

    The last cell's tiles are enumerated a core's worth at a time (at least four batches), with progress and a
    cancel check between batches (``{"status": "cancelled"}`` then)."""
    if not 1 <= n <= BRUTE_MAX_N:
        raise PuzzleError(f"the brute force is offered for n from 1 to {BRUTE_MAX_N} ((2n)! arrangements)")
    cells = 2 * n
    dist = distance_matrix(n)
    if cells == 2:
        return {"n": n, "max_md": 1, "count": 1, "position": [0, 1][::-1], "arrangements": 2}
    starts = np.array([[t for t in range(cells) if t != last] + [last] for last in range(cells)], dtype=np.int64)
    parities = np.array([permutation_parity(list(row)) for row in starts], dtype=np.int64)
    results = np.zeros((cells, 2 + cells), dtype=np.int64)
    batch = max(1, min(os.cpu_count() or 2, cells // 4))  # a core's worth, and at least four batches

    def enumerate_rows(begin: int) -> None:
        end = min(cells, begin + batch)
        with PARALLEL_LOCK:
            _brute_rows(starts[begin:end], parities[begin:end], dist, results[begin:end])

    def report(index: int, _) -> None:
        if progress is not None:
            done = min(cells, (index + 1) * batch)
            progress(done / cells, {"text": f"{done} of {cells} tiles in the last cell: {done}×{cells - 1}! "
                                            f"arrangements enumerated"})

    batches = [partial(enumerate_rows, begin) for begin in range(0, cells, batch)]
    if run_tasks(batches, cancel, report, workers=1) is None:  # each batch is parallel itself
        return {"status": Status.CANCELLED, "n": n}
    best = int(results[:, 0].max())
    count = int(results[results[:, 0] == best, 1].sum())
    row = results[int(np.argmax(results[:, 0]))]
    return {"n": n, "max_md": best, "count": count, "position": [int(x) for x in row[2:]],
            "arrangements": math.factorial(cells)}


def _solvable(assignment_cells: dict[int, int], blank: int, cols: int) -> bool:
    cells = len(assignment_cells) + 1
    perm = [0] * cells  # cell -> tile
    for tile, cell in assignment_cells.items():
        perm[cell] = tile
    perm[blank] = 0
    return permutation_parity(perm) == cell_distance(blank, 0, cols) % 2


def max_md_exact(n: int) -> dict:
    """Largest MD over solvable 2×n positions without enumeration (see the module docstring)."""
    if not 1 <= n <= EXACT_MAX_N:
        raise PuzzleError(f"the exact method is offered for n from 1 to {EXACT_MAX_N}")
    result = best_solvable(n, lambda blank: range(2 * n), lambda blank, tile, cell: True)
    return {**result, "formula": lower_bound_formula(n)}


FORBIDDEN = -10 ** 9


def best_solvable(n: int, blanks, allowed) -> dict:
    """Largest-MD solvable position with the blank in one of ``blanks(...)`` and tile→cell pairs ``allowed``.

    Best-first search over Murty subproblems of every blank cell at once; the first right-parity assignment popped
    is optimal, because children never weigh more than their parent.
    """
    cells = 2 * n
    dist = distance_matrix(n)
    tiles = list(range(1, cells))
    counter = itertools.count()
    heap: list = []
    steps = 0

    def solve(weights: np.ndarray):
        rows, cols = linear_sum_assignment(weights, maximize=True)
        value = int(weights[rows, cols].sum())
        return None if value < FORBIDDEN // 2 else (value, cols)

    for blank in blanks(n):
        free = [c for c in range(cells) if c != blank]
        weights = np.array([[dist[t, c] if allowed(blank, t, c) else FORBIDDEN for c in free] for t in tiles],
                           dtype=np.int64)
        solved = solve(weights)
        if solved:
            heapq.heappush(heap, (-solved[0], next(counter), blank, free, weights, solved[1]))
    while heap:
        negative, _, blank, free, weights, columns = heapq.heappop(heap)
        steps += 1
        assignment = {tiles[i]: free[columns[i]] for i in range(len(tiles))}
        if _solvable(assignment, blank, n):
            position = [0] * cells
            for tile, cell in assignment.items():
                position[cell] = tile
            return {"n": n, "max_md": -negative, "position": position, "murty_steps": steps}
        # Murty: child i keeps pairs 0..i-1 fixed and forbids pair i.
        fixed = weights.copy()
        for i in range(len(tiles)):
            child = fixed.copy()
            child[i, columns[i]] = FORBIDDEN
            solved = solve(child)
            if solved:
                heapq.heappush(heap, (-solved[0], next(counter), blank, free, child, solved[1]))
            keep = fixed[i, columns[i]]
            fixed[i, :] = FORBIDDEN
            fixed[:, columns[i]] = FORBIDDEN
            fixed[i, columns[i]] = keep
    raise PuzzleError("no solvable arrangement satisfies the constraints")


def pattern_groups(n: int) -> dict[str, list[int]]:
    half = n // 2
    return {"A": list(range(1, half + 1)), "B": list(range(half + 1, n)), "C": list(range(n, (3 * n) // 2)),
            "D": list(range((3 * n) // 2, 2 * n))}


def pattern_best(n: int) -> dict:
    """The paper's Fig. 5 layout, D…D C…C over B…B A…A: the best solvable position that obeys it.

    The figure fixes which cells each group occupies but not the order inside a group nor the blank's cell in the
    bottom row; we let the assignment choose both, so the answer is the largest MD this pattern can give.
    """
    groups = pattern_groups(n)
    top = ["D"] * len(groups["D"]) + ["C"] * len(groups["C"])
    group_of = {t: g for g, members in groups.items() for t in members}

    def allowed(blank: int, tile: int, cell: int) -> bool:
        bottom = ["B"] * len(groups["B"]) + ["A"] * len(groups["A"])
        bottom.insert(blank - n, None)
        label = top[cell] if cell < n else bottom[cell - n]
        return label == group_of[tile]

    return best_solvable(n, lambda n: range(n, 2 * n), allowed)
