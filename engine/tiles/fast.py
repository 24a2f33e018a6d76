"""Drivers for the numba kernels: IDA* and breadth-first search that honour budgets, cancel and progress.

The kernels work in chunks (``CHUNK`` expansions) and return here between chunks, so a cancel or a time budget is
seen well within a second even at tens of millions of nodes per second.
"""

from __future__ import annotations

import math

import numpy as np

from engine.errors import PuzzleError
from engine.result import SolveResult, Watch
from engine.status import Status
from engine.store import artefact_name, load_or_build
from engine.tiles.bfs_kernels import bfs_expand
from engine.tiles.board import BFS_MAX_CELLS, INVERSE, MOVES, PERFECT_MAX_CELLS, Board
from engine.tiles.heuristic_kernels import (
    MODE_LEARNED,
    MODE_LINEAR_CONFLICT,
    MODE_MANHATTAN,
    MODE_PDB,
    heuristic_value,
    learned_value,
    linear_conflict_sum,
    manhattan_sum,
)
from engine.tiles.ida_kernels import (
    FOUND,
    PAUSED,
    ida_learned_run,
    ida_linear_conflict_run,
    ida_manhattan_run,
    ida_pdb_run,
)
from engine.tiles.ranking import lexicographic_radix
from engine.tiles.ranking_kernels import board_rank
from engine.tiles.tables import goal_tables

CHUNK = 2_000_000
#: The IDA* kernel's modes by name (``engine.tiles.heuristics.Heuristic.kernel``).
KERNEL_MODES = {"manhattan": MODE_MANHATTAN, "linear-conflict": MODE_LINEAR_CONFLICT, "pdb": MODE_PDB,
                "learned": MODE_LEARNED}
EMPTY_INT = np.zeros(0, dtype=np.int64)
EMPTY_BYTES = np.zeros(1, dtype=np.uint8)


def idastar_fast(board: Board, goal: Board, mode: int, watch: Watch, name: str, learned=None, database=None,
                 max_bound: int = 400) -> SolveResult:
    """IDA* by the numba kernels. ``database`` (a ``pdb.PatternDatabase``) goes with MODE_PDB, ``learned`` (a trained
    table) with MODE_LEARNED."""
    tables = goal_tables(goal)
    cells = np.array(board.cells, dtype=np.int64)
    md = int(manhattan_sum(cells, tables.manhattan))
    lc = int(linear_conflict_sum(cells, goal.rows, goal.cols, tables.goal_row, tables.goal_col))
    key_slot = learned.key_slot if learned is not None else np.full(goal.size, -1, dtype=np.int64)
    key_radix = learned.key_radix if learned is not None else EMPTY_INT
    learned_table = learned.table if learned is not None else EMPTY_BYTES
    learned_h = int(learned_value(cells, key_slot, key_radix, learned_table)) if mode == MODE_LEARNED else 0
    h0 = int(heuristic_value(mode, md, lc, learned_h))
    if mode == MODE_PDB:
        pdb = database.kernel_arrays()
        direct, mirrored = database.group_values(board)
        h0 = max(md, sum(direct), sum(mirrored or [0]))
        where = np.zeros(pdb["radix"].shape, dtype=np.int64)
        ref_where = np.zeros(pdb["radix"].shape, dtype=np.int64)
        for cell, tile in enumerate(board.cells):
            if tile:
                where[pdb["group_of"][tile], pdb["slot_of"][tile]] = cell
                if pdb["mirrored"]:
                    ref_where[pdb["ref_group"][tile], pdb["ref_slot"][tile]] = pdb["ref_cell"][cell]
        values = np.zeros((max_bound + 2, 2 * len(direct)), dtype=np.int64)
        values[0] = direct + (mirrored or [0] * len(direct))
    optimal = mode != MODE_LEARNED
    if md == 0:
        return SolveResult(Status.SOLVED, "", optimal, seconds=watch.elapsed, solver="idastar", heuristic=name)
    stack = max_bound + 2
    path = np.zeros(stack, dtype=np.int64)
    trial = np.zeros(stack, dtype=np.int64)
    md_stack = np.zeros(stack, dtype=np.int64)
    md_stack[0] = md
    expanded = generated = 0
    bound = h0
    iterations = []
    # the learned kernel follows the key items' cells as it moves (slot 0 is the blank)
    key_where = np.zeros(max(1, key_radix.shape[0]), dtype=np.int64)
    if mode == MODE_MANHATTAN:
        kernel, aux = ida_manhattan_run, EMPTY_INT
    elif mode == MODE_LINEAR_CONFLICT:
        lc_stack = np.zeros(stack, dtype=np.int64)
        lc_stack[0] = lc
        line = max(goal.rows, goal.cols)
        kernel = ida_linear_conflict_run
        aux = (goal.rows, goal.cols, tables.goal_row, tables.goal_col, lc_stack, np.zeros(line, dtype=np.int64),
               np.zeros(line, dtype=np.int64))
    elif mode == MODE_LEARNED:
        kernel, aux = ida_learned_run, (key_slot, key_radix, key_where, learned_table)
    else:
        kernel = ida_pdb_run
        aux = (values, pdb["tables"], pdb["offsets"], pdb["radix"], pdb["sizes"], pdb["group_of"], pdb["slot_of"],
               where, pdb["ref_cell"], pdb["ref_group"], pdb["ref_slot"], ref_where, pdb["mirrored"],
               np.zeros(2, dtype=np.int64))
    while bound <= max_bound:
        st = np.array([0, board.blank, 1 << 40, 0, 0], dtype=np.int64)
        for cell, tile in enumerate(board.cells):
            if key_slot[tile] >= 0:
                key_where[key_slot[tile]] = cell
        trial[0] = 0
        expanded += 1  # the root, expanded once per iteration
        while True:
            quota = min(CHUNK, max(1, watch.budget.max_nodes - expanded - int(st[3])))
            code = kernel(cells, st, path, trial, md_stack, tables.neighbors, tables.manhattan, aux, bound, quota)
            total_expanded = expanded + int(st[3])
            if code != PAUSED:
                break
            watch.report(None, {"nodes": total_expanded, "bound": bound,
                                "text": f"bound {bound}: {total_expanded:,} nodes expanded"})
            if reason := watch.stop_reason(total_expanded):
                return SolveResult(reason, nodes_expanded=total_expanded, nodes_generated=generated + int(st[4]),
                                   peak_frontier=int(st[0]), seconds=watch.elapsed, solver="idastar",
                                   heuristic=name, message=watch.stop_message(reason, total_expanded),
                                   extra={"bounds": iterations})
        expanded += int(st[3])
        generated += int(st[4])
        iterations.append({"bound": bound, "expanded": expanded})
        if code == FOUND:
            depth = int(st[0])
            moves = "".join(MOVES[d] for d in path[:depth])
            return SolveResult(Status.SOLVED, moves, optimal, expanded, generated, depth, watch.elapsed, "idastar",
                               name, extra={"bounds": iterations})
        if st[2] >= 1 << 40:
            break
        bound = int(st[2])
        if reason := watch.stop_reason(expanded):
            return SolveResult(reason, nodes_expanded=expanded, nodes_generated=generated, seconds=watch.elapsed,
                               solver="idastar", heuristic=name, message=watch.stop_message(reason, expanded),
                               extra={"bounds": iterations})
    return SolveResult(Status.BUDGET_EXHAUSTED, nodes_expanded=expanded, nodes_generated=generated,
                       seconds=watch.elapsed, solver="idastar", heuristic=name,
                       message=f"no solution within {max_bound} moves")


def _check_bfs_size(board: Board, limit: int) -> None:
    if board.size > limit:
        raise PuzzleError(f"breadth-first search over a {board.size_name} board ({board.size} cells) needs "
                          f"{math.factorial(board.size) // 2:,} states; it is offered for boards of at most "
                          f"{limit} cells. Use IDA* instead.")


def bfs_distances(start: Board, watch: Watch | None = None, stop_at: Board | None = None) -> tuple[np.ndarray, dict]:
    """Breadth-first search from ``start`` over permutation ranks: distance (uint8, 255 = not reached) per rank.

    Stops early when ``stop_at`` is reached. Returns the distance array and counts (expanded, generated, peak).
    """
    _check_bfs_size(start, BFS_MAX_CELLS)
    watch = watch or Watch()
    n = start.size
    tables = goal_tables(start)
    distance = np.full(math.factorial(n), 255, dtype=np.uint8)
    radix = lexicographic_radix(n, n)
    first = board_rank(start.cells)
    goal_rank = board_rank(stop_at.cells) if stop_at else -1
    distance[first] = 0
    frontier = np.array([first], dtype=np.int64)
    counts = {"expanded": 0, "generated": 0, "peak": 1, "depth": 0, "reached": 1, "stopped": None}
    total = math.factorial(n) // 2
    depth = 0
    while frontier.size and first != goal_rank:
        pieces = []
        found = False
        for begin in range(0, frontier.size, CHUNK // 4):
            chunk = frontier[begin:begin + CHUNK // 4]
            out = np.empty(chunk.size * 4, dtype=np.int64)
            written, generated, found_here = bfs_expand(chunk, distance, depth, tables.neighbors, radix, out,
                                                        goal_rank)
            pieces.append(out[:written])
            counts["expanded"] += chunk.size
            counts["generated"] += generated
            counts["reached"] += written
            found = found or found_here
            watch.report(counts["reached"] / total, {"nodes": counts["reached"], "depth": depth + 1,
                                                     "text": f"depth {depth + 1}: {counts['reached']:,} reached"})
            if found:
                break
            if reason := watch.stop_reason(counts["expanded"]):
                counts["stopped"] = reason
                return distance, counts
        frontier = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int64)
        depth += 1
        counts["depth"] = depth if frontier.size else depth - 1
        counts["peak"] = max(counts["peak"], int(frontier.size))
        if found:
            break
    return distance, counts


def descend(board: Board, distance: np.ndarray) -> str:
    """Follow a distance table downhill from ``board`` to the position at distance 0: a shortest path."""
    moves = []
    current = board
    d = int(distance[board_rank(current.cells)])
    while d > 0:
        for move in current.legal_moves():
            child = current.move(move)
            if int(distance[board_rank(child.cells)]) == d - 1:
                moves.append(move)
                current = child
                d -= 1
                break
        else:
            raise RuntimeError("distance table is inconsistent")
    return "".join(moves)


def invert(moves: str) -> str:
    """The move string that walks a path backwards."""
    return "".join(INVERSE[m] for m in reversed(moves))


def bfs_fast(board: Board, goal: Board, watch: Watch) -> SolveResult:
    """Breadth-first search from the position until the goal is reached, then a walk back down the distances."""
    distance, counts = bfs_distances(board, watch, stop_at=goal)
    common = dict(nodes_expanded=counts["expanded"], nodes_generated=counts["generated"],
                  peak_frontier=counts["peak"], solver="bfs", heuristic="")
    if counts["stopped"]:
        return SolveResult(counts["stopped"], seconds=watch.elapsed,
                           message=watch.stop_message(counts["stopped"], counts["expanded"]), **common)
    moves = invert(descend(goal, distance))
    return SolveResult(Status.SOLVED, moves, True, seconds=watch.elapsed, **common)


def goal_distance_table(goal: Board) -> np.ndarray:
    """Distance to ``goal`` of every position (by rank), from one full BFS; cached on disk. At most 10 cells."""
    _check_bfs_size(goal, PERFECT_MAX_CELLS)
    name = artefact_name("distances", goal.rows, goal.cols, goal.cells)
    return load_or_build(name, lambda: bfs_distances(goal)[0])


def perfect_solve(board: Board, goal: Board, watch: Watch) -> SolveResult:
    """With the exact distance table as heuristic, search only walks the optimal path (one expansion per move)."""
    distance = goal_distance_table(goal)
    moves = descend(board, distance)
    return SolveResult(Status.SOLVED, moves, True, len(moves), 0, 0, watch.elapsed, "table", "perfect")
