"""The knight's tour (seed 004): count every tour by backtracking, find one by Warnsdorff's rule.

A tour visits every square exactly once (an open tour: it need not return to its start). Squares are numbered
row-major, ``row * cols + col``.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from engine.core.errors import PuzzleError
from engine.core.params import integer
from engine.core.status import Status

JUMPS = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))
COUNT_MAX_CELLS = 36      # 6×6: the count is a background job; beyond that it would run for days
QUICK_COUNT_CELLS = 25    # 5×5 answers at once (304 tours from a corner)
WARNSDORFF_MAX_SIDE = 30


def check_board(rows: object, cols: object, start: object, max_cells: int, max_side: int = 30) -> tuple[int, int, int]:
    values = {"rows": rows, "columns": cols, "start square": start}
    rows, cols = integer(values, "rows", 1, max_side), integer(values, "columns", 1, max_side)
    if rows * cols > max_cells:
        raise PuzzleError(f"this is offered for boards of at most {max_cells} squares ({rows}×{cols} has "
                          f"{rows * cols})")
    return rows, cols, integer(values, "start square", 0, rows * cols - 1)


def jump_table(rows: int, cols: int) -> np.ndarray:
    """For each square, the squares a knight reaches from it (-1 pads the row to 8)."""
    table = np.full((rows * cols, 8), -1, dtype=np.int64)
    for square in range(rows * cols):
        r, c = divmod(square, cols)
        targets = [(r + dr) * cols + c + dc for dr, dc in JUMPS if 0 <= r + dr < rows and 0 <= c + dc < cols]
        table[square, :len(targets)] = targets
    return table


@njit(cache=True, nogil=True)
def count_tours_from(jumps, visited, path, trial, cursor, base, cells, max_nodes):
    """Count the tours that extend ``path[:base]``, resuming from the saved search (``path``, ``visited``,
    ``trial[d]``: the next jump to try at depth d, ``cursor[0]``: the depth) and stopping after ``max_nodes`` jumps.
    Returns (tours, nodes, finished); a count of 6×6 runs for many minutes, so the driver calls it in slices."""
    depth = cursor[0]
    tours = 0
    nodes = 0
    while depth >= base:
        if nodes >= max_nodes:
            cursor[0] = depth
            return tours, nodes, False
        here = path[depth - 1]
        if trial[depth] == 8:
            trial[depth] = 0
            depth -= 1
            if depth >= base:
                visited[path[depth]] = False
            continue
        nxt = jumps[here, trial[depth]]
        trial[depth] += 1
        if nxt < 0 or visited[nxt]:
            continue
        nodes += 1
        if depth + 1 == cells:
            tours += 1
            continue
        visited[nxt] = True
        path[depth] = nxt
        depth += 1
    cursor[0] = depth
    return tours, nodes, True


SLICE_NODES = 1 << 22


def count_tours_reference(rows: int, cols: int, start: int) -> int:
    """Plain recursive count, for the tests."""
    jumps = jump_table(rows, cols)
    visited = [False] * (rows * cols)

    def extend(square: int, placed: int) -> int:
        if placed == rows * cols:
            return 1
        total = 0
        for target in jumps[square]:
            if target >= 0 and not visited[target]:
                visited[target] = True
                total += extend(int(target), placed + 1)
                visited[target] = False
        return total

    visited[start] = True
    return extend(start, 1)


def count_tours(rows: int, cols: int, start: int = 0, progress=None, cancel=None) -> dict:
    """Every open tour from ``start``, split by the first two moves so that a long count reports progress."""
    rows, cols, start = check_board(rows, cols, start, COUNT_MAX_CELLS)
    cells = rows * cols
    jumps = jump_table(rows, cols)
    began = time.perf_counter()
    prefixes = [[start]]
    for _ in range(2):  # the subtrees below the first two moves are the units of progress
        # a prefix with no onward jump holds no tour and drops out; a complete one is a tour already
        prefixes = [p for p in prefixes if len(p) == cells] + [
            p + [int(t)] for p in prefixes if len(p) < cells for t in jumps[p[-1]] if t >= 0 and t not in p]
    tours = nodes = 0
    for index, prefix in enumerate(prefixes):
        visited = np.zeros(cells, dtype=np.bool_)
        path = np.zeros(cells, dtype=np.int64)
        for depth, square in enumerate(prefix):
            visited[square] = True
            path[depth] = square
        nodes += len(prefix)
        if len(prefix) == cells:
            tours += 1
            continue
        trial = np.zeros(cells + 1, dtype=np.int64)
        cursor = np.array([len(prefix)], dtype=np.int64)
        finished = False
        while not finished:
            if cancel is not None and cancel.is_set():
                return {"status": Status.CANCELLED, "rows": rows, "cols": cols, "start": start}
            found, visited_nodes, finished = count_tours_from(jumps, visited, path, trial, cursor, len(prefix),
                                                              cells, SLICE_NODES)
            tours += int(found)
            nodes += int(visited_nodes)
            if progress:
                progress(index / len(prefixes), {"nodes": nodes, "text": f"{tours:,} tours so far"})
    return {"status": Status.DONE, "rows": rows, "cols": cols, "start": start, "tours": tours, "nodes": nodes,
            "seconds": time.perf_counter() - began}


def warnsdorff_tour(rows: int, cols: int, start: int = 0, max_nodes: int = 5_000) -> dict:
    """One tour by Warnsdorff's rule: always jump to the square with the fewest onward jumps.

    The plain rule dead-ends on a few boards (5×8 and 6×20 among the sizes up to 30×30), so it runs as a depth-first
    search whose children are tried in the rule's order: on most boards it never backtracks, and where it would
    dead-end a few backtracks repair it. Ties are broken toward the edge (farther from the centre); if that has not
    succeeded within ``max_nodes`` jumps, the search restarts with ties broken at random (seeded, so the answer is
    reproducible), up to 20 times. The budget also ends the work on boards with no tour (3×3, 4×4)."""
    rows, cols, start = check_board(rows, cols, start, WARNSDORFF_MAX_SIDE ** 2)
    for attempt in range(21):
        result = _rule_guided_search(rows, cols, start, attempt, max_nodes)
        if result["status"] == Status.DONE:
            return {**result, "attempts": attempt + 1}
    return result


def _rule_guided_search(rows: int, cols: int, start: int, attempt: int, max_nodes: int) -> dict:
    cells = rows * cols
    jumps = jump_table(rows, cols)
    centre_r, centre_c = (rows - 1) / 2, (cols - 1) / 2
    noise = np.random.default_rng(attempt).random(cells) if attempt else None
    visited = np.zeros(cells, dtype=bool)

    def onward(square: int) -> list[int]:
        return [int(t) for t in jumps[square] if t >= 0 and not visited[t]]

    def rule_order(square: int) -> list[int]:
        def key(target: int) -> tuple[int, float]:
            if noise is not None:
                return len(onward(target)), noise[target]
            r, c = divmod(target, cols)
            return len(onward(target)), -((r - centre_r) ** 2 + (c - centre_c) ** 2)
        return sorted(onward(square), key=key)

    visited[start] = True
    tour = [start]
    choices = [rule_order(start)]
    nodes = backtracks = 0
    while len(tour) < cells:
        if nodes >= max_nodes:
            break
        if not choices[-1]:  # dead end: undo the last jump
            if len(tour) == 1:
                break
            visited[tour.pop()] = False
            choices.pop()
            backtracks += 1
            continue
        square = choices[-1].pop(0)
        nodes += 1
        visited[square] = True
        tour.append(square)
        choices.append(rule_order(square))
    if len(tour) == cells:
        return {"status": Status.DONE, "rows": rows, "cols": cols, "start": start, "tour": tour,
                "backtracks": backtracks}
    return {"status": Status.NOT_SOLVED, "rows": rows, "cols": cols, "start": start,
            "message": f"no tour of {rows}×{cols} from square {start} found within {max_nodes:,} jumps "
                       "(3×3 and 4×4 have none at all, and on boards with an odd number of squares a tour can only "
                       "start on a square of the majority colour)"}


def backtracking_steps(rows: int, cols: int, start: int = 0, max_steps: int = 4000) -> list[dict]:
    """The counting search as events for the animated board (jump, back, tour), up to the first tour or
    ``max_steps`` events."""
    rows, cols, start = check_board(rows, cols, start, COUNT_MAX_CELLS)
    jumps = jump_table(rows, cols)
    visited = [False] * (rows * cols)
    visited[start] = True
    path = [start]
    events: list[dict] = [{"event": "jump", "square": start, "step": 1}]

    def extend() -> bool:
        if len(path) == rows * cols:
            events.append({"event": "tour", "path": list(path)})
            return True
        for target in jumps[path[-1]]:
            if len(events) >= max_steps:
                return True
            if target >= 0 and not visited[target]:
                visited[target] = True
                path.append(int(target))
                events.append({"event": "jump", "square": int(target), "step": len(path)})
                if extend():
                    return True
                path.pop()
                visited[target] = False
                events.append({"event": "back", "square": int(target)})
        return False

    extend()
    return events
