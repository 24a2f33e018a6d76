"""Long work split into tasks, run with a progress report after each and a cancel check between them: the one loop
behind seed 001's experiment, the evaluation of learned tables, the training of one, and the 2×n brute force.

The tasks run on a thread pool (numba kernels release the GIL, so threads use every core) or, with ``workers=1``, one
after another in the calling thread (when every task updates the same table, or is itself parallel). Results come back
in the tasks' order. A cancel is seen between tasks: the tasks not started are dropped and the running ones finish,
so a long task polls the same ``cancel`` itself.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")


def _cancelled(cancel: threading.Event | None) -> bool:
    return cancel is not None and cancel.is_set()


def run_tasks(tasks: Iterable[Callable[[], T]], cancel: threading.Event | None = None,
              on_result: Callable[[int, T], None] | None = None, workers: int | None = None) -> list[T] | None:
    """Every task's result, in order, or None when ``cancel`` was set before the last one finished.
    ``on_result(index, result)`` runs in the calling thread after each, in order (for progress). With ``workers=1``
    ``tasks`` may be a generator, each task made when its turn comes."""
    results: list[T] = []
    if workers == 1:
        for index, task in enumerate(tasks):
            if _cancelled(cancel):
                return None
            results.append(task())
            if on_result is not None:
                on_result(index, results[-1])
        return None if _cancelled(cancel) else results
    with ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 2) as pool:
        futures = [pool.submit(task) for task in tasks]
        for index, future in enumerate(futures):
            if _cancelled(cancel):
                for pending in futures:
                    pending.cancel()
                return None
            results.append(future.result())
            if on_result is not None:
                on_result(index, results[-1])
    return None if _cancelled(cancel) else results
