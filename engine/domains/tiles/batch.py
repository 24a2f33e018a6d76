"""Many boards solved at once over a Dask cluster's workers (or this machine's threads): Korf's 100 and any list.

Each board's answer is the one ``solve_board`` gives (IDA* with a heuristic that has the whole-search kernel runs it
through ``kernel_drivers.WholeSearch``, set up once per chunk: one compiled call per board instead of Python's setup
and a call per bound, which two threads would take turns at under the GIL). What is spread is the list: ``chunks.deal``
deals it in guided chunks (large first, single boards at the end) to a pool, each chunk solved by ``solve_chunk``.
The boards are dealt in the order given: per-instance times of Korf's 100 (bench/korf100.py) show no cheap estimate
(the heuristic's start value) ordering them better than that. On Dask, where a task costs about 9 ms of CPU (three
of Korf's boards with the 7-8 database), the chunks go through a crew of long-lived tasks (``chunks.Crew``): about
4.5 ms a chunk, so chunks of 2 boards at the end of Korf's 100 instead of 3 or more.

Where it runs is ``pools.pool_here``'s choice: inside a job, on the long lane's workers through the job's
worker client (the job's thread secedes while it waits, so its own worker runs a crew member too); with
``PUZZLE_SCHEDULER`` on that cluster; else on this process's threads (the kernels release the GIL). A cancel sets the
pool's stop flag, which a crew member reads between chunks, each chunk between boards and each solve between its
kernel's slices; a cancelled batch keeps every board it solved. A chunk that raises fails the batch with its error;
so does a crew member's worker leaving the cluster.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.result import Budget, SolveResult, Watch
from engine.core.status import Status
from engine.domains.tiles.board import Board
from engine.domains.tiles.chunks import chunk_stop, deal
from engine.search.domain_solve import load_once


@dataclass(frozen=True)
class BatchSpec:
    """What a chunk needs to solve its boards in any process."""
    rows: int
    cols: int
    goal: tuple[int, ...]
    solver: str
    heuristic: str | None
    budget: Budget  # each board's
    data_dir: str | None  # the store the tables are read from


class _Stop:
    """The pool's stop flag, read by a function (``chunks.chunk_stop``), in the shape a solve's ``cancel`` has: an
    object whose ``is_set()`` says whether to stop."""

    def __init__(self, stopped):
        self.is_set = stopped


#: The whole searches this process has loaded (``_WholeSolves``).
_loaded: set[tuple] = set()


class _WholeSolves:
    """A chunk's IDA* solves by ``kernel_drivers.WholeSearch``: the heuristic resolved, its arrays made and its
    kernel loaded once for the chunk, each board then one compiled call (a few while its search lasts past a slice),
    its answer what ``solve_board`` gives (``solve`` through the kind's ``idastar``: the fallback's note, the moves
    as actions and their cost, ``settle``) but for the cells along its path (``solve_chunk`` leaves them out).
    ``make`` gives None where ``solve_board`` runs each board instead: another solver, or a heuristic without the
    whole kernel."""

    def __init__(self, spec: BatchSpec, goal: Board, asked: str, proven: bool, search, note: str):
        self.spec, self.goal, self.asked, self.proven, self.search, self.note = spec, goal, asked, proven, search, note
        near = goal.move(goal.legal_moves()[0])
        #: loading (on a fresh install compiling) the kernel, reported by the chunk's first answer as a solve's is
        self.load_seconds = load_once(_loaded, (search.name, goal), lambda: search.solve(near, Watch(Budget(10_000))))

    @classmethod
    def make(cls, spec: BatchSpec, goal: Board) -> _WholeSolves | None:
        from engine.domains.tiles.heuristics import heuristic
        from engine.domains.tiles.kernel_drivers import WholeSearch
        from engine.domains.tiles.solving import check_request

        if spec.solver != "idastar":
            return None
        info, asked = check_request(goal, spec.solver, spec.heuristic)
        used, loaded, note = heuristic(asked).inputs(goal, {})
        if not WholeSearch.applies(used):
            return None
        return cls(spec, goal, asked, info.proves(asked), WholeSearch(goal, used, loaded), note)

    def solve(self, board: Board, cancel, progress=None) -> SolveResult:
        from engine.domains.tiles.solvers import noted
        from engine.domains.tiles.solving import with_path
        from engine.search.domain_solve import settle

        watch = Watch(self.spec.budget, cancel, progress)
        result = with_path(board, noted(self.search.solve(board, watch), self.note), cells=False)
        load_seconds, self.load_seconds = self.load_seconds, 0.0
        return settle(result, watch, self.spec.solver, self.asked, load_seconds, self.proven)


def solve_chunk(spec: BatchSpec, boards: list[tuple[int, ...]], stop, tell=None) -> list[dict | None]:
    """One task: each board solved in turn (its answer as ``SolveResult.to_dict``, with ``cpu``: the seconds of CPU
    its solve took in this thread, and without ``extra["path"]``, the cells of every board along the answer, which
    its tiles and moves give: nine tenths of the bytes a worker sends back); None for each board not started because
    the batch was stopped. ``tell(nodes, done)``, as the solves go: the nodes the chunk has expanded so far and the
    boards it has solved (a board of linear conflict may search for minutes, and the batch's page shows both
    meanwhile). IDA* with a heuristic that
    has the whole kernel solves each board in one compiled call (``_WholeSolves``), so that two threads seldom wait
    for each other's Python; an unsolvable board, another solver or heuristic: ``solve_board``."""
    from engine.domains.tiles.solvability import check_solvable
    from engine.domains.tiles.solving import solve_board
    from engine.serving import store

    if spec.data_dir and os.path.isdir(spec.data_dir) and str(store.data_dir()) != spec.data_dir:
        store.set_data_dir(spec.data_dir)
    stopped = chunk_stop(stop)
    goal = Board(spec.rows, spec.cols, spec.goal)
    whole = _WholeSolves.make(spec, goal)
    out: list[dict | None] = []
    answered = solved = 0  # the nodes of the boards answered, the boards solved

    def progress(fraction, info) -> None:
        if tell is not None and "nodes" in info:
            tell(answered + info["nodes"], solved)

    for cells in boards:
        if stopped():
            out.append(None)
            continue
        began = time.thread_time()
        board = Board(spec.rows, spec.cols, cells)
        if whole is not None and check_solvable(board, goal).solvable:
            result = whole.solve(board, _Stop(stopped), progress)
        else:
            result = solve_board(board, goal, spec.solver, spec.heuristic, spec.budget, progress, _Stop(stopped))
        answered += result.nodes_expanded
        solved += result.status != Status.CANCELLED
        if tell is not None:
            tell(answered, solved)
        result.extra.pop("path", None)  # the cells along the answer: its tiles and moves give them
        out.append({"tiles": list(cells), **result.to_dict(), "cpu": time.thread_time() - began})
    return out


def solve_boards(boards: list[Board], goal: Board, solver: str, heuristic: str | None, budget: Budget, pool,
                 watch: Watch | None = None, earlier: Sequence[dict] = (), discarded_nodes: int = 0) -> dict:
    """Every board solved towards ``goal`` by ``solver`` with ``heuristic`` within ``budget`` each, dealt in chunks to
    ``pool`` (``chunks.deal``; the caller closes the pool). Returns ``results`` (one per board, in order: the solve's
    answer with its ``tiles`` and ``cpu``, or ``{"status": "cancelled"}`` for a board not started), ``tasks`` (the
    chunks dealt), ``slots`` and ``seconds`` (from the first chunk sent to the last answer). ``earlier``: the answers
    of the same batch's earlier attempts, counted in its progress (boards and nodes) before these;
    ``discarded_nodes``: what those attempts expanded in solves they stopped, counted too, so that the progress's
    count never falls when a batch goes on."""
    from engine.serving import store

    watch = watch or Watch()
    spec = BatchSpec(goal.rows, goal.cols, goal.cells, solver, heuristic, budget, str(store.data_dir()))
    total = len(earlier) + len(boards)
    answered = [len(earlier), discarded_nodes + sum(answer.get("nodes_expanded", 0) for answer in earlier)]
    slots = len(pool.slots())

    def report(came: list, running_nodes: int, running_solved: int) -> None:
        answered[0] += sum(answer["status"] != Status.CANCELLED for answer in came)  # a stopped solve is no answer
        answered[1] += sum(answer.get("nodes_expanded", 0) for answer in came)
        solved, nodes = answered[0] + running_solved, answered[1] + running_nodes
        watch.report(solved / max(1, total),
                     {"boards": solved, "of": total, "nodes": nodes,
                      "text": f"{solved} of {total} boards solved on {slots} workers, {nodes:,} nodes expanded"})

    def cancelled() -> bool:
        return watch.cancel is not None and watch.cancel.is_set()

    dealt = deal([board.cells for board in boards], functools.partial(solve_chunk, spec), pool, cancelled, report)
    results = [answer if answer is not None else {"status": Status.CANCELLED, "tiles": list(board.cells)}
               for answer, board in zip(dealt.answers, boards, strict=True)]
    return {"results": results, "tasks": dealt.chunks, "slots": dealt.slots, "seconds": dealt.seconds}
