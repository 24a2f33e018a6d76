"""Drivers for the numba kernels: IDA* and breadth-first search that honour budgets, cancel and progress.

IDA*'s kernel works in slices sized to a fraction of a second from the rate it shows (``engine.core.result.Slices``),
breadth-first search in chunks of ``CHUNK`` positions; each returns here between them, so a cancel or a time budget
is seen well within a second. Breadth-first search holds one byte per position of the whole space and its frontier:
both count against the budget's bytes.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import numpy as np

from engine.core.errors import PuzzleError
from engine.core.result import MEMORY, Slices, SolveResult, Watch
from engine.core.status import Status
from engine.domains.tiles.bfs_kernels import bfs_expand
from engine.domains.tiles.board import (
    BFS_MAX_CELLS,
    INVERSE,
    MOVES,
    PERFECT_MAX_CELLS,
    Board,
    half_turn,
    half_turn_moves,
)
from engine.domains.tiles.goal_arrays import goal_tables, pruned_children
from engine.domains.tiles.heuristic_kernels import manhattan_sum
from engine.domains.tiles.heuristics import heuristic
from engine.domains.tiles.ida_iteration import (
    DEPTH,
    EXPANDED,
    FOUND,
    GENERATED,
    NEXT_BOUND,
    NO_BOUND,
    PAUSED,
    STATE_FIELDS,
    new_stack,
    start_state,
)
from engine.domains.tiles.ida_kernels import is_ordered, whole_kernel
from engine.domains.tiles.ida_resume import Unfinished
from engine.domains.tiles.move_automaton import automaton
from engine.domains.tiles.ranking import lexicographic_radix
from engine.domains.tiles.ranking_kernels import board_rank
from engine.domains.tiles.whole_search import AT_GOAL, W_EXPANDED, W_FIELDS, W_FRESH, W_GENERATED, W_ITERATIONS
from engine.serving.store import artefact_name, load_or_build_kept

CHUNK = 2_000_000


def idastar(board: Board, goal: Board, name: str, watch: Watch, loaded: dict | None = None,
            max_bound: int = 400, pruning: str | None = None, resume: dict | None = None) -> SolveResult:
    """IDA* by the compiled kernel of the heuristic ``name``; ``loaded`` is what its ``kernel_inputs`` loaded (a
    pattern database, a trained table). A heuristic without a compiled kernel is refused (PuzzleError).

    ``pruning``: the move automaton the search prunes by (``move_automaton.automaton``: "parent", "fsm", or None for
    the board's default, the learned machine from 5×5 up); ``extra["pruning"]`` names it.

    ``loaded["half_turn"]``: the tables were built for the goal's half-turn (``board.half_turn``), so the search runs
    on the half-turned position and its moves are turned back: the same search, the same counts.

    Stopped by its cancel, the result's ``extra["resume"]`` says where the search stood (plain data: the bound, the
    counts and seconds so far, what was left of the iteration: ``ida_resume.Unfinished``); given as ``resume``, the
    search goes on from there, in any process: its counts and its seconds carry on from what it had (seconds: its own
    searching, not the pause), and its answer is the uninterrupted search's."""
    search_goal, loaded, turned = search_frame(goal, loaded)
    if turned:
        result = idastar(half_turn(board), search_goal, name, watch, loaded, max_bound, pruning, resume)
        result.moves = half_turn_moves(result.moves)
        return result
    resume = resume or {}
    result = _idastar(board, goal, name, watch, loaded, max_bound, pruning, resume)
    result.seconds += float(resume.get("seconds", 0.0))
    return result


def _idastar(board: Board, goal: Board, name: str, watch: Watch, loaded: dict, max_bound: int, pruning: str | None,
             resume: dict) -> SolveResult:
    """``idastar`` in the search's own frame, from the start or from ``resume``; its seconds those of this call."""
    from engine.domains.tiles.ida_resume import finish_iteration, unfinished

    record = heuristic(name)
    compiled = record.compiled()
    tables = goal_tables(goal)
    machine = automaton(pruning, goal.size)
    children = pruned_children(goal, machine.name)
    cells = np.array(board.cells, dtype=np.int64)
    stack = max_bound + 2
    aux, h0 = compiled.inputs(board, goal, loaded, stack)
    md = int(manhattan_sum(cells, tables.manhattan))
    common = dict(solver="idastar", heuristic=name)
    if md == 0:
        return SolveResult(Status.SOLVED, "", record.admissible, seconds=watch.elapsed, extra={"pruning": machine.name},
                           **common)
    frames = new_stack(stack, md)
    # the iterations done before (``resume``): the root of the one under way counted in ``expanded``
    expanded, generated = int(resume.get("expanded", 0)), int(resume.get("generated", 0))
    bound = int(resume.get("bound", h0))
    iterations = list(resume.get("bounds", []))
    left = resume.get("iteration")
    slices = Slices()
    stopped = [None]  # why the search was stopped

    def report(total: int, bound: int) -> None:
        watch.report(None, {"nodes": total, "bound": bound, "text": f"bound {bound}: {total:,} nodes expanded"})

    def stop(total: int) -> bool:
        stopped[:] = [watch.stop_reason(total)]
        return stopped[0] is not None

    def paused(within: Unfinished, peak: int) -> SolveResult:
        """The search stopped inside the iteration at ``bound``, ``within`` what is left of it."""
        total = expanded + within["expanded"]
        extra = {"bounds": iterations, "pruning": machine.name}
        if stopped[0] == Status.CANCELLED:
            extra["resume"] = {"bound": bound, "expanded": expanded, "generated": generated, "bounds": iterations,
                               "seconds": float(resume.get("seconds", 0.0)) + watch.elapsed, "iteration": within}
        return SolveResult(stopped[0], nodes_expanded=total, nodes_generated=generated + within["generated"],
                           peak_frontier=peak, seconds=watch.elapsed, message=watch.stop_message(stopped[0], total),
                           extra=extra, **common)

    def ended(code: int, moves: str, least: int) -> SolveResult | None:
        """The iteration at ``bound`` done (its counts added): the answer once the search ends, else None."""
        iterations.append({"bound": bound, "expanded": expanded})
        watch.report(None, {"nodes": expanded, "generated": generated, "bound": bound, "completed": True,
                            "text": f"bound {bound} done: {expanded:,} nodes expanded"})
        if code == FOUND:
            return SolveResult(Status.SOLVED, moves, record.admissible, expanded, generated, len(moves),
                               watch.elapsed, extra={"bounds": iterations, "pruning": machine.name}, **common)
        if least >= NO_BOUND:
            return SolveResult(Status.BUDGET_EXHAUSTED, nodes_expanded=expanded, nodes_generated=generated,
                               seconds=watch.elapsed, message=f"no solution within {max_bound} moves",
                               extra={"pruning": machine.name}, **common)
        return None

    while bound <= max_bound:
        if left is not None:  # the iteration a resumed search was in: what was left of it
            part = finish_iteration(board, goal, name, loaded, machine.name, bound, left,
                                    watch.budget.max_nodes - expanded,
                                    lambda before=expanded + left["expanded"]: stop(before),
                                    lambda done, expanded=expanded, bound=bound: report(expanded + done, bound))
            if part["unfinished"] is not None:
                return paused(part["unfinished"], len(part["unfinished"]["path"]))
            left = None
            expanded += part["expanded"]
            generated += part["generated"]
            code, moves, least = (FOUND, part["moves"], 0) if part["moves"] is not None else (0, "", part["least"])
        else:
            st = start_state(board.blank, machine.start)
            frames.trial[0] = 0
            expanded += 1  # the root, expanded once per iteration

            def between(done: int, expanded: int = expanded, bound: int = bound) -> bool:
                report(expanded + done, bound)
                return stop(expanded + done)

            code = iterate(compiled.run, cells, st, frames, children, aux, bound, slices,
                           watch.budget.max_nodes - expanded, between)
            if code == PAUSED:
                return paused(unfinished(st, frames, children, is_ordered(compiled)), int(st[DEPTH]))
            expanded += int(st[EXPANDED])
            generated += int(st[GENERATED])
            moves = "".join(MOVES[d] for d in frames.path[:int(st[DEPTH])]) if code == FOUND else ""
            least = int(st[NEXT_BOUND])
        if (answer := ended(code, moves, least)) is not None:
            return answer
        bound = least
        if reason := watch.stop_reason(expanded):
            extra = {"bounds": iterations, "pruning": machine.name}
            if reason == Status.CANCELLED:  # between two iterations: the next starts afresh
                extra["resume"] = {"bound": bound, "expanded": expanded, "generated": generated,
                                   "bounds": iterations, "seconds": float(resume.get("seconds", 0.0)) + watch.elapsed}
            return SolveResult(reason, nodes_expanded=expanded, nodes_generated=generated, seconds=watch.elapsed,
                               message=watch.stop_message(reason, expanded), extra=extra, **common)
    return SolveResult(Status.BUDGET_EXHAUSTED, nodes_expanded=expanded, nodes_generated=generated,
                       seconds=watch.elapsed, message=f"no solution within {max_bound} moves",
                       extra={"pruning": machine.name}, **common)


class WholeSearch:
    """``idastar`` of one heuristic towards one goal set up once for board after board: the heuristic's arrays, the
    child lists and the stack are made here, and each board is searched by ``ida_kernels.whole_kernel`` (its root
    set by the heuristic's ``reset``, every bound in one call), in calls of ``Slices`` (about 0.2 s) between which
    its ``Watch`` is asked (budget, cancel). The answers, node counts and ``extra["bounds"]`` are ``idastar``'s
    (``tests/engine/domains/tiles/test_whole_ida.py``); between its calls it reports the nodes expanded (``nodes``
    alone: a batch sums them over its boards); the time budget and cancel are looked at between slices, not also
    between bounds. Not thread-safe: one per thread. ``applies(name)`` says whether a heuristic has the kernel."""

    def __init__(self, goal: Board, name: str, loaded: dict | None = None, max_bound: int = 400,
                 pruning: str | None = None):
        self.goal, loaded, self.turned = search_frame(goal, loaded)
        self.name, self.max_bound = name, max_bound
        record = heuristic(name)
        self.admissible = record.admissible
        compiled = record.compiled()
        self.run = whole_kernel(compiled)
        self.machine = automaton(pruning, goal.size)
        self.children = pruned_children(self.goal, self.machine.name)
        self.manhattan = goal_tables(self.goal).manhattan
        depths = max_bound + 2
        self.aux, _ = compiled.inputs(self.goal, self.goal, loaded, depths)  # each board's root: ``reset``
        self.stack = new_stack(depths, 0)
        self.st = np.zeros(STATE_FIELDS, dtype=np.int64)
        self.sv = np.zeros(W_FIELDS, dtype=np.int64)
        self.bounds = np.zeros((depths, 2), dtype=np.int64)
        self.slices = Slices()

    @staticmethod
    def applies(name: str) -> bool:
        record = heuristic(name)
        return record.kernel is not None and record.compiled().reset is not None

    def _expanded(self) -> int:
        return int(self.sv[W_EXPANDED]) + (0 if self.sv[W_FRESH] else int(self.st[EXPANDED]))

    def solve(self, board: Board, watch: Watch) -> SolveResult:
        searched = half_turn(board) if self.turned else board
        cells = np.array(searched.cells, dtype=np.int64)
        sv, st = self.sv, self.st
        sv[:] = 0
        while True:
            before, began = self._expanded(), time.perf_counter()
            code = self.run(cells, searched.blank, self.machine.start, st, sv, self.stack, self.children, self.aux,
                            self.manhattan, self.bounds, self.max_bound, watch.budget.max_nodes, self.slices.quota)
            self.slices.ran(self._expanded() - before, time.perf_counter() - began)
            if code != PAUSED:
                break
            watch.report(None, {"nodes": self._expanded()})
            if reason := watch.stop_reason(self._expanded()):
                return self._stopped(reason, watch)
        common = dict(solver="idastar", heuristic=self.name)
        if code == AT_GOAL:
            return SolveResult(Status.SOLVED, "", self.admissible, seconds=watch.elapsed,
                               extra={"pruning": self.machine.name}, **common)
        if code != FOUND:
            return SolveResult(Status.BUDGET_EXHAUSTED, nodes_expanded=int(sv[W_EXPANDED]),
                               nodes_generated=int(sv[W_GENERATED]), seconds=watch.elapsed,
                               message=f"no solution within {self.max_bound} moves",
                               extra={"pruning": self.machine.name}, **common)
        depth = int(st[DEPTH])
        moves = "".join(MOVES[d] for d in self.stack.path[:depth])
        return SolveResult(Status.SOLVED, half_turn_moves(moves) if self.turned else moves, self.admissible,
                           int(sv[W_EXPANDED]), int(sv[W_GENERATED]), depth, watch.elapsed,
                           extra={"bounds": self._iterations(), "pruning": self.machine.name}, **common)

    def _iterations(self) -> list[dict]:
        return [{"bound": int(bound), "expanded": int(expanded)}
                for bound, expanded in self.bounds[:int(self.sv[W_ITERATIONS])]]

    def _stopped(self, reason: Status, watch: Watch) -> SolveResult:
        within = not self.sv[W_FRESH]  # stopped inside an iteration, not between two
        expanded = self._expanded()
        return SolveResult(reason, nodes_expanded=expanded,
                           nodes_generated=int(self.sv[W_GENERATED]) + (int(self.st[GENERATED]) if within else 0),
                           peak_frontier=int(self.st[DEPTH]) if within else 0, seconds=watch.elapsed,
                           solver="idastar", heuristic=self.name, message=watch.stop_message(reason, expanded),
                           extra={"bounds": self._iterations(), "pruning": self.machine.name})


def iterate(run, cells: np.ndarray, st: np.ndarray, frames, children, aux, bound: int, slices: Slices, cap: int,
            between: Callable[[int], bool]) -> int:
    """One IDA* iteration by the kernel ``run`` below ``bound``, in slices of ``slices.quota`` nodes and at most
    ``cap`` in all; after each slice ``between(nodes expanded in this iteration so far)`` says whether to stop.
    Returns FOUND, ITERATION_DONE, or PAUSED when ``between`` stopped it."""
    while True:
        before, began = int(st[EXPANDED]), time.perf_counter()
        quota = min(slices.quota, max(1, cap - before))
        code = run(cells, st, frames, children, aux, bound, quota)
        slices.ran(int(st[EXPANDED]) - before, time.perf_counter() - began)
        if code != PAUSED or between(int(st[EXPANDED])):
            return code


def search_frame(goal: Board, loaded: dict) -> tuple[Board, dict, bool]:
    """The goal the kernel searches towards, what it is given, and whether the board is half-turned for it: tables
    built for the goal's half-turn (``loaded["half_turn"]``) are searched on the half-turned position, whose moves
    are turned back (``half_turn_moves``)."""
    if loaded and loaded.get("half_turn"):
        return half_turn(goal), {**loaded, "half_turn": False}, True
    return goal, loaded or {}, False


def subtree_iteration(board: Board, goal: Board, name: str, loaded: dict, pruning: str, state: int, bound: int,
                      cap: int, stop: Callable[[], bool], seen: Callable[[int], None] | None = None) -> dict:
    """One iteration of the compiled IDA* of the heuristic ``name`` from ``board``, a node of a larger search that
    prunes by the move automaton ``pruning`` and reached this node in its ``state`` (so the moves left out here are
    those the whole search leaves out), below ``bound`` counted from this node (the larger search's bound less the
    node's g). ``loaded`` as ``search_frame`` gives it; ``cap``: the nodes it may expand; ``stop()`` asked between
    slices, ``seen(expanded)`` told the count before it.

    The node itself is not counted (its parent's search counted it when it entered it). Returns ``expanded``,
    ``generated``, ``least`` (the least f above the bound, from this node; ``NO_BOUND`` when nothing was cut),
    ``moves`` (from this node to the goal, when found), ``stopped`` and, when it stopped, ``unfinished``: what is
    left of it (``ida_resume.unfinished``)."""
    from engine.domains.tiles.ida_resume import unfinished

    compiled = heuristic(name).compiled()
    tables = goal_tables(goal)
    cells = np.array(board.cells, dtype=np.int64)
    aux, _ = compiled.inputs(board, goal, loaded, bound + 2)
    frames = new_stack(bound + 2, int(manhattan_sum(cells, tables.manhattan)))
    st = start_state(board.blank, state)
    children = pruned_children(goal, pruning)

    def between(done: int) -> bool:
        if seen is not None:
            seen(done)
        return done >= cap or stop()

    code = iterate(compiled.run, cells, st, frames, children, aux, bound, Slices(), cap, between)
    moves = "".join(MOVES[d] for d in frames.path[:int(st[DEPTH])]) if code == FOUND else None
    return {"expanded": int(st[EXPANDED]), "generated": int(st[GENERATED]), "least": int(st[NEXT_BOUND]),
            "moves": moves, "stopped": code == PAUSED,
            "unfinished": unfinished(st, frames, children, is_ordered(compiled)) if code == PAUSED else None}


def _check_bfs_size(board: Board, limit: int) -> None:
    if board.size > limit:
        raise PuzzleError(f"breadth-first search over a {board.size_name} board ({board.size} cells) needs "
                          f"{math.factorial(board.size) // 2:,} states; it is offered for boards of at most "
                          f"{limit} cells. Use IDA* instead.")


def bfs_distances(start: Board, watch: Watch | None = None, stop_at: Board | None = None) -> tuple[np.ndarray, dict]:
    """Breadth-first search from ``start`` over permutation ranks: distance (uint8, 255 = not reached) per rank.

    Stops early when ``stop_at`` is reached. Returns the distance array and counts (expanded, generated, peak).
    """
    _check_bfs_size(start, BFS_MAX_CELLS)
    watch = watch or Watch()
    n = start.size
    tables = goal_tables(start)
    counts = {"expanded": 0, "generated": 0, "peak": 1, "depth": 0, "reached": 1, "stopped": None}
    if math.factorial(n) > watch.budget.max_bytes:  # one byte per position: over the budget before it starts
        counts["stopped"] = watch.exhaust(MEMORY)
        return np.zeros(0, dtype=np.uint8), counts
    distance = np.full(math.factorial(n), 255, dtype=np.uint8)
    radix = lexicographic_radix(n, n)
    first = board_rank(start.cells)
    goal_rank = board_rank(stop_at.cells) if stop_at else -1
    distance[first] = 0
    frontier = np.array([first], dtype=np.int64)
    total = math.factorial(n) // 2
    depth = 0
    while frontier.size and first != goal_rank:
        pieces = []
        found = False
        for begin in range(0, frontier.size, CHUNK // 4):
            chunk = frontier[begin:begin + CHUNK // 4]
            out = np.empty(chunk.size * 4, dtype=np.int64)
            written, generated, found_here = bfs_expand(chunk, distance, depth, tables.neighbors, radix, out,
                                                        goal_rank)
            pieces.append(out[:written])
            counts["expanded"] += chunk.size
            counts["generated"] += generated
            counts["reached"] += written
            found = found or found_here
            watch.report(counts["reached"] / total, {"nodes": counts["reached"], "depth": depth + 1,
                                                     "text": f"depth {depth + 1}: {counts['reached']:,} reached"})
            if found:
                break
            held = distance.nbytes + frontier.nbytes + sum(piece.nbytes for piece in pieces)
            if reason := watch.stop_reason(counts["expanded"], held):
                counts["stopped"] = reason
                return distance, counts
        frontier = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int64)
        depth += 1
        counts["depth"] = depth if frontier.size else depth - 1
        counts["peak"] = max(counts["peak"], int(frontier.size))
        if found:
            break
    return distance, counts


def descend(board: Board, distance: np.ndarray) -> str:
    """Follow a distance table downhill from ``board`` to the position at distance 0: a shortest path."""
    moves = []
    current = board
    d = int(distance[board_rank(current.cells)])
    while d > 0:
        for move in current.legal_moves():
            child = current.move(move)
            if int(distance[board_rank(child.cells)]) == d - 1:
                moves.append(move)
                current = child
                d -= 1
                break
        else:
            raise RuntimeError("distance table is inconsistent")
    return "".join(moves)


def invert(moves: str) -> str:
    """The move string that walks a path backwards."""
    return "".join(INVERSE[m] for m in reversed(moves))


def bfs_fast(board: Board, goal: Board, watch: Watch) -> SolveResult:
    """Breadth-first search from the position until the goal is reached, then a walk back down the distances."""
    distance, counts = bfs_distances(board, watch, stop_at=goal)
    common = dict(nodes_expanded=counts["expanded"], nodes_generated=counts["generated"],
                  peak_frontier=counts["peak"], solver="bfs", heuristic="")
    if counts["stopped"]:
        return SolveResult(counts["stopped"], seconds=watch.elapsed,
                           message=watch.stop_message(counts["stopped"], counts["expanded"]), **common)
    moves = invert(descend(goal, distance))
    return SolveResult(Status.SOLVED, moves, True, seconds=watch.elapsed, **common)


def goal_distance_table(goal: Board) -> np.ndarray:
    """Distance to ``goal`` of every position (by rank), from one full BFS; cached on disk and kept in memory
    between hints (``store.load_or_build_kept``: read-only). At most 10 cells."""
    _check_bfs_size(goal, PERFECT_MAX_CELLS)
    name = artefact_name("distances", goal.rows, goal.cols, goal.cells)
    return load_or_build_kept(name, lambda: bfs_distances(goal)[0])


def perfect_solve(board: Board, goal: Board, watch: Watch) -> SolveResult:
    """With the exact distance table as heuristic, search only walks the optimal path (one expansion per move)."""
    distance = goal_distance_table(goal)
    moves = descend(board, distance)
    return SolveResult(Status.SOLVED, moves, True, len(moves), 0, 0, watch.elapsed, "table", "perfect")
