"""IDA* spread over a Dask cluster's workers (or this machine's cores): each bound's iteration as a set of tasks.

For each bound the search tree is grown here, level by level, in the serial kernel's move order and with its
pruning (``goal_arrays.ChildLists``: the moves its move automaton allows, the automaton's state carried along), each
child's h as the kernel computes it (``KernelHeuristic.inputs``), until a level holds ``FRONTIER_PER_WORKER`` nodes
per worker or lies ``MAX_SPLIT_DEPTH`` moves down (the split depth). Every node above the split depth is expanded here
and counted as the serial search counts it; each node of the last level inside the bound becomes part of a task that
runs the compiled kernel from it (``kernel_drivers.subtree_iteration``: the kernel started from that board in the
automaton's state the path reached it in, and the bound less its g). The nodes are dealt to ``TASKS_PER_WORKER`` tasks
per worker in turn (neighbouring subtrees are alike in size, so dealing them out balances the tasks). The next bound is
the least f above the bound over the levels grown here and every task. A goal found, a cancel or the budget sets a stop
flag that every running task reads between its kernel's slices, and the tasks not started are cancelled.

Every iteration that ends without a goal expands and generates exactly the nodes of the serial search's iteration
(the order differs, the set does not); the last one stops where the first task to find a goal stops the others, so
its counts vary, and the path found may be another of the same (optimal) length.
``tests/engine/domains/tiles/test_parallel_ida.py`` holds both to the serial kernel, bound by bound.

Where the tasks run is a pool's business (``pools``: ``DaskPool`` on the long lane's workers, so the interactive lane
keeps answering; ``ThreadPool`` on this process's threads). The budget's node limit is given to each task as what
was left when it was submitted, so tasks running together may pass it by that much each.
"""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass

from engine.core.result import SolveResult, Watch
from engine.core.status import Status
from engine.domains.tiles.board import MOVES, Board, half_turn, half_turn_moves
from engine.domains.tiles.goal_arrays import goal_tables, pruned_children
from engine.domains.tiles.heuristics import heuristic
from engine.domains.tiles.ida_iteration import NO_BOUND
from engine.domains.tiles.ida_kernels import is_ordered
from engine.domains.tiles.move_automaton import automaton
from engine.domains.tiles.pools import stop_check

#: The split depth is the first level of the tree with at least this many nodes per worker inside the bound.
FRONTIER_PER_WORKER = 64
#: ... or the level at this depth, whatever its size: a narrow tree (an early bound) is left to the kernel, not walked
#: here in Python.
MAX_SPLIT_DEPTH = 10
#: Tasks per worker and bound: enough that a worker with small subtrees takes another task while one runs long.
TASKS_PER_WORKER = 8
#: Seconds between two progress reports while tasks run.
REPORT_EVERY = 0.25


@dataclass(frozen=True)
class Node:
    """A node of the tree grown here: its board, the moves from the root (its g is their number), the search's move
    automaton's state after them (``move_automaton.MoveAutomaton``)."""
    board: Board
    moves: str
    state: int


@dataclass(frozen=True)
class Spec:
    """What a task needs to rebuild the search's heuristic in its own process (the tables are never sent)."""
    goal: Board  # the goal as the solve was asked (the task finds the tables' frame itself: ``search_frame``)
    heuristic: str  # the heuristic the search uses (after any fallback)
    pruning: str  # the move automaton the search prunes by (``move_automaton.PRUNINGS``)
    options: tuple  # the solve's options, as items
    data_dir: str | None  # the store the tables are read from


# ---- the tasks ----------------------------------------------------------------------------------------------------

def _frame(spec: Spec) -> tuple[Board, dict]:
    """The search's goal and kernel inputs in this process, through the same resolution as the solve's."""
    from engine.domains.tiles.kernel_drivers import search_frame
    from engine.serving import store

    if spec.data_dir and os.path.isdir(spec.data_dir) and str(store.data_dir()) != spec.data_dir:
        store.set_data_dir(spec.data_dir)
    used, loaded, _ = heuristic(spec.heuristic).inputs(spec.goal, dict(spec.options))
    if used != spec.heuristic:
        raise RuntimeError(f"this worker has {used}, not {spec.heuristic}: its tables differ from the solve's")
    goal, loaded, _ = search_frame(spec.goal, loaded)
    return goal, loaded


def run_task(spec: Spec, nodes: list[Node], bound: int, cap: int, stop) -> dict:
    """One task: the kernel's iteration below ``bound`` from each of ``nodes`` in turn, at most ``cap`` nodes in all.
    Returns the counts, the least f above the bound (from the root), and the path from the root when a goal was
    found."""
    from engine.domains.tiles.kernel_drivers import subtree_iteration

    goal, loaded = _frame(spec)
    stopped = stop_check(stop)
    out = {"expanded": 0, "generated": 0, "least": NO_BOUND, "moves": None, "stopped": False}
    for node in nodes:
        if stopped() or out["expanded"] >= cap:
            out["stopped"] = True
            break
        g = len(node.moves)
        part = subtree_iteration(node.board, goal, spec.heuristic, loaded, spec.pruning, node.state, bound - g,
                                 cap - out["expanded"], stopped)
        out["expanded"] += part["expanded"]
        out["generated"] += part["generated"]
        if part["least"] < NO_BOUND:
            out["least"] = min(out["least"], part["least"] + g)
        if part["moves"] is not None:
            out["moves"] = node.moves + part["moves"]
            break
        if part["stopped"]:
            out["stopped"] = True
            break
    return out


# ---- the search ---------------------------------------------------------------------------------------------------

class _Levels:
    """The tree above the split depth, grown here for a bound; each board's h kept across bounds."""

    def __init__(self, root: Board, goal: Board, name: str, loaded: dict, pruning: str):
        self.goal, self.loaded = goal, loaded
        self.compiled = heuristic(name).compiled()
        self.ordered = is_ordered(self.compiled)
        self.automaton = automaton(pruning, goal.size)
        self.children, self.manhattan = pruned_children(goal, pruning), goal_tables(goal).manhattan
        self.root = root
        self._h: dict[tuple, int] = {}

    def h(self, board: Board) -> int:
        value = self._h.get(board.cells)
        if value is None:
            value = self._h[board.cells] = int(self.compiled.inputs(board, self.goal, self.loaded, 2)[1])
        return value

    def order_key(self, board: Board, h: int) -> tuple[int, int, int]:
        """Where an ordered kernel puts a child among its siblings: by h, then Manhattan distance, then the blank's
        distance from its goal cell."""
        md = sum(int(self.manhattan[tile, cell]) for cell, tile in enumerate(board.cells) if tile)
        return h, md, int(self.children.blank_distance[board.blank])

    def grow(self, bound: int, wanted: int) -> dict:
        """Expand level after level below ``bound`` until a level holds ``wanted`` nodes (or none): the counts of
        the levels expanded (the root included, as the serial search counts it), the least f cut off, that level
        (the tasks' roots), or the moves to a goal met on the way."""
        expanded, generated, least = 1, 0, NO_BOUND
        level = [Node(self.root, "", self.automaton.start)]
        count, move, states = self.children.count, self.children.move, self.automaton.states
        depth = 0
        while level and len(level) < wanted and depth < MAX_SPLIT_DEPTH:
            below = []
            for node in level:
                key = node.board.blank * states + node.state
                inside = []
                for i in range(int(count[key])):
                    d = int(move[key * 4 + i])
                    child = node.board.move(MOVES[d])
                    generated += 1
                    h = self.h(child)
                    if depth + 1 + h > bound:
                        least = min(least, depth + 1 + h)
                        continue
                    inside.append((self.order_key(child, h) if self.ordered else i, d, child))
                inside.sort(key=lambda entry: entry[0])  # the kernel's order: the level is in its search's order
                for _, d, child in inside:
                    if child == self.goal:
                        return {"expanded": expanded, "generated": generated, "least": least,
                                "moves": node.moves + MOVES[d], "level": []}
                    expanded += 1
                    below.append(Node(child, node.moves + MOVES[d], int(self.automaton.next[node.state, d])))
            level = below
            depth += 1
        return {"expanded": expanded, "generated": generated, "least": least, "moves": None,
                "level": level, "depth": depth}


@dataclass
class _Search:
    """A spread search's counts across its bounds (what a resumed one carries on from: ``as_resume``)."""
    expanded: int = 0
    generated: int = 0
    bounds: list = None  # each bound done: its bound and the nodes expanded after it
    tasks: list = None  # the tasks of each bound begun (0: its tree was grown here whole)
    cut_short: int = 0  # tasks that stopped at the stop flag or their node cap
    #: what the tasks that stopped short had counted: the search's last counts include it, a resumed search does
    #: not (it runs those tasks again)
    partial: tuple = (0, 0)

    def __post_init__(self):
        self.bounds, self.tasks = self.bounds or [], self.tasks or []

    def add(self, part: dict) -> None:
        if part.get("stopped"):
            self.partial = (self.partial[0] + part["expanded"], self.partial[1] + part["generated"])
        else:
            self.expanded += part["expanded"]
            self.generated += part["generated"]

    @property
    def counted(self) -> tuple[int, int]:
        """The nodes expanded and generated, the tasks stopped short included."""
        return self.expanded + self.partial[0], self.generated + self.partial[1]


@dataclass
class _Bound:
    """One bound's iteration as tasks: the level grown here for it, dealt to ``tasks`` tasks (``level[i::tasks]``),
    those ``done`` already, the least f above the bound seen, a path found."""
    bound: int
    workers: int  # the workers it was dealt for: a resumed search deals it again the same way
    level: list
    tasks: int
    least: int
    done: set
    found: str | None = None


def _grow(levels: _Levels, bound: int, workers: int, search: _Search, carried: dict | None) -> _Bound | str:
    """The tree above the split depth for ``bound`` (counted in ``search`` unless a resumed search counted it
    already: ``carried``), as a ``_Bound`` to deal, or the moves to a goal met on the way."""
    grown = levels.grow(bound, FRONTIER_PER_WORKER * workers)
    if carried is None:
        search.add(grown)
    if grown["moves"] is not None:
        return grown["moves"]
    level = grown["level"]  # entered (and counted) by ``grow``; the tasks count what lies below them
    tasks = max(1, min(len(level), TASKS_PER_WORKER * workers))
    if carried is None:
        search.tasks.append(len(level) and tasks)
        return _Bound(bound, workers, level, tasks, grown["least"], set())
    return _Bound(bound, workers, level, tasks, int(carried["least"]), set(carried["done"]))


def _deal(bound: _Bound, spec: Spec, pool, watch: Watch, search: _Search) -> Status | None:
    """The tasks of ``bound`` not done yet on ``pool``, each task's counts added as it ends; why the search stopped
    (a cancel, the budget) or None (``bound.found`` says whether a goal was met)."""
    stopped = None
    stop = pool.new_stop()
    cap = max(1, watch.budget.max_nodes - search.expanded)
    run = uuid.uuid4().hex[:8]
    pending = {pool.submit(f"ida-{run}-{bound.bound}-{i}", spec, bound.level[i::bound.tasks], bound.bound, cap, stop):
               i for i in range(bound.tasks) if i not in bound.done}
    try:
        while pending:
            for future in pool.wait(list(pending), REPORT_EVERY):
                part = future.result()
                search.add(part)
                search.cut_short += bool(part["stopped"])
                bound.least = min(bound.least, part["least"])
                if part["moves"] is not None and bound.found is None:
                    bound.found = part["moves"]
                if not part["stopped"]:
                    bound.done.add(pending[future])
                del pending[future]
            watch.report(None, {"nodes": search.expanded, "bound": bound.bound, "tasks": len(bound.done),
                                "of": bound.tasks,
                                "text": f"bound {bound.bound}: {search.expanded:,} nodes expanded, "
                                        f"{len(bound.done)} of {bound.tasks} tasks done on {pool.workers} workers"})
            if bound.found is None and stopped is None:
                stopped = watch.stop_reason(search.counted[0])
            if (bound.found is not None or stopped is not None) and pending:
                pool.set_stop(stop)
    finally:
        if pending:  # an error: the others stop too
            pool.set_stop(stop)
            for future in pending:
                future.cancel()
    return stopped


def spread_idastar(board: Board, goal: Board, name: str, watch: Watch, pool, options: dict | None = None,
                   max_bound: int = 400, loaded: dict | None = None, pruning: str | None = None,
                   resume: dict | None = None) -> SolveResult:
    """IDA* with the heuristic ``name`` (already resolved: what ``Heuristic.inputs`` answered) from ``board`` to
    ``goal``, each bound's iteration as tasks on ``pool``, pruned by the move automaton ``pruning`` (as
    ``kernel_drivers.idastar``'s); the result as ``kernel_drivers.idastar``'s, with
    ``extra["bounds"]`` the nodes expanded after each bound, ``extra["tasks"]`` the tasks per bound (0: the bound's
    tree was small enough to grow here whole), ``extra["stopped_tasks"]`` how many tasks stopped before their end.

    Stopped by its cancel, ``extra["resume"]`` says where it stood: the bound, the counts and seconds so far, and the
    tasks of that bound that had ended; given as ``resume``, the search deals only the others (the tasks running at
    the stop start again; their partial counts were never added), so its counts never go back and are the
    uninterrupted search's."""
    from engine.domains.tiles.kernel_drivers import search_frame
    from engine.serving import store

    options = options or {}
    if loaded is None:
        name, loaded, _ = heuristic(name).inputs(goal, options)
    search_goal, search_loaded, turned = search_frame(goal, loaded)
    root = half_turn(board) if turned else board
    record = heuristic(name)
    pruning = automaton(pruning, goal.size).name
    spec = Spec(goal, name, pruning, tuple(sorted(options.items())), str(store.data_dir()))
    levels = _Levels(root, search_goal, name, search_loaded, pruning)
    carried = resume or {}
    search = _Search(int(carried.get("expanded", 0)), int(carried.get("generated", 0)),
                     list(carried.get("bounds", [])), list(carried.get("tasks", [])),
                     int(carried.get("stopped_tasks", 0)))
    under_way = carried.get("under_way")  # the bound the search stopped in, and its tasks done

    def result(status: Status, moves: str = "", message: str = "", stood: dict | None = None) -> SolveResult:
        moves = half_turn_moves(moves) if turned else moves
        extra = {"bounds": search.bounds, "tasks": search.tasks, "stopped_tasks": search.cut_short,
                 "workers": pool.workers, "pruning": pruning}
        seconds = float(carried.get("seconds", 0.0)) + watch.elapsed
        if stood is not None:
            extra["resume"] = {"expanded": search.expanded, "generated": search.generated, "bounds": search.bounds,
                               "tasks": search.tasks, "stopped_tasks": search.cut_short, "seconds": seconds,
                               "bound": stood["bound"], "under_way": stood.get("under_way")}
        return SolveResult(status, moves, record.admissible and status == Status.SOLVED, *search.counted,
                           seconds=seconds, solver="idastar-spread", heuristic=name,
                           message=message, extra=extra)

    if root == search_goal:
        return result(Status.SOLVED)
    bound = int(carried.get("bound", levels.h(root)))
    while bound <= max_bound:
        grown = _grow(levels, bound, under_way["workers"] if under_way else pool.workers, search, under_way)
        under_way = None
        if isinstance(grown, str):
            search.bounds.append({"bound": bound, "expanded": search.expanded})
            return result(Status.SOLVED, grown)
        stopped = _deal(grown, spec, pool, watch, search) if grown.level else None
        if grown.found is not None:
            search.bounds.append({"bound": bound, "expanded": search.expanded})
            return result(Status.SOLVED, grown.found)
        if stopped is not None:
            stood = {"bound": bound, "under_way": {"workers": grown.workers, "least": grown.least,
                                                   "done": sorted(grown.done)}}
            return result(stopped, message=watch.stop_message(stopped, search.counted[0]),
                          stood=stood if stopped == Status.CANCELLED else None)
        search.bounds.append({"bound": bound, "expanded": search.expanded})
        watch.report(None, {"nodes": search.expanded, "generated": search.generated, "bound": bound,
                            "completed": True, "text": f"bound {bound} done: {search.expanded:,} nodes expanded"})
        if grown.least >= NO_BOUND:
            break
        bound = int(grown.least)
        if reason := watch.stop_reason(search.expanded):
            return result(reason, message=watch.stop_message(reason, search.expanded),
                          stood={"bound": bound} if reason == Status.CANCELLED else None)
    return result(Status.BUDGET_EXHAUSTED, message=f"no solution within {max_bound} moves")
