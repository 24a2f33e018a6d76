"""The compressed pattern of seed 002: the cells of the blank and of a few tiles (10..15 by default).

The key is ranked densely (``engine.domains.tiles.ranking_kernels.pattern_rank``): for 7 items on 16 cells that is
16·15·…·10 = 57,657,600 keys, one byte each in the table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from engine.core.errors import PuzzleError
from engine.domains.tiles.ranking import lexicographic_radix, partial_rank

DEFAULT_TILES = (10, 11, 12, 13, 14, 15)


@dataclass(frozen=True)
class Pattern:
    cells: int
    tiles: tuple[int, ...]  # the key's tiles after the blank, which is always slot 0

    @property
    def items(self) -> tuple[int, ...]:
        return (0,) + self.tiles

    @property
    def size(self) -> int:
        return math.perm(self.cells, len(self.items))

    def key_slot(self) -> np.ndarray:
        slot = np.full(self.cells, -1, dtype=np.int64)
        for index, tile in enumerate(self.items):
            slot[tile] = index
        return slot

    def key_radix(self) -> np.ndarray:
        return lexicographic_radix(len(self.items), self.cells)


def pattern_for(tiles: object = DEFAULT_TILES, cells: int = 16) -> Pattern:
    try:
        chosen = tuple(sorted({int(t) for t in (tiles.replace(",", " ").split() if isinstance(tiles, str) else tiles)}))
    except (TypeError, ValueError, OverflowError):
        raise PuzzleError("the pattern's tiles must be numbers, e.g. 10 11 12 13 14 15") from None
    if not chosen or any(not 1 <= t < cells for t in chosen):
        raise PuzzleError(f"the pattern's tiles must be from 1 to {cells - 1}")
    if len(chosen) > 7:
        raise PuzzleError("at most 7 tiles besides the blank (16·15·…·9 = 518,918,400 keys is the most we store)")
    return Pattern(cells, chosen)


def rank_reference(cells: tuple[int, ...], pattern: Pattern) -> int:
    """The key's index in plain Python: the rank of the items' cells (``engine.domains.tiles.ranking``)."""
    return partial_rank([cells.index(item) for item in pattern.items], pattern.cells)


def unrank(rank: int, pattern: Pattern) -> list[int]:
    """The items' cells for a key index (the inverse of the ranking)."""
    k = len(pattern.items)
    digits = []
    for slot in reversed(range(k)):
        base = pattern.cells - slot
        digits.append(rank % base)
        rank //= base
    digits.reverse()
    taken: list[int] = []
    for digit in digits:  # a digit counts the cells below its own that lower slots have not taken
        taken.append([c for c in range(pattern.cells) if c not in taken][digit])
    return taken
