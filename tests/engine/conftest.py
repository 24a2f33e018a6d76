"""Fixtures the engine's packages share."""

import pytest

from engine.domains.tiles import goal_board, pdb, pdb_catalogue


@pytest.fixture(scope="session")
def db663():
    """The 6-6-3 database for blank-first, built once in the run's data directory (seconds)."""
    pdb_catalogue.build(["pdb-663/blank-first"])
    return pdb.load("pdb-663", goal_board(4, 4, "blank-first"))
