"""The Towers of Hanoi: three pegs A, B, C and n discs of sizes 0 (the smallest) … n−1, never a disc on a smaller one.

A state is the peg of each disc, smallest first (``(0, 0, 2)``: discs 0 and 1 on A, disc 2 on C); a move takes the top
disc of one peg to another where it is smaller than the top disc, written ``A→C``, its inverse ``C→A``, costing 1.
The moves from a state are tried in the order AB, AC, BA, BC, CA, CB. The request's JSON is ``{"hanoi": {"discs": n}}``
for the classic problem (every disc from A to C) or ``{"hanoi": {"start": [pegs], "goal": [pegs]}}`` with the pegs as
0, 1, 2 (the goal all on C when left out). h is ``misplaced``: the discs off their goal peg (each must move at least
once and a move moves one disc, so it is admissible and consistent), or ``zero``.

For the compiled searches (``compiled.py``, imported when a search asks for them) a state is numbered in base 3,
disc i's peg times 3^i.
"""

from __future__ import annotations

import functools

from engine.core.errors import PuzzleError
from engine.core.params import choice
from engine.search.domain import Domain, DomainKind, register_domain
from engine.search.view import Drawing

PEGS = "ABC"
#: the moves in the order every search tries them: (from peg, to peg)
MOVES = ((0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1))
MAX_DISCS = 8  # 3^8 = 6,561 states: every search, the step-through's tree included, stays readable
HEURISTICS = ("misplaced", "zero")


def move_name(move: tuple[int, int]) -> str:
    return f"{PEGS[move[0]]}→{PEGS[move[1]]}"


NAMES = {move_name(move): move for move in MOVES}


class HanoiProblem(Domain):
    name = "hanoi"
    unit_costs = True
    reversible = True

    def __init__(self, start: tuple[int, ...], goal: tuple[int, ...], heuristic: str = "misplaced"):
        self.initial, self.goal = start, goal
        self.heuristic_name = heuristic

    @staticmethod
    def tops(state: tuple[int, ...]) -> list[int]:
        """The smallest disc on each peg (len(state): the peg is empty)."""
        tops = [len(state)] * 3
        for disc in reversed(range(len(state))):
            tops[state[disc]] = disc
        return tops

    def actions(self, state):
        tops = self.tops(state)
        return [move_name(move) for move in MOVES if tops[move[0]] < tops[move[1]]]

    def result(self, state, action):
        source, target = NAMES[action]
        disc = self.tops(state)[source]
        return state[:disc] + (target,) + state[disc + 1:]

    def is_goal(self, state):
        return state == self.goal

    def cost(self, state, action):
        return 1

    def inverse(self, state, action):
        return action[::-1]

    def h(self, state):
        if self.heuristic_name == "zero":
            return 0
        return sum(peg != goal for peg, goal in zip(state, self.goal, strict=True))

    @functools.cached_property
    def _compiled(self):
        from engine.domains.hanoi.compiled import compiled_hanoi

        return compiled_hanoi(self)

    def compiled(self):
        return self._compiled


class HanoiDrawing(Drawing):
    """The pegs' page (app/static/js/step/hanoi.js): the goal's pegs shared, each state's pegs with their discs."""

    def encode(self, state):
        return list(state)

    def scene(self):
        return {"discs": len(self.problem.initial), "pegs": PEGS, "goal": self.picture(self.problem.goal)["pegs"]}

    def picture(self, state):
        """Each peg's discs, bottom first."""
        return {"pegs": [[disc for disc in reversed(range(len(state))) if state[disc] == peg] for peg in range(3)]}


def _pegs(value: object, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_DISCS or \
            not all(type(peg) is int and 0 <= peg <= 2 for peg in value):
        raise PuzzleError(f"the {what} must list each disc's peg (0, 1 or 2), smallest disc first, "
                          f"for 1 to {MAX_DISCS} discs")
    return tuple(value)


def hanoi_problem(data: dict) -> HanoiProblem:
    """The problem a request names: ``{"hanoi": {"discs": n}}`` or ``{"hanoi": {"start": [...], "goal": [...]}}``."""
    spec = data.get("hanoi")
    if not isinstance(spec, dict) or not spec or set(spec) - {"discs", "start", "goal"} or \
            ("discs" in spec) == ("start" in spec):
        raise PuzzleError('the Towers of Hanoi must be {"discs": n} (every disc from peg A to peg C) or '
                          '{"start": [each disc\'s peg, smallest first], "goal": [...]}, pegs 0, 1 and 2')
    if "discs" in spec:
        discs = spec["discs"]
        if type(discs) is not int or not 1 <= discs <= MAX_DISCS:
            raise PuzzleError(f"discs must be a whole number from 1 to {MAX_DISCS}")
        start = (0,) * discs
    else:
        start = _pegs(spec["start"], "start")
    goal = _pegs(spec["goal"], "goal") if "goal" in spec else (2,) * len(start)
    if len(goal) != len(start):
        raise PuzzleError(f"the start has {len(start)} discs and the goal {len(goal)}: give every disc's peg in both")
    return HanoiProblem(start, goal, choice(data, "heuristic", HEURISTICS, "misplaced"))


KIND = register_domain(DomainKind("hanoi", "The Towers of Hanoi", hanoi_problem, HEURISTICS, (
    {"hanoi": {"discs": 3}},
    {"hanoi": {"start": [1, 0, 2, 0], "goal": [0, 0, 0, 1]}, "heuristic": "misplaced"},
    {"hanoi": {"discs": 2}, "heuristic": "zero"},
), drawing=HanoiDrawing))
