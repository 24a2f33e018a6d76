"""DPSO and GA runs: set-up, chunked numba iterations with progress and cancel, and the result.

The parameters and their defaults (seed 001's) are in ``engine.subjects.meta.settings``. Every run is reproducible from
its seed.

Choices where the paper is silent (its equations (1)–(4) are images missing from the text):

* Initial velocities: the paper gives each particle "a random position and velocity" (ランダムな位置と速度) without a
  range. Ours are uniform in [−vmax, vmax], drawn from the run's seed after the start positions: every starting
  velocity is one the update could have produced, and no bit starts more biased than the clamp allows. Measured
  against a zero start (depth 15, vmax 0.5): 8 of 10 solved against 10 of 10; the text's reading is kept.
* The velocity clamp |v| ≤ vmax = 0.5 (no limit is given anywhere), so a bit is 1 with probability between 0.38 and
  0.62. With w = 1.0 velocities only grow, and a wide clamp lets the swarm freeze on one sequence (the frozen swarms
  sit at "undo everything", fitness 150 + MD of the start). Measured by ``bench/meta.py --clamp`` (depth-15 scrambles,
  the paper's Table 1 budget of 250 particles × 1,200 iterations); the table is on the Swarm & GA page.
* r1 and r2 are drawn per bit (the text says only "uniform in [0, 1]").
* The GA's roulette weight is 1 / (1 + fitness) (``selection="inverse"``; the paper names roulette selection but not
  the weight, and the fitness is minimised, so it must be inverted somehow). ``selection="rank"`` (linear ranking:
  weight = population − rank) is the measured alternative (``bench/meta.py --selection``).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field

import numpy as np

from engine.core.fastrandom import generator, next_random
from engine.core.status import Status
from engine.domains.tiles.board import Board
from engine.domains.tiles.goal_arrays import goal_tables
from engine.subjects.meta import kernels
from engine.subjects.meta.encoding import decode, default_encoding, move_targets
from engine.subjects.meta.settings import DPSOParams, GAParams

HISTORY_POINTS = 200  # points of the best-fitness curve sent to the page while a run is live


@dataclass
class MetaRun:
    algorithm: str
    initial_score: int  # best fitness of the random start population
    best_score: int
    moves: str
    solved: bool
    history: np.ndarray  # best fitness after each iteration (generation) run
    iterations: int
    evaluations: int
    seconds: float
    stopped: Status | None = None  # CANCELLED or BUDGET_EXHAUSTED when a run ended early
    params: dict = field(default_factory=dict)

    def curve(self, points: int = HISTORY_POINTS) -> list[list[int]]:
        return downsample(self.history[:self.iterations], points)

    def first_reaching(self, threshold: int) -> int | None:
        """The iteration after which the best fitness was first ≤ threshold (0: the start population), or None."""
        if self.initial_score <= threshold:
            return 0
        hits = np.flatnonzero(self.history[:self.iterations] <= threshold)
        return int(hits[0]) + 1 if hits.size else None


def downsample(history: np.ndarray, points: int) -> list[list[int]]:
    if history.size == 0:
        return []
    index = np.unique(np.linspace(0, history.size - 1, min(points, history.size)).astype(np.int64))
    return [[int(i) + 1, int(history[i])] for i in index]


class _Problem:
    """The arrays every kernel call needs for one position."""

    def __init__(self, board: Board, goal: Board, encoding: str | None, max_moves: int):
        tables = goal_tables(goal)
        self.board, self.goal = board, goal
        self.encoding = encoding or default_encoding(board.rows, board.cols)
        self.targets = move_targets(board.rows, board.cols, self.encoding)
        self.manhattan = np.ascontiguousarray(tables.manhattan)
        self.start = np.array(board.cells, dtype=np.int64)
        self.blank = board.cells.index(0)
        self.md = int(sum(tables.manhattan[t, c] for c, t in enumerate(board.cells)))
        self.max_moves = max_moves
        self.work = np.empty(board.size, dtype=np.int64)
        self.stack = np.empty(max_moves + 1, dtype=np.int64)

    def args(self) -> tuple:
        return (self.start, self.blank, self.md, self.targets, self.manhattan, self.max_moves, self.work, self.stack)


def _bits(rng: np.ndarray, rows: int, length: int) -> np.ndarray:
    out = np.empty((rows, length), dtype=np.uint8)
    for r in range(rows):
        for j in range(length):
            out[r, j] = 1 if next_random(rng) < 0.5 else 0
    return out


def _drive(step, total: int, history: np.ndarray, label: str, best, progress, cancel, deadline, evaluations_per):
    """Call ``step(count, offset)`` in chunks until ``total`` iterations, a stop, a cancel or the deadline."""
    done = 0
    chunk = 1
    stopped = None
    started = time.perf_counter()
    while done < total:
        if cancel is not None and cancel.is_set():
            stopped = Status.CANCELLED
            break
        if deadline is not None and time.perf_counter() >= deadline:
            stopped = Status.BUDGET_EXHAUSTED
            break
        count = min(chunk, total - done)
        t0 = time.perf_counter()
        ran = step(count, done)
        done += ran
        if ran < count:  # reached the stop value: nothing better can be found
            break
        elapsed = time.perf_counter() - t0
        chunk = max(1, min(total - done, int(count * 0.25 / max(elapsed, 1e-6)))) or 1  # about 4 reports a second
        if progress:
            progress(done / total, {"nodes": done * evaluations_per, "iteration": done, "best": int(best()),
                                    "history": downsample(history[:done], HISTORY_POINTS),
                                    "text": f"{label} {done:,} of {total:,}: best fitness {int(best())} "
                                            f"({time.perf_counter() - started:.1f} s)"})
    return done, stopped


def initial_velocities(rng: np.ndarray, shape: tuple[int, int], vmax: float) -> np.ndarray:
    """Each particle's random starting velocity, uniform in [−vmax, vmax] per bit (module docstring)."""
    v = np.empty(shape)
    for p in range(shape[0]):
        for j in range(shape[1]):
            v[p, j] = (2.0 * next_random(rng) - 1.0) * vmax
    return v


def _start(problem: _Problem, rng: np.ndarray, count: int):
    """A random start population, its scores, and its best row."""
    rows = _bits(rng, count, 2 * problem.max_moves)
    scores = np.empty(count, dtype=np.int64)
    kernels.evaluate_all(rows, scores, *problem.args())
    first = int(np.argmin(scores))
    return rows, scores, rows[first:first + 1].copy(), np.array([scores[first]], dtype=np.int64)


def _search(algorithm: str, problem: _Problem, best, best_score, total: int, size: int, step, progress, cancel,
            stop_at: int, deadline: float | None, params) -> MetaRun:
    """Drive ``step(count, offset, history)`` for up to ``total`` iterations and package the result."""
    initial = int(best_score[0])
    history = np.empty(total, dtype=np.int64)
    started = time.perf_counter()
    done, stopped = 0, None
    if initial > stop_at:
        label = "iteration" if algorithm == "dpso" else "generation"
        done, stopped = _drive(lambda count, offset: step(count, offset, history), total, history, label,
                               lambda: best_score[0], progress, cancel, deadline, size)
    return _finish(algorithm, problem, initial, best[0], int(best_score[0]), history, done, size * (done + 1),
                   time.perf_counter() - started, stopped, asdict(params))


def run_dpso(board: Board, goal: Board, params: DPSOParams | None = None, progress=None, cancel=None,
             stop_at: int = 0, deadline: float | None = None) -> MetaRun:
    params = params or DPSOParams()
    problem = _Problem(board, goal, params.encoding, params.max_moves)
    rng = generator(params.seed)
    x, pbest_score, gbest, gbest_score = _start(problem, rng, params.particles)
    pbest = x.copy()
    v = initial_velocities(rng, x.shape, params.vmax)

    def step(count, offset, history):
        return kernels.dpso_iterations(x, v, pbest, pbest_score, gbest, gbest_score, params.w, params.c1, params.c2,
                                       params.vmax, count, history, offset, rng, *problem.args(), stop_at)

    return _search("dpso", problem, gbest, gbest_score, params.iterations, params.particles, step, progress, cancel,
                   stop_at, deadline, params)


def run_ga(board: Board, goal: Board, params: GAParams | None = None, progress=None, cancel=None,
           stop_at: int = 0, deadline: float | None = None) -> MetaRun:
    params = params or GAParams()
    problem = _Problem(board, goal, params.encoding, params.max_moves)
    rng = generator(params.seed)
    population, scores, best, best_score = _start(problem, rng, params.population)
    spare = np.empty_like(population)

    def step(count, offset, history):
        return kernels.ga_generations(population, scores, spare, best, best_score, params.crossover,
                                      params.mutation, params.elites, params.selection == "rank", count, history,
                                      offset, rng, *problem.args(), stop_at)

    return _search("ga", problem, best, best_score, params.generations, params.population, step, progress, cancel,
                   stop_at, deadline, params)


def _finish(algorithm, problem, initial, bits, score, history, done, evaluations, seconds, stopped, params) -> MetaRun:
    solved = score <= problem.max_moves
    moves = decode(bits, problem.board, problem.targets, problem.goal if solved else None)
    params = {**params, "encoding": problem.encoding}
    return MetaRun(algorithm, initial, score, moves, solved, history, done, evaluations, seconds, stopped, params)
