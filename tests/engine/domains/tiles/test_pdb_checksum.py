"""A pattern database proves itself before it is read: one altered in place, or truncated, is refused (and deleted
so that it is built again), and so is one without its checksum; the solve falls back and says why; no answer longer
than the optimum is called optimal."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from engine.domains.tiles import goal_board, pdb, pdb_catalogue, scramble
from engine.domains.tiles.solving import solve_board
from engine.serving import store

FIRST = goal_board(4, 4, "blank-first")


#: The progress lines the module's build reported.
BUILD_LINES: list[str] = []


@pytest.fixture(scope="module")
def built_663(tmp_path_factory):
    """A data folder holding a 6-6-3 database built for this module (seconds to build), copied by each test."""
    folder = tmp_path_factory.mktemp("built-663")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(store, "_data_dir", folder)
        pdb_catalogue.build(["pdb-663/blank-first"], lambda fraction, info: BUILD_LINES.append(info["text"]))
        pdb.forget("pdb-663", FIRST)
    return folder


def test_a_builds_progress_names_its_database_once(built_663):
    assert BUILD_LINES and all(line.startswith("pdb-663: ") for line in BUILD_LINES)
    assert not [line for line in BUILD_LINES if line.startswith("pdb-663: pdb-663")]
    assert any("group of 6 tiles: level" in line for line in BUILD_LINES)


@pytest.fixture
def own_663(built_663, tmp_path, monkeypatch):
    """The module's 6-6-3 database copied into a data folder of this test's own, which nobody else reads."""
    shutil.copytree(built_663, tmp_path, dirs_exist_ok=True)
    monkeypatch.setattr(store, "_data_dir", tmp_path)
    name = pdb.artefact("pdb-663", FIRST)
    yield name
    pdb.forget("pdb-663", FIRST)


def test_a_database_altered_in_place_is_refused_and_never_read(own_663):
    board, _ = scramble(FIRST, 40, 11)
    optimum = solve_board(board, FIRST, "idastar", "manhattan").length  # another admissible heuristic: the optimum
    before = solve_board(board, FIRST, "idastar", "pdb-663")  # the database is mapped and kept by this process
    assert before.heuristic == "pdb-663" and before.length == optimum and before.optimal
    tables = np.load(store.path_of(own_663), mmap_mode="r+")
    tables[::50] += 6  # one entry in 50 raised by 6: inadmissible, as a damaged disk might leave it
    tables.flush()
    del tables
    after = solve_board(board, FIRST, "idastar", "pdb-663")
    assert not (after.optimal and after.length > optimum)
    assert after.heuristic == "linear-conflict" and after.length == optimum and after.optimal
    assert "failed its check" in after.message and "checksum does not match" in after.message
    assert not store.exists(own_663) and pdb_catalogue.missing(["pdb-663/blank-first"])  # built again next


def test_a_truncated_database_falls_back_with_a_message_that_says_so(own_663):
    path = store.path_of(own_663)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    board, _ = scramble(FIRST, 20, 3)
    result = solve_board(board, FIRST, "idastar", "pdb")
    assert result.status == "solved" and result.heuristic == "linear-conflict"
    assert "truncated" in result.message and "no pattern database is built yet" not in result.message


def test_a_database_altered_with_its_checksum_removed_is_unproven_and_never_read(own_663):
    board, _ = scramble(FIRST, 40, 11)
    optimum = solve_board(board, FIRST, "idastar", "manhattan").length  # another admissible heuristic: the optimum
    tables = np.load(store.path_of(own_663), mmap_mode="r+")
    tables[::3] += 6  # a third of the entries raised: inadmissible
    tables.flush()
    del tables
    store.checksum_path(store.path_of(own_663)).unlink()  # and nothing left to show it
    after = solve_board(board, FIRST, "idastar", "pdb-663")
    assert not (after.optimal and after.length > optimum)
    assert after.heuristic == "linear-conflict" and after.length == optimum and after.optimal
    assert "no checksum" in after.message
    assert not store.exists(own_663) and pdb_catalogue.missing(["pdb-663/blank-first"])  # built again next
