"""The one reader for request numbers: ``numbers`` reads a list the way ``number`` reads one value."""

from __future__ import annotations

import math

import pytest

from engine.core.errors import PuzzleError
from engine.core.params import numbers


def test_numbers_reads_lists_and_query_text_alike():
    assert numbers([1, 2.5, "3"], "pose", 3, -10, 10) == (1.0, 2.5, 3.0)
    assert numbers("1.62, 1.62 0 3.24", "offsets", 4, 0, 13) == (1.62, 1.62, 0.0, 3.24)


@pytest.mark.parametrize("value", [[1, 2], [1, 2, 3, 4], [1, math.nan, 2], [1, math.inf, 2], [True, 1, 2],
                                   [1, 2, 99], "1 2 x", {"x": 1}, None, [[1], 2, 3]])
def test_numbers_refuses_what_is_not_exactly_the_count_of_finite_numbers_in_range(value):
    with pytest.raises(PuzzleError, match="pose"):
        numbers(value, "pose", 3, -10, 10)
