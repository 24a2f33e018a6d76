import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.meta import kernels
from engine.meta.encoding import (covering_cycle_pairs, decode, fitness_reference, grid_edges, hamiltonian_cycles,
                                  move_targets)
from engine.meta.experiment import run_experiment
from engine.meta.search import DPSOParams, GAParams, _Problem, params_from, run_dpso, run_ga
from engine.errors import PuzzleError
from engine.tiles import Board, goal_board
from engine.tiles.random import scramble

GOAL = goal_board(4, 4, "blank-last")


def test_the_cycle_pair_covers_every_edge_and_is_unique():
    pairs = covering_cycle_pairs(4, 4)
    assert len(pairs) == 1
    edges = set()
    for cycle in pairs[0]:
        assert sorted(cycle) == list(range(16))
        steps = {frozenset((cycle[i], cycle[(i + 1) % 16])) for i in range(16)}
        assert steps <= grid_edges(4, 4)  # consecutive cells are neighbours, including the closing step
        edges |= steps
    assert edges == grid_edges(4, 4) and len(edges) == 24
    assert hamiltonian_cycles(3, 3) == []  # an odd number of cells: no Hamiltonian cycle, hence the general encoding
    assert len(hamiltonian_cycles(2, 5)) == 1  # only the border


@pytest.mark.parametrize("rows, cols, encoding", [(4, 4, "cycles"), (4, 4, "legal-index"), (3, 3, None), (2, 5, None),
                                                  (3, 5, None)])
def test_every_code_is_a_legal_move_from_every_cell(rows, cols, encoding):
    targets = move_targets(rows, cols, encoding)
    for cell in range(rows * cols):
        for code in range(4):
            (r1, c1), (r2, c2) = divmod(cell, cols), divmod(int(targets[cell, code]), cols)
            assert abs(r1 - r2) + abs(c1 - c2) == 1


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 1), min_size=300, max_size=300), st.sampled_from([(4, 4), (3, 3), (2, 5)]),
       st.integers(0, 50))
def test_bit_strings_decode_to_legal_moves_and_the_kernel_agrees(bits, shape, seed):
    goal = goal_board(*shape, "blank-last")
    board, _ = scramble(goal, 8, seed)
    problem = _Problem(board, goal, None, 150)
    array = np.array(bits, dtype=np.uint8)
    board.apply(decode(array, board, problem.targets))  # raises on an illegal move
    assert kernels.fitness(array, *problem.args()) == fitness_reference(array, board, goal, problem.targets, 150)


def bits_for(moves: str, board: Board, targets) -> np.ndarray:
    """Encode a move string (each move must be one of the cell's codes)."""
    bits, blank = [], board.blank
    for move in moves:
        target = board.neighbor(blank, move)
        code = next(c for c in range(4) if targets[blank, c] == target)
        bits += [code >> 1, code & 1]
        blank = target
    return np.array(bits, dtype=np.uint8)


def test_cancellation_and_fitness_by_hand():
    targets = move_targets(4, 4, "cycles")
    start = GOAL.apply("UL")  # two moves from the goal, Manhattan sum 2
    assert fitness_reference(bits_for("RD", start, targets), start, GOAL, targets, 2) == 2
    # L then R cancel: the goal is reached after 4 codes but only 2 moves count
    assert fitness_reference(bits_for("LRRD", start, targets), start, GOAL, targets, 4) == 2
    assert decode(bits_for("LRRD", start, targets), start, targets) == "RD"
    # not solved within 2 moves: 2 + the Manhattan sum where it ends (UL from start: tiles 11, 12 and two more off)
    end = start.apply("UU")
    manhattan = sum(abs(c // 4 - (t - 1) // 4) + abs(c % 4 - (t - 1) % 4) for c, t in enumerate(end.cells) if t)
    assert fitness_reference(bits_for("UU", start, targets), start, GOAL, targets, 2) == 2 + manhattan == 2 + 4


def test_a_fixed_seed_gives_the_same_run_twice():
    board, _ = scramble(GOAL, 20, 5)
    for run, params in ((run_dpso, DPSOParams(iterations=40, particles=40, seed=9)),
                        (run_ga, GAParams(generations=300, seed=9))):
        first, second = run(board, GOAL, params), run(board, GOAL, params)
        assert first.moves == second.moves and first.history.tolist() == second.history.tolist()
        other = run(board, GOAL, type(params)(**{**params.__dict__, "seed": 10}))
        assert other.history.tolist() != first.history.tolist()


def test_dpso_solves_every_depth_10_scramble():
    result = run_experiment([10], trials=10, dpso=DPSOParams(iterations=300), ga=GAParams(generations=2000), seed=1)
    rows = result["rows"]
    assert len(rows) == 10
    for row in rows:
        assert row["dpso"]["solved_at"] is not None, row
        assert row["optimum"] <= 10 and row["dpso"]["best"] >= row["optimum"]  # never shorter than the optimum
    entry = result["table"][0]
    assert entry["dpso"]["checkpoints"][100]["solved"] <= entry["trials"] == 10
    assert result["curves"]["dpso"]["solved"]["10"][-1] == 10


def test_runs_on_small_boards_give_legal_solutions():
    for shape in [(3, 3), (2, 5)]:
        goal = goal_board(*shape, "blank-last")
        board, _ = scramble(goal, 10, 2)
        result = run_dpso(board, goal, DPSOParams(iterations=200, seed=1))
        assert result.solved and board.apply(result.moves).cells == goal.cells


def test_parameters_are_checked():
    assert params_from(DPSOParams, {"particles": "30", "w": "0.7"}).particles == 30
    with pytest.raises(PuzzleError, match="particles must be a whole number from 2"):
        params_from(DPSOParams, {"particles": 0})
    with pytest.raises(PuzzleError, match="mutation must be a number"):
        params_from(GAParams, {"mutation": "lots"})
    with pytest.raises(PuzzleError, match="elites must be fewer"):
        params_from(GAParams, {"population": 4, "elites": 4})
    with pytest.raises(PuzzleError, match="4x4 only"):
        move_targets(3, 3, "cycles")
