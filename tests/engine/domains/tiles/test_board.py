import json

import pytest

from engine.core.errors import PuzzleError
from engine.domains.tiles import Board, goal_board, parse_board, parse_goal, parse_size, parse_tiles

SEED_004 = "8 6 7/2 5 4/3 0 1"


def test_parse_forms_agree():
    text = parse_tiles(SEED_004, 3, 3)
    assert text == (8, 6, 7, 2, 5, 4, 3, 0, 1)
    assert parse_tiles("8 6 7 2 5 4 3 0 1", 3, 3) == text
    assert parse_tiles("8,6,7,2,5,4,3,0,1", 3, 3) == text
    assert parse_tiles(json.dumps(list(text)), 3, 3) == text
    assert parse_tiles([[8, 6, 7], [2, 5, 4], [3, 0, 1]], 3, 3) == text


def test_text_round_trip():
    board = parse_board("3x3", SEED_004)
    assert board.text() == SEED_004
    assert parse_board("3x3", board.text()) == board


@pytest.mark.parametrize("tiles, message", [
    ("1 2 3 4 5 6 7 8", "expected 9 numbers"),
    ("1 2 3 4 5 6 7 8 0 9", "expected 9 numbers (tiles 1..8 and 0 for the blank), got 10"),
    (" ".join(map(str, range(16))), "expected 9 numbers (tiles 1..8 and 0 for the blank), got 16"),
    ("1 2 3 4 5 6 7 9 0", "tile 9 is out of range"),
    ("1 2 3 4 5 6 7 7 0", "tile 7 appears twice; tile 8 is missing"),
    ("1 2 3 4 5 6 7 8", "the blank (0) is missing"),
    ("1 2 3 4 five 6 7 8 0", "'five' is not a tile number"),
    ("[1, 2, 3", "do not parse"),
])
def test_bad_tiles_have_clear_messages(tiles, message):
    with pytest.raises(PuzzleError) as error:
        parse_tiles(tiles, 3, 3)
    assert message in str(error.value)


@pytest.mark.parametrize("size, message", [
    ("3by3", "not of the form RxC"),
    ("1x5", "at least 2 rows"),
    ("7x7", "at most 36"),
    ("6x7", "at most 36"),
])
def test_bad_sizes(size, message):
    with pytest.raises(PuzzleError, match=message):
        parse_size(size)


def test_sizes():
    assert parse_size("3x3") == (3, 3)
    assert parse_size("2×6") == (2, 6)
    assert parse_size("6x6") == (6, 6)


def test_goal_conventions():
    assert goal_board(3, 3, "blank-last").cells == (1, 2, 3, 4, 5, 6, 7, 8, 0)
    assert goal_board(2, 3, "blank-first").cells == (0, 1, 2, 3, 4, 5)
    assert parse_goal("2 1 0/3 4 5", 2, 3).cells == (2, 1, 0, 3, 4, 5)
    with pytest.raises(PuzzleError, match="unknown goal"):
        goal_board(3, 3, "sideways")
    with pytest.raises(PuzzleError, match="goal: tile 1 appears twice"):
        parse_goal("1 1 0/3 4 5", 2, 3)


def test_moves_name_the_blank_direction():
    board = goal_board(3, 3, "blank-last")  # blank bottom-right
    assert board.legal_moves() == "UL"
    up = board.move("U")
    assert up.cells == (1, 2, 3, 4, 5, 0, 7, 8, 6)
    assert up.move("D") == board
    assert board.apply("ULDR") == board.move("U").move("L").move("D").move("R")


def test_illegal_move_reports_its_index():
    board = goal_board(3, 3, "blank-last")
    with pytest.raises(PuzzleError, match=r"move 2 \('D'\) would move the blank off the board"):
        board.apply("UDD")
    with pytest.raises(PuzzleError, match=r"move 1 \('X'\) is not one of U, D, L, R"):
        board.apply("UX")


def test_board_rejects_invalid_cells():
    with pytest.raises(PuzzleError):
        Board(2, 2, (0, 1, 2, 2))
