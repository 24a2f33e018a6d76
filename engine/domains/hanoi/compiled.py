"""The Towers of Hanoi's hooks for the compiled A* and IDA*: a state numbered in base 3 (disc i's peg times 3^i), its
children in the readable domain's move order, h the discs off their goal peg. ``aux``: (3^i per disc, each disc's
goal peg, the moves' source pegs, their target pegs), int64 arrays."""

from __future__ import annotations

import numpy as np

from engine.domains.hanoi import MOVES
from engine.search.compiled import hook
from engine.search.domain import CompiledDomain


@hook
def _top(tops0, tops1, tops2, peg):
    if peg == 0:
        return tops0
    if peg == 1:
        return tops1
    return tops2


@hook
def hanoi_children(aux, state, out_states, out_costs):
    powers, sources, targets = aux[0], aux[2], aux[3]
    discs = powers.shape[0]
    tops0 = tops1 = tops2 = discs
    for disc in range(discs - 1, -1, -1):  # the smallest disc on a peg is its top
        peg = (state // powers[disc]) % 3
        if peg == 0:
            tops0 = disc
        elif peg == 1:
            tops1 = disc
        else:
            tops2 = disc
    count = 0
    for k in range(sources.shape[0]):
        moved = _top(tops0, tops1, tops2, sources[k])
        if moved < _top(tops0, tops1, tops2, targets[k]):
            out_states[count] = state + (targets[k] - sources[k]) * powers[moved]
            out_costs[count] = 1.0
            count += 1
    return count


@hook
def misplaced_h(aux, state):
    powers, goal = aux[0], aux[1]
    off = 0
    for disc in range(powers.shape[0]):
        if (state // powers[disc]) % 3 != goal[disc]:
            off += 1
    return 1.0 * off


@hook
def zero_h(aux, state):
    return 0.0


def number(pegs: tuple[int, ...]) -> int:
    return sum(peg * 3**disc for disc, peg in enumerate(pegs))


def compiled_hanoi(problem) -> CompiledDomain:
    discs = len(problem.initial)
    powers = np.array([3**disc for disc in range(discs)], dtype=np.int64)
    aux = (powers, np.array(problem.goal, dtype=np.int64), np.array([m[0] for m in MOVES], dtype=np.int64),
           np.array([m[1] for m in MOVES], dtype=np.int64))

    def decode(state: int) -> tuple[int, ...]:
        return tuple((state // 3**disc) % 3 for disc in range(discs))

    h = zero_h if problem.heuristic_name == "zero" else misplaced_h
    return CompiledDomain(hanoi_children, h, aux, 3**discs, number(problem.initial), number(problem.goal), 3, decode)
