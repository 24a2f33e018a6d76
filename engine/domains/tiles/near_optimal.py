"""The ``near-optimal`` solver: answers close to the shortest on 5×5 and 6×6 boards within about a second.

Method: beam search (``engine.domains.tiles.beam_kernels``) with the strongest heuristic at hand, beams of growing width
while the time allows (``WIDTHS``), the shortest answer kept. The heuristic is the board's additive pattern database
with its mirror lookup (``engine.domains.tiles.pdb``: 6-6-6-6 on 5×5, seven groups of 5 on 6×6; a goal with the blank in
the other corner is solved as its half-turn, ``board.half_turn``); without it, and on other boards, Manhattan distance
plus linear conflict, and the result says which heuristic it used. ``fast`` (the row-and-column reduction) stays
the instant answer and the fallback when a beam finds nothing.

Why a beam: weighted A* or weighted IDA* give a bound on the length, but no bound on time on 24- and 35-puzzles
(their frontier grows with the heuristic's error); a beam's time is depth × width, known before it starts, and with
a pattern database its answers on Korf & Taylor's 24-puzzles are within a few per cent of optimal
(bench/near_optimal.py).
"""

from __future__ import annotations

import numpy as np

from engine.core.result import Budget, SolveResult, Watch
from engine.core.status import Status
from engine.domains.tiles import pdb
from engine.domains.tiles.board import MOVES, Board, goal_board, half_turn, half_turn_moves
from engine.domains.tiles.goal_arrays import goal_tables
from engine.domains.tiles.heuristics import manhattan_distance

#: Beam widths: the first always runs (it times the machine); then the widest beam expected to end within
#: ``TARGET_SECONDS`` runs next, skipping the ones between, since the answer comes from the widest. A beam's time
#: grows about in proportion to its width and its depth (``next_width``), times ``MARGIN`` for the rest (a wider
#: beam's positions fit the caches less well); a jump of more than ``MAX_STEP`` times the width is never predicted
#: from so small a beam. On a busy machine the answer comes from a narrower beam, as fast.
WIDTHS = (1_024, 4_096, 8_192, 10_240, 12_288, 14_336, 16_384)
MARGIN = 1.15
MAX_STEP = 16
TARGET_SECONDS = 0.8
#: Depths the kernel advances between two looks at the budget.
LAYERS = 8
#: A beam whose best position has not improved for this many depths per cell is stuck (a plateau it wanders on).
PATIENCE = 1
#: No answer is longer than this many times Manhattan distance plus a margin (the beam's path arrays).
DEPTH_FACTOR = 3


def _pdb_inputs(database: pdb.PatternDatabase | None, n: int):
    """The pattern-database tuple the kernel reads (empty arrays without a database)."""
    i64 = np.zeros(0, dtype=np.int64)
    identity = np.arange(n, dtype=np.int64)
    if database is None:
        no_table = np.zeros(1, dtype=np.uint8)
        no_table.setflags(write=False)  # the type of a memory-mapped table: one compiled kernel for both
        return (no_table, i64, np.zeros((1, 1), np.int64), np.zeros(1, np.int64),
                np.zeros((1, 1), np.int64), np.zeros((1, 1), np.int64), identity, identity, False)
    arrays = database.kernel_arrays()
    groups, k = arrays["radix"].shape
    group_tiles = np.zeros((groups, k), dtype=np.int64)
    ref_tiles = np.zeros((groups, k), dtype=np.int64)
    for tile in range(1, n):
        group_tiles[arrays["group_of"][tile], arrays["slot_of"][tile]] = tile
        if arrays["mirrored"]:
            ref_tiles[arrays["ref_group"][tile], arrays["ref_slot"][tile]] = tile
    return (arrays["tables"], arrays["offsets"], arrays["radix"], arrays["sizes"], group_tiles, ref_tiles,
            arrays["ref_cell"], identity, bool(arrays["mirrored"]))


def depth_limit(board: Board, goal: Board) -> int:
    """The deepest beam kept (the kernel's path arrays): no beam that found an answer came near it."""
    return DEPTH_FACTOR * manhattan_distance(board, goal) + 40


def beam_search(board: Board, goal: Board, width: int, mode: int, database, watch: Watch
                ) -> tuple[str | None, int, bool, int]:
    """One beam of ``width``: the blank's moves, the children generated, whether the moves reach the goal and the
    depths the beam went down (past the moves' end when it got stuck). When
    the beam gets stuck (every child seen before, no better position for ``PATIENCE`` depths per cell, or the depth
    limit), the moves lead to the best position it held; None when the budget ran out."""
    from engine.domains.tiles.beam_kernels import MAX_H, beam_layers, beam_start, zobrist_keys

    n = board.size
    tables = goal_tables(goal)
    zobrist = _zobrist(n, zobrist_keys)
    inputs = _pdb_inputs(database, n)
    groups = inputs[3].shape[0]
    limit = depth_limit(board, goal)
    cells = np.zeros((2, width, n), dtype=np.uint8)
    where = np.zeros((2, width, n), dtype=np.uint8)
    md = np.zeros((2, width), dtype=np.int64)
    lc = np.zeros((2, width), dtype=np.int64)
    lines = np.zeros((2, width, board.rows + board.cols), dtype=np.uint8)  # linear conflict's count per line
    vals = np.zeros((2, width, 2 * groups), dtype=np.uint8)  # table values, bytes like the tables
    key = np.zeros((2, width), dtype=np.int64)
    blank = np.zeros((2, width), dtype=np.int64)
    last = np.zeros((2, width), dtype=np.int64)
    parent = np.zeros((limit + 2, width), dtype=np.int32)
    move = np.zeros((limit + 2, width), dtype=np.int8)
    seen = np.zeros(1 << max(16, int(2 * width * limit).bit_length()), dtype=np.int64)
    cand = np.zeros((3 * width + 1, 9), dtype=np.int64)  # 3 children per position, 4 at the root
    cand_h = np.zeros(3 * width + 1, dtype=np.int64)
    order = np.zeros(3 * width + 1, dtype=np.int64)
    hist = np.zeros(MAX_H + 1, dtype=np.int64)
    st = np.zeros(6, dtype=np.int64)
    common = (tables.manhattan, goal.rows, goal.cols, tables.goal_row, tables.goal_col, zobrist, inputs, st, cells,
              where, md, lc, lines, vals, key, blank, last)
    beam_start(np.array(board.cells, dtype=np.int64), mode, *common, seen)
    code = 0
    while code == 0:
        if watch.stop_reason(int(st[2])):
            return None, int(st[2]), False, int(st[0])
        code = beam_layers(LAYERS, PATIENCE * n, mode, tables.neighbors, *common, parent, move, seen, cand, cand_h,
                           order, hist)
    # the goal, or (the beam stuck) the best position it held: the first, in order of h, of the depth where it
    # was best
    moves = []
    slot = 0
    for depth in range(int(st[0]) if code == 1 else int(st[5]), 0, -1):
        moves.append(MOVES[move[depth, slot]])
        slot = parent[depth, slot]
    return "".join(reversed(moves)), int(st[2]), code == 1, int(st[0])


_zobrist_cache: dict[int, np.ndarray] = {}


def _zobrist(n: int, make) -> np.ndarray:
    if n not in _zobrist_cache:
        _zobrist_cache[n] = make(n)
    return _zobrist_cache[n]


#: The databases (None: none) this process has made ready for timed beams (``make_ready``).
_ready: set[int] = set()
#: Bytes per page of a memory-mapped table (the smallest page the kernel maps).
PAGE = 4096


def make_ready(database: pdb.PatternDatabase | None) -> None:
    """Once per process and database: load the beam kernels (a tiny beam: their one compiled form serves every
    heuristic) and read one byte of each page of the database's table. Otherwise the first beam pays both, its pages
    coming in one fault at a time (from disk if the page cache lost them): it looks slow, and the solver then runs
    no wider one (a first 6×6 beam of 1,024 took 0.30 s instead of 0.05 s; its answer was 1.73× the Manhattan bound
    instead of 1.48×). A solve near the goal reaches this too, so ``solvers.load_kernels`` counts it as loading."""
    from engine.domains.tiles.beam_kernels import H_LINEAR_CONFLICT

    if id(database) in _ready:
        return
    tiny = goal_board(3, 3)
    beam_search(tiny.apply("ULULDRDR"), tiny, 4, H_LINEAR_CONFLICT, None, Watch(Budget(10**6, 10)))
    if database is not None:
        int(database.tables[::PAGE].sum())
    _ready.add(id(database))


def choose_heuristic(goal: Board) -> tuple[Board, bool, pdb.PatternDatabase | None, str]:
    """(the goal searched, whether it is the half-turn of the goal asked for, the database, a note)."""
    for grouping in pdb.groupings_for(goal):
        database = pdb.load(grouping, goal)
        if isinstance(database, pdb.HalfTurned):
            return database.stored.goal, True, database.stored, ""
        if database is not None:
            return goal, False, database, ""
        return goal, False, None, (f"the {pdb.LABELS[grouping]} is not built yet ({pdb.build_command(grouping)}); "
                                   "used linear-conflict")
    return goal, False, None, ""


def next_width(widths: tuple[int, ...], width: int, seconds: float, depths: int, expected_depths: int,
               remaining: float) -> int | None:
    """The widest of ``widths`` beyond ``width`` expected to end within ``remaining`` seconds, at most ``MAX_STEP``
    times as wide; None if none is. A beam's time is about in proportion to its width times its depths: the last
    one took ``seconds`` for ``depths``, the next is expected to go ``expected_depths`` deep (the shortest answer so
    far: a first narrow beam that wandered deep does not make the next look slower than it is)."""
    per_width = seconds * expected_depths / max(depths, 1) / width
    fitting = [w for w in widths if width < w <= MAX_STEP * width and MARGIN * per_width * w <= remaining]
    return fitting[-1] if fitting else None


def near_optimal_solve(board: Board, goal: Board, watch: Watch, widths: tuple[int, ...] = WIDTHS,
                       seconds: float = TARGET_SECONDS) -> SolveResult:
    """The reduction's answer, then beams of growing width while the next one is expected to end within ``seconds``
    (and the budget; ``next_width``); the shortest answer found."""
    from engine.domains.tiles.beam_kernels import H_LINEAR_CONFLICT, H_PDB
    from engine.domains.tiles.reduction import fast_solve

    lower = manhattan_distance(board, goal)
    if lower == 0:
        return SolveResult(Status.SOLVED, "", True, seconds=watch.elapsed, solver="near-optimal", heuristic="",
                           message="the board is solved", extra={"lower_bound": 0})
    searched, turned, database, note = choose_heuristic(goal)
    make_ready(database)
    start = half_turn(board) if turned else board
    mode = H_PDB if database is not None else H_LINEAR_CONFLICT
    used = database.name if database is not None else "linear-conflict"
    limit = min(seconds, watch.budget.max_seconds)
    # the reduction's answer first (milliseconds): no beam answer longer than it is kept
    quick = fast_solve(board, goal, watch)
    if quick.status == Status.SOLVED and quick.optimal:
        return quick  # close to home: the reduction's first try is a short optimal search
    reduced = (half_turn_moves(quick.moves) if turned else quick.moves) if quick.status == Status.SOLVED else None
    best, generated, tried, used_beam = reduced, 0, [], False
    width = widths[0]
    while True:
        began = watch.elapsed
        moves, count, reached, depths = beam_search(start, searched, width, mode, database, watch)
        last = watch.elapsed - began
        generated += count
        if moves is not None and not reached:
            # a stuck beam (narrow, near the end) is finished from its best position by the reduction
            finish = fast_solve(start.apply(moves), searched, watch)
            moves = moves + finish.moves if finish.status == Status.SOLVED else None
        if moves is not None:
            tried.append({"width": width, "length": len(moves), "seconds": round(last, 4), "reached_goal": reached})
            if best is None or len(moves) < len(best):
                best, used_beam = moves, True
        if watch.stop_reason(generated):
            break
        width = next_width(widths, width, last, depths, len(best) if best else depths, limit - watch.elapsed)
        if width is None:
            break
    if not used_beam:
        quick.message = f"no beam found a shorter answer in time: the fast solver's answer. {quick.message}"
        quick.extra = {**quick.extra, "beams": tried}
        return quick
    if turned:
        best = half_turn_moves(best)
    if lower == len(best):
        optimal, message = True, "optimal: as long as the Manhattan lower bound"
    else:
        optimal, message = False, (f"not proven optimal: {len(best)} moves; no answer can be shorter than the "
                                   f"Manhattan lower bound, {lower}")
    if note:
        message = f"{note}. {message}"
    return SolveResult(Status.SOLVED, best, optimal, 0, generated, tried[-1]["width"], watch.elapsed, "near-optimal",
                       used, message=message, extra={"lower_bound": lower, "beams": tried,
                                                     "method": f"beam search + {used}"})
