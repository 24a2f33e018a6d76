"""Per-goal lookup arrays shared by the numba kernels: the blank's neighbours, each tile's Manhattan distance per
cell, its goal row and column (plain NumPy arrays, built once per goal and kept in memory). The pattern databases,
large tables on disk, are ``engine.domains.tiles.pdb`` and ``engine.domains.tiles.pdb_catalogue``."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from engine.domains.tiles.board import INVERSE, MOVES, STEP, Board
from engine.domains.tiles.move_automaton import automaton, parent_only

#: Index of the move that undoes each move, in ``MOVES`` order (U D L R): ``board.INVERSE`` for the kernels.
INVERSE_INDEX = np.array([MOVES.index(INVERSE[move]) for move in MOVES], dtype=np.int64)


class ChildLists(NamedTuple):
    """The children of a node for the IDA* kernels, keyed by the blank's cell and the state of the search's move
    automaton there (``engine.domains.tiles.move_automaton``): ``key = cell * states + state``. A move the automaton
    forbids is not among them: with ``parent_only`` (state: the move that led there, 4 at the root) that is the move
    back, so no node compares against its parent; with the learned machine, every move that would complete a known
    duplicate string. ``delta[(blank * cells + target) * cells + tile]`` is the change of the Manhattan distance when
    ``tile`` slides from ``target`` into the blank's cell."""
    count: np.ndarray  # (keys,) int8
    #: (keys * 4,) int32, what the kernels read: the key's i-th child as ``key << 8 | move << 6 | cell`` (the next
    #: three arrays in one entry, one load per child, a fifth of their bytes: unpacked, the learned machine's lists
    #: made the Manhattan kernel a third slower per node on 4×4)
    packed: np.ndarray
    cell: np.ndarray  # (keys * 4,): the blank's cell after the key's i-th child move
    move: np.ndarray  # (keys * 4,): that move's index in ``MOVES``
    key: np.ndarray  # (keys * 4,): the child's key (its cell and the automaton's state after the move)
    delta: np.ndarray  # (cells ** 3,)
    neighbors: np.ndarray  # the goal's ``neighbors`` (a resumed search retraces its path by them)
    blank_distance: np.ndarray  # (cells,): each cell's Manhattan distance from the blank's goal cell
    automaton: np.ndarray  # (states, 4): the automaton's next state per move, -1 where the move is forbidden

@dataclass(frozen=True)
class GoalTables:
    rows: int
    cols: int
    neighbors: np.ndarray  # (cells, 4): the blank's cell after each move, -1 where it would leave the board
    manhattan: np.ndarray  # (tiles, cells): Manhattan distance of a tile in a cell from its goal cell; 0 for the blank
    goal_row: np.ndarray  # (tiles,)
    goal_col: np.ndarray  # (tiles,)
    children: ChildLists


def neighbor_table(rows: int, cols: int) -> np.ndarray:
    """(cells, 4): the blank's cell after each move in ``MOVES`` order, -1 where it would leave the board. Any size
    (the 2×n sub-problem goes past the largest playable board)."""
    table = np.full((rows * cols, 4), -1, dtype=np.int64)
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        for d, move in enumerate(MOVES):
            dr, dc = STEP[move]
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                table[cell, d] = (r + dr) * cols + c + dc
    return table


@lru_cache(maxsize=64)
def goal_tables(goal: Board) -> GoalTables:
    size = goal.size
    neighbors = neighbor_table(goal.rows, goal.cols)
    goal_row = np.zeros(size, dtype=np.int64)
    goal_col = np.zeros(size, dtype=np.int64)
    for cell, tile in enumerate(goal.cells):
        goal_row[tile], goal_col[tile] = divmod(cell, goal.cols)
    manhattan = np.zeros((size, size), dtype=np.int64)
    for tile in range(1, size):
        for cell in range(size):
            r, c = divmod(cell, goal.cols)
            manhattan[tile, cell] = abs(r - goal_row[tile]) + abs(c - goal_col[tile])
    for array in (neighbors, manhattan, goal_row, goal_col):
        array.setflags(write=False)
    blank_distance = np.array([abs(cell // goal.cols - goal_row[0]) + abs(cell % goal.cols - goal_col[0])
                               for cell in range(size)], dtype=np.int64)
    return GoalTables(goal.rows, goal.cols, neighbors, manhattan, goal_row, goal_col,
                      child_lists(neighbors, manhattan, blank_distance, parent_only().next))


def child_lists(neighbors: np.ndarray, manhattan: np.ndarray, blank_distance: np.ndarray,
                automaton: np.ndarray) -> ChildLists:
    n = neighbors.shape[0]
    states = automaton.shape[0]
    keys = n * states
    count = np.zeros(keys, dtype=np.int8)
    cell_after = np.zeros(keys * 4, dtype=np.int64)
    move_of = np.zeros(keys * 4, dtype=np.int64)
    key_after = np.zeros(keys * 4, dtype=np.int64)
    for cell in range(n):
        for state in range(states):
            key = cell * states + state
            for d in range(4):
                target = int(neighbors[cell, d])
                if target < 0 or automaton[state, d] < 0:
                    continue
                i = key * 4 + int(count[key])
                cell_after[i], move_of[i], key_after[i] = target, d, target * states + automaton[state, d]
                count[key] += 1
    delta = np.zeros((n, n, n), dtype=np.int64)
    for cell in range(n):
        for target in neighbors[cell]:
            if target >= 0:
                delta[cell, target] = manhattan[:, cell] - manhattan[:, target]
    if n > 64 or keys >= 1 << 23:
        raise ValueError("the packed child lists hold cells below 64 and keys below 2**23")
    packed = ((key_after << 8) | (move_of << 6) | cell_after).astype(np.int32)
    lists = ChildLists(count, packed, cell_after, move_of, key_after, delta.reshape(-1), neighbors, blank_distance,
                       np.ascontiguousarray(automaton, dtype=np.int64))
    for array in lists:
        array.setflags(write=False)
    return lists


@lru_cache(maxsize=64)
def pruned_children(goal: Board, pruning: str | None = None) -> ChildLists:
    """The child lists of ``goal``'s board under the move automaton ``pruning`` names (``move_automaton.automaton``:
    by default the learned one from 5×5 up, parent-only below)."""
    chosen = automaton(pruning, goal.size)
    if chosen.name == "parent":
        return goal_tables(goal).children
    tables = goal_tables(goal)
    return child_lists(tables.neighbors, tables.manhattan, tables.children.blank_distance, chosen.next)
