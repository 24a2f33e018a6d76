"""The catalogue of trained tables: what a training is called (its parameters, checked), where its table and its
facts are stored, and loading a table for the searches (``table_for``). No numba here: listing and checking need none.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

import numpy as np

from engine.core.errors import PuzzleError
from engine.core.params import choice, flag, integer
from engine.domains.tiles.board import Board
from engine.serving import store
from engine.subjects.learned.pattern import DEFAULT_TILES, Pattern, pattern_for, rank_reference

VALUE_RULES = ("min-diff", "at-min-steps")
MAX_WALKS = 1_000_000_000
#: Part of a table's name, raised whenever what a stored table means changes (DB(goal) = 0, one table), so a
#: table of another format is never read as this one.
FORMAT = 2


@dataclass(frozen=True)
class TrainingParams:
    walks: int = 100_000_000  # M
    length: int = 200         # N
    tiles: tuple[int, ...] = DEFAULT_TILES
    value_rule: str = "min-diff"
    allow_undo: bool = False
    seed: int = 0

    def name(self, goal: Board) -> str:
        return store.artefact_name("learned", goal.rows, goal.cols, goal.cells, asdict(self), FORMAT)


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
        """DB(p) of ``board`` in plain Python: the readable reference of the kernels' ``ida_kernel.learned_value``."""
        return int(self.table[rank_reference(board.cells, self.pattern)])


def check_params(values: dict) -> TrainingParams:
    walks = integer(values, "walks", 1, MAX_WALKS, TrainingParams.walks)
    # counts are stored in one byte
    length = integer(values, "length", 1, 254, TrainingParams.length)
    seed = integer(values, "seed", 0, 2**63 - 1, 0)
    rule = choice(values, "value_rule", VALUE_RULES, TrainingParams.value_rule)
    undo = flag(values, "allow_undo", False)
    return TrainingParams(walks, length, pattern_for(values.get("tiles", DEFAULT_TILES)).tiles, rule, undo, seed)


def meta_path(name: str):
    return store.data_dir() / name.replace(".npy", ".json")


def load(name: str) -> LearnedTable:
    info = json.loads(meta_path(name).read_text())
    goal = Board(4, 4, tuple(info["goal"]))
    table = store.load(name)  # checked against its checksum first
    if table is None:
        raise PuzzleError(f"the learned table {name} cannot be used: {store.refused(name) or 'it is missing'}; "
                          "train it again")
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
