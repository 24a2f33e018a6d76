"""A* over feature points (seed 003), with the duplicate detection the paper could not do: the shared best-first
search of ``engine.search.algorithms.best_first`` on ``RectoutProblem``, a problem of the domain contract.

g counts the paper's moves: a motion (one plate translating or turning, or two plates turning together) joins the
move before it if it is of the same family (translation or turn) and moves no plate that move has moved already,
and costs nothing then; otherwise it opens a new move and costs 1. So a set of plates each sliding once is one move,
as in the paper, while the search still steps one plate at a time. h is the paper's (plates between the target and
the hole, + 1).

Duplicates are found by the quantized, canonical key of ``puzzle.Quantum`` together with the open move (its family
and the plates it has moved, which decide what the next motion costs): a key reached before with a g no larger is
not searched again. With ``dedupe=False`` the search is the paper's tree search, which repeats states.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.errors import PuzzleError
from engine.core.result import Budget, Watch
from engine.core.status import Status
from engine.domains.rectout.motion import Motion, apply
from engine.domains.rectout.moves import motions
from engine.domains.rectout.puzzle import Quantum, State, heuristic, is_out, overlap_report
from engine.search.algorithms.best_first import best_first_search
from engine.search.domain import Domain


@dataclass
class RectoutResult:
    status: Status  # SOLVED, BUDGET_EXHAUSTED, CANCELLED, or NOT_SOLVED when every feature point was searched
    start: State
    motions: list[Motion] = field(default_factory=list)
    expanded: int = 0
    generated: int = 0
    duplicates: int = 0  # states recognised as seen before (and so not searched again)
    seconds: float = 0.0
    dedupe: bool = True

    @property
    def groups(self) -> list[list[int]]:
        return paper_moves(self.motions)

    def to_dict(self) -> dict:
        return {"status": self.status, "start": [list(p) for p in self.start],
                "motions": [m.to_dict() for m in self.motions], "length": len(self.motions),
                "paper_moves": len(self.groups), "groups": self.groups, "expanded": self.expanded,
                "generated": self.generated, "duplicates": self.duplicates, "seconds": round(self.seconds, 3),
                "dedupe": self.dedupe}


def paper_moves(sequence: list[Motion]) -> list[list[int]]:
    """Indices of ``sequence`` grouped into the paper's moves (the rule of ``joins``)."""
    groups: list[list[int]] = []
    for index, motion in enumerate(sequence):
        last = groups[-1] if groups else None
        if last and joins(sequence[last[0]].family, {p for i in last for p in sequence[i].pieces}, motion):
            last.append(index)
        else:
            groups.append([index])
    return groups


def joins(family: str | None, moved: frozenset | set, motion: Motion) -> bool:
    """Does ``motion`` belong to the open move (of ``family``, having moved the plates ``moved``)?"""
    return family == motion.family and not moved & set(motion.pieces)


DEFAULT_QUANTUM = Quantum()


class Plates:
    """A state of the search: the plates' poses and the open move (its family and the plates it has moved, which
    decide what the next motion costs). Two are the same state when their quantized keys and open moves agree; with
    ``key`` None (the paper's tree search) no two are."""

    __slots__ = ("poses", "family", "moved", "key")

    def __init__(self, poses: State, family: str | None, moved: frozenset, key: object):
        self.poses, self.family, self.moved = poses, family, moved
        self.key = key if key is not None else object()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Plates) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)


class RectoutProblem(Domain):
    """Rectangle-out as a problem of the domain contract (``engine.search.domain``): moves are motions
    (``moves.motions``), a motion costs 0 when it joins the open move and 1 when it opens a new one, h is the
    paper's, the goal is the target out."""

    name = "rectout"
    unit_costs = False
    reversible = False
    goal = None
    heuristic_name = "plates in the way + 1"

    def __init__(self, start: State, quantum: Quantum = DEFAULT_QUANTUM, dedupe: bool = True):
        self.quantum, self.dedupe = quantum, dedupe
        self.initial = self._plates(start, None, frozenset())

    def _plates(self, poses: State, family: str | None, moved: frozenset) -> Plates:
        return Plates(poses, family, moved, (self.quantum.key(poses), family, moved) if self.dedupe else None)

    def actions(self, state: Plates) -> list[Motion]:
        return motions(state.poses)

    def result(self, state: Plates, action: Motion) -> Plates:
        if joins(state.family, state.moved, action):
            return self._plates(apply(state.poses, action), state.family, state.moved | set(action.pieces))
        return self._plates(apply(state.poses, action), action.family, frozenset(action.pieces))

    def cost(self, state: Plates, action: Motion) -> int:
        return 0 if joins(state.family, state.moved, action) else 1

    def h(self, state: Plates) -> int:
        return heuristic(state.poses)

    def is_goal(self, state: Plates) -> bool:
        return is_out(state.poses)

    def inverse(self, state: Plates, action: Motion) -> None:
        return None

    def format_path(self, path: tuple) -> str:
        return " ".join(motion.label for motion in path)


def solve(start: State, watch: Watch | None = None, dedupe: bool = True, quantum: Quantum = DEFAULT_QUANTUM,
          weight: float = 1.0) -> RectoutResult:
    """A* from ``start`` until the target is out: the shared best-first search
    (``engine.search.algorithms.best_first``) on ``RectoutProblem``; ``weight`` > 1 is weighted A* (f = g +
    weight·h), which trades the fewest moves for a faster answer. (Even at weight 1 the fewest is not guaranteed:
    the paper's h counts plates, and one set move can clear several.) Among equal f the smaller h, then the newest
    state goes first. ``watch`` holds the budget (states expanded, seconds), the cancel and the progress report (by
    default 20,000 states, 120 s)."""
    problems = overlap_report(start)
    if problems:
        raise PuzzleError("the start is not a legal position: " + "; ".join(problems))
    watch = watch or Watch(Budget(max_nodes=20_000, max_seconds=120))
    seen = {"duplicates": 0, "path": ()}

    def note(event: str, data: dict) -> None:
        if event == "duplicate":
            seen["duplicates"] += 1
        elif event == "goal":
            seen["path"] = data["path"]

    searched = best_first_search(RectoutProblem(start, quantum, dedupe), lambda g, h: g + weight * h, "rectout",
                                 trace=note, watch=watch, optimal=False, order=lambda g, h, n: (g + weight * h, h, -n))
    status = Status.NOT_SOLVED if searched.status == Status.UNSOLVABLE else searched.status
    return RectoutResult(status, start, list(seen["path"]), searched.nodes_expanded, searched.nodes_generated,
                         seen["duplicates"], watch.elapsed, dedupe)
