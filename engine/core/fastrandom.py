"""A small seeded random generator for numba kernels (xorshift64*).

Its state lives in a one-element uint64 array owned by the caller, so a run is reproducible from its seed whatever
thread executes it (numba's own np.random state is per thread and global to it).
"""

from __future__ import annotations

import numpy as np
from numba import njit


def generator(seed: int) -> np.ndarray:
    """A fresh state from any integer seed (a splitmix scramble, so nearby seeds give unrelated streams; never 0)."""
    z = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) % 2**64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
    return np.array([z or 1], dtype=np.uint64)


@njit(cache=True, nogil=True)
def next_random(state):
    """A uniform float in [0, 1) (53 bits), advancing ``state[0]``."""
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return float((x * np.uint64(2685821657736338717)) >> np.uint64(11)) / 9007199254740992.0
