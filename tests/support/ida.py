"""One IDA* iteration by a heuristic's compiled kernel or by its reference kernel, for the tests that hold the two
equal node for node (the tiles' heuristics and a subject's alike)."""

from __future__ import annotations

import numpy as np

from engine.domains.tiles.board import Board
from engine.domains.tiles.goal_arrays import goal_tables, pruned_children
from engine.domains.tiles.heuristic_kernels import manhattan_sum
from engine.domains.tiles.heuristics import heuristic as heuristic_record
from engine.domains.tiles.ida_iteration import DEPTH, FOUND, PAUSED, new_stack, start_state
from engine.domains.tiles.ida_kernels import reference_kernel
from engine.domains.tiles.move_automaton import automaton


def one_iteration(kernel: str, heuristic: str, board: Board, goal: Board, bound: int, quota: int,
                  loaded: dict | None = None, pruning: str = "parent") -> tuple[int, list[int], list[int]]:
    """One IDA* iteration at ``bound`` with the ``"compiled"`` kernel of ``heuristic`` or its ``"reference"`` one
    (generated from its h of a whole board), its inputs built by its record, pruned by the move automaton
    ``pruning``, paused and resumed every ``quota`` expansions: the return code, the state array, and the path when
    the goal was found."""
    tables = goal_tables(goal)
    machine = automaton(pruning, goal.size)
    cells = np.array(board.cells, dtype=np.int64)
    frames = new_stack(bound + 2, manhattan_sum(cells, tables.manhattan))
    states = np.zeros(bound + 2, dtype=np.int64)
    state = start_state(board.blank, machine.start)
    compiled = heuristic_record(heuristic).compiled()
    aux, _ = compiled.inputs(board, goal, loaded or {}, bound + 2)
    reference = reference_kernel(compiled.board_h)
    while True:
        if kernel == "compiled":
            code = compiled.run(cells, state, frames, pruned_children(goal, pruning), aux, bound, quota)
        else:
            code = reference(cells, state, frames.path, frames.trial, frames.md_stack, tables.neighbors,
                             tables.manhattan, machine.next, states, aux, bound, quota)
        if code != PAUSED:
            # ``trial`` is laid out differently (an index into the blank's moves, or a direction): not compared
            return code, state.tolist(), frames.path[:state[DEPTH]].tolist() if code == FOUND else []
