"""An IDA* iteration stopped midway, written down as plain data, and its end searched from there in another process.

A job that yields its lane (or leaves the interactive lane at its slice's end) goes on in another worker: the
kernel's arrays stay behind, so what it had searched would be searched again. What is left of an iteration is
written instead as an ``Unfinished``: the moves from the root to the node the kernel had just entered (``path``; its
subtree not searched yet) and, at each depth above it, the siblings still to search after the move taken there
(``left``, in the kernel's order). ``finish_iteration`` searches exactly those, each below the same bound by the same
compiled kernel (``kernel_drivers.subtree_iteration``), in the order the kernel would have: the nodes expanded and
generated, the next bound and a goal found are those of the uninterrupted iteration
(``tests/engine/domains/tiles/test_ida_resume.py``). Stopped again, it writes down what is left of that in turn.

An ordered kernel (``ida_kernels.ida_kernel``'s ``ordered``) generates a node's children and sorts those inside the
bound before it enters the first: its siblings left were generated and found inside the bound already
(``checked``); an unordered kernel's are generated here, each as the kernel would, with the whole board's h.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypedDict

import numpy as np

from engine.domains.tiles.board import MOVES, Board
from engine.domains.tiles.heuristics import heuristic
from engine.domains.tiles.ida_iteration import DEPTH, EXPANDED, GENERATED, NEXT_BOUND, NO_BOUND


class Unfinished(TypedDict):
    """What is left of an iteration (JSON: a job's parameters carry it), and what it had counted so far."""
    path: str  # the moves from the root to the node entered last, whose subtree is still to search
    left: list[str]  # left[d]: the moves still to try at depth d after path[d], in the kernel's order
    checked: bool  # those moves were generated and found inside the bound already (an ordered kernel)
    expanded: int  # counted by the iteration so far
    generated: int
    least: int  # the least f above the bound seen so far


def unfinished(st: np.ndarray, stack, children, ordered: bool, prefix: str = "") -> Unfinished:
    """Where a kernel paused (``st`` and ``stack`` as it left them; ``children`` its child lists) stands, its path
    after ``prefix`` (the moves to the kernel's root from the root of the whole search)."""
    depth = int(st[DEPTH])
    left = []
    for d in range(depth):
        row = int(stack.key_at[d]) * 4
        if ordered:  # trial: 1 + the position of the next kept child in order[d]
            chosen = [int(stack.order[d, p]) for p in range(int(stack.trial[d]) - 1, int(stack.order[d, 8]))]
        else:  # trial: the index of the next child in the node's list
            chosen = list(range(int(stack.trial[d]), int(children.count[row >> 2])))
        left.append("".join(MOVES[int(children.move[row + k])] for k in chosen))
    return Unfinished(path=prefix + "".join(MOVES[int(d)] for d in stack.path[:depth]), left=left, checked=ordered,
                      expanded=int(st[EXPANDED]), generated=int(st[GENERATED]), least=int(st[NEXT_BOUND]))


def finish_iteration(root: Board, goal: Board, name: str, loaded: dict, pruning: str, bound: int, work: Unfinished,
                     cap: int, stop: Callable[[], bool], seen: Callable[[int], None] | None = None) -> dict:
    """The rest of the iteration below ``bound`` that ``work`` left (``root`` and ``goal`` in the search's frame,
    ``loaded`` as ``kernel_drivers.search_frame`` gives it), at most ``cap`` more nodes expanded, ``stop()`` asked
    between slices, ``seen(expanded)`` told the iteration's count as it grows. Returns the iteration's ``expanded``,
    ``generated`` and ``least`` (the counts carried in ``work`` included), ``moves`` (from the root, when a goal was
    met) and ``unfinished``: what is left when it stopped again, else None."""
    from engine.domains.tiles.kernel_drivers import subtree_iteration
    from engine.domains.tiles.move_automaton import automaton

    machine = automaton(pruning, goal.size)
    compiled = heuristic(name).compiled()
    out = {"expanded": work["expanded"], "generated": work["generated"], "least": work["least"], "moves": None,
           "unfinished": None}
    path, left = work["path"], [list(moves) for moves in work["left"]]
    boards = [root]
    for move in path:
        boards.append(boards[-1].move(move))
    started = out["expanded"]

    def below(moves: str, board: Board, above: list[list[str]]) -> bool:
        """The subtree under the node ``moves`` reached (``above``: the siblings still left over it); whether the
        iteration ends here (a goal, or a stop)."""
        part = subtree_iteration(board, goal, name, loaded, pruning, machine.walk(moves), bound - len(moves),
                                 max(1, cap - (out["expanded"] - started)), stop,
                                 seen and (lambda done: seen(out["expanded"] + done)))
        out["expanded"] += part["expanded"]
        out["generated"] += part["generated"]
        if part["least"] < NO_BOUND:
            out["least"] = min(out["least"], part["least"] + len(moves))
        if part["moves"] is not None:
            out["moves"] = moves + part["moves"]
            return True
        if part["stopped"]:
            rest = part["unfinished"]
            out["unfinished"] = Unfinished(path=moves + rest["path"], left=["".join(s) for s in above] + rest["left"],
                                           checked=work["checked"], expanded=out["expanded"],
                                           generated=out["generated"], least=out["least"])
            return True
        return False

    if below(path, boards[-1], left):
        return out
    for depth in range(len(path) - 1, -1, -1):
        while left[depth]:
            move = left[depth].pop(0)
            moves, board = path[:depth] + move, boards[depth].move(move)
            if not work["checked"]:  # generated here, as the unordered kernel generates it
                out["generated"] += 1
                f = depth + 1 + int(compiled.inputs(board, goal, loaded, 2)[1])
                if f > bound:
                    out["least"] = min(out["least"], f)
                    continue
            if board == goal:
                out["moves"] = moves
                return out
            out["expanded"] += 1
            if below(moves, board, left[:depth + 1]):
                return out
    return out
