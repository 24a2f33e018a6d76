"""numba kernels of the partitioned full breadth-first search (``fullbfs.py`` defines the layout and the codes).

A partition is an array of uint64 words, 32 states of two bits each (state i: word i // 32, bits 2·(i % 32) and up).
Every kernel works a word at a time: ``equal_fields`` marks the two-bit fields of a word that hold one code, so
finding the frontier, the unseen states, or the states to recode costs a few instructions per 32 states, and a word
with nothing to do is skipped at once.

The plain references beside them (``sequence_child``, ``sequence_parity``) are what
``tests/engine/subjects/research/test_fullbfs.py`` holds the kernels to; the whole search is held to the
one-byte-per-rank breadth-first search of ``engine/domains/tiles/kernel_drivers.py`` there too.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.domains.tiles.ranking_kernels import unrank_positions

LOW_BITS = np.uint64(0x5555555555555555)
STATES_PER_WORD = 32


def code_pattern(code: int) -> np.uint64:
    """A word whose 32 fields all hold ``code``."""
    return np.uint64(code * 0x5555555555555555)


@njit(cache=True, nogil=True)
def equal_fields(word, pattern):
    """The low bit of every two-bit field of ``word`` equal to the field of ``pattern`` (every other bit clear)."""
    differ = word ^ pattern
    return ~(differ | (differ >> np.uint64(1))) & np.uint64(0x5555555555555555)


@njit(cache=True, nogil=True)
def popcount(word):
    word = word - ((word >> np.uint64(1)) & np.uint64(0x5555555555555555))
    word = (word & np.uint64(0x3333333333333333)) + ((word >> np.uint64(2)) & np.uint64(0x3333333333333333))
    word = (word + (word >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (word * np.uint64(0x0101010101010101)) >> np.uint64(56)


@njit(cache=True, nogil=True)
def pull_sideways(target, source, first_word, frontier, fresh, touched, block_words):
    """A horizontal move keeps the tiles' sequence, so a state's child has the same index in the neighbouring
    partition: every unseen state of ``target`` whose twin in ``source`` is on the frontier gets ``fresh``.
    ``source`` holds the words from ``first_word`` on; ``frontier`` and ``fresh`` are code patterns. Every block of
    ``target`` a child lands in is marked in ``touched``, new or not (so a task run again marks the same blocks)."""
    unseen = np.uint64(0)
    for k in range(source.shape[0]):
        found = equal_fields(source[k], frontier)
        if found == np.uint64(0):
            continue
        touched[(first_word + k) // block_words] = 1
        new = found & equal_fields(target[first_word + k], unseen)
        if new != np.uint64(0):
            target[first_word + k] |= (new | (new << np.uint64(1))) & fresh


@njit(cache=True, nogil=True)
def permutation_parity(perm):
    """0 for an even permutation of 0..m-1, 1 for an odd one (m minus its number of cycles)."""
    seen = 0
    cycles = 0
    for start in range(perm.shape[0]):
        if (seen >> start) & 1:
            continue
        cycles += 1
        i = start
        while not (seen >> i) & 1:
            seen |= 1 << i
            i = perm[i]
    return (perm.shape[0] - cycles) & 1


@njit(cache=True, nogil=True)
def unrank_half(index, parity, radix, perm):
    """The permutation of the given parity at ``index`` (ranks 2·index and 2·index + 1 differ by swapping the last
    two numbers, so exactly one of them has each parity)."""
    unrank_positions(2 * index, radix, perm)
    m = perm.shape[0]
    if m > 1 and permutation_parity(perm) != parity:
        perm[m - 2], perm[m - 1] = perm[m - 1], perm[m - 2]


@njit(cache=True, nogil=True)
def rotate(perm, start, length, right):
    """Move the last number of ``perm[start:start + length]`` to its front (``right``) or the first to its end."""
    if right:
        last = perm[start + length - 1]
        for i in range(start + length - 1, start, -1):
            perm[i] = perm[i - 1]
        perm[start] = last
    else:
        first = perm[start]
        for i in range(start, start + length - 1):
            perm[i] = perm[i + 1]
        perm[start + length - 1] = first


#: The number of set bits of every 13-bit number: ranking a sequence of up to 13 tiles counts smaller earlier tiles
#: with one look-up per tile.
SMALL_POPCOUNT = np.array([bin(i).count("1") for i in range(1 << 13)], dtype=np.int64)


@njit(cache=True, nogil=True)
def advance_digits(digits, amount):
    """Add ``amount`` to the rank held as factorial-base digits (digit k in [0, m − k), the last always 0)."""
    m = digits.shape[0]
    k = m - 2
    carry = amount
    while carry > 0 and k >= 0:
        total = digits[k] + carry
        digits[k] = total % (m - k)
        carry = total // (m - k)
        k -= 1


@njit(cache=True, nogil=True)
def sequence_of_digits(digits, parity, perm, free):
    """The sequence whose rank has these digits, or its partner one swap away if that one has the wrong parity
    (the digits' sum is the number of inversions)."""
    m = digits.shape[0]
    for i in range(m):
        free[i] = i
    inversions = 0
    for k in range(m):
        d = digits[k]
        inversions += d
        perm[k] = free[d]
        for i in range(d, m - k - 1):
            free[i] = free[i + 1]
    if (inversions & 1) != parity:
        perm[m - 2], perm[m - 1] = perm[m - 1], perm[m - 2]


@njit(cache=True, nogil=True)
def sequence_rank(perm, radix, popcounts):
    """``rank_of_positions`` of a whole sequence of 0..m−1 with a bit set of the numbers seen: no inner loop."""
    seen = 0
    rank = 0
    for k in range(perm.shape[0]):
        v = perm[k]
        rank += (v - popcounts[seen & ((1 << v) - 1)]) * radix[k]
        seen |= 1 << v
    return rank


@njit(cache=True, nogil=True)
def pull_vertical(target, source, first_word, frontier, fresh, radix, parity, start, cols, right, popcounts,
                  touched, block_words):
    """A vertical move carries one tile ``cols - 1`` places along the sequence (a rotation of ``cols`` numbers from
    ``start``): every frontier state of ``source`` (parity ``parity``) is unranked, rotated and ranked, and its child
    in ``target`` gets ``fresh`` if unseen (its block marked in ``touched``). The scan keeps the current rank's digits
    and steps them forward from one frontier state to the next, so few states pay for dividing. Returns how many
    states were expanded."""
    m = radix.shape[0]
    perm = np.empty(m, dtype=np.int64)
    free = np.empty(m, dtype=np.int64)
    digits = np.empty(m, dtype=np.int64)
    expanded = 0
    current = -1  # the full rank ``digits`` holds
    for k in range(source.shape[0]):
        found = equal_fields(source[k], frontier)
        if found == np.uint64(0):
            continue
        base = (first_word + k) * 32
        for j in range(32):
            if (found >> np.uint64(2 * j)) & np.uint64(1):
                expanded += 1
                rank = 2 * (base + j)
                if current < 0 or rank - current > 1024:
                    rest = rank
                    for d in range(m):
                        digits[d] = rest // radix[d]
                        rest -= digits[d] * radix[d]
                else:
                    advance_digits(digits, rank - current)
                current = rank
                sequence_of_digits(digits, parity, perm, free)
                rotate(perm, start, cols, right)
                child = sequence_rank(perm, radix, popcounts) >> 1
                word = child >> 5
                touched[word // block_words] = 1
                shift = np.uint64(2 * (child & 31))
                if ((target[word] >> shift) & np.uint64(3)) == np.uint64(0):
                    target[word] |= fresh & (np.uint64(3) << shift)
    return expanded


@njit(cache=True, nogil=True)
def recode(target, old, new):
    """Every field holding ``old`` gets ``new`` (both code patterns); words with none are not written."""
    for k in range(target.shape[0]):
        found = equal_fields(target[k], old)
        if found != np.uint64(0):
            mask = found | (found << np.uint64(1))
            target[k] = (target[k] & ~mask) | (new & mask)


@njit(cache=True, nogil=True)
def count_blocks(target, pattern, touched, block_words, counts):
    """The states holding the code in each touched block of ``block_words`` words (untouched blocks count 0)."""
    for b in range(touched.shape[0]):
        counts[b] = 0
        if touched[b]:
            for k in range(b * block_words, min(target.shape[0], (b + 1) * block_words)):
                counts[b] += popcount(equal_fields(target[k], pattern))


@njit(cache=True, nogil=True)
def count_code(target, pattern):
    total = 0
    for k in range(target.shape[0]):
        total += popcount(equal_fields(target[k], pattern))
    return total


@njit(cache=True, nogil=True)
def first_with_code(target, pattern, out):
    """The indices of the first ``len(out)`` states holding the code, written to ``out``; returns how many."""
    written = 0
    for k in range(target.shape[0]):
        found = equal_fields(target[k], pattern)
        j = 0
        while found != np.uint64(0) and written < out.shape[0]:
            if found & np.uint64(1):
                out[written] = k * 32 + j
                written += 1
            found >>= np.uint64(2)
            j += 1
        if written == out.shape[0]:
            break
    return written


def sequence_parity(sequence: list[int]) -> int:
    """The reference of ``permutation_parity``: the number of inversions, mod 2."""
    return sum(1 for i in range(len(sequence)) for j in range(i + 1, len(sequence))
               if sequence[i] > sequence[j]) % 2


def sequence_child(cells: list[int], blank: int, target: int) -> list[int]:
    """The reference of a move in the sequence form: the tiles in reading order, the blank skipped, after the blank
    moves from ``blank`` to ``target`` (by swapping the two cells of a board, as a player does)."""
    moved = list(cells)
    moved[blank], moved[target] = moved[target], moved[blank]
    return [tile for tile in moved if tile != 0]
