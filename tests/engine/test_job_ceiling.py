"""No job holds a worker longer than its kind's ceiling, whatever its parameters: the ceiling stops it through its
cancel and fails it with a sentence; a job that ends first, or is cancelled by its owner, ends as it would have."""

import math
import threading

import pytest

from engine.core.errors import PuzzleError
from engine.serving.jobs import job_kinds, within


def waits_for_cancel(params, report, cancel):
    """A job whose own budget is far past any ceiling: it stops only when its cancel is set."""
    stopped = cancel.wait(timeout=120)
    return {"stopped": stopped}


def test_a_job_past_its_ceiling_is_stopped_through_its_cancel_and_fails_with_a_sentence():
    with pytest.raises(PuzzleError, match="the longest a job may run"):
        within(waits_for_cancel, 0.05)({}, lambda *a: None, threading.Event())


def test_a_job_that_ends_first_or_is_cancelled_by_its_owner_keeps_its_result():
    assert within(lambda params, report, cancel: {"answer": 31}, 3600)({}, None, threading.Event()) == {"answer": 31}
    cancel = threading.Event()
    cancel.set()  # the owner's cancel, before the ceiling
    assert within(waits_for_cancel, 3600)({}, None, cancel) == {"stopped": True}


def test_every_job_kind_has_a_finite_ceiling():
    kinds = job_kinds()
    assert {"learned-curve", "meta-experiment"} <= set(kinds)
    for kind in kinds.values():
        assert 0 < kind.max_seconds < math.inf, kind.name
        assert getattr(kind.run, "ceiling", None) == kind.max_seconds, kind.name  # registered through ``within``
