"""``grid``: shortest paths on a grid map in Moving AI's formats, by the compiled A*.

    python -m engine grid --map arena.map --scen arena.map.scen --json
    python -m engine grid --map arena.map --start 19 26 --goal 19 29

Prints each scenario's start and goal ([x, y], x the column) and the cost found, beside the cost the ``.scen`` file
lists; the text form ends with how many agree to 1e-6.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.cli.output import emit
from engine.core.errors import PuzzleError
from engine.domains.grid.model import HEURISTICS

MAX_FILE_BYTES = 64 << 20
AGREE = 1e-6


def _read(path: str) -> str:
    file = Path(path)
    if not file.is_file():
        raise PuzzleError(f"no such file: {path}")
    if file.stat().st_size > MAX_FILE_BYTES:
        raise PuzzleError(f"{path} is larger than {MAX_FILE_BYTES >> 20} MB")
    return file.read_text(encoding="latin-1")


def cmd_grid(args: argparse.Namespace) -> int:
    from engine.core.result import Budget
    from engine.domains.grid import GridDomain, read_map, read_scenarios
    from engine.domains.grid.model import Scenario, check_heuristic
    from engine.search.compiled import compiled_astar

    grid = read_map(_read(args.map))
    check_heuristic(args.heuristic, grid.connect)
    if args.scen:
        scenarios = read_scenarios(_read(args.scen))
    elif args.start and args.goal:
        scenarios = [Scenario(tuple(args.start), tuple(args.goal), float("nan"))]
    else:
        raise PuzzleError("give --scen FILE, or --start X Y and --goal X Y")
    answers = []
    for scenario in scenarios:
        result = compiled_astar(GridDomain(grid, scenario.start, scenario.goal, args.heuristic),
                                Budget(max_seconds=args.max_seconds))
        answers.append({"start": list(scenario.start), "goal": list(scenario.goal),
                        "cost": result.extra.get("cost"), "listed": scenario.listed if args.scen else None,
                        "status": result.status, "expanded": result.nodes_expanded,
                        "seconds": round(result.seconds, 6)})
    agree = sum(a["cost"] is not None and a["listed"] is not None and abs(a["cost"] - a["listed"]) <= AGREE
                for a in answers)
    lines = [f"{a['start']} → {a['goal']}: {a['status']}, cost {a['cost']}"
             + (f" (listed {a['listed']})" if a["listed"] is not None else "") for a in answers]
    if args.scen:
        lines.append(f"{agree} of {len(answers)} costs agree with the file to {AGREE:g}")
    emit({"map": {"width": grid.width, "height": grid.height}, "heuristic": args.heuristic, "scenarios": answers,
          "agree": agree}, args.json, "\n".join(lines))
    return 0


def add_commands(sub) -> None:
    p = sub.add_parser("grid", help="shortest paths on a Moving AI grid map (.map, .scen) by the compiled A*")
    p.add_argument("--map", required=True, help="a Moving AI .map file (type octile)")
    p.add_argument("--scen", help="a Moving AI .scen file (version 1): solve every scenario")
    p.add_argument("--start", type=int, nargs=2, metavar=("X", "Y"))
    p.add_argument("--goal", type=int, nargs=2, metavar=("X", "Y"))
    p.add_argument("--heuristic", default="octile", choices=HEURISTICS[8])  # a Moving AI map is 8-connected
    p.add_argument("--max-seconds", type=float, default=60.0, help="budget per scenario")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_grid)
