"""The pancake puzzle, written to the domain contract in this one file, to show what a new domain takes.

A state is a stack of pancakes 0 … n−1 (sizes, top first); move k flips the top k (k = 2 … n), its own inverse,
costing 1. The goal is the sorted stack. h is Helmert's gap heuristic: the neighbouring pancakes (the plate counting
as pancake n under the bottom one) whose sizes differ by more than one; a flip changes one neighbourhood, so h
changes by at most 1 per move (admissible and consistent).

For the compiled A* a stack is numbered by its rank among the n! permutations (Lehmer code); the hooks unrank a
number into ``aux[2]``, flip it there and rank the child.
"""

from __future__ import annotations

import math

import numpy as np

from engine.core.errors import PuzzleError
from engine.search.compiled import hook
from engine.search.domain import CompiledDomain, Domain, DomainKind, register_domain
from engine.search.view import Drawing


class PancakeProblem(Domain):
    name = "pancake"
    unit_costs = True
    reversible = True
    heuristic_name = "gap"

    def __init__(self, stack: tuple[int, ...]):
        self.initial = tuple(stack)
        self.goal = tuple(sorted(stack))

    def actions(self, state):
        return range(2, len(state) + 1)

    def result(self, state, action):
        return state[:action][::-1] + state[action:]

    def is_goal(self, state):
        return state == self.goal

    def h(self, state):
        below = state[1:] + (len(state),)
        return sum(abs(a - b) > 1 for a, b in zip(state, below, strict=True))

    def cost(self, state, action):
        return 1

    def inverse(self, state, action):
        return action

    def format_path(self, path):
        return " ".join(map(str, path))

    def compiled(self):
        n = len(self.initial)
        aux = (np.array([math.factorial(n - 1 - i) for i in range(n)], dtype=np.int64),
               np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64))
        return CompiledDomain(pancake_children, gap_h, aux, math.factorial(n), rank(self.initial), 0, n - 1,
                              lambda number: unrank(number, n))


def rank(stack) -> int:
    n, number = len(stack), 0
    for i, pancake in enumerate(stack):
        number += sum(later < pancake for later in stack[i + 1:]) * math.factorial(n - 1 - i)
    return number


def unrank(number: int, n: int) -> tuple[int, ...]:
    left, stack = list(range(n)), []
    for i in range(n):
        index, number = divmod(number, math.factorial(n - 1 - i))
        stack.append(left.pop(index))
    return tuple(stack)


@hook
def _unrank_into(aux, number):
    factorials, stack, used = aux
    n = stack.shape[0]
    used[:] = 0
    for i in range(n):
        index = number // factorials[i]
        number = number % factorials[i]
        for pancake in range(n):
            if used[pancake] == 0:
                if index == 0:
                    stack[i] = pancake
                    used[pancake] = 1
                    break
                index -= 1


@hook
def _rank_of(aux):
    factorials, stack, _ = aux
    n = stack.shape[0]
    number = 0
    for i in range(n):
        smaller = 0
        for j in range(i + 1, n):
            if stack[j] < stack[i]:
                smaller += 1
        number += smaller * factorials[i]
    return number


@hook
def _flip(stack, k):
    for i in range(k // 2):
        stack[i], stack[k - 1 - i] = stack[k - 1 - i], stack[i]


@hook
def pancake_children(aux, state, out_states, out_costs):
    stack = aux[1]
    n = stack.shape[0]
    for k in range(2, n + 1):
        _unrank_into(aux, state)
        _flip(stack, k)
        out_states[k - 2] = _rank_of(aux)
        out_costs[k - 2] = 1.0
    return n - 1


@hook
def gap_h(aux, state):
    _unrank_into(aux, state)
    stack = aux[1]
    n = stack.shape[0]
    gaps = 0
    for i in range(n):
        below = stack[i + 1] if i + 1 < n else n
        if abs(stack[i] - below) > 1:
            gaps += 1
    return 1.0 * gaps


def pancake_problem(data: dict) -> PancakeProblem:
    """The problem a request names: ``{"pancake": [sizes, top first]}``, a permutation of 0 … n−1, n from 2 to 9."""
    stack = data.get("pancake")
    if not isinstance(stack, list) or not 2 <= len(stack) <= 9 or sorted(stack) != list(range(len(stack))) or \
            not all(type(size) is int for size in stack):
        raise PuzzleError("the pancakes must be a list of the sizes 0 … n−1 in some order, n from 2 to 9, top first")
    return PancakeProblem(tuple(stack))


class PancakeDrawing(Drawing):
    """A stack as its sizes, top first; the scene says how many pancakes there are."""

    def encode(self, state):
        return list(state)

    def picture(self, state):
        return {"stack": list(state)}

    def scene(self):
        return {"pancakes": len(self.problem.initial)}


KIND = DomainKind("pancake", "The pancake puzzle", pancake_problem, ("gap",),
                  ({"pancake": [3, 1, 4, 0, 2, 5]}, {"pancake": [1, 0]}, {"pancake": [0, 1, 2]}),
                  drawing=PancakeDrawing)


def register() -> DomainKind:
    return register_domain(KIND)
