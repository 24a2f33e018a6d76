"""Training the learned table (seed 002, Algorithm 1) with numba on both cores.

M walks of N random blank moves start at the goal. Along a walk the step count n is kept; at each state p with key
k(p) (the compressed pattern):

* k not yet stored: store n (line 12);
* stored count larger than n: lower it to n (line 8);
* stored count smaller than n: lower the walk's n to it (line 10), so later states count from there.

Two tables: STEPS (the stored count) and VALUE, what the heuristic reads. The paper stores |s − MD(p)| "instead of" s
and leaves open which minimum is kept; we offer both, and measure them on the page:

* ``value_rule="at-min-steps"`` (default): VALUE = |s − MD(p)| of the visit that set or lowered the stored count, so
  the minimum is taken over s (Algorithm 1 unchanged, the difference recorded beside it);
* ``value_rule="min-diff"``: VALUE = the least |n − MD(p)| over every visit.

Whether a walk may undo its last move is also open: ``allow_undo=False`` (default) never steps straight back, so no
step of a walk is wasted on returning to the state it just left.

Determinism: the walks are split into two fixed shards, each trained into its own tables by one thread from its own
seeded generator, then merged by the same rule (the smaller count wins; "min-diff" takes the smaller value). The result
depends only on the seed, not on the number of cores or on timing.
"""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass

import numpy as np
from numba import njit

from engine import store
from engine import params as params_reader
from engine.errors import PuzzleError
from engine.fastrandom import generator, next_random
from engine.learned.pattern import DEFAULT_TILES, Pattern, pattern_for
from engine.tiles.board import Board
from engine.tiles.kernels import rank_of_positions
from engine.tiles.tables import goal_tables

EMPTY = 255  # a key no walk has reached
SHARDS = 2
VALUE_RULES = ("at-min-steps", "min-diff")
MAX_WALKS = 1_000_000_000
CHUNK_WALKS = 20_000


@dataclass(frozen=True)
class TrainingParams:
    walks: int = 100_000_000  # M
    length: int = 200         # N
    tiles: tuple[int, ...] = DEFAULT_TILES
    value_rule: str = "at-min-steps"
    allow_undo: bool = False
    seed: int = 0

    def name(self, goal: Board) -> str:
        return store.artefact_name("learned", goal.rows, goal.cols, goal.cells, asdict(self))


@njit(cache=True, nogil=True)
def update_entry(entries, key, n, md, min_diff):
    """Algorithm 1 at one state: update the stored count ``entries[key, 0]`` and value ``entries[key, 1]``; return
    the walk's count (lowered to the stored one when that is smaller)."""
    diff = n - md if n >= md else md - n
    if diff > 254:
        diff = 254
    stored = entries[key, 0]
    if stored == EMPTY:
        entries[key, 0] = n
        entries[key, 1] = diff
    elif n < stored:
        entries[key, 0] = n
        if not min_diff or diff < entries[key, 1]:
            entries[key, 1] = diff
    else:
        if stored < n:
            n = stored
            diff = n - md if n >= md else md - n
        if min_diff and diff < entries[key, 1]:
            entries[key, 1] = diff
    return n


@njit(cache=True, nogil=True)
def train_walks(entries, walks, length, rng, goal_cells, goal_blank, neighbors, manhattan, key_slot, key_radix,
                allow_undo, min_diff, work, where):
    """``walks`` random walks of ``length`` moves from the goal, each state updating ``entries`` (Algorithm 1).
    The key items' cells are kept in ``where`` as the walk goes, so a step re-ranks 7 cells, not the board."""
    for _ in range(walks):
        for i in range(goal_cells.shape[0]):
            work[i] = goal_cells[i]
            if key_slot[goal_cells[i]] >= 0:
                where[key_slot[goal_cells[i]]] = i
        blank = goal_blank
        came_from = -1
        md = 0
        n = 0
        for _ in range(length):
            options = 0
            for d in range(4):
                t = neighbors[blank, d]
                if t >= 0 and (allow_undo or t != came_from):
                    options += 1
            pick = int(next_random(rng) * options)
            target = -1
            for d in range(4):
                t = neighbors[blank, d]
                if t >= 0 and (allow_undo or t != came_from):
                    if pick == 0:
                        target = t
                        break
                    pick -= 1
            tile = work[target]
            md += manhattan[tile, blank] - manhattan[tile, target]
            work[blank] = tile
            work[target] = 0
            if key_slot[tile] >= 0:
                where[key_slot[tile]] = blank
            where[0] = target
            came_from = blank
            blank = target
            n += 1
            n = update_entry(entries, rank_of_positions(where, key_radix), n, md, min_diff)


@dataclass
class LearnedTable:
    """A trained table and what the IDA* kernel needs to read it."""

    name: str
    goal: Board
    pattern: Pattern
    table: np.ndarray  # VALUE, uint8, 0 where no walk reached the key (DB(p) = 0 for unseen patterns)
    info: dict

    @property
    def key_slot(self) -> np.ndarray:
        return self.pattern.key_slot()

    @property
    def key_radix(self) -> np.ndarray:
        return self.pattern.key_radix()

    def value(self, board: Board) -> int:
        from engine.tiles.kernels import learned_value

        return int(learned_value(np.array(board.cells, dtype=np.int64), self.key_slot, self.key_radix, self.table))


def check_params(values: dict) -> TrainingParams:
    walks = params_reader.integer(values, "walks", 1, MAX_WALKS, TrainingParams.walks)
    # counts are stored in one byte
    length = params_reader.integer(values, "length", 1, 254, TrainingParams.length)
    seed = params_reader.integer(values, "seed", 0, 2**63 - 1, 0)
    rule = params_reader.choice(values, "value_rule", VALUE_RULES, "at-min-steps")
    undo = params_reader.flag(values, "allow_undo", False)
    return TrainingParams(walks, length, pattern_for(values.get("tiles", DEFAULT_TILES)).tiles, rule, undo, seed)


def _meta_path(name: str):
    return store.data_dir() / name.replace(".npy", ".json")


def train(goal: Board, params: TrainingParams, progress=None, cancel=None) -> LearnedTable | None:
    """Train (or load, if this exact training was stored before) the table. None if cancelled."""
    if (goal.rows, goal.cols) != (4, 4):
        raise PuzzleError("the learned heuristic is trained for the 4x4 puzzle")
    pattern = Pattern(16, params.tiles)
    name = params.name(goal)
    if store.exists(name) and _meta_path(name).exists():
        return load(name)
    tables = goal_tables(goal)
    goal_cells = np.array(goal.cells, dtype=np.int64)
    slot, radix = pattern.key_slot(), pattern.key_radix()
    # one (count, value) byte pair per key, side by side, so a step costs one cache miss, not two
    shards = [(np.full((pattern.size, 2), EMPTY, dtype=np.uint8), generator(params.seed * SHARDS + s))
              for s in range(SHARDS)]
    quota = [params.walks // SHARDS + (1 if s < params.walks % SHARDS else 0) for s in range(SHARDS)]
    done = [0] * SHARDS
    started = time.perf_counter()

    def run_shard(s: int) -> None:
        entries, rng = shards[s]
        work, where = np.empty(16, dtype=np.int64), np.empty(len(pattern.items), dtype=np.int64)
        while done[s] < quota[s] and not (cancel is not None and cancel.is_set()):
            count = min(CHUNK_WALKS, quota[s] - done[s])
            train_walks(entries, count, params.length, rng, goal_cells, goal.blank, tables.neighbors,
                        tables.manhattan, slot, radix, params.allow_undo, params.value_rule == "min-diff", work,
                        where)
            done[s] += count

    with ThreadPoolExecutor(max_workers=SHARDS) as pool:
        futures = [pool.submit(run_shard, s) for s in range(SHARDS)]
        last_fill = time.perf_counter()
        while not all(f.done() for f in futures):
            time.sleep(0.5)
            if progress:
                walked = sum(done)
                elapsed = time.perf_counter() - started
                info = {"nodes": walked * params.length, "walks": walked,
                        "text": f"{walked:,} of {params.walks:,} walks, {walked / max(elapsed, 1e-9):,.0f} walks/s"}
                if time.perf_counter() - last_fill > 5:  # counting the filled keys reads the whole table
                    info["fill"] = float(np.count_nonzero(shards[0][0][:, 0] != EMPTY)) / pattern.size
                    info["text"] += f", shard fill {info['fill']:.1%}"
                    last_fill = time.perf_counter()
                progress(walked / params.walks, info)
        for f in futures:
            f.result()
    if cancel is not None and cancel.is_set():
        return None
    steps, value = merge(shards, params.value_rule)
    seconds = time.perf_counter() - started
    table = np.where(steps == EMPTY, 0, value).astype(np.uint8)
    filled = int(np.count_nonzero(steps != EMPTY))
    info = {"params": {**asdict(params), "tiles": list(params.tiles)}, "goal": list(goal.cells),
            "seconds": round(seconds, 1), "walks_per_second": round(params.walks / seconds),
            "fill": filled / pattern.size, "filled": filled, "key_count": pattern.size,
            "value_histogram": np.bincount(table[steps != EMPTY], minlength=1).tolist(),
            "steps_histogram": np.bincount(steps[steps != EMPTY], minlength=1).tolist()}
    store.load_or_build(name, lambda: table)
    _meta_path(name).write_text(json.dumps(info))
    return LearnedTable(name, goal, pattern, table, info)


def merge(shards, value_rule: str) -> tuple[np.ndarray, np.ndarray]:
    """One (count, value) table from the shards': the smaller count wins, with its value ("at-min-steps", ties
    keep the smaller value) or the smaller value ("min-diff")."""
    steps, value = shards[0][0][:, 0].copy(), shards[0][0][:, 1].copy()
    for entries, _ in shards[1:]:
        other_steps, other_value = entries[:, 0], entries[:, 1]
        if value_rule == "min-diff":
            value = np.minimum(value, other_value)
        else:
            value = np.where(other_steps < steps, other_value,
                             np.where(other_steps == steps, np.minimum(value, other_value), value))
        steps = np.minimum(steps, other_steps)
    return steps, value


def load(name: str) -> LearnedTable:
    info = json.loads(_meta_path(name).read_text())
    goal = Board(4, 4, tuple(info["goal"]))
    table = np.load(store.data_dir() / name)
    return LearnedTable(name, goal, Pattern(16, tuple(info["params"]["tiles"])), table, info)


def trained_tables(goal: Board | None = None) -> list[dict]:
    """Every stored training (newest first), optionally only those for ``goal``."""
    found = []
    for meta in sorted(store.data_dir().glob("learned-*.json"), key=lambda p: p.stat().st_mtime, reverse=True):
        info = json.loads(meta.read_text())
        if goal is None or tuple(info["goal"]) == goal.cells:
            found.append({"name": meta.name.replace(".json", ".npy"), **info})
    return found


_cache: dict[str, LearnedTable] = {}


def table_for(goal: Board, name: str | None = None) -> LearnedTable:
    """The chosen (or newest) trained table for ``goal``, loaded once."""
    candidates = trained_tables(goal)
    if name:
        candidates = [c for c in candidates if c["name"] == name]
    if not candidates:
        raise PuzzleError("no learned table is trained for this goal yet: train one on the Learned heuristic page")
    chosen = candidates[0]["name"]
    if chosen not in _cache:
        _cache[chosen] = load(chosen)
    return _cache[chosen]
