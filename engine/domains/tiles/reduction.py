"""The ``fast`` solver: an answer for every solvable board up to 6×6 in well under a second, not optimal.

Method (row-and-column reduction with exact group placement): while the unsolved rectangle is larger than 3×3, take
off its longest side's outer line (a row or a column that does not hold the blank's goal cell): place that line's
tiles a few at a time, each group by a breadth-first search over (the group's cells, the blank's cell) in the
unsolved rectangle, the line's already placed tiles fixed and every other tile interchangeable; the line's last two
tiles always move as one group (placing them one at a time is impossible without disturbing the first). The last
rectangle of at most 3×3 is solved optimally by IDA* + Manhattan. Each group's search is exact for its own
sub-problem, so nothing is left to chance and every stage finishes in milliseconds. Before all that, IDA* +
Manhattan gets ``QUICK_NODES`` nodes (the fastest kernel: a few milliseconds; linear conflict's would take ten times
longer): a position close to home gets an optimal answer instead of being taken apart line by line.

Why this method (bench/engine_speed.py measures it): weighted A* / greedy search over Manhattan or the pattern
databases has no time guarantee on 5×5 and 6×6 (a random 6×6 is about 170 Manhattan moves from home), while the
reduction is bounded by construction. Group size trades time for length: groups of 3 give shorter answers than pairs
(the search sees more of a line at once) but a 3-tile search over a whole 6×6 can take a second, so lines of large
rectangles go in pairs and those of rectangles of at most ``GROUP_CELLS`` cells in threes (``bench/engine_speed.py``
measures pairs only, threes only and this mix).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.core.errors import PuzzleError
from engine.core.result import Budget, SolveResult, Watch
from engine.core.status import Status
from engine.domains.tiles.board import MOVES, Board
from engine.domains.tiles.goal_arrays import INVERSE_INDEX, goal_tables
from engine.domains.tiles.heuristics import manhattan_distance
from engine.domains.tiles.kernel_drivers import idastar

#: Tiles placed together by one search (the last group of a line has at least two): GROUP while the unsolved
#: rectangle has at most GROUP_CELLS cells, pairs before that (a 3-tile search over 36 cells can take a second).
GROUP = 3
GROUP_CELLS = 25
EXACT_SIDE = 3
#: Node budget of the optimal attempt made first (positions close to home).
QUICK_NODES = 200_000


@njit(cache=True, nogil=True)
def _decode(state, n, pos):
    """A state's group cells into ``pos``; returns the blank's cell."""
    for i in range(pos.shape[0]):
        pos[i] = state % n
        state //= n
    return state


@njit(cache=True, nogil=True)
def _swapped(pos, blank, cell, n):
    """The state after the blank moves from ``blank`` to ``cell`` (a group tile there moves to ``blank``)."""
    state = 0
    for i in range(pos.shape[0] - 1, -1, -1):
        state = state * n + (blank if pos[i] == cell else pos[i])
    return state + cell * n ** pos.shape[0]


@njit(cache=True, nogil=True)
def place_group(start, blank, targets, locked, neighbors, n, seen, queue, moves):
    """Breadth-first search from (group cells ``start``, ``blank``) until every group tile is on its target;
    the blank moves over unlocked cells, pushing a group tile when it meets one and any other tile otherwise.
    Writes the blank's moves (direction indices, U D L R) into ``moves`` and returns how many, or -1 if the
    targets cannot be reached. ``seen`` (n^(m+1) bytes, 255 = unseen) keeps the move that reached each state."""
    m = start.shape[0]
    home = 0
    for i in range(m):
        home += start[i] == targets[i]
    if home == m:
        return 0
    pos = start.copy()
    index = blank
    for i in range(m - 1, -1, -1):
        index = index * n + pos[i]
    seen[index] = 4
    queue[0] = index
    head, tail = 0, 1
    goal = -1
    while head < tail and goal < 0:
        state = queue[head]
        head += 1
        b = _decode(state, n, pos)
        for d in range(4):
            c = neighbors[b, d]
            if c < 0 or locked[c]:
                continue
            child = _swapped(pos, b, c, n)
            home = 0
            for i in range(m):
                home += (b if pos[i] == c else pos[i]) == targets[i]
            if seen[child] == 255:
                seen[child] = d
                queue[tail] = child
                tail += 1
                if home == m:
                    goal = child
                    break
    if goal < 0:
        return -1
    # walk back from the goal, undoing one move at a time
    count = 0
    state = goal
    while seen[state] != 4:
        d = seen[state]
        moves[count] = d
        count += 1
        c = _decode(state, n, pos)
        state = _swapped(pos, c, neighbors[c, INVERSE_INDEX[d]], n)
    moves[:count] = moves[:count][::-1].copy()
    return count


def _line_groups(tiles: list[int], size: int) -> list[list[int]]:
    groups = [tiles[i:i + size] for i in range(0, len(tiles), size)]
    if len(groups) > 1 and len(groups[-1]) == 1:
        groups[-1].insert(0, groups[-2].pop())
    return [g for g in groups if g]


def _outer_line(low: int, high: int, blank: int) -> tuple[int, int, int]:
    """The outer line of [low, high) that does not hold the blank's goal line, and the range without it."""
    if blank != low:
        return low, low + 1, high
    return high - 1, low, high - 1


def reduction_moves(board: Board, goal: Board, watch: Watch, group: int = GROUP) -> str:
    rows, cols, n = board.rows, board.cols, board.size
    neighbors = goal_tables(goal).neighbors
    cells = list(board.cells)
    goal_cell = {tile: cell for cell, tile in enumerate(goal.cells)}
    blank_row, blank_col = divmod(goal.blank, cols)
    top, bottom, left, right = 0, rows, 0, cols  # the unsolved rectangle
    answer: list[str] = []
    queue = np.empty(n ** (group + 1), dtype=np.int64)
    out = np.empty(100_000, dtype=np.int64)
    while bottom - top > EXACT_SIDE or right - left > EXACT_SIDE:
        if reason := watch.stop_reason(len(answer)):
            raise _Stopped(reason)
        if bottom - top >= right - left:  # take off a row, on the side away from the blank's goal
            r, top, bottom = _outer_line(top, bottom, blank_row)
            line = [r * cols + c for c in range(left, right)]
        else:
            c, left, right = _outer_line(left, right, blank_col)
            line = [r * cols + c for r in range(top, bottom)]
        locked = np.ones(n, dtype=np.bool_)
        for r in range(top, bottom):
            for c in range(left, right):
                locked[r * cols + c] = False
        for cell in line:
            locked[cell] = False
        size = group if (bottom - top) * (right - left) + len(line) <= GROUP_CELLS else min(group, 2)
        for chunk in _line_groups([goal.cells[cell] for cell in line], size):
            start = np.array([cells.index(t) for t in chunk], dtype=np.int64)
            targets = np.array([goal_cell[t] for t in chunk], dtype=np.int64)
            seen = np.full(n ** (len(chunk) + 1), 255, dtype=np.uint8)
            count = place_group(start, cells.index(0), targets, locked, neighbors, n, seen, queue, out)
            if count < 0:
                raise PuzzleError(f"internal error: tiles {chunk} cannot be placed")  # never for solvable boards
            for d in out[:count]:
                blank = cells.index(0)
                target = int(neighbors[blank, d])
                cells[blank], cells[target] = cells[target], 0
                answer.append(MOVES[d])
            for t in chunk:
                locked[goal_cell[t]] = True
    # the last rectangle, at most 3×3, optimally
    region = [r * cols + c for r in range(top, bottom) for c in range(left, right)]
    names = {0: 0, **{t: i + 1 for i, t in enumerate(t for t in (goal.cells[cell] for cell in region) if t)}}
    sub_goal = Board(bottom - top, right - left, tuple(names[goal.cells[cell]] for cell in region))
    sub_board = Board(bottom - top, right - left, tuple(names[cells[cell]] for cell in region))
    rest = idastar(sub_board, sub_goal, "manhattan", watch)
    if rest.status != Status.SOLVED:
        raise _Stopped(rest.status)
    return "".join(answer) + rest.moves


class _Stopped(Exception):
    def __init__(self, reason: str):
        self.reason = reason


def fast_solve(board: Board, goal: Board, watch: Watch, group: int = GROUP, shortcut: bool = True) -> SolveResult:
    lower = manhattan_distance(board, goal)
    # A position close to home is answered optimally by a short IDA* (a few milliseconds); the reduction would
    # take it apart line by line. Parent-only pruning: a probe of at most 50 ms does not wait for the learned move
    # automaton's first load (seconds, once per store), which prunes little this close to home.
    quick = idastar(board, goal, "manhattan", Watch(Budget(QUICK_NODES, 0.05)), pruning="parent")
    if shortcut and quick.status == Status.SOLVED:
        return SolveResult(Status.SOLVED, quick.moves, True, quick.nodes_expanded, quick.nodes_generated, 0,
                           watch.elapsed, "fast", "",
                           message=f"optimal: found by IDA* + Manhattan within {QUICK_NODES:,} nodes",
                           extra={"lower_bound": lower, "method": "IDA* (close to home)"})
    try:
        moves = reduction_moves(board, goal, watch, group)
    except _Stopped as stop:
        return SolveResult(stop.reason, seconds=watch.elapsed, solver="fast", heuristic="",
                           message=watch.stop_message(stop.reason, 0), extra={"lower_bound": lower})
    return SolveResult(Status.SOLVED, moves, lower == len(moves), 0, 0, 0, watch.elapsed, "fast", "",
                       message=f"not optimal in general: {len(moves)} moves; no answer can be shorter than the "
                               f"Manhattan lower bound, {lower}",
                       extra={"lower_bound": lower, "method": f"row-and-column reduction, groups of up to {group}"})
