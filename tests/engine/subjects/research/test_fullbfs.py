"""The partitioned breadth-first search: its kernels against their plain references, its histograms against the
one-byte-per-rank search of the solvers, and its resuming after a cancel or a crash, on threads and on Dask."""

from __future__ import annotations

import random
import threading

import numpy as np
import pytest

from engine.core.errors import PuzzleError
from engine.core.status import Status
from engine.domains.tiles import goal_board
from engine.domains.tiles.board import Board
from engine.domains.tiles.kernel_drivers import bfs_distances
from engine.domains.tiles.solvability import is_solvable
from engine.subjects.research.fullbfs import Layout, ThreadWaves, code, full_bfs
from engine.subjects.research.fullbfs_kernels import (
    SMALL_POPCOUNT,
    code_pattern,
    count_code,
    permutation_parity,
    pull_sideways,
    pull_vertical,
    sequence_child,
    sequence_parity,
)

# The 2x4 counts per distance, blank in a corner (OEIS A090035, Karlemo and Östergård): 37 values, diameter 36 with
# one position there. The 2x7 ones are OEIS A346736 (Korf 2008, recomputed by Rokicki): diameter 108, one position.
OEIS_2X4 = [1, 2, 3, 6, 10, 14, 19, 28, 42, 61, 85, 119, 161, 215, 293, 396, 506, 632, 788, 985, 1194, 1414, 1664,
            1884, 1999, 1958, 1770, 1463, 1076, 667, 361, 190, 88, 39, 19, 7, 1]


def one_byte_histogram(rows: int, cols: int) -> list[int]:
    distance, _ = bfs_distances(goal_board(rows, cols, "blank-first"))
    return np.bincount(distance[distance != 255]).tolist()


def test_permutation_parity_kernel_equals_the_inversion_count():
    rng = random.Random(4)
    for m in (1, 2, 5, 13):
        for _ in range(50):
            perm = rng.sample(range(m), m)
            assert permutation_parity(np.array(perm, dtype=np.int64)) == sequence_parity(perm)


@pytest.mark.parametrize("rows, cols", [(2, 3), (3, 3), (2, 4)])
def test_each_move_lands_where_the_reference_move_puts_it(rows, cols):
    """One frontier state alone in its partition: the kernels write exactly the child the plain move gives."""
    layout = Layout(rows, cols)
    goal = goal_board(rows, cols, "blank-first")
    rng = random.Random(rows * 10 + cols)
    frontier, fresh = code_pattern(code(0)), code_pattern(code(1))
    for _ in range(6):
        cells = list(goal.cells)
        rng.shuffle(cells)
        if not is_solvable(Board(rows, cols, tuple(cells)), goal):
            cells[-1], cells[-2] = cells[-2], cells[-1]
            if 0 in (cells[-1], cells[-2]):
                cells[0], cells[1] = cells[1], cells[0]
        p, index = layout.locate(cells)
        assert layout.cells_of(p, index) == cells
        assert sequence_parity([t for t in cells if t]) == layout.parity(p)
        for q in range(layout.cells):
            for source, start, right in layout.sources(q):
                if source != p:
                    continue
                states = np.zeros(layout.words, dtype=np.uint64)
                states[index // 32] = np.uint64(code(0) << (2 * (index % 32)))
                target = np.zeros(layout.words, dtype=np.uint64)
                touched = np.zeros(1, dtype=np.uint8)
                if start < 0:
                    pull_sideways(target, states, 0, frontier, fresh, touched, layout.words)
                else:
                    pull_vertical(target, states, 0, frontier, fresh, layout.radix, layout.parity(p), start, cols,
                                  right, SMALL_POPCOUNT, touched, layout.words)
                assert touched[0] == 1
                child = sequence_child(cells, p, q)
                child_cells = child[:q] + [0] + child[q:]
                assert count_code(target, fresh) == 1
                assert layout.locate(child_cells) == (q, int(np.flatnonzero(_fields(target) == code(1))[0]))


@pytest.mark.parametrize("rows, cols", [(2, 4), (3, 3)])
def test_a_whole_frontier_partition_pulled_down_equals_the_moves_one_by_one(rows, cols):
    """Every state of a partition on the frontier: the kernel's stepped digits reach the children the plain moves do."""
    layout = Layout(rows, cols)
    frontier, fresh = code_pattern(code(0)), code_pattern(code(1))
    for q in range(layout.cells):
        for p, start, right in layout.sources(q):
            if start < 0:
                continue
            states = np.zeros(layout.words, dtype=np.uint64)
            for index in range(layout.states):
                states[index // 32] |= np.uint64(code(0) << (2 * (index % 32)))
            target = np.zeros(layout.words, dtype=np.uint64)
            pull_vertical(target, states, 0, frontier, fresh, layout.radix, layout.parity(p), start, cols, right,
                          SMALL_POPCOUNT, np.zeros(1, dtype=np.uint8), layout.words)
            expected = set()
            for index in range(layout.states):
                child = sequence_child(layout.cells_of(p, index), p, q)
                expected.add(layout.locate(child[:q] + [0] + child[q:])[1])
            assert set(np.flatnonzero(_fields(target) == code(1)).tolist()) == expected


def _fields(words: np.ndarray) -> np.ndarray:
    return ((words[:, None] >> (2 * np.arange(32, dtype=np.uint64))) & np.uint64(3)).ravel()


@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (2, 5)])
def test_same_counts_as_the_one_byte_search(rows, cols, tmp_path):
    result = full_bfs(rows, cols, directory=tmp_path)
    assert result["histogram"] == one_byte_histogram(rows, cols)
    assert result["positions"] == Layout(rows, cols).positions
    assert result["hardest_count"] == result["histogram"][-1] == len(result["hardest"])
    if (rows, cols) == (2, 4):
        assert result["histogram"] == OEIS_2X4


@pytest.mark.parametrize("size", [(4, 4), (1, 6), (3, 5)])
def test_refuses_boards_it_does_not_search(size, tmp_path):
    with pytest.raises(PuzzleError, match="at most 14 cells|at least 2 rows"):
        full_bfs(*size, directory=tmp_path)


class CrashingWaves(ThreadWaves):
    """Runs the first few tasks of the ``crash_at``-th wave, then fails as a killed process would."""

    def __init__(self, crash_at: int):
        super().__init__(threading.Event(), workers=1)
        self.crash_at, self.waves = crash_at, 0

    def __call__(self, function, arguments, on_result):
        self.waves += 1
        if self.waves == self.crash_at:
            super().__call__(function, arguments[:len(arguments) // 2], on_result)
            raise RuntimeError("worker killed")
        return super().__call__(function, arguments, on_result)


@pytest.mark.parametrize("crash_at", [23, 24])  # in an expand wave and in a recode wave
def test_resumes_after_a_crash_mid_wave_with_the_same_counts(crash_at, tmp_path):
    with pytest.raises(RuntimeError):
        full_bfs(2, 4, waves=CrashingWaves(crash_at), directory=tmp_path)
    assert full_bfs(2, 4, directory=tmp_path)["histogram"] == OEIS_2X4


def cancel_at(distance: int, cancel: threading.Event):
    def progress(_fraction, info):
        if info["depth"] >= distance:
            cancel.set()
    return progress


@pytest.fixture(scope="module")
def two_workers():
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, \
            Client(cluster, set_as_default=False) as client:
        yield client


@pytest.mark.parametrize("rows, cols", [(2, 4), (3, 3)])
def test_over_two_dask_workers_cancelled_and_resumed(rows, cols, two_workers, tmp_path):
    from engine.core.result import Watch
    from engine.subjects.research.fullbfs import DaskWaves

    cancel = threading.Event()
    stopped = full_bfs(rows, cols, Watch(cancel=cancel, progress=cancel_at(12, cancel)),
                       DaskWaves(two_workers, cancel), directory=tmp_path)
    assert stopped["status"] == Status.CANCELLED and 10 <= stopped["layers_done"] < 20
    resumed = full_bfs(rows, cols, Watch(), DaskWaves(two_workers, threading.Event()), directory=tmp_path)
    assert resumed["histogram"] == one_byte_histogram(rows, cols)
    assert resumed["memory"]["peak_rss"] > 0


@pytest.mark.slow
def test_the_command_killed_mid_search_resumes_to_the_same_answer(tmp_path):
    """SIGKILL of the process doing the search, then the same command again: it goes on from the last layer."""
    import json
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    from tests.support.waiting import wait_until

    root = Path(__file__).resolve().parents[3]
    command = [sys.executable, "-m", "engine", "research", "bfs", "--size", "2x5", "--json"]
    env = {**os.environ, "PUZZLE_DATA_DIR": str(tmp_path)}
    manifest = tmp_path / "fullbfs-2x5" / "manifest.json"
    errors = tmp_path / "first.err"
    with open(errors, "w") as err:
        first = subprocess.Popen(command, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=err)
    wait_until(lambda: first.poll() is not None or len(json.loads(manifest.read_text())["histogram"]) > 25,
               timeout=300, what="25 layers", ignore=(OSError, ValueError))
    assert first.poll() is None, f"the search ended before it was killed: {errors.read_text()[-2000:]}"
    first.send_signal(signal.SIGKILL)
    first.wait()
    killed_at = len(json.loads(manifest.read_text())["histogram"])
    assert killed_at < 56  # stopped before the end
    out = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, check=True).stdout
    assert json.loads(out)["histogram"] == one_byte_histogram(2, 5)
