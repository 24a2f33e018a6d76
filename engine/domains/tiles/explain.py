"""What a tile heuristic is made of, for drawing it on a board: each tile's Manhattan distance, the linear-conflict
pairs, and on 4×4 the pattern-database groups with each group's value.

The step-through and the play page show these so a class can see *why* h is what it is. The groups come from the
PatternDatabase object itself (their number and make-up are the database's business), and a database is only used
when it is already built: showing a heuristic never starts a 40-second build.
"""

from __future__ import annotations

from engine.domains.tiles.board import Board
from engine.domains.tiles.heuristics import linear_conflict_distance, manhattan_distance


def _goal_places(goal: Board) -> dict[int, tuple[int, int]]:
    return {tile: divmod(cell, goal.cols) for cell, tile in enumerate(goal.cells)}


def tile_distances(board: Board, goal: Board) -> list[int]:
    """Per cell of ``board``: the Manhattan distance of the tile there to its goal cell (0 for the blank)."""
    places = _goal_places(goal)
    out = []
    for cell, tile in enumerate(board.cells):
        r, c = divmod(cell, board.cols)
        gr, gc = places[tile]
        out.append(abs(r - gr) + abs(c - gc) if tile else 0)
    return out


def conflict_pairs(board: Board, goal: Board) -> list[dict]:
    """Pairs of tiles in their goal row (or column) but in reversed order there: one of each pair must step out of
    the line and back, two moves Manhattan distance does not count. (The heuristic counts the fewest tiles that must
    leave each line, which can be fewer than the pairs: one tile can settle several pairs.)"""
    places = _goal_places(goal)
    pairs = []
    for line in range(board.rows):  # rows
        tiles = [t for t in board.cells[line * board.cols:(line + 1) * board.cols] if t and places[t][0] == line]
        pairs += [{"a": a, "b": b, "line": "row", "index": line} for i, a in enumerate(tiles) for b in tiles[i + 1:]
                  if places[a][1] > places[b][1]]
    for line in range(board.cols):  # columns
        tiles = [t for t in board.cells[line::board.cols] if t and places[t][1] == line]
        pairs += [{"a": a, "b": b, "line": "column", "index": line} for i, a in enumerate(tiles) for b in tiles[i + 1:]
                  if places[a][0] > places[b][0]]
    return pairs


def pdb_groups(board: Board, goal: Board) -> dict | None:
    """The pattern database the ``pdb`` heuristic uses for ``goal`` (the strongest one built), its groups and each
    group's value for ``board``, directly and for the mirrored board; None when no database is built for this goal
    yet (or the board is not 4×4)."""
    if (board.rows, board.cols) != (4, 4):
        return None
    from engine.domains.tiles import pdb

    database, _ = pdb.resolve("pdb", goal)
    if database is None:
        return None
    direct, mirrored = database.group_values(board)
    groups = [{"tiles": list(tiles), "value": value, "mirrored": None if mirrored is None else mirrored[g]}
              for g, (tiles, value) in enumerate(zip(database.groups, direct, strict=True))]
    return {"name": database.name, "label": pdb.LABELS[database.name], "groups": groups, "direct_total": sum(direct),
            "mirrored_total": None if mirrored is None else sum(mirrored), "value": database.value(board)}


def explain(board: Board, goal: Board) -> dict:
    """Everything the board overlay draws, with the totals it adds up to."""
    return {"manhattan": tile_distances(board, goal), "manhattan_total": manhattan_distance(board, goal),
            "conflicts": conflict_pairs(board, goal), "linear_conflict_total": linear_conflict_distance(board, goal),
            "pdb": pdb_groups(board, goal)}
