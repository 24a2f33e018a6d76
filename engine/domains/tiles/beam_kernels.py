"""numba kernel of the beam search behind the ``near-optimal`` solver (``engine.domains.tiles.near_optimal``).

A beam search keeps, depth after depth, only the ``width`` children with the smallest h (all children of a depth have
the same g, so that is also the smallest g + h) and forgets the rest; a hash set of every position ever kept stops it
from walking back into them. It is not optimal, but with a strong h and a wide beam its answers are close to it, and
its time is bounded by depth × width whatever the position.

h is one of: Manhattan distance (``H_MANHATTAN``), Manhattan plus linear conflict (``H_LINEAR_CONFLICT``) or an
additive pattern database with its mirror lookup (``H_PDB``), each updated per move from the parent's values. With a
database the beam ranks by the direct sum plus the mirrored sum, not by their max as IDA* must (a beam needs no
admissible h): each sum misses interactions the other sees, and their total ranks positions better. Measured on ten
random 6×6 boards (scratch runs of ``beam_search``, widths 8,192 and 16,384): 1.505 and 1.463 times Manhattan
distance against 1.522 and 1.487 with the max, in less time (shorter answers mean fewer depths).

Positions are keyed by a Zobrist hash (64 random bits per tile and cell, XORed): two positions sharing a key (odds
about 2^-40 at a million positions) would only make the beam skip one of them, and every answer is replayed to the
goal by the caller.

Speed (bench/near_optimal.py): the hash set is far larger than the caches, so a child is looked up in it only when
the selection reaches it (a third of the children at most), with the slot of the candidate ``LOOK_AHEAD`` places
ahead requested meanwhile (``prefetch``); a child's pattern-database entries are requested as their indexes are
known and read ``TABLE_AHEAD`` children later; linear conflict keeps each position's count per line, so a child
recounts only the moved tile's own goal line, and only when the move crosses it.

``beam_reference`` is the same search in plain Python: ``tests/engine/domains/tiles/test_near_optimal.py`` holds the two
equal.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.domains.tiles.goal_arrays import INVERSE_INDEX
from engine.domains.tiles.heuristic_kernels import line_conflicts_at, own_goal_line
from engine.domains.tiles.prefetch import prefetch

H_MANHATTAN = 0
H_LINEAR_CONFLICT = 1
H_PDB = 2
#: h values are bucketed for the selection; no h of a board of at most 36 cells comes near (twice a database's
#: value with its mirror: about 500 on 6×6).
MAX_H = 1024
EMPTY = 0
#: The selection requests the hash-set slot of the candidate this many places ahead of the one it checks.
LOOK_AHEAD = 8
#: A child's pattern-database entries are read this many children after they were requested.
TABLE_AHEAD = 16


def zobrist_keys(cells: int) -> np.ndarray:
    """(tile, cell) → 64 random bits, the same in every process (a fixed seed)."""
    return np.random.default_rng(20020101).integers(1, 2**63 - 1, size=(cells, cells), dtype=np.int64)


@njit(cache=True, nogil=True, inline="always")
def _slot_hint(seen, key):
    """The first slot ``_seen_slot`` looks at for ``key``."""
    return (key ^ (key >> 29)) & (seen.shape[0] - 1)


@njit(cache=True, nogil=True)
def _seen_slot(seen, key):
    """Where ``key`` is in the open-addressing set ``seen`` (a power-of-two length), or the empty slot it would take."""
    mask = seen.shape[0] - 1
    i = _slot_hint(seen, key)
    while seen[i] != key and seen[i] != EMPTY:
        i = (i + 1) & mask
    return i


@njit(cache=True, nogil=True)
def seen_add(seen, key):
    """Add ``key`` (never 0) to ``seen``; False if it was there."""
    i = _seen_slot(seen, key)
    if seen[i] == key:
        return False
    seen[i] = key
    return True


@njit(cache=True, nogil=True)
def seen_has(seen, key):
    return seen[_seen_slot(seen, key)] == key


@njit(cache=True, nogil=True, inline="always")
def group_rank(radix, tiles, g, size, where, cell_map, moved, moved_to, scratch):
    """Group ``g``'s rank (``rank_of_positions``) with its tiles at ``cell_map[where[tile]]``, tile ``moved`` at
    ``moved_to`` instead (``cell_map`` is the identity for the direct lookup, the transpose for the mirrored one).
    Rows are indexed, not sliced: a slice per child costs its reference counting."""
    rank = 0
    for slot in range(size):
        t = tiles[g, slot]
        cell = cell_map[moved_to] if t == moved else cell_map[where[t]]
        scratch[slot] = cell
        digit = cell
        for lower in range(slot):
            digit -= scratch[lower] < cell  # no branch: these comparisons are coin flips
        rank += digit * radix[g, slot]
    return rank


@njit(cache=True, nogil=True)
def group_of_tiles(group_tiles, sizes, n):
    """Tile → the row of ``group_tiles`` that holds it (-1: the blank)."""
    group = np.full(n, -1, dtype=np.int64)
    for g in range(sizes.shape[0]):
        for s in range(sizes[g]):
            group[group_tiles[g, s]] = g
    return group


@njit(cache=True, nogil=True)
def beam_start(cells0, mode, manhattan, rows, cols, goal_row, goal_col, zobrist, pdb, st, cells, where, md, lc,
               lines, vals, key, blank, last, seen):
    """Put the root in slot 0 of buffer 0 and in ``seen``; ``st`` = [depth, states in the beam, generated, found
    slot (-1 while searching), least h of a depth's best position, that depth]. Returns the root's h."""
    tables, offsets, radix, sizes, group_tiles, ref_tiles, ref_cell, identity, mirrored = pdb
    n = cells0.shape[0]
    k = 0
    m = 0
    for c in range(n):
        t = cells0[c]
        cells[0, 0, c] = t
        where[0, 0, t] = c
        k ^= zobrist[t, c]
        m += manhattan[t, c]
        if t == 0:
            blank[0, 0] = c
    md[0, 0] = m
    lc[0, 0] = 0
    if mode == H_LINEAR_CONFLICT:
        places = np.zeros(max(rows, cols), dtype=np.int64)
        longest = np.zeros(max(rows, cols), dtype=np.int64)
        for line in range(rows + cols):
            lines[0, 0, line] = line_conflicts_at(cells0, line, rows, cols, goal_row, goal_col, places, longest)
            lc[0, 0] += lines[0, 0, line]
    h = m + 2 * lc[0, 0]
    if mode == H_PDB:
        groups = sizes.shape[0]
        scratch = np.zeros(n, dtype=np.int64)
        direct = 0
        reflected = 0
        for g in range(groups):
            v = np.int64(tables[offsets[g] + group_rank(radix, group_tiles, g, sizes[g], where[0, 0], identity, -1, 0,
                                                        scratch)])
            vals[0, 0, g] = v
            direct += v
            if mirrored:
                v = np.int64(tables[offsets[g] + group_rank(radix, ref_tiles, g, sizes[g], where[0, 0], ref_cell, -1,
                                                            0, scratch)])
                vals[0, 0, groups + g] = v
                reflected += v
        h = _database_key(direct, reflected)
    key[0, 0] = k
    last[0, 0] = -1
    seen_add(seen, k)
    st[0], st[1], st[2], st[3], st[4], st[5] = 0, 1, 0, -1, h, 0
    return h


@njit(cache=True, nogil=True)
def beam_layers(layers, patience, mode, neighbors, manhattan, rows, cols, goal_row, goal_col, zobrist, pdb, st, cells,
                where, md, lc, lines, vals, key, blank, last, parent, move, seen, cand, cand_h, order, hist):
    """Advance the beam by up to ``layers`` depths (the caller checks its budget in between). Returns 1 when a child
    is the goal (its parent's slot and move are at ``parent``/``move`` of the new depth, ``st[3]`` = 0), 2 when the
    beam is stuck: every child seen before (the beam stays at its depth), no depth's best h below ``st[4]`` (found at
    depth ``st[5]``) for ``patience`` depths, or the depth limit; 0 otherwise.
    ``cand`` holds per child [parent slot, move, key, Manhattan, conflicts, new direct value, new mirrored value, and
    either the line whose conflicts the move changed (``own_goal_line``, -1: none) and its new count, or the direct
    and mirrored sums of the groups the move leaves as they were].
    The beam's positions are in order of h, best first. With a pattern database, a depth's children are generated
    first, each table entry they need requested as its index is known (``prefetch``), and their values read after:
    the reads, nearly all cache misses, overlap instead of each waiting in turn."""
    tables, offsets, radix, sizes, group_tiles, ref_tiles, ref_cell, identity, mirrored = pdb
    width = cells.shape[1]
    n = cells.shape[2]
    groups = sizes.shape[0]
    group_of = group_of_tiles(group_tiles, sizes, n)
    ref_group_of = group_of_tiles(ref_tiles, sizes, n)
    scratch = np.zeros(n, dtype=np.int64)
    places = np.zeros(max(rows, cols), dtype=np.int64)
    longest = np.zeros(max(rows, cols), dtype=np.int64)
    for _ in range(layers):
        depth, count = st[0], st[1]
        b = depth & 1
        nb = 1 - b
        c = 0
        for s in range(count):
            here = blank[b, s]
            back = last[b, s]
            row = cells[b, s]
            where_row = where[b, s]
            direct_sum = 0
            reflected_sum = 0
            if mode == H_PDB:
                for j in range(groups):
                    direct_sum += vals[b, s, j]
                    reflected_sum += vals[b, s, groups + j]
            for d in range(4):
                target = neighbors[here, d]
                if target < 0 or (back >= 0 and d == INVERSE_INDEX[back]):
                    continue
                tile = row[target]
                k = key[b, s] ^ zobrist[tile, target] ^ zobrist[tile, here] ^ zobrist[0, here] ^ zobrist[0, target]
                st[2] += 1
                m = md[b, s] + manhattan[tile, here] - manhattan[tile, target]
                if m == 0:
                    parent[depth + 1, 0] = s
                    move[depth + 1, 0] = d
                    st[0] = depth + 1
                    st[3] = 0
                    return 1
                h = m
                conflicts = 0
                if mode == H_LINEAR_CONFLICT:
                    # only the moved tile's own goal line can change (a third of the moves on 6×6): the parent's
                    # counts are kept per line (``lines``)
                    line = own_goal_line(here, target, tile, rows, cols, goal_row, goal_col)
                    conflicts = lc[b, s]
                    cand[c, 7] = line
                    if line >= 0:
                        row[here] = tile
                        row[target] = 0
                        value = line_conflicts_at(row, line, rows, cols, goal_row, goal_col, places, longest)
                        row[target] = tile
                        row[here] = 0
                        conflicts += value - lines[b, s, line]
                        cand[c, 8] = value
                    h = m + 2 * conflicts
                elif mode == H_PDB:
                    # the table indexes now, the values in the pass below
                    g = group_of[tile]
                    cand[c, 5] = offsets[g] + group_rank(radix, group_tiles, g, sizes[g], where_row, identity, tile,
                                                         here, scratch)
                    prefetch(tables, cand[c, 5])
                    cand[c, 7] = direct_sum - vals[b, s, g]
                    if mirrored:
                        g = ref_group_of[tile]
                        cand[c, 6] = offsets[g] + group_rank(radix, ref_tiles, g, sizes[g], where_row, ref_cell, tile,
                                                             here, scratch)
                        prefetch(tables, cand[c, 6])
                        cand[c, 8] = reflected_sum - vals[b, s, groups + g]
                cand[c, 0] = s
                cand[c, 1] = d
                cand[c, 2] = k
                cand[c, 3] = m
                cand[c, 4] = conflicts
                cand_h[c] = min(h, MAX_H - 1)
                c += 1
                if mode == H_PDB and c > TABLE_AHEAD:
                    _read_table_values(cand, cand_h, c - 1 - TABLE_AHEAD, tables, mirrored)
        if mode == H_PDB:
            for i in range(max(0, c - TABLE_AHEAD), c):
                _read_table_values(cand, cand_h, i, tables, mirrored)
        # the children in order of h (a counting sort, stable: children of better parents first among equals)
        top = 0
        for i in range(c):
            if cand_h[i] > top:
                top = cand_h[i]
        hist[:top + 2] = 0
        for i in range(c):
            hist[cand_h[i] + 1] += 1
        for v in range(1, top + 2):
            hist[v] += hist[v - 1]
        for i in range(c):
            order[hist[cand_h[i]]] = i
            hist[cand_h[i]] += 1
        kept = 0
        for j in range(c):
            if kept == width:
                break
            if j + LOOK_AHEAD < c:
                prefetch(seen, _slot_hint(seen, cand[order[j + LOOK_AHEAD], 2]))
            i = order[j]
            if not seen_add(seen, cand[i, 2]):
                continue  # the same position from another parent
            if kept == 0 and cand_h[i] < st[4]:
                st[4] = cand_h[i]
                st[5] = depth + 1
            s, d = cand[i, 0], cand[i, 1]
            here = blank[b, s]
            target = neighbors[here, d]
            tile = cells[b, s, target]
            for x in range(n):
                cells[nb, kept, x] = cells[b, s, x]
                where[nb, kept, x] = where[b, s, x]
            cells[nb, kept, here] = tile
            cells[nb, kept, target] = 0
            where[nb, kept, tile] = here
            where[nb, kept, 0] = target
            blank[nb, kept] = target
            last[nb, kept] = d
            key[nb, kept] = cand[i, 2]
            md[nb, kept] = cand[i, 3]
            lc[nb, kept] = cand[i, 4]
            if mode == H_LINEAR_CONFLICT:
                for line in range(rows + cols):
                    lines[nb, kept, line] = lines[b, s, line]
                if cand[i, 7] >= 0:
                    lines[nb, kept, cand[i, 7]] = cand[i, 8]
            if mode == H_PDB:
                for j2 in range(2 * groups):
                    vals[nb, kept, j2] = vals[b, s, j2]
                vals[nb, kept, group_of[tile]] = cand[i, 5]
                if mirrored:
                    vals[nb, kept, groups + ref_group_of[tile]] = cand[i, 6]
            parent[depth + 1, kept] = s
            move[depth + 1, kept] = d
            kept += 1
        if kept == 0:
            return 2  # the beam at ``depth`` stays as it was: the caller can finish from its best position
        st[0] = depth + 1
        st[1] = kept
        if depth + 2 >= parent.shape[0] or depth + 1 - st[5] > patience:
            return 2
    return 0


@njit(cache=True, nogil=True, inline="always")
def _read_table_values(cand, cand_h, i, tables, mirrored):
    """Child ``i``'s table values (``cand[i, 5:7]`` held their indexes, requested earlier) and its h."""
    value = np.int64(tables[cand[i, 5]])
    cand[i, 5] = value
    direct = cand[i, 7] + value
    reflected = 0
    if mirrored:
        value = np.int64(tables[cand[i, 6]])
        cand[i, 6] = value
        reflected = cand[i, 8] + value
    cand_h[i] = min(_database_key(direct, reflected), MAX_H - 1)


@njit(cache=True, nogil=True, inline="always")
def _database_key(direct, reflected):
    """What the beam ranks by with a pattern database: the direct sum plus the mirrored sum (0 without a mirror)."""
    return direct + reflected


def beam_reference(board_cells: list[int], goal_cells: list[int], cols: int, width: int, h,
                   depth_limit: int, patience: int) -> str | None:
    """``beam_layers`` in plain Python for a heuristic function ``h(cells) -> int`` with the same tie order: the
    readable reference the tests hold the kernel to (node for node on small boards). Returns the blank's moves
    (``UDLR``) or None when the beam dies out, passes ``depth_limit`` + 1 moves or finds no better best position
    for more than ``patience`` depths."""
    from engine.domains.tiles.board import MOVES

    n = len(board_cells)
    rows = n // cols
    goal = tuple(goal_cells)
    start = tuple(board_cells)
    seen = {start}
    beam = [(start, -1, "")]  # (cells, last move index, moves so far)
    depth = 0
    best, best_depth = min(h(start), MAX_H - 1), 0
    while beam and depth <= depth_limit and depth - best_depth <= patience:
        depth += 1
        children = []
        for cells, back, moves in beam:
            here = cells.index(0)
            r, c = divmod(here, cols)
            for d, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
                if not (0 <= r + dr < rows and 0 <= c + dc < cols) or (back >= 0 and d == int(INVERSE_INDEX[back])):
                    continue
                target = (r + dr) * cols + c + dc
                child = list(cells)
                child[here], child[target] = child[target], 0
                child = tuple(child)
                if child in seen:
                    continue
                if child == goal:
                    return moves + MOVES[d]
                children.append((min(h(child), MAX_H - 1), child, d, moves + MOVES[d]))
        children.sort(key=lambda item: item[0])  # stable: the kernel's counting sort keeps the same order
        beam = []
        for value, child, d, moves in children:
            if len(beam) == width:
                break
            if child in seen:
                continue
            seen.add(child)
            if not beam and value < best:
                best, best_depth = value, depth
            beam.append((child, d, moves))
    return None
