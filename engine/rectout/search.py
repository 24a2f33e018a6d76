"""A* over feature points (seed 003), with the duplicate detection the paper could not do.

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

import heapq
import itertools
from dataclasses import dataclass, field

from engine.errors import PuzzleError
from engine.rectout.motion import Motion, apply
from engine.rectout.moves import motions
from engine.rectout.puzzle import Quantum, State, heuristic, is_out, overlap_report
from engine.result import Budget, Watch
from engine.status import Status

PROGRESS_EVERY = 10  # expansions between progress reports (an expansion takes up to ~0.3 s)


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


def solve(start: State, watch: Watch | None = None, dedupe: bool = True, quantum: Quantum = DEFAULT_QUANTUM,
          weight: float = 1.0) -> RectoutResult:
    """A* from ``start`` until the target is out; ``weight`` > 1 is weighted A* (f = g + weight·h), which trades
    the fewest moves for a faster answer. (Even at weight 1 the fewest is not guaranteed: the paper's h counts
    plates, and one set move can clear several.) Among equal f the newest state goes first. ``watch`` holds the
    budget (states expanded, seconds), the cancel and the progress report (by default 20,000 states, 120 s)."""
    problems = overlap_report(start)
    if problems:
        raise PuzzleError("the start is not a legal position: " + "; ".join(problems))
    watch = watch or Watch(Budget(max_nodes=20_000, max_seconds=120))
    result = RectoutResult(Status.BUDGET_EXHAUSTED, start, dedupe=dedupe)
    order = itertools.count(0, -1)  # newest first among equal (f, h)
    # nodes: (state, parent index, motion that led here, g, the open move's family and the plates it moved)
    nodes: list[tuple[State, int, Motion | None, int, str | None, frozenset]] = [(start, -1, None, 0, None,
                                                                                   frozenset())]
    best_g = {(quantum.key(start), None, frozenset()): 0}
    frontier = [(weight * heuristic(start), 0, next(order), 0)]
    reported = -1  # the expansion count last reported (stale entries popped in between do not report again)
    while frontier:
        if result.expanded % PROGRESS_EVERY == 0 and result.expanded != reported:
            reported = result.expanded
            watch.report(min(1.0, result.expanded / watch.budget.max_nodes),
                         {"nodes": result.expanded, "text": f"{result.expanded:,} states expanded, "
                          f"{len(frontier):,} waiting, {result.duplicates:,} duplicates merged"})
        if reason := watch.stop_reason(result.expanded):
            result.status = reason
            break
        f, _, _, index = heapq.heappop(frontier)
        state, _, _, g, family, moved = nodes[index]
        if is_out(state):
            result.status = Status.SOLVED
            result.motions = _path(nodes, index)
            break
        if dedupe and best_g.get((quantum.key(state), family, moved), g) < g:
            continue  # reached again more cheaply since it was queued
        result.expanded += 1
        for motion in motions(state):
            child = apply(state, motion)
            result.generated += 1
            if joins(family, moved, motion):
                child_g, child_family, child_moved = g, family, moved | set(motion.pieces)
            else:
                child_g, child_family, child_moved = g + 1, motion.family, frozenset(motion.pieces)
            if dedupe:
                key = (quantum.key(child), child_family, child_moved)
                if key in best_g and best_g[key] <= child_g:
                    result.duplicates += 1
                    continue
                best_g[key] = child_g
            nodes.append((child, index, motion, child_g, child_family, child_moved))
            h = heuristic(child)
            heapq.heappush(frontier, (child_g + weight * h, h, next(order), len(nodes) - 1))
    else:
        result.status = Status.NOT_SOLVED
    result.seconds = watch.elapsed
    return result


def _path(nodes, index: int) -> list[Motion]:
    out = []
    while nodes[index][1] >= 0:
        out.append(nodes[index][2])
        index = nodes[index][1]
    return out[::-1]
