"""Seed 002's learned heuristic in the heuristic registry: V = MD + DB, read from a trained table, 4×4 only, not
admissible; offered once a table has been trained. ``engine/subjects/learned/ida_kernel.py`` computes it in the compiled
IDA* and A*."""

from __future__ import annotations

from collections.abc import Callable

from engine.core import registry
from engine.domains.tiles.board import Board
from engine.domains.tiles.heuristics import Heuristic, KernelInputs, manhattan_distance, register_heuristic
from engine.subjects.learned.catalogue import table_for, trained_tables


def learned_function(goal: Board, options: dict) -> Callable[[Board], int]:
    table = table_for(goal, options.get("table"))
    return lambda board: manhattan_distance(board, goal) + table.value(board)


def learned_inputs(goal: Board, options: dict) -> KernelInputs:
    return "learned", {"learned": table_for(goal, options.get("table"))}, ""


register_heuristic(Heuristic(
    "learned", "learned table", "Seed 002's V = MD + DB, DB trained on random walks out of the goal; it may "
    "overestimate, so answers are not proven optimal.", False, learned_function, shape=(4, 4),
    kernel="engine.subjects.learned.ida_kernel:LEARNED", kernel_inputs=learned_inputs,
    available=lambda board: bool(trained_tables())))


@registry.warms_up
def warm_learned_kernel() -> None:
    """The learned IDA* and A* kernels, on a one-tile pattern of the 3×3 board (the real table's array types, no
    table)."""
    from types import SimpleNamespace

    import numpy as np

    from engine.core.result import Watch
    from engine.domains.tiles.astar import astar_fast
    from engine.domains.tiles.board import goal_board
    from engine.domains.tiles.kernel_drivers import idastar
    from engine.subjects.learned.pattern import Pattern

    goal = goal_board(3, 3, "blank-last")
    pattern = Pattern(9, (8,))
    learned = SimpleNamespace(key_slot=pattern.key_slot(), key_radix=pattern.key_radix(),
                              table=np.zeros(pattern.size, dtype=np.uint8))
    idastar(goal.apply("ULUL"), goal, "learned", Watch(), {"learned": learned})
    astar_fast(goal.apply("ULUL"), goal, "learned", Watch(), {"learned": learned})
