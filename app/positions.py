"""Reading the board a page shows from its URL (the position is in the URL so a teacher can share it)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.errors import PuzzleError
from engine.core.params import flag, integer
from engine.domains.tiles import Board, check_solvable, goal_board, parse_goal, parse_size, parse_tiles
from engine.domains.tiles.heuristics import heuristics
from engine.domains.tiles.player import position_at_distance, strongest_solver
from engine.domains.tiles.random import MAX_SCRAMBLE, random_solvable, scramble
from engine.domains.tiles.solving import solvers
from engine.search.domain_solve import generic_label

PRESETS = [("3x3", "8-puzzle (3×3)"), ("4x4", "15-puzzle (4×4)"), ("5x5", "24-puzzle (5×5)"),
           ("6x6", "35-puzzle (6×6)")] + [(f"2x{n}", f"2×{n}") for n in range(2, 13)]
GOALS = [("blank-last", "blank last: 1 2 … 0"), ("blank-first", "blank first: 0 1 2 …")]


@dataclass
class PagePosition:
    board: Board
    goal: Board
    goal_spec: str
    error: str | None = None
    solvable: bool = True

    @property
    def query(self) -> dict:
        return {"size": self.board.size_name, "goal": self.goal_spec, "tiles": ",".join(map(str, self.board.cells))}


def read_position(args) -> PagePosition:
    """The position named by query arguments. Malformed input falls back to the goal and carries a message; a
    well-formed but unsolvable position stays, marked unsolvable, so the page can explain it and refuse to solve."""
    size = args.get("size") or "3x3"
    goal_spec = args.get("goal") or "blank-last"
    try:
        rows, cols = parse_size(size)
    except PuzzleError as exc:
        rows, cols, size = 3, 3, "3x3"
        error = str(exc)
        goal = goal_board(3, 3, "blank-last")
        return PagePosition(goal, goal, "blank-last", error)
    try:
        goal = parse_goal(goal_spec, rows, cols)
    except PuzzleError as exc:
        goal, goal_spec = goal_board(rows, cols, "blank-last"), "blank-last"
        return PagePosition(goal, goal, goal_spec, str(exc))
    tiles = args.get("tiles")
    if not tiles:
        return PagePosition(goal, goal, goal_spec)
    try:
        board = Board(rows, cols, parse_tiles(tiles, rows, cols))
    except PuzzleError as exc:
        return PagePosition(goal, goal, goal_spec, f"that position is not valid: {exc}")
    verdict = check_solvable(board, goal)
    if not verdict.solvable:  # kept on the board (a student's position is theirs), with the parity argument
        return PagePosition(board, goal, goal_spec, f"This position is unsolvable. {verdict.explanation}",
                            solvable=False)
    return PagePosition(board, goal, goal_spec)


def new_position(args, goal: Board) -> Board | None:
    """A fresh position if the URL asks for one: ``random=1``, ``scramble=k`` (k random moves) or ``distance=d``
    (exactly d moves from solved, ``engine.domains.tiles.player.position_at_distance``)."""
    seed = integer(args, "seed", 0, 2**63 - 1, None)
    if flag(args, "random", False):
        return random_solvable(goal, seed)
    if args.get("distance"):
        return position_at_distance(goal, integer(args, "distance", 1, 200), seed)
    if args.get("scramble"):
        return scramble(goal, integer(args, "scramble", 0, MAX_SCRAMBLE), seed)[0]
    return None


def default_choice(board: Board, goal: Board, choices: list[dict]) -> str:
    """The choice a page selects: the strongest solver ready for the board
    (``engine.domains.tiles.player.strongest_solver``)."""
    solver, heuristic, _ = strongest_solver(board, goal)
    wanted = f"{solver}:{heuristic}"
    values = [choice["value"] for choice in choices]
    return wanted if wanted in values else (values[0] if values else "")


def solver_label(solver: str, heuristic: str | None = "") -> str:
    """A solver and its heuristic as people read them: "IDA* + manhattan" (names not in the registry stay as they
    are: the 6×6 database, which only ``near-optimal`` reads, is no search heuristic)."""
    known = heuristics()
    info = solvers().get(solver)
    label = info.label if info else generic_label(solver)
    if heuristic in known:
        label += f" + {heuristic}" + ("" if known[heuristic].admissible else " (not admissible)")
    elif heuristic:
        label += f" + {heuristic}"
    return label


def solver_choices(board: Board) -> list[dict]:
    """The solver and heuristic pairs offered for a board (what the select boxes list)."""
    return [{"value": f"{info.name}:{heuristic}", "label": solver_label(info.name, heuristic), "optimal": info.optimal}
            for info in solvers().values() if info.supports(board) for heuristic in info.heuristics_for(board)]
