"""Waiting for something another process does (a job starting, a worker coming back, a server answering)."""

from __future__ import annotations

import time


def wait_until(predicate, timeout: float = 60.0, what: str = "the condition", ignore: tuple = ()):
    """Poll ``predicate`` until it returns something true, and return that; exceptions of the types in ``ignore``
    count as not yet. The timeout only ends a broken test, it is not what is measured."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = predicate()
        except ignore:
            value = None
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)
