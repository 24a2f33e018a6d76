"""The figures a race of solvers (the compare page) shows to say why one wins: the effective branching factor and bar
widths on a log scale when the values span orders of magnitude."""

from __future__ import annotations

import math

LOG_SPREAD = 100  # a chart whose largest value is this many times its smallest positive one is drawn on a log scale


def effective_branching_factor(expanded: int | None, depth: int | None) -> float | None:
    """b* with N + 1 = 1 + b* + b*² + … + b*^d (Russell and Norvig): the branching a uniform tree of the answer's depth
    would need to hold the N nodes expanded. None without a depth or a node."""
    if not expanded or not depth:
        return None

    def nodes(b: float) -> float:
        return float(depth) if b == 1 else (b ** (depth + 1) - b) / (b - 1)

    low, high = 1.0, max(2.0, float(expanded))
    if nodes(low) >= expanded:
        return 1.0
    for _ in range(100):  # bisection: nodes(b) grows with b
        middle = (low + high) / 2
        low, high = (middle, high) if nodes(middle) < expanded else (low, middle)
    return round((low + high) / 2, 2)


def uses_log_scale(values) -> bool:
    positive = [v for v in values if v]
    return bool(positive) and max(positive) >= LOG_SPREAD * min(positive)


def bar_width(value, values, width: float, log: bool) -> float:
    """A bar's length for value among a chart's values: linear from 0, or on a log scale whose left end is a tenth of
    the smallest positive value (so the smallest bar is still a tenth of an order of magnitude long)."""
    positive = [v for v in values if v]
    if not value or not positive:
        return 0.0
    top = max(positive)
    if not log:
        return width * value / top
    low = min(positive) / 10
    return width * math.log10(value / low) / math.log10(top / low)
