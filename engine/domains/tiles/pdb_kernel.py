"""The additive pattern databases in the compiled IDA*: h = max(Manhattan distance, direct sum, mirrored sum).

The kernel follows each group's tiles (``where``) and their mirror images (``ref_where``) as the blank moves, and
keeps per depth every group's value (``values``) and rank (``ranks``): a child's rank is its parent's changed by the
one tile that moved (``moved_rank``, a pass over the group instead of the pairwise one of a fresh rank, which took
most of a node's time when the table fits the cache). Before any child of a node is read, each child's ranks are
computed and its entries requested (``_pdb_look_ahead``), and kept per child (``child``) for entering it. The
readable reference is ``PatternDatabase.value`` (engine/domains/tiles/pdb.py);
``tests/engine/domains/tiles/test_pdb.py`` holds the two equal node for node.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from engine.domains.tiles.board import Board
from engine.domains.tiles.goal_arrays import goal_tables
from engine.domains.tiles.heuristic_kernels import manhattan_sum
from engine.domains.tiles.heuristics import manhattan_distance
from engine.domains.tiles.ida_kernels import KernelHeuristic, ida_kernel, nothing_cut
from engine.domains.tiles.pdb import PatternDatabase
from engine.domains.tiles.prefetch import prefetch
from engine.domains.tiles.ranking import partial_rank
from engine.domains.tiles.ranking_kernels import moved_rank, rank_of_positions
from engine.domains.tiles.specialising import hook


class DatabaseArrays(NamedTuple):
    values: np.ndarray  # (depths, 2 * groups): each group's value at each depth, direct then mirrored
    ranks: np.ndarray  # (depths, 2 * groups): each group's rank (its index in its table) at each depth
    tables: np.ndarray  # every group's table, concatenated (read-only, memory-mapped)
    offsets: np.ndarray
    radix: np.ndarray  # (groups, largest group): the ranking's digit weights
    sizes: np.ndarray  # tiles per group
    group_of: np.ndarray  # per tile: its group and its slot in it
    slot_of: np.ndarray
    where: np.ndarray  # (groups, largest group): the cell of each group's tile
    ref_cell: np.ndarray  # per cell: its transpose
    ref_group: np.ndarray  # per tile: the group and slot of its mirror image
    ref_slot: np.ndarray
    ref_where: np.ndarray  # as ``where``, in the mirror image
    mirrored: bool
    child: np.ndarray  # (depths, cells, 4): per child at d, by the blank's cell there, the rank of its moved tile's
    # group, that of its mirror image, and their values (``_pdb_look_ahead`` and ``_pdb_h`` to ``_pdb_enter``)


@hook
def _above_bound(h, depth, bound, least):
    """Whether a child at ``depth`` + 1 with this h is cut off whatever the rest of its h says: its f is above the
    bound and not below the least f cut off so far (so the counts, the cut and the next bound are those of the full
    h, and its remaining table reads, random reads in a 577 MB table, can be skipped)."""
    return h + depth + 1 > bound and h + depth + 1 >= least


@hook
def _pdb_look_ahead(aux, cells, depth, blank, target, tile, md, bound, least):
    # The child's ranks, computed and their entries requested before any child's entry is read: the reads of a
    # node's children then wait for memory together, not one after another (bench/korf100.py).
    if _above_bound(md, depth, bound, least):
        return
    groups = aux.sizes.shape[0]
    g = aux.group_of[tile]
    rank = moved_rank(aux.ranks[depth, g], aux.where[g], aux.slot_of[tile], blank, aux.radix[g])
    aux.child[depth, target, 0] = rank
    prefetch(aux.tables, aux.offsets[g] + rank)
    if aux.mirrored:
        rg = aux.ref_group[tile]
        ref_rank = moved_rank(aux.ranks[depth, groups + rg], aux.ref_where[rg], aux.ref_slot[tile],
                              aux.ref_cell[blank], aux.radix[rg])
        aux.child[depth, target, 1] = ref_rank
        prefetch(aux.tables, aux.offsets[rg] + ref_rank)


@hook
def _pdb_h(aux, cells, depth, blank, target, tile, md, bound, least):
    # Manhattan distance first, then the direct sum: a child that either of them cuts off skips the remaining reads.
    if _above_bound(md, depth, bound, least):
        return md
    values = aux.values
    groups = aux.sizes.shape[0]
    g = aux.group_of[tile]
    value = np.int64(aux.tables[aux.offsets[g] + aux.child[depth, target, 0]])
    aux.child[depth, target, 2] = value
    h = value - values[depth, g]
    for j in range(groups):
        h += values[depth, j]
    if md > h:
        h = md
    if aux.mirrored and not _above_bound(h, depth, bound, least):
        rg = aux.ref_group[tile]
        ref_value = np.int64(aux.tables[aux.offsets[rg] + aux.child[depth, target, 1]])
        aux.child[depth, target, 3] = ref_value
        r = ref_value - values[depth, groups + rg]
        for j in range(groups):
            r += values[depth, groups + j]
        if r > h:
            h = r
    return h


@hook
def _pdb_enter(aux, depth, blank, target, tile):
    groups = aux.sizes.shape[0]
    for j in range(2 * groups):
        aux.values[depth + 1, j] = aux.values[depth, j]
        aux.ranks[depth + 1, j] = aux.ranks[depth, j]
    g = aux.group_of[tile]
    aux.where[g, aux.slot_of[tile]] = blank
    aux.ranks[depth + 1, g] = aux.child[depth, target, 0]
    aux.values[depth + 1, g] = aux.child[depth, target, 2]
    if aux.mirrored:
        rg = aux.ref_group[tile]
        aux.ref_where[rg, aux.ref_slot[tile]] = aux.ref_cell[blank]
        aux.ranks[depth + 1, groups + rg] = aux.child[depth, target, 1]
        aux.values[depth + 1, groups + rg] = aux.child[depth, target, 3]


@hook
def _pdb_leave(aux, blank, parent, tile):
    aux.where[aux.group_of[tile], aux.slot_of[tile]] = blank
    if aux.mirrored:
        aux.ref_where[aux.ref_group[tile], aux.ref_slot[tile]] = aux.ref_cell[blank]


@hook
def _pdb_reset(aux, cells, md):
    # ``_pdb_inputs``'s root entries, for the board ``cells``, in the arrays it built for another
    groups = aux.sizes.shape[0]
    for cell in range(cells.shape[0]):
        tile = cells[cell]
        if tile:
            aux.where[aux.group_of[tile], aux.slot_of[tile]] = cell
            if aux.mirrored:
                aux.ref_where[aux.ref_group[tile], aux.ref_slot[tile]] = aux.ref_cell[cell]
    direct = 0
    mirrored = 0
    for g in range(groups):
        size = aux.sizes[g]
        rank = rank_of_positions(aux.where[g, :size], aux.radix[g, :size])
        ref_rank = rank_of_positions(aux.ref_where[g, :size], aux.radix[g, :size])
        aux.ranks[0, g] = rank
        aux.ranks[0, groups + g] = ref_rank
        aux.values[0, g] = np.int64(aux.tables[aux.offsets[g] + rank])
        direct += aux.values[0, g]
        aux.values[0, groups + g] = np.int64(aux.tables[aux.offsets[g] + ref_rank]) if aux.mirrored else 0
        mirrored += aux.values[0, groups + g]
    h = md
    if direct > h:
        h = direct
    if mirrored > h:
        h = mirrored
    return h


def _pdb_inputs(board: Board, goal: Board, loaded: dict, stack: int) -> tuple[DatabaseArrays, int]:
    """``loaded["database"]``: the ``PatternDatabase`` the heuristic resolved."""
    database: PatternDatabase = loaded["database"]
    arrays = database.kernel_arrays()
    direct, mirrored = database.group_values(board)
    md = int(manhattan_sum(np.array(board.cells, dtype=np.int64), goal_tables(goal).manhattan))
    where = np.zeros(arrays["radix"].shape, dtype=np.int64)
    ref_where = np.zeros(arrays["radix"].shape, dtype=np.int64)
    for cell, tile in enumerate(board.cells):
        if tile:
            where[arrays["group_of"][tile], arrays["slot_of"][tile]] = cell
            if arrays["mirrored"]:
                ref_where[arrays["ref_group"][tile], arrays["ref_slot"][tile]] = arrays["ref_cell"][cell]
    values = np.zeros((stack, 2 * len(direct)), dtype=np.int64)
    values[0] = direct + (mirrored or [0] * len(direct))
    ranks = np.zeros((stack, 2 * len(direct)), dtype=np.int64)
    for g, size in enumerate(arrays["sizes"]):
        ranks[0, g] = partial_rank(list(where[g, :size]), board.size)
        ranks[0, len(direct) + g] = partial_rank(list(ref_where[g, :size]), board.size)
    aux = DatabaseArrays(values, ranks, arrays["tables"], arrays["offsets"], arrays["radix"], arrays["sizes"],
                         arrays["group_of"], arrays["slot_of"], where, arrays["ref_cell"], arrays["ref_group"],
                         arrays["ref_slot"], ref_where, arrays["mirrored"],
                         np.zeros((stack, board.size, 4), dtype=np.int64))
    return aux, max(md, sum(direct), sum(mirrored or [0]))


def child_order(goal: Board):
    """The order in which the kernel descends into a node's children, as ``idastar_search``'s ``order_by``: by h,
    then Manhattan distance, then the blank's distance from its goal cell (``ida_kernel``'s ``ordered``)."""
    home_row, home_col = divmod(goal.blank, goal.cols)
    return lambda child, h: (h, manhattan_distance(child, goal),
                             abs(child.blank // goal.cols - home_row) + abs(child.blank % goal.cols - home_col))


# No h of a whole board, so no compiled A*: the database's value is kept group by group along IDA*'s path, and an A*
# that stores every position it reaches holds a 15-puzzle's search in its memory budget only where IDA* + the database
# is already done in milliseconds (the astar solver runs the readable A* with it).
PATTERN_DATABASE = KernelHeuristic(ida_kernel(_pdb_h, nothing_cut, _pdb_enter, _pdb_leave, ordered=True,
                                              look_ahead=_pdb_look_ahead), _pdb_inputs, board_h=None,
                                   reset=_pdb_reset)


def blank_database(goal: Board) -> PatternDatabase:
    """A database of one-tile groups, every value 0, with the array types of a stored one (a read-only uint8
    table): what the warm-up compiles the kernel with, no table needed."""
    groups = tuple((tile,) for tile in range(1, 16))
    tables = np.zeros(16 * len(groups), dtype=np.uint8)
    tables.setflags(write=False)
    return PatternDatabase(goal, "pdb-663", groups, tables, np.arange(0, 16 * len(groups), 16, dtype=np.int64))
