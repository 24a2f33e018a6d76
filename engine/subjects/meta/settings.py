"""The parameters of a DPSO or GA run, their limits, and the one reader that checks them (requests and jobs).

Defaults are seed 001's: DPSO 250 particles, w = 1.0, c1 = 2.3, c2 = 2.0, 10,000 iterations; GA population 30,
crossover 0.8, mutation 0.01, 3 elites, 50,000 generations; 150 moves (300 bits). No numba here: the web app and the
job registry check parameters without loading the kernels.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from engine.core.errors import PuzzleError
from engine.core.params import choice, integer, number
from engine.subjects.meta.encoding import ENCODINGS


@dataclass
class DPSOParams:
    particles: int = 250
    w: float = 1.0
    c1: float = 2.3
    c2: float = 2.0
    vmax: float = 0.5  # the paper gives none; engine/subjects/meta/search.py's docstring says why 0.5
    iterations: int = 10_000
    max_moves: int = 150
    seed: int = 0
    encoding: str | None = None


@dataclass
class GAParams:
    population: int = 30
    crossover: float = 0.8
    mutation: float = 0.01
    elites: int = 3
    generations: int = 50_000
    max_moves: int = 150
    seed: int = 0
    encoding: str | None = None
    selection: str = "inverse"  # roulette weight: 1/(1 + fitness) or linear rank (engine/subjects/meta/search.py)


SELECTIONS = {"inverse": "weight 1 / (1 + fitness)", "rank": "linear ranking: weight = population − rank"}

LIMITS = {"particles": (2, 2000), "w": (0.0, 2.0), "c1": (0.0, 5.0), "c2": (0.0, 5.0), "vmax": (0.5, 20.0),
          "iterations": (1, 100_000),
          "max_moves": (1, 400), "seed": (0, 2**31 - 1), "population": (4, 2000), "crossover": (0.0, 1.0),
          "mutation": (0.0, 1.0), "elites": (0, 50), "generations": (1, 500_000)}


def params_from(kind: type, values: dict) -> DPSOParams | GAParams:
    """Build parameters from a request, each checked against ``LIMITS`` with a message naming it."""
    params = kind()
    for name in asdict(params):
        if name not in values or values[name] in (None, ""):
            continue
        if name == "encoding":
            if not isinstance(values[name], str) or values[name] not in ENCODINGS:
                raise PuzzleError(f"encoding must be one of {', '.join(ENCODINGS)}")
            params.encoding = values[name]
            continue
        if name == "selection":
            params.selection = choice(values, name, SELECTIONS)
            continue
        low, high = LIMITS[name]
        read = number if isinstance(low, float) else integer
        value = read(values, name, low, high)
        setattr(params, name, value)
    if isinstance(params, GAParams) and params.elites >= params.population:
        raise PuzzleError("elites must be fewer than the population")
    return params
