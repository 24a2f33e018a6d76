"""Seed 002's learned table in the compiled IDA*: V = MD + DB(p).

The kernel follows the key items' cells (``where``, slot 0 the blank) as the blank moves, so a child re-ranks the
few key cells instead of scanning the board. The readable reference is ``ida_kernels.ida_run`` in its learned mode;
``tests/engine/domains/tiles/test_kernels.py`` holds them equal node for node.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from engine.domains.tiles.board import Board
from engine.domains.tiles.goal_arrays import goal_tables
from engine.domains.tiles.heuristic_kernels import learned_value, manhattan_sum
from engine.domains.tiles.ida_kernels import KernelHeuristic, hook, ida_kernel, nothing_enter
from engine.domains.tiles.ranking_kernels import rank_of_positions


class LearnedArrays(NamedTuple):
    key_slot: np.ndarray  # per tile: its slot in the key, -1 when it is not a key item
    key_radix: np.ndarray
    where: np.ndarray  # per slot: the item's cell
    table: np.ndarray


@hook
def _learned_h(aux, cells, depth, blank, target, tile, md, bound, least):
    _place(aux, tile, blank, target)
    return md + aux.table[rank_of_positions(aux.where, aux.key_radix)]


@hook
def _place(aux, tile, tile_cell, blank_cell):
    """Put ``tile`` (when the pattern holds it) and the blank back in the pattern's cells."""
    slot = aux.key_slot[tile]
    if slot >= 0:
        aux.where[slot] = tile_cell
    aux.where[0] = blank_cell


@hook
def _learned_cut(aux, blank, target, tile):
    _place(aux, tile, target, blank)


@hook
def _learned_leave(aux, blank, parent, tile):
    _place(aux, tile, blank, parent)


def _learned_inputs(board: Board, goal: Board, loaded: dict, stack: int) -> tuple[LearnedArrays, int]:
    """``loaded["learned"]``: the trained table (``engine.subjects.learned.catalogue.LearnedTable`` or anything with its
    ``key_slot``, ``key_radix`` and ``table``)."""
    learned = loaded["learned"]
    cells = np.array(board.cells, dtype=np.int64)
    where = np.zeros(learned.key_radix.shape[0], dtype=np.int64)
    for cell, tile in enumerate(board.cells):
        if learned.key_slot[tile] >= 0:
            where[learned.key_slot[tile]] = cell
    h = int(manhattan_sum(cells, goal_tables(goal).manhattan)) + int(
        learned_value(cells, learned.key_slot, learned.key_radix, learned.table))
    return LearnedArrays(learned.key_slot, learned.key_radix, where, learned.table), h


LEARNED = KernelHeuristic(ida_kernel(_learned_h, _learned_cut, nothing_enter, _learned_leave), _learned_inputs)
