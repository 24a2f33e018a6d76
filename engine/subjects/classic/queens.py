"""N queens three ways (seed 004's point: pruning pays).

* generate and test: every permutation of columns (one queen per row and column by construction), then test the
  diagonals; nodes = permutations tested.
* backtracking: place row by row, test each square against the queens above before going deeper; nodes = squares
  tested.
* bitmask: the same backtracking, with the attacked columns and diagonals kept as bit sets so that only safe squares
  are ever visited; nodes = queens placed.

Each has a readable Python reference (used for listing solutions and for the step-through) and a numba kernel (used
for counting and timing); the tests check that they agree. The kernels count the solutions whose first-row queen is
in a given column, so a long count can report progress and be cancelled between columns.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator

import numpy as np
from numba import njit

from engine.core.errors import PuzzleError
from engine.core.params import integer
from engine.core.status import Status

METHODS = ("generate-and-test", "backtracking", "bitmask")
#: Largest N offered per method: answered at once / as a background job. Generate and test grows as N!.
QUICK_LIMIT = {"generate-and-test": 10, "backtracking": 12, "bitmask": 14}
JOB_LIMIT = {"generate-and-test": 12, "backtracking": 16, "bitmask": 18}
#: Seed 004's counts, N = 4..14, and its Node.js times (i5-6200U), for the comparison table.
SEED_COUNTS = {4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724, 11: 2680, 12: 14200, 13: 73712, 14: 365596}
SEED_SECONDS = {"generate-and-test": {8: 0.06, 9: 0.21, 10: 2.19, 11: 22.05},
                "backtracking": {10: 0.02, 11: 0.08, 12: 0.41, 13: 2.44, 14: 14.97}}


def check_n(n: object, method: str = "bitmask", job: bool = True) -> int:
    if not isinstance(method, str) or method not in METHODS:
        raise PuzzleError(f"unknown method: choose one of {', '.join(METHODS)}")
    limit = (JOB_LIMIT if job else QUICK_LIMIT)[method]
    more = "" if job or limit == JOB_LIMIT[method] else f" (up to {JOB_LIMIT[method]} as a background job)"
    try:
        return integer({"N": n}, "N", 1, limit)
    except PuzzleError as error:
        raise PuzzleError(f"{error} for {method}{more}") from None


# ---- readable references ------------------------------------------------------------------------------------------

def safe(columns: list[int], column: int) -> bool:
    """Can a queen go in the next row at ``column``, given the queens of the rows above?"""
    row = len(columns)
    return all(c != column and abs(c - column) != row - r for r, c in enumerate(columns))


def solutions_by_generate_and_test(n: int) -> Iterator[tuple[int, ...]]:
    for columns in itertools.permutations(range(n)):
        if all(abs(columns[a] - columns[b]) != b - a for a in range(n) for b in range(a + 1, n)):
            yield columns


def solutions_by_backtracking(n: int, columns: list[int] | None = None) -> Iterator[tuple[int, ...]]:
    columns = columns if columns is not None else []
    if len(columns) == n:
        yield tuple(columns)
        return
    for column in range(n):
        if safe(columns, column):
            columns.append(column)
            yield from solutions_by_backtracking(n, columns)
            columns.pop()


def backtracking_steps(n: int, max_steps: int = 5000, solutions_wanted: int = 1) -> list[dict]:
    """The backtracking as a list of events for the animated board: place, conflict (with the attacking queen),
    remove, solution. Stops after ``solutions_wanted`` solutions or ``max_steps`` events."""
    events: list[dict] = []
    columns: list[int] = []
    found = 0

    def attacker(column: int) -> int:
        row = len(columns)
        return next(r for r, c in enumerate(columns) if c == column or abs(c - column) == row - r)

    def place_row() -> bool:
        nonlocal found
        row = len(columns)
        for column in range(n):
            if len(events) >= max_steps:
                return True
            if not safe(columns, column):
                events.append({"event": "conflict", "row": row, "col": column, "by": attacker(column)})
                continue
            columns.append(column)
            events.append({"event": "place", "row": row, "col": column})
            if len(columns) == n:
                found += 1
                events.append({"event": "solution", "columns": list(columns)})
                if found >= solutions_wanted:
                    return True
            elif place_row():
                return True
            columns.pop()
            events.append({"event": "remove", "row": row, "col": column})
        return False

    place_row()
    return events


# ---- numba kernels: count the solutions with the first queen in column ``first`` --------------------------------
#
# Each kernel resumes a search from the state it saved in its arrays and stops after ``max_nodes`` nodes, returning
# (solutions, nodes, finished): a count of N = 18 runs for minutes, and between slices the driver reports progress
# and honours cancel. ``nogil`` lets a second job, or the worker's cancel watcher, run beside it.

SLICE_NODES = 1 << 22  # a few tens of milliseconds of any kernel


@njit(cache=True, nogil=True)
def count_generate_and_test(n, perm, cursor, max_nodes):
    """Permutations of ``perm[1:]`` in lexicographic order from the current one, diagonals tested.
    ``cursor[0]`` is 1 once the last permutation has been tested."""
    count = 0
    nodes = 0
    while cursor[0] == 0 and nodes < max_nodes:
        nodes += 1
        ok = True
        for a in range(n):
            for b in range(a + 1, n):
                if abs(perm[a] - perm[b]) == b - a:
                    ok = False
                    break
            if not ok:
                break
        if ok:
            count += 1
        i = n - 2  # next permutation of perm[1:]
        while i >= 1 and perm[i] >= perm[i + 1]:
            i -= 1
        if i < 1:
            cursor[0] = 1
            break
        j = n - 1
        while perm[j] <= perm[i]:
            j -= 1
        perm[i], perm[j] = perm[j], perm[i]
        lo, hi = i + 1, n - 1
        while lo < hi:
            perm[lo], perm[hi] = perm[hi], perm[lo]
            lo += 1
            hi -= 1
    return count, nodes, cursor[0] != 0


@njit(cache=True, nogil=True)
def count_backtracking(n, columns, cursor, max_nodes):
    """Row by row; each square is tested against the queens above. ``columns`` holds the queens placed (-1: none
    yet in that row) and ``cursor[0]`` the row being filled (0 when the search is over)."""
    count = 0
    nodes = 0
    row = cursor[0]
    while row >= 1 and nodes < max_nodes:
        columns[row] += 1
        if columns[row] >= n:
            columns[row] = -1
            row -= 1
            continue
        nodes += 1
        column = columns[row]
        ok = True
        for r in range(row):
            if columns[r] == column or abs(columns[r] - column) == row - r:
                ok = False
                break
        if ok:
            if row == n - 1:
                count += 1
            else:
                row += 1
    cursor[0] = row
    return count, nodes, row < 1


@njit(cache=True, nogil=True)
def count_bitmask(n, free, cols, left, right, cursor, max_nodes):
    """Attacked columns and diagonals as bit sets per row; only safe squares are visited. ``free[row]`` holds the
    squares of that row still to try, ``cursor[0]`` the row (0 when the search is over)."""
    full = (1 << n) - 1
    count = 0
    nodes = 0
    row = cursor[0]
    while row >= 1 and nodes < max_nodes:
        if free[row] == 0:
            row -= 1
            continue
        bit = free[row] & -free[row]
        free[row] ^= bit
        nodes += 1
        if row == n - 1:
            count += 1
            continue
        cols[row + 1] = cols[row] | bit
        left[row + 1] = ((left[row] | bit) << 1) & full
        right[row + 1] = (right[row] | bit) >> 1
        free[row + 1] = full & ~(cols[row + 1] | left[row + 1] | right[row + 1])
        row += 1
    cursor[0] = row
    return count, nodes, row < 1


def _first_queen_search(n: int, method: str, first: int):
    """The kernel's arguments for the subtree whose first-row queen stands in column ``first``."""
    cursor = np.zeros(1, dtype=np.int64)
    if method == "generate-and-test":
        perm = np.array([first] + [c for c in range(n) if c != first], dtype=np.int64)
        return count_generate_and_test, (n, perm, cursor)
    if method == "backtracking":
        columns = np.full(n, -1, dtype=np.int64)
        columns[0] = first
        cursor[0] = 1 if n > 1 else 0
        return count_backtracking, (n, columns, cursor)
    full = (1 << n) - 1
    free, cols, left, right = (np.zeros(n + 1, dtype=np.int64) for _ in range(4))
    bit = 1 << first
    cols[1], left[1], right[1] = bit, (bit << 1) & full, bit >> 1
    free[1] = full & ~(cols[1] | left[1] | right[1])
    cursor[0] = 1 if n > 1 else 0
    return count_bitmask, (n, free, cols, left, right, cursor)


def count_solutions(n: int, method: str, progress=None, cancel=None) -> dict:
    """Count every solution of N queens by one method, column of the first queen by column, in slices of
    ``SLICE_NODES`` nodes (progress and cancel between slices)."""
    n = check_n(n, method)
    count = nodes = 0
    start = time.perf_counter()
    for first in range(n):
        kernel, state = _first_queen_search(n, method, first)
        if method != "generate-and-test":
            nodes += 1  # the first-row queen itself
            count += n == 1
        finished = False
        while not finished:
            if cancel is not None and cancel.is_set():
                return {"status": Status.CANCELLED, "n": n, "method": method}
            found, visited, finished = kernel(*state, SLICE_NODES)
            count += int(found)
            nodes += int(visited)
            if progress:
                progress(first / n, {"nodes": nodes, "text": f"first queen in column {first + 1} of {n}: "
                                                              f"{count:,} solutions so far"})
    return {"status": Status.DONE, "n": n, "method": method, "solutions": count, "nodes": nodes,
            "seconds": time.perf_counter() - start, "seed": SEED_COUNTS.get(n),
            "seed_seconds": SEED_SECONDS.get(method, {}).get(n)}
