"""The one background-work loop: results in the tasks' order, progress after each, a cancel seen between tasks."""

from __future__ import annotations

import threading

import pytest

from engine.serving.background import run_tasks


@pytest.mark.parametrize("workers", [1, 3])
def test_results_and_progress_come_in_the_tasks_order(workers):
    reported = []
    results = run_tasks([lambda i=i: i * i for i in range(10)], on_result=lambda index, value:
                        reported.append((index, value)), workers=workers)
    assert results == [i * i for i in range(10)]
    assert reported == [(i, i * i) for i in range(10)]


def test_a_cancel_after_the_second_task_stops_the_rest_in_order():
    cancel = threading.Event()
    ran = []

    def task(i):
        ran.append(i)
        return i

    def report(index, value):
        if index == 1:
            cancel.set()  # set between tasks, as a person's click arrives while the work runs

    assert run_tasks((lambda i=i: task(i) for i in range(100)), cancel, report, workers=1) is None
    assert ran == [0, 1]  # a generator of tasks: the third was never even made


def test_a_cancel_on_the_pool_ends_the_work_with_no_result():
    """Task 0 sets the cancel; whether the loop sees it before or after task 0's result, no later result is
    reported and the answer is None, not a partial list."""
    cancel = threading.Event()
    reported = []
    result = run_tasks([lambda: cancel.set() or 0] + [lambda i=i: i for i in range(1, 50)], cancel,
                       lambda index, value: reported.append(index), workers=2)
    assert result is None and reported in ([], [0])


def test_a_cancel_during_the_last_task_is_not_taken_for_a_full_result():
    cancel = threading.Event()
    assert run_tasks([lambda: 1, lambda: cancel.set() or 2], cancel, workers=1) is None
