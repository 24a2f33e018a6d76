"""Seed 002's learned table in the compiled searches: V = MD + DB(p).

The IDA* kernel follows the key items' cells (``where``, slot 0 the blank) as the blank moves, so a child re-ranks the
few key cells instead of scanning the board. ``_learned_board_h`` ranks a whole board's key instead: the compiled A*
and the reference IDA* kernel (``ida_kernels.reference_kernel``) compute it. ``tests/engine/subjects/learned/`` holds
the IDA* kernel to that reference node for node, and both compiled searches to the readable ones with the plain V
(``engine.subjects.learned.heuristic``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from engine.domains.tiles.board import Board
from engine.domains.tiles.goal_arrays import goal_tables
from engine.domains.tiles.heuristic_kernels import manhattan_sum
from engine.domains.tiles.ida_kernels import KernelHeuristic, ida_kernel, nothing_enter
from engine.domains.tiles.ranking_kernels import pattern_rank, rank_of_positions
from engine.domains.tiles.specialising import hook


@njit(cache=True, nogil=True)
def learned_value(cells, key_slot, key_radix, table):
    """DB(p): the learned table at the pattern of the key tiles' cells (blank included); the plain-Python one is
    ``LearnedTable.value``."""
    return table[pattern_rank(cells, key_slot, key_radix)]


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


@hook
def _learned_board_h(aux, cells, md):
    return md + learned_value(cells, aux.key_slot, aux.key_radix, aux.table)


LEARNED = KernelHeuristic(ida_kernel(_learned_h, _learned_cut, nothing_enter, _learned_leave), _learned_inputs,
                          _learned_board_h)
