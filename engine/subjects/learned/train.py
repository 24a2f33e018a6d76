"""Training a learned table: the kernel (``engine.subjects.learned.kernels``) called a chunk of walks at a time, with
progress and cancel between chunks; the table and its facts stored in the catalogue
(``engine.subjects.learned.catalogue``).

One table, one thread, deterministic from the seed: every walk reads and updates the same table, as Algorithm 1's
line 10 needs, so the chunks run one after another in the calling thread (whose CPU time is the training's).
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict
from functools import partial

import numpy as np

from engine.core.errors import PuzzleError
from engine.core.fastrandom import generator
from engine.domains.tiles.board import Board
from engine.domains.tiles.goal_arrays import goal_tables
from engine.serving import store
from engine.serving.background import run_tasks
from engine.subjects.learned.catalogue import LearnedTable, TrainingParams, load, meta_path
from engine.subjects.learned.kernels import EMPTY, LANES, new_entries, train_walks
from engine.subjects.learned.pattern import Pattern

# walks per kernel call: about 0.1 s between progress reports and cancel checks (under 1 s on a busy machine); a
# multiple of LANES, so the batches, hence the table, do not depend on the chunking
CHUNK_WALKS = 160 * LANES


def train(goal: Board, params: TrainingParams, progress=None, cancel=None) -> LearnedTable | None:
    """Train (or load, if this exact training was stored before) the table. None if cancelled."""
    if (goal.rows, goal.cols) != (4, 4):
        raise PuzzleError("the learned heuristic is trained for the 4x4 puzzle")
    pattern = Pattern(16, params.tiles)
    name = params.name(goal)
    if store.exists(name) and meta_path(name).exists():
        return load(name)
    tables = goal_tables(goal)
    goal_cells = np.array(goal.cells, dtype=np.int64)
    slot, radix = pattern.key_slot(), pattern.key_radix()
    entries = new_entries(pattern, goal)
    rng = generator(params.seed)
    work, where = np.empty((LANES, 16), dtype=np.int64), np.empty((LANES, len(pattern.items)), dtype=np.int64)
    lane = np.zeros((LANES, 5), dtype=np.int64)
    started = time.perf_counter()
    cpu_started = time.thread_time()
    last_fill = [started]

    def chunk(count: int) -> int:
        train_walks(entries, count, params.length, rng, goal_cells, goal.blank, tables.neighbors, tables.manhattan,
                    slot, radix, params.allow_undo, params.value_rule == "min-diff", work, where, lane)
        return count

    def report(index: int, count: int) -> None:
        done = min(params.walks, (index + 1) * CHUNK_WALKS)
        if progress:
            elapsed = time.perf_counter() - started
            info = {"nodes": done * params.length, "walks": done,
                    "text": f"{done:,} of {params.walks:,} walks, {done / max(elapsed, 1e-9):,.0f} walks/s"}
            if time.perf_counter() - last_fill[0] > 5:  # counting the filled keys reads the whole table
                info["fill"] = float(np.count_nonzero(entries[:, 0] != EMPTY)) / pattern.size
                info["text"] += f", fill {info['fill']:.1%}"
                last_fill[0] = time.perf_counter()
            progress(done / params.walks, info)

    chunks = (partial(chunk, min(CHUNK_WALKS, params.walks - begin)) for begin in range(0, params.walks, CHUNK_WALKS))
    if run_tasks(chunks, cancel, report, workers=1) is None:  # one table: the chunks run in order, in this thread
        return None
    seconds = time.perf_counter() - started
    cpu_seconds = time.thread_time() - cpu_started
    steps, value = entries[:, 0], entries[:, 1]
    table = np.where(steps == EMPTY, 0, value).astype(np.uint8)
    filled = int(np.count_nonzero(steps != EMPTY))
    info = {"params": {**asdict(params), "tiles": list(params.tiles)}, "goal": list(goal.cells),
            "seconds": round(seconds, 1), "cpu_seconds": round(cpu_seconds, 1),
            "walks_per_second": round(params.walks / max(seconds, 1e-9)),
            "fill": filled / pattern.size, "filled": filled, "key_count": pattern.size,
            "value_histogram": np.bincount(table[steps != EMPTY], minlength=1).tolist(),
            "steps_histogram": np.bincount(steps[steps != EMPTY], minlength=1).tolist()}
    store.load_or_build(name, lambda: table)
    meta_path(name).write_text(json.dumps(info))
    return LearnedTable(name, goal, pattern, table, info)
