"""The compare page's "why" figures (app/race.py) against their textbook definitions."""

import pytest

from app.race import bar_width, effective_branching_factor, uses_log_scale


def test_the_effective_branching_factor_is_russell_and_norvigs():
    # AIMA: "if A* finds a solution at depth 5 using 52 nodes, the effective branching factor is 1.92"
    assert effective_branching_factor(52, 5) == pytest.approx(1.92, abs=0.01)
    assert effective_branching_factor(3, 3) == 1.0  # a straight path: no branching at all
    assert effective_branching_factor(0, 5) is None and effective_branching_factor(10, 0) is None


def test_a_log_scale_gives_each_factor_of_ten_the_same_length():
    values = [1, 10, 100, 1000]
    assert uses_log_scale(values) and not uses_log_scale([30, 60])
    widths = [bar_width(v, values, 400, True) for v in values]
    steps = [b - a for a, b in zip(widths, widths[1:], strict=False)]
    assert widths[-1] == pytest.approx(400) and steps == pytest.approx([steps[0]] * 3)
    assert widths[0] == pytest.approx(100)  # the scale starts a decade below the smallest value
    assert bar_width(50, [50, 100], 200, False) == 100
