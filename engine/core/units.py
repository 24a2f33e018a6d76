"""Quantities as people read them: a job's waits and runs, on its page and in what the runner says of it."""

from __future__ import annotations


def duration(seconds: float | None) -> str:
    """A time as people read it, three significant digits in the unit that fits: 4.2 µs, 12.5 ms, 3.40 s, 2 min 5 s
    (a 7,000-node solve takes milliseconds, and "0.000 s" would say it took nothing)."""
    if seconds is None:
        return "–"
    if seconds <= 0:
        return "0 s"
    for scale, unit in ((1e6, "µs"), (1e3, "ms")):
        shown = float(f"{seconds * scale:.3g}")
        if shown < 1000:
            return f"{shown:g} {unit}"
    if seconds < 59.95:
        return f"{float(f'{seconds:.3g}'):g} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s"
