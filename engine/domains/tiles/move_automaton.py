"""Duplicate pruning by a finite-state machine over the blank's moves (the idea of Taylor & Korf, "Pruning duplicate
nodes in depth-first search", AAAI 1993), for the IDA* kernels.

A depth-first search of the sliding-tile puzzle reaches most nodes by many move strings. Some strings A are known in
advance to be wasted: another string B reaches the same position from the same one, and B is *lesser* (shorter, or
as long and earlier in the moves' order U < D < L < R). ``duplicate_strings`` learns such pairs by a breadth-first
search of the blank's move strings on the unbounded plane, up to ``LEARN_DEPTH`` moves; ``MoveAutomaton`` is the
Aho–Corasick machine of the forbidden strings A (minimised): its state, carried along the search's path, says which
next moves would complete one, and the kernel never makes them. "Never undo the last move" is the machine of the four
two-move strings (UD ≡ nothing, ...): ``parent_only``.

Why it is safe, on every board shape and from every cell (the edges included):

1. A move string's effect depends only on the cells the blank visits: each move swaps the blank with the tile on the
   next cell. Two strings from the same cell with the same effect on the plane have the same effect on any board on
   which both stay (the board is a window of the plane; no cell outside it is touched).
2. A string A is learned as forbidden only if its lesser equivalent B visits no cell that A does not visit (the
   learning asks for ``cells(B) ⊆ cells(A)``, not just equal effects). So wherever A can be made, on any board, B can
   be made too, with the same effect. (A string learned without this condition, say one that goes round a 2×2 square
   where its equivalent goes round the neighbouring one, would be wrongly pruned against an edge.)
3. Take any node and, among the move strings of at most the bound that reach it, the least one P (by length, then
   in the moves' order). If P contained a forbidden A, P = u A v, then u B v would be legal, reach the same node and
   be lesser: so P contains none and the machine lets it through. In particular the least optimal solution survives;
   every node on it has f ≤ the optimal length (h admissible), so every iteration below the optimum cuts a node of
   it (the next bound is at most the optimum) and the iteration at the optimum finds it. IDA* stays optimal and its
   bounds are those of the parent-only search (each bound is some f ≤ the optimum either way; see the tests).
4. Each forbidden string contains the forbidden two-move ones or not, but the learned machine forbids every string
   the parent-only one forbids (the four inverse pairs are learned at depth 2), so each iteration that completes
   expands a subset of the parent-only search's nodes: never more, usually fewer.

The learning is a breadth-first search of strings with no forbidden substring (a string with one is never made),
each string's effect kept as the blank's cell and the displaced tiles; a new string is forbidden when a string
already kept (shorter, or as long and earlier: made before it) has its effect and visits only cells it visits. Only
the minimal forbidden strings are kept (a longer one containing one is never made), the patterns of the machine.
The machine (863 states at depth 10; 3 s of CPU to learn) is kept in the store, so it is learned once per data
folder.
"""

from __future__ import annotations

import functools
from collections import deque
from dataclasses import dataclass

import numpy as np

from engine.domains.tiles.board import MOVES, STEP

#: Move strings up to this length are learned: 300 forbidden strings at depth 10 (4 of 2 moves, 4 of 6, 24 of 8, 20
#: of 9, 248 of 10), a machine of 863 states; depth 12 adds 2,064 more strings at 13 times the learning time and
#: 7.5 times the states (before minimising), child lists past the caches.
LEARN_DEPTH = 10
#: The boards on which the solvers' IDA* prunes by the learned machine by default: 5×5 and larger. Smaller boards keep
#: parent-only pruning, which the published counts and the readable IDA* (``engine.search``) assume (Korf & Felner's
#: 36,710 nodes per instance with the 7-8 database, Burns et al.'s counts per bound in bench/vs_burns.py).
LEARNED_FROM_CELLS = 25
#: ``pruning`` names: "parent" (never undo the last move), "fsm" (the learned machine), None: by the board's size.
PRUNINGS = ("parent", "fsm")

_STEPS = tuple(STEP[move] for move in MOVES)


@dataclass(frozen=True)
class MoveAutomaton:
    """A machine over the blank's moves (indices in ``MOVES``): ``next[state, move]`` the state after the move, -1
    where the move is forbidden there; a search starts in ``start``."""
    next: np.ndarray
    start: int
    name: str

    @property
    def states(self) -> int:
        return int(self.next.shape[0])

    def walk(self, moves: str, state: int | None = None) -> int:
        """The state after ``moves`` from ``state`` (the start), -1 once one of them is forbidden."""
        state = self.start if state is None else state
        for move in moves:
            if state < 0:
                return -1
            state = int(self.next[state, MOVES.index(move)])
        return state


@functools.cache
def parent_only() -> MoveAutomaton:
    """State m: the last move was m (4: none yet); the move that undoes it is forbidden. The kernels' child lists are
    keyed by the blank's cell and this state, as they were by the move that led there."""
    table = np.zeros((5, 4), dtype=np.int64)
    for state in range(5):
        for move in range(4):
            undo = state < 4 and _STEPS[move] == tuple(-x for x in _STEPS[state])
            table[state, move] = -1 if undo else move
    table.setflags(write=False)
    return MoveAutomaton(table, 4, "parent")


def duplicate_strings(depth: int = LEARN_DEPTH) -> list[tuple[str, str]]:
    """The minimal forbidden strings up to ``depth`` moves, each with a lesser string of the same effect that visits
    only cells it visits: (forbidden, equivalent) pairs, in the order learned."""
    origin = (0, 0)
    # the strings kept at the last depth: (moves, blank, displaced tiles {cell: the cell it came from}, cells visited)
    level = [((), origin, {}, frozenset([origin]))]
    kept_with: dict[tuple, list[tuple[frozenset, tuple]]] = {(origin, frozenset()): [(frozenset([origin]), ())]}
    pairs = []
    for length in range(1, depth + 1):
        alive = {moves for moves, *_ in level}
        below = []
        for moves, blank, displaced, visited in level:  # in the moves' order, so each string after its lesser ones
            for move in range(4):
                string = moves + (move,)
                if length > 1 and string[1:] not in alive:
                    continue  # contains a forbidden string (its prefix is kept, so its suffix is not)
                dr, dc = _STEPS[move]
                target = (blank[0] + dr, blank[1] + dc)
                after = dict(displaced)
                tile = after.pop(target, target)
                if tile != blank:
                    after[blank] = tile
                cells = visited | {target}
                same = kept_with.setdefault((target, frozenset(after.items())), [])
                lesser = next((other for seen, other in same if seen <= cells), None)
                if lesser is not None:
                    pairs.append((_text(string), _text(lesser)))
                    continue
                same.append((cells, string))
                below.append((string, target, after, cells))
        level = below
    return pairs


def _text(moves: tuple) -> str:
    return "".join(MOVES[m] for m in moves)


def machine(patterns: list[str]) -> tuple[np.ndarray, int]:
    """The Aho–Corasick machine of ``patterns`` (move strings), minimised: (next, start), ``next[s, m]`` = -1 where
    move m completes a pattern (the state of a string is its longest suffix that begins a pattern)."""
    goto: list[dict[int, int]] = [{}]
    final = [False]
    for pattern in patterns:
        state = 0
        for move in (MOVES.index(m) for m in pattern):
            if move not in goto[state]:
                goto[state][move] = len(goto)
                goto.append({})
                final.append(False)
            state = goto[state][move]
        final[state] = True
    fail = [0] * len(goto)
    table = np.zeros((len(goto), 4), dtype=np.int64)
    queue = deque()
    for move in range(4):
        child = goto[0].get(move, 0)
        table[0, move] = child
        if child:
            queue.append(child)
    while queue:  # breadth first: each state's failure link is a shallower state, already complete
        state = queue.popleft()
        final[state] = final[state] or final[fail[state]]
        for move in range(4):
            child = goto[state].get(move)
            if child is None:
                table[state, move] = table[fail[state], move]
            else:
                fail[child] = table[fail[state], move]
                table[state, move] = child
                queue.append(child)
    final_array = np.array(final)
    table[final_array[table]] = -1  # a move into a state that ends a pattern is forbidden
    return _minimised(table, 0)


def _minimised(table: np.ndarray, start: int) -> tuple[np.ndarray, int]:
    """The reachable states of ``table`` merged by Moore's refinement (states that forbid the same moves now and
    after every string of moves are one state), renumbered from the start in breadth-first order."""
    order, seen = [start], {start}
    for state in order:
        for child in table[state]:
            if child >= 0 and int(child) not in seen:
                seen.add(int(child))
                order.append(int(child))
    table = table[order]
    index = np.full(max(seen) + 2, -1, dtype=np.int64)
    index[order] = np.arange(len(order))
    table = np.where(table >= 0, index[table], -1)
    block = (table < 0) @ np.array([1, 2, 4, 8])
    while True:
        signature = np.column_stack([block, np.where(table >= 0, block[np.maximum(table, 0)], -1)])
        _, refined = np.unique(signature, axis=0, return_inverse=True)
        refined = refined.reshape(-1)
        if len(set(refined.tolist())) == len(set(block.tolist())):
            break
        block = refined
    # one representative per block, numbered in breadth-first order from the start's
    first: dict[int, int] = {}
    for state in range(len(table)):
        first.setdefault(int(block[state]), len(first))
    merged = np.zeros((len(first), 4), dtype=np.int64)
    for state in range(len(table)):
        row = first[int(block[state])]
        merged[row] = [first[int(block[c])] if c >= 0 else -1 for c in table[state]]
    return merged, first[int(block[0])]


@functools.cache
def learned(depth: int = LEARN_DEPTH) -> MoveAutomaton:
    """The machine of the duplicate strings up to ``depth`` moves, read from the store once built there."""
    from engine.serving.store import artefact_name, load_or_build

    def build() -> np.ndarray:
        table, start = machine([forbidden for forbidden, _ in duplicate_strings(depth)])
        return np.vstack([table, [start, depth, 0, 0]])  # the start kept in a last row

    stored = load_or_build(artefact_name("move-automaton", 1, depth), build)
    table = np.array(stored[:-1], dtype=np.int64)
    table.setflags(write=False)
    return MoveAutomaton(table, int(stored[-1, 0]), "fsm")


def automaton(pruning: str | None, cells: int) -> MoveAutomaton:
    """The machine a search of a board of ``cells`` cells prunes by: ``pruning`` one of ``PRUNINGS``, or None for
    the default (the learned one from ``LEARNED_FROM_CELLS`` cells)."""
    if pruning is None:
        pruning = "fsm" if cells >= LEARNED_FROM_CELLS else "parent"
    if pruning not in PRUNINGS:
        from engine.core.errors import PuzzleError

        raise PuzzleError(f"unknown pruning {pruning!r}: one of {', '.join(PRUNINGS)}")
    return learned() if pruning == "fsm" else parent_only()
