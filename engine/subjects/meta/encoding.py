"""Bit strings as move sequences: 2 bits per move, every string legal.

* The paper's encoding (4×4): the grid has exactly one pair of Hamiltonian cycles that together cover all 24 edges.
  Bit 1 picks the cycle, bit 2 the direction along it; the blank steps to its successor (or predecessor) on that
  cycle. Every cell is on both cycles, so every code is a legal move from every cell.
* The general encoding (any board, used where no such pair exists: 3×3 has no Hamiltonian cycle, 2×n only its border):
  the 2-bit code k picks the (k mod m)-th of the m legal blank moves in U D L R order. Every code is legal; cells with
  fewer than 4 moves favour their first moves slightly (codes wrap around), which is the price of never decoding an
  illegal move.

Either way an encoding is a table ``targets[cell, code]``: the cell the blank moves to.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from engine.domains.tiles.board import Board
from engine.domains.tiles.goal_arrays import goal_tables


def neighbour_cells(cell: int, rows: int, cols: int) -> list[int]:
    """The cells the blank can move to from ``cell``, in U D L R order (the kernels' neighbour table)."""
    table = goal_tables(Board(rows, cols, tuple(range(rows * cols)))).neighbors
    return [int(t) for t in table[cell] if t >= 0]


def grid_edges(rows: int, cols: int) -> set[frozenset[int]]:
    edges = set()
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        if c + 1 < cols:
            edges.add(frozenset((cell, cell + 1)))
        if r + 1 < rows:
            edges.add(frozenset((cell, cell + cols)))
    return edges


def hamiltonian_cycles(rows: int, cols: int) -> list[tuple[int, ...]]:
    """Every Hamiltonian cycle of the grid graph, each once, as a cell order starting at cell 0."""
    cells = rows * cols
    adjacent = {c: [t for t in neighbour_cells(c, rows, cols)] for c in range(cells)}
    found: dict[frozenset, tuple[int, ...]] = {}
    path = [0]
    on_path = [False] * cells
    on_path[0] = True

    def extend() -> None:
        here = path[-1]
        if len(path) == cells:
            if 0 in adjacent[here]:
                edges = frozenset(frozenset((path[i], path[(i + 1) % cells])) for i in range(cells))
                found.setdefault(edges, tuple(path))  # the same cycle walked the other way has the same edges
            return
        for nxt in adjacent[here]:
            if not on_path[nxt]:
                on_path[nxt] = True
                path.append(nxt)
                extend()
                path.pop()
                on_path[nxt] = False

    if cells >= 4:
        extend()
    return list(found.values())


@cache
def covering_cycle_pairs(rows: int, cols: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """The pairs of Hamiltonian cycles whose edges together are all the grid's edges."""
    everything = grid_edges(rows, cols)
    cycles = hamiltonian_cycles(rows, cols)
    edge_sets = [{frozenset((c[i], c[(i + 1) % len(c)])) for i in range(len(c))} for c in cycles]
    return tuple((cycles[a], cycles[b]) for a in range(len(cycles)) for b in range(a + 1, len(cycles))
                 if edge_sets[a] | edge_sets[b] == everything)


def cycle_targets(rows: int, cols: int) -> np.ndarray:
    pairs = covering_cycle_pairs(rows, cols)
    if len(pairs) != 1:
        raise ValueError(f"{rows}x{cols} has {len(pairs)} covering cycle pairs, not exactly one")
    targets = np.empty((rows * cols, 4), dtype=np.int64)
    for which, cycle in enumerate(pairs[0]):
        n = len(cycle)
        for i, cell in enumerate(cycle):
            targets[cell, 2 * which] = cycle[(i + 1) % n]      # direction bit 0: forward
            targets[cell, 2 * which + 1] = cycle[(i - 1) % n]  # direction bit 1: backward
    return targets


def legal_index_targets(rows: int, cols: int) -> np.ndarray:
    targets = np.empty((rows * cols, 4), dtype=np.int64)
    for cell in range(rows * cols):
        legal = neighbour_cells(cell, rows, cols)
        for code in range(4):
            targets[cell, code] = legal[code % len(legal)]
    return targets


ENCODINGS = {"cycles": "the paper's pair of Hamiltonian cycles (4×4)", "legal-index": "k-th legal move (any board)"}


def default_encoding(rows: int, cols: int) -> str:
    return "cycles" if (rows, cols) == (4, 4) else "legal-index"


def move_targets(rows: int, cols: int, encoding: str | None = None) -> np.ndarray:
    encoding = encoding or default_encoding(rows, cols)
    if encoding == "cycles":
        if (rows, cols) != (4, 4):
            from engine.core.errors import PuzzleError
            raise PuzzleError("the cycle-pair encoding exists for 4x4 only; use legal-index")
        return cycle_targets(4, 4)
    return legal_index_targets(rows, cols)


def move_name(source: int, target: int, cols: int) -> str:
    """The U D L R name of a blank step between adjacent cells."""
    delta = target - source
    return "U" if delta == -cols else "D" if delta == cols else "L" if delta == -1 else "R"


def decode(bits, board: Board, targets: np.ndarray, goal: Board | None = None) -> str:
    """The move string a bit string means from ``board``, with each move that undoes the one before it cancelled,
    cut where the goal is first reached (if a goal is given). The readable reference of the numba fitness."""
    blank = board.cells.index(0)
    cells = list(board.cells)
    moves: list[str] = []
    for i in range(len(bits) // 2):
        target = int(targets[blank, 2 * bits[2 * i] + bits[2 * i + 1]])
        name = move_name(blank, target, board.cols)
        cells[blank], cells[target] = cells[target], 0
        if moves and {moves[-1], name} in ({"U", "D"}, {"L", "R"}):
            moves.pop()
        else:
            moves.append(name)
        blank = target
        if goal is not None and tuple(cells) == goal.cells:
            break
    return "".join(moves)


def fitness_reference(bits, board: Board, goal: Board, targets: np.ndarray, max_moves: int) -> int:
    """Seed 001's fitness in plain Python (the numba kernel's reference): the length of the cancelled move sequence
    when it first reaches the goal, else ``max_moves`` + the Manhattan sum after the last move."""
    if board.cells == goal.cells:
        return 0
    moves = decode(bits[:2 * max_moves], board, targets, goal)
    end = board.apply(moves)
    if end.cells == goal.cells:
        return len(moves)
    manhattan = goal_tables(goal).manhattan
    return max_moves + int(sum(manhattan[tile, cell] for cell, tile in enumerate(end.cells)))
