"""Waiting for something another process does (a job starting, a worker coming back)."""

from __future__ import annotations

import time


def wait_until(predicate, timeout: float = 60.0) -> None:
    """Poll ``predicate`` until it holds; the timeout only ends a broken test, it is not what is measured."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.02)
