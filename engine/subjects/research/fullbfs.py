"""Breadth-first search over every position of a board of up to 14 cells (2×7: 43,589,145,600 positions): the
diameter, the number of positions at each distance and the positions at the largest one. The goal is the paper's:
blank first, tiles in row-major order.

Layout. A position is the blank's cell and the tiles in reading order with the blank skipped (a sequence of
m = cells − 1 numbers). Partition q holds the positions with the blank in cell q; inside it the sequence's
lexicographic rank (``engine/domains/tiles/ranking.py``), halved: a sliding move is one transposition, so every solvable
position of a partition has the same permutation parity, (cols − 1)·(the blank's row) mod 2 (the rule of
``engine/domains/tiles/solvability.py`` for this goal), and ranks 2i and 2i + 1 have opposite parities. So partition q
is m!/2 states (2×7: 3,113,510,400) of two bits each (778 MB), a file under the data store, memory-mapped.

Moves. A horizontal move leaves the sequence as it is: the child has the same index in the neighbouring partition,
so that expansion is a word-by-word pass over two files. A vertical move carries one tile cols − 1 places along the
sequence (a rotation of cols numbers), so those children are unranked, rotated and ranked.

Codes. Two bits per state: 0 never seen, else 1 + (distance mod 3). While layer d is expanded the frontier holds
code(d), new states get code(d + 1), and every older state must hold code(d − 1): so before layer d is expanded a
recode pass turns code(d − 2) into code(d − 1) (the positions two layers back would otherwise read as new).

Tasks. Each layer is two waves of one task per partition. The expand task of partition q pulls: it reads the
frontier of q's neighbours (read-only, streamed a few MB at a time) and writes q alone, so no two tasks write one
file and none needs a lock between them; it then counts q's new states. The recode task rewrites its own partition.
A task's memory is one mapped partition plus a read buffer. The waves run on a thread pool (the CLI) or as Dask tasks
on the long-lane workers (the ``research-bfs`` job); with ``PUZZLE_SCHEDULER`` pointing at a bigger cluster every
long-lane worker takes tasks, and ``PUZZLE_DATA_DIR`` must then be a path every worker reaches (a shared file system).

Checkpoints. ``manifest.json`` beside the partitions records the histogram so far, whether the next layer's recode
is done, and the time spent. Both waves may run again after a crash with the same outcome (expanding writes only
unseen states from a frontier it does not change; recoding maps a code onto one that already means "older"), and the
manifest is written only after a wave ends and its files are flushed. Starting the same search again after a cancel,
a crash, a killed worker or server, or a reboot continues from the last finished layer. A finished search keeps its
result in the manifest and removes its partitions.
"""

from __future__ import annotations

import fcntl
import json
import math
import os
import resource
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from engine.core.errors import PuzzleError
from engine.core.machine import machine
from engine.core.result import Watch
from engine.core.status import Status
from engine.domains.tiles.ranking import lexicographic_radix
from engine.serving import store
from engine.serving.background import run_tasks
from engine.serving.lanes import lane_workers

MAX_CELLS = 14
HARDEST_SAMPLE = 50
#: Words of a neighbour partition read at a time (4 MB): a task sees a stop request within a second or two.
CHUNK_WORDS = 1 << 19
#: Words per block (128 KB, 524,288 states) in the per-block summaries that let a task skip what holds nothing.
BLOCK_WORDS = 1 << 14
MANIFEST = "manifest.json"
FORMAT = 1


def code(distance: int) -> int:
    return 1 + distance % 3


@dataclass(frozen=True)
class Layout:
    """Where each position of a rows×cols board lives: partition (the blank's cell) and index in it."""

    rows: int
    cols: int

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def states(self) -> int:
        """Positions per partition: half the orderings of the tiles."""
        return max(1, math.factorial(self.cells - 1) // 2)

    @property
    def words(self) -> int:
        return (self.states + 31) // 32

    @property
    def positions(self) -> int:
        """Positions reachable from the goal: every arrangement of the goal's parity."""
        return math.factorial(self.cells) // 2

    @cached_property
    def radix(self) -> np.ndarray:
        return lexicographic_radix(self.cells - 1, self.cells - 1)

    def parity(self, blank: int) -> int:
        return ((self.cols - 1) * (blank // self.cols)) % 2

    def sources(self, q: int) -> list[tuple[int, int, bool]]:
        """The partitions whose positions have children in q: (p, start of the rotation or -1 for a horizontal
        move, whether the rotation moves the last number to the front)."""
        row, col = divmod(q, self.cols)
        found = [(q + step, -1, False) for step, ok in ((-1, col > 0), (1, col < self.cols - 1)) if ok]
        if row > 0:  # the blank came down from q - cols: the tile below it went up
            found.append((q - self.cols, q - self.cols, True))
        if row < self.rows - 1:  # the blank came up from q + cols
            found.append((q + self.cols, q, False))
        return found

    def locate(self, cells: list[int]) -> tuple[int, int]:
        """(partition, index) of a position given as the tile of each cell."""
        from engine.domains.tiles.ranking import partial_rank

        return cells.index(0), partial_rank([t - 1 for t in cells if t], self.cells - 1) // 2

    def cells_of(self, q: int, index: int) -> list[int]:
        from engine.subjects.research.fullbfs_kernels import unrank_half

        perm = np.empty(self.cells - 1, dtype=np.int64)
        unrank_half(index, self.parity(q), self.radix, perm)
        tiles = [int(t) + 1 for t in perm]
        return tiles[:q] + [0] + tiles[q:]


def check_size(rows: int, cols: int) -> None:
    if rows < 2 or cols < 2:
        raise PuzzleError("a full breadth-first search needs at least 2 rows and 2 columns")
    if rows * cols > MAX_CELLS:
        raise PuzzleError(f"a full breadth-first search is offered for at most {MAX_CELLS} cells "
                          f"({rows}x{cols} has {rows * cols}: {math.factorial(rows * cols) // 2:,} positions)")


def run_directory(rows: int, cols: int) -> Path:
    return store.data_dir() / f"fullbfs-{rows}x{cols}"


def partition_path(directory: Path, q: int) -> Path:
    return Path(directory) / f"blank-{q:02d}.2bit"


def task_bytes(layout: Layout) -> int:
    """The memory one task needs: its partition mapped and one read buffer."""
    return layout.words * 8 + CHUNK_WORDS * 8


# ---- the tasks (run on a thread or a Dask worker) -------------------------------------------------------------


@contextmanager
def _partition(directory: Path, q: int, words: int):
    """Partition q mapped for writing, with an exclusive lock: a task left running by a killed search cannot write
    the same file as the search that resumes."""
    path = partition_path(directory, q)
    with open(path, "r+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        target = np.memmap(handle, dtype=np.uint64, mode="r+", shape=(words,))
        try:
            yield target
            target.flush()  # a layer is only recorded once its states are on disk
        finally:
            del target


def _peak_rss() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _blocks(layout: Layout) -> int:
    return (layout.words + BLOCK_WORDS - 1) // BLOCK_WORDS


def _summary_path(directory: Path, q: int, name: str) -> Path:
    return Path(directory) / f"blank-{q:02d}-{name}.int64"


def _read_summary(directory: Path, q: int, name: str, layout: Layout) -> np.ndarray:
    """A partition's per-block figures (states at one distance, or whether any state was seen); a missing file
    reads as "every block may hold some", which is never wrong, only slower. Raw int64 (no header to parse: numpy's
    header parser is not safe in several threads at once on Python 3.11)."""
    try:
        values = np.fromfile(_summary_path(directory, q, name), dtype=np.int64)
    except OSError:
        values = None
    if values is None or values.size != _blocks(layout):
        return np.ones(_blocks(layout), dtype=np.int64)
    return values


def _write_summary(directory: Path, q: int, name: str, values: np.ndarray) -> None:
    fd, tmp = tempfile.mkstemp(dir=directory, suffix=".tmp")
    with os.fdopen(fd, "wb") as out:
        out.write(np.ascontiguousarray(values, dtype=np.int64).tobytes())
    os.replace(tmp, _summary_path(directory, q, name))


def _runs(mask: np.ndarray, longest: int) -> list[tuple[int, int]]:
    """The runs of consecutive true entries of ``mask`` as [begin, end) pairs, none longer than ``longest``."""
    edges = np.flatnonzero(np.diff(np.concatenate(([0], mask.astype(np.int8), [0]))))
    return [(b, min(b + longest, end)) for begin, end in zip(edges[::2], edges[1::2], strict=True)
            for b in range(int(begin), int(end), longest)]


def expand_partition(directory: str, rows: int, cols: int, distance: int, q: int,
                     stop: Callable[[], bool] | None = None) -> dict | None:
    """Pull layer ``distance`` of q's neighbours into q; returns q's count at distance + 1 (None if stopped). Only
    the blocks of a neighbour that hold frontier states are read (each partition records its states per block of
    every layer), and only the blocks of q that children reached are counted."""
    from engine.subjects.research import fullbfs_kernels as kernels

    layout, directory = Layout(rows, cols), Path(directory)
    frontier, fresh = kernels.code_pattern(code(distance)), kernels.code_pattern(code(distance + 1))
    buffer = np.empty(min(CHUNK_WORDS, layout.words), dtype=np.uint64)
    touched = np.zeros(_blocks(layout), dtype=np.uint8)
    per_read = CHUNK_WORDS // BLOCK_WORDS
    with _partition(directory, q, layout.words) as target:
        for p, start, right in layout.sources(q):
            occupied = _read_summary(directory, p, f"layer-{distance}", layout) > 0
            with open(partition_path(directory, p), "rb") as source:
                for begin, end in _runs(occupied, per_read):
                    if stop is not None and stop():
                        return None
                    first = begin * BLOCK_WORDS
                    chunk = buffer[:min(end * BLOCK_WORDS, layout.words) - first]
                    source.seek(first * 8)
                    source.readinto(memoryview(chunk).cast("B"))
                    if start < 0:
                        kernels.pull_sideways(target, chunk, first, frontier, fresh, touched, BLOCK_WORDS)
                    else:
                        kernels.pull_vertical(target, chunk, first, frontier, fresh, layout.radix, layout.parity(p),
                                              start, cols, right, kernels.SMALL_POPCOUNT, touched, BLOCK_WORDS)
        counts = np.zeros(touched.size, dtype=np.int64)
        kernels.count_blocks(target, fresh, touched, BLOCK_WORDS, counts)
    _write_summary(directory, q, f"layer-{distance + 1}", counts)
    seen = _read_summary(directory, q, "seen", layout)
    _write_summary(directory, q, "seen", ((seen > 0) | (counts > 0)).astype(np.int64))
    _summary_path(directory, q, f"layer-{distance - 1}").unlink(missing_ok=True)  # no task reads it any more
    return {"count": int(counts.sum()), "rss": _peak_rss()}


def recode_partition(directory: str, rows: int, cols: int, distance: int, q: int,
                     stop: Callable[[], bool] | None = None) -> dict | None:
    """Before layer ``distance`` is expanded: code(distance − 2) becomes code(distance − 1) in the blocks of
    partition q that hold any state."""
    from engine.subjects.research.fullbfs_kernels import code_pattern, recode

    layout, directory = Layout(rows, cols), Path(directory)
    if stop is not None and stop():
        return None
    seen = _read_summary(directory, q, "seen", layout) > 0
    with _partition(directory, q, layout.words) as target:
        for begin, end in _runs(seen, _blocks(layout)):
            recode(target[begin * BLOCK_WORDS:end * BLOCK_WORDS], code_pattern(code(distance - 2)),
                   code_pattern(code(distance - 1)))
    return {"rss": _peak_rss()}


# ---- where the waves run ----------------------------------------------------------------------------------------

Wave = Callable[[Callable, list[tuple], Callable[[int, dict], None]], list | None]


class ThreadWaves:
    """Each wave on a pool of threads in this process (the kernels release the GIL)."""

    def __init__(self, cancel: threading.Event | None, workers: int | None = None):
        self.cancel = cancel or threading.Event()
        self.workers = workers or os.cpu_count() or 2

    def __call__(self, function, arguments, on_result):
        tasks = [lambda a=a: function(*a, stop=self.cancel.is_set) for a in arguments]
        results = run_tasks(tasks, self.cancel, on_result, self.workers)
        return None if results is None or any(r is None for r in results) else results


def _on_worker(function, arguments: tuple, stop_event: str):
    from distributed import Event

    event = Event(stop_event)
    return function(*arguments, stop=event.is_set)


class DaskWaves:
    """Each wave as one Dask task per partition on the long-lane workers. The search's own task (a job) secedes
    while it waits, so its worker takes partition tasks too; tasks are pinned to the long lane by address, since a
    seceded job still holds its lane's resource."""

    def __init__(self, client, cancel: threading.Event | None):
        self.client = client
        self.cancel = cancel or threading.Event()
        self.stop_event = f"fullbfs-stop-{uuid.uuid4().hex}"

    def __call__(self, function, arguments, on_result):
        from distributed import Event

        run = uuid.uuid4().hex[:8]
        workers = lane_workers(self.client, "long")  # asked each wave: a worker that died comes back at a new address
        futures = {self.client.submit(_on_worker, function, a, self.stop_event, workers=workers, pure=False,
                                      key=f"{function.__name__}-{a[3]}-{a[4]}-{run}"): i
                   for i, a in enumerate(arguments)}
        results: list = [None] * len(arguments)
        pending = set(futures)
        while pending:
            if self.cancel.is_set():
                Event(self.stop_event, client=self.client).set()
                self.client.cancel(list(pending))
                return None
            done = {future for future in pending if future.done()}
            if not done:
                time.sleep(0.05)
                continue
            pending -= done
            for future in done:
                results[futures[future]] = future.result()  # a failed task (a killed worker) fails the search
                on_result(futures[future], results[futures[future]])
        return None if any(r is None for r in results) else results


# ---- the search ---------------------------------------------------------------------------------------------------


def _write_json(path: Path, data: dict) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "w") as out:
        json.dump(data, out)
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, path)


def _open_run(directory: Path, layout: Layout) -> dict:
    """The manifest of the search in ``directory``, starting one (the goal alone at distance 0) if there is none."""
    path = directory / MANIFEST
    identity = {"format": FORMAT, "rows": layout.rows, "cols": layout.cols, "goal": "blank-first"}
    if path.exists():
        manifest = json.loads(path.read_text())
        if {k: manifest.get(k) for k in identity} != identity:
            raise PuzzleError(f"{directory} holds another search; remove it to start this one")
        return manifest
    for q in range(layout.cells):
        with open(partition_path(directory, q), "wb") as handle:
            handle.truncate(layout.words * 8)  # sparse: never-seen states are zero and cost no disk until written
    with _partition(directory, 0, layout.words) as target:
        target[0] = np.uint64(code(0))  # the goal: blank in cell 0, tiles in order (rank 0)
    goal_block = np.zeros(_blocks(layout), dtype=np.int64)
    goal_block[0] = 1
    for q in range(layout.cells):
        _write_summary(directory, q, "layer-0", goal_block if q == 0 else 0 * goal_block)
        _write_summary(directory, q, "seen", goal_block if q == 0 else 0 * goal_block)
    manifest = {**identity, "histogram": [1], "recoded": True, "seconds": 0.0, "layer_seconds": [],
                "peak_rss": 0, "machine": machine()}
    _write_json(path, manifest)
    return manifest


@contextmanager
def _only_search(directory: Path):
    with open(directory / "lock", "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise PuzzleError("this board's breadth-first search is already running: wait for it, or cancel it") \
                from None
        yield


def _eta_text(layout: Layout, manifest: dict, expanded_before: int, began: float) -> str:
    """The time left if the positions not yet expanded go at the faster of two rates: this run's so far and the
    last layer's (the layers grow, and a big layer spreads its fixed cost of scanning the partitions thinner)."""
    histogram = manifest["histogram"]
    expanded = sum(histogram[:-1]) - expanded_before
    if expanded <= 0:
        return ""
    rate = expanded / max(1e-9, time.monotonic() - began)
    if len(histogram) > 1 and manifest["layer_seconds"]:
        rate = max(rate, histogram[-2] / max(1e-9, manifest["layer_seconds"][-1]))
    seconds = (layout.positions - sum(histogram[:-1])) / rate
    left = f"{seconds / 3600:.1f} h" if seconds >= 5400 else f"{seconds / 60:.0f} min" if seconds >= 90 else \
        f"{seconds:.0f} s"
    return f", about {left} left"


def full_bfs(rows: int, cols: int, watch: Watch | None = None, waves: Wave | None = None,
             directory: str | os.PathLike | None = None) -> dict:
    """Diameter, distance histogram and hardest positions of the rows×cols puzzle, resumed from ``directory`` (by
    default the data store's ``fullbfs-RxC``) if a search of it stopped there. ``waves`` runs the tasks (threads in
    this process unless given)."""
    check_size(rows, cols)
    watch = watch or Watch()
    layout = Layout(rows, cols)
    directory = Path(directory) if directory else run_directory(rows, cols)
    directory.mkdir(parents=True, exist_ok=True)
    waves = waves or ThreadWaves(watch.cancel)
    with _only_search(directory):
        manifest = _open_run(directory, layout)
        if "result" in manifest:
            return manifest["result"]
        histogram = manifest["histogram"]
        began, seconds_before = time.monotonic(), manifest["seconds"]
        expanded_before = sum(histogram[:-1])

        def save() -> None:
            manifest["seconds"] = seconds_before + time.monotonic() - began
            _write_json(directory / MANIFEST, manifest)

        def progress(done: list[int]):
            def on_result(_index: int, result: dict) -> None:
                done.append(result.get("count", 0))
                manifest["peak_rss"] = max(manifest["peak_rss"], result["rss"])
                distance, reached = len(histogram), sum(histogram) + sum(done)
                eta = _eta_text(layout, manifest, expanded_before, began)
                watch.report(min(1.0, reached / layout.positions), {
                    "nodes": reached, "depth": distance, "text": f"distance {distance}: partition {len(done)} of "
                    f"{layout.cells}, {reached:,} of {layout.positions:,} positions{eta}"})
            return on_result

        while histogram[-1] > 0:
            distance = len(histogram) - 1
            arguments = [(str(directory), rows, cols, distance, q) for q in range(layout.cells)]
            if not manifest["recoded"]:
                if distance >= 2 and waves(recode_partition, arguments, progress([])) is None:
                    return _cancelled(layout, manifest)
                manifest["recoded"] = True
                save()
            started = time.monotonic()
            results = waves(expand_partition, arguments, progress([]))
            if results is None:
                save()
                return _cancelled(layout, manifest)
            histogram.append(sum(r["count"] for r in results))
            manifest["recoded"] = False
            manifest["layer_seconds"].append(round(time.monotonic() - started, 3))
            save()
        manifest["result"] = _finish(directory, layout, manifest)
        save()
        manifest["result"]["seconds"] = manifest["seconds"]
        _write_json(directory / MANIFEST, manifest)
        for leftover in directory.glob("blank-*"):
            leftover.unlink()
        return manifest["result"]


def _cancelled(layout: Layout, manifest: dict) -> dict:
    return {"status": Status.CANCELLED, "rows": layout.rows, "cols": layout.cols,
            "layers_done": len(manifest["histogram"]) - 1, "positions": sum(manifest["histogram"])}


def _finish(directory: Path, layout: Layout, manifest: dict) -> dict:
    from engine.subjects.research.fullbfs_kernels import code_pattern, count_code, first_with_code

    histogram = manifest["histogram"][:-1]
    diameter = len(histogram) - 1
    pattern = code_pattern(code(diameter))
    hardest: list[list[int]] = []
    count = 0
    for q in range(layout.cells):
        with _partition(directory, q, layout.words) as target:
            count += int(count_code(target, pattern))
            out = np.empty(HARDEST_SAMPLE - len(hardest), dtype=np.int64)
            found = first_with_code(target, pattern, out) if out.size else 0
        hardest.extend(layout.cells_of(q, int(index)) for index in out[:found])
    return {"status": Status.DONE, "rows": layout.rows, "cols": layout.cols,
            "goal": list(range(layout.cells)), "diameter": diameter, "histogram": histogram,
            "positions": sum(histogram), "hardest_count": count, "hardest": hardest,
            "seconds": manifest["seconds"], "layer_seconds": manifest["layer_seconds"],
            "memory": {"two_bit_files": layout.words * 8 * layout.cells, "per_task": task_bytes(layout),
                       "peak_rss": manifest["peak_rss"]},
            "machine": manifest["machine"]}


def stored_search(rows: int, cols: int) -> dict | None:
    """What the data store holds of this board's search: its manifest (the histogram so far, the time spent, and
    ``result`` once finished), or None. Read without the lock: a running search rewrites it atomically."""
    try:
        return json.loads((run_directory(rows, cols) / MANIFEST).read_text())
    except (OSError, ValueError):
        return None
