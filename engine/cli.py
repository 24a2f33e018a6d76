"""Command line: ``python -m engine solve|scramble|random|check|research|learned|tables|jobs ...``. Errors go to
stderr, exit status 2.

Building the parser loads the registry (solver names, heuristics) but no kernel; a command imports the computations
it runs when it runs, so ``check``, ``scramble``, ``random``, ``jobs``, ``tables list`` and ``--help`` never import
numba (tests/engine/test_architecture.py holds that).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from engine.errors import PuzzleError
from engine.result import Budget, Watch
from engine.solvers import solve, solvers
from engine.status import Status
from engine.tiles.board import Board, parse_goal, parse_size, parse_tiles
from engine.tiles.heuristics import heuristics
from engine.tiles.random import random_solvable, scramble
from engine.tiles.solvability import check_solvable


def _board_args(parser: argparse.ArgumentParser, tiles: bool = True) -> None:
    parser.add_argument("--size", default="3x3", help="rows x columns, e.g. 3x3, 4x4, 2x5 (default 3x3)")
    parser.add_argument("--goal", default="blank-last",
                        help='blank-first, blank-last (default) or the goal\'s tiles, e.g. "1 2 3/4 5 6/7 8 0"')
    if tiles:
        parser.add_argument("tiles", help='the position, row by row: "8 6 7/2 5 4/3 0 1" or "8 6 7 2 5 4 3 0 1"')


def _read(args: argparse.Namespace) -> tuple[Board, Board]:
    rows, cols = parse_size(args.size)
    goal = parse_goal(args.goal, rows, cols)
    board = Board(rows, cols, parse_tiles(args.tiles, rows, cols)) if hasattr(args, "tiles") else goal
    return board, goal


def _emit(data: dict, as_json: bool, text: str) -> None:
    print(json.dumps(data) if as_json else text)


def cmd_solve(args: argparse.Namespace) -> int:
    board, goal = _read(args)
    params = {}
    for item in args.param:
        key, sep, value = item.partition("=")
        if not sep:
            raise PuzzleError(f"--param takes name=value, e.g. --param iterations=500 (got {item!r})")
        params[key.strip()] = value.strip()
    result = solve(board, goal, args.solver, args.heuristic, Budget(args.max_nodes, args.max_seconds), params=params)
    data = {"size": board.size_name, "tiles": list(board.cells), "goal": list(goal.cells), **result.to_dict()}
    text = "\n".join([
        f"status:    {result.status}" + (f" ({result.message})" if result.message else ""),
        f"moves:     {result.moves}",
        f"length:    {data['length']}   optimal: {'proven' if result.optimal else 'not proven'}",
        f"expanded:  {result.nodes_expanded:,}   generated: {result.nodes_generated:,}   "
        f"peak frontier/depth: {result.peak_frontier:,}",
        f"seconds:   {result.seconds:.4f} searching, {result.load_seconds:.4f} loading kernels before   "
        f"solver: {result.solver}   heuristic: {result.heuristic or '-'}",
    ])
    _emit(data, args.json, text)
    return 0 if result.status in (Status.SOLVED, Status.UNSOLVABLE) else 1


def cmd_scramble(args: argparse.Namespace) -> int:
    _, goal = _read(args)
    board, moves = scramble(goal, args.moves, args.seed)
    _emit({"size": goal.size_name, "tiles": list(board.cells), "scramble": moves}, args.json,
          f"{board.text()}\nscramble: {moves}")
    return 0


def cmd_random(args: argparse.Namespace) -> int:
    _, goal = _read(args)
    board = random_solvable(goal, args.seed)
    _emit({"size": goal.size_name, "tiles": list(board.cells)}, args.json, board.text())
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    board, goal = _read(args)
    verdict = check_solvable(board, goal)
    _emit({"solvable": verdict.solvable, "permutation_parity": verdict.permutation_parity,
           "blank_distance": verdict.blank_distance, "explanation": verdict.explanation}, args.json,
          f"{'solvable' if verdict.solvable else 'unsolvable'}\n{verdict.explanation}")
    return 0


def _progress_to_stderr(fraction: float | None, info: dict) -> None:
    """Long research runs print one progress line on stderr, rewritten in place, so stdout stays clean for --json."""
    share = f"{fraction:6.1%} " if fraction is not None else ""
    print(f"\r{share}{info.get('text', '')}"[:120].ljust(120), end="", file=sys.stderr, flush=True)


def _layers_to_stderr():
    """Progress for a log file: one line per layer, with the time."""
    last = [None]

    def report(_fraction: float | None, info: dict) -> None:
        if info.get("depth") != last[0]:
            last[0] = info.get("depth")
            print(time.strftime("%Y-%m-%d %H:%M:%S"), info.get("text", ""), file=sys.stderr, flush=True)
    return report


def cmd_research(args: argparse.Namespace) -> int:
    """Seed 000's computations, the same functions the Research page runs as jobs."""
    from engine.bounds.fullbfs import full_bfs
    from engine.bounds.maxmd import max_md_brute, max_md_exact
    from engine.bounds.subproblem import solve_subproblem
    from engine.bounds.table import bounds_table

    live = sys.stderr.isatty()  # a progress line helps a person at a terminal, and is noise in a log file
    watch = Watch(progress=_progress_to_stderr if live else None)
    if args.what == "bfs":
        from engine.bounds.fullbfs import ThreadWaves

        rows, cols = parse_size(args.size)
        if args.workers is not None and not 1 <= args.workers <= 256:
            raise PuzzleError("--workers must be from 1 to 256")
        data = full_bfs(rows, cols, Watch(progress=_progress_to_stderr if live else _layers_to_stderr()),
                        ThreadWaves(None, args.workers))
        text = (f"{rows}x{cols}: diameter {data['diameter']}, {data['positions']:,} positions, "
                f"{data['hardest_count']:,} at the diameter, e.g. {data['hardest'][0]}\n"
                f"positions per distance: {data['histogram']}\n"
                f"{data['seconds']:.0f} s, peak memory {data['memory']['peak_rss'] / 2**30:.2f} GB, "
                f"{data['memory']['two_bit_files'] / 2**30:.2f} GB of partitions, on {data['machine']}")
    elif args.what == "maxmd":
        data = max_md_brute(args.n) if args.brute else max_md_exact(args.n)
        text = (f"2x{args.n}: largest Manhattan distance of a solvable position {data['max_md']}, "
                f"e.g. {data['position']}")
    elif args.what == "subproblem":
        data = solve_subproblem(args.n, args.k, watch, blank_home=not args.blank_anywhere)
        text = (f"f_{args.k}({args.n}) = {data['f']} over {data['states']:,} states; "
                f"hardest {data['hardest']} solved by blank path {data['blank_path']}")
    else:
        data = bounds_table(args.n_max, progress=_progress_to_stderr if live else None)
        lines = ["n  formula  maxMD  exact  paperUB  ourUB(k)"]
        for row in data["rows"]:
            lines.append(f"{row['n']:<3}{row['lower_formula']:>7}{row['max_md']:>7}{row['exact'] or '':>7}"
                         f"{row['paper_upper'] or '':>9}{row['upper']:>7}({row['upper_k']})"
                         + "".join(f"\n   ! {flag}" for flag in row["flags"]))
        text = "\n".join(lines)
    if live:
        print(file=sys.stderr)
    _emit(data, args.json, text)
    return 0


def _evaluation_summary(result: dict, count: int) -> dict:
    """The evaluation's headline fields (issue 17): fractions against Manhattan distance over the positions both
    finished, V's optimal share, and the per-group rows of the paper's Figure 3."""
    overall = result["overall"]
    return {"table": result["table"], "positions": count, "positions_from": result.get("positions_from", "uniform"),
            "node_reduction": overall["node_reduction"],
            "time_reduction": overall["time_reduction"], "optimal_share": overall["optimal_share"],
            "mean_excess": overall["learned_mean_excess"], "both_finished": overall["both_finished"],
            "groups": result["groups"], "overall": overall}


def cmd_learned(args: argparse.Namespace) -> int:
    """Seed 002: train a table, evaluate one against Manhattan distance, or the whole M curve."""
    from engine.learned.catalogue import check_params, table_for
    from engine.learned.curve import CURVE_WALKS, baseline, m_curve, point
    from engine.learned.train import train
    from engine.result import Budget
    from engine.tiles import goal_board

    goal = goal_board(4, 4, "blank-first")
    live = sys.stderr.isatty()
    progress = _progress_to_stderr if live else None
    if args.what == "train":
        params = check_params({"walks": args.walks, "length": args.steps, "seed": args.seed,
                               "value_rule": args.value_rule, "allow_undo": args.allow_undo})
        learned = train(goal, params, progress)
        data = {"table": learned.name, **learned.info}
        data.pop("value_histogram"), data.pop("steps_histogram")
        text = (f"{learned.name}: M = {params.walks:,}, N = {params.length}, {params.value_rule}, fill "
                f"{learned.info['fill']:.2%}, trained in {learned.info['seconds']:.1f} s "
                f"({learned.info.get('cpu_seconds', '?')} CPU s)")
    elif args.what == "evaluate":
        if args.table is None and args.walks is not None:
            matching = [t for t in _trained(goal) if t["params"]["walks"] == args.walks]
            if not matching:
                raise PuzzleError(f"no table trained with {args.walks:,} walks: run `learned train --walks "
                                  f"{args.walks}` first")
            args.table = matching[0]["name"]
        table = table_for(goal, args.table).name
        budget = Budget(args.max_nodes, args.max_seconds)
        rows = baseline(args.positions, args.seed, budget, progress, positions_from=args.positions_from)
        data = _evaluation_summary(point(table, rows, args.seed, budget, progress, positions_from=args.positions_from),
                                   args.positions)
        text = _evaluation_text(data)
    else:
        from engine.learned.curve import record_name, recordable_curve
        from engine.records import Measurement

        measurement = Measurement()
        walks = tuple(int(w) for w in args.walks_list.split(",")) if args.walks_list else CURVE_WALKS
        data = m_curve(walks, args.positions, args.seed, Budget(args.max_nodes, args.max_seconds), args.train_seed,
                       progress, positions_from=args.positions_from)
        if args.record and data["status"] == Status.DONE:
            recorded_path = measurement.write("learned", record_name(args.positions_from), recordable_curve(data))
        data["points"] = [{**p, **_evaluation_summary(p, args.positions)} for p in data["points"]]
        text = "\n\n".join(f"M = {p['walks']:,}: " + _evaluation_text(p) for p in data["points"])
        if args.record and data["status"] == Status.DONE:
            text += f"\nrecorded in {recorded_path}"
    if live:
        print(file=sys.stderr)
    _emit(data, args.json, text)
    return 0


def _trained(goal) -> list[dict]:
    from engine.learned.catalogue import trained_tables

    return trained_tables(goal)


def _evaluation_text(data: dict) -> str:
    def share(x):
        return "-" if x is None else f"{100 * x:.0f} %"

    lines = [f"{data['table']} on {data['positions']} positions ({data.get('positions_from', 'uniform')}; "
             f"{data['both_finished']} finished by both): "
             f"{share(data['node_reduction'])} fewer nodes, {share(data['time_reduction'])} less time than Manhattan "
             f"distance, {share(data['optimal_share'])} optimal (paper: 85 %, 76 %, 90 %)",
             "optimal d   n   MD nodes        V nodes         V optimal  mean excess"]
    for g in data["groups"]:
        lines.append(f"{g['low']:>3}<d<={g['high']:<3}{g['positions']:>4}   {g['manhattan_nodes'] or 0:>14,.0f}  "
                     f"{g['learned_nodes'] or 0:>14,.0f}  {share(g['optimal_share']):>9}  "
                     f"{g['mean_excess'] if g['mean_excess'] is not None else '-'}")
    return "\n".join(lines)


def cmd_tables(args: argparse.Namespace) -> int:
    """``tables list``: what exists, sizes, build times; ``tables build``: build what is missing, with a progress
    line on stderr (rewritten in place at a terminal, one line every few seconds in a log)."""
    import time

    from engine.tiles import pdb_catalogue

    if args.what == "build":
        live = sys.stderr.isatty()
        last = [0.0]

        def progress(fraction: float | None, info: dict) -> None:
            if live:
                _progress_to_stderr(fraction, info)
            elif time.monotonic() - last[0] >= 5:
                last[0] = time.monotonic()
                print(f"{fraction or 0:6.1%} {info.get('text', '')}", file=sys.stderr, flush=True)

        todo = pdb_catalogue.missing(args.only or None)
        print(f"building {len(todo)} table(s): {', '.join(todo) or 'none missing'}", file=sys.stderr)
        pdb_catalogue.build(args.only or None, progress)
        if live:
            print(file=sys.stderr)
    rows = pdb_catalogue.status(args.only or None)
    lines = [f"{'table':<22}{'built':>7}{'MB':>9}{'build s':>9}{'peak GB':>9}  label"]
    for row in rows:
        peak = f"{row['peak_bytes'] / 1e9:.2f}" if row["peak_bytes"] else "-"
        lines.append(f"{row['name']:<22}{'yes' if row['built'] else 'no':>7}"
                     f"{(row['bytes'] or row['expected_bytes']) / 1e6:>9.1f}{row['build_seconds'] or '-':>9}"
                     f"{peak:>9}  {row['label']}")
    lines.append(f"store: {rows[0]['path'].rsplit('/', 1)[0] if rows else ''}")
    _emit({"tables": rows}, args.json, "\n".join(lines))
    return 0


def _heuristic_help() -> str:
    """Each solver's heuristics, from the registries (a shape says the only board it is made for)."""
    known = heuristics()

    def shown(name: str) -> str:
        record = known.get(name)
        return f"{name} ({record.shape[0]}x{record.shape[1]})" if record is not None and record.shape else name

    return "by solver: " + "; ".join(f"{info.name}: {', '.join(shown(h) for h in info.heuristics)}"
                                      for info in solvers().values() if info.heuristics != ("",))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description="Puzzle Playground engine")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("solve", help="solve a sliding-tile position")
    _board_args(p)
    p.add_argument("--solver", default="idastar", choices=sorted(solvers()))
    p.add_argument("--heuristic", default="manhattan",
                   help=f"{_heuristic_help()} (pdb: the strongest database built)")
    p.add_argument("--max-nodes", type=int, default=Budget.max_nodes, help="node budget")
    p.add_argument("--max-seconds", type=float, default=Budget.max_seconds, help="time budget")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a dpso or ga parameter, e.g. --param iterations=500 --param seed=3 (repeatable)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=cmd_solve)

    p = sub.add_parser("scramble", help="k random blank moves from the goal, never revisiting a position")
    _board_args(p, tiles=False)
    p.add_argument("--moves", type=int, default=20)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_scramble)

    p = sub.add_parser("random", help="a uniformly random solvable position")
    _board_args(p, tiles=False)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_random)

    p = sub.add_parser("check", help="is the position solvable? with the parity argument")
    _board_args(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_check)

    p = sub.add_parser("research", help="seed 000's 2xn computations: bfs, maxmd, subproblem, bounds")
    research = p.add_subparsers(dest="what", required=True)
    q = research.add_parser("bfs", help="full breadth-first search: diameter, histogram, hardest positions")
    q.add_argument("--size", default="2x4", help="a board of at most 14 cells, e.g. 2x5, 3x3, 3x4, 2x7 (goal blank "
                   "first); a stopped search of the same board continues from its last finished layer")
    q.add_argument("--workers", type=int, default=None, help="threads expanding partitions (default: every core)")
    q = research.add_parser("maxmd", help="the largest Manhattan distance of a solvable 2xn position")
    q.add_argument("--n", type=int, default=8)
    q.add_argument("--brute", action="store_true",
                   help="enumerate every arrangement (n <= 6) instead of the exact method")
    q = research.add_parser("subproblem", help="f_k(n): the k-column sub-problem's largest distance")
    q.add_argument("--n", type=int, default=7)
    q.add_argument("--k", type=int, default=1)
    q.add_argument("--blank-anywhere", action="store_true", help="goal: the k columns home, blank anywhere (UB*)")
    q = research.add_parser("bounds", help="the bounds table: lower, exact, paper's upper and the improved upper")
    q.add_argument("--n-max", type=int, default=12)
    for q in research.choices.values():
        q.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_research)

    p = sub.add_parser("learned", help="seed 002's learned heuristic: train, evaluate, curve")
    learned = p.add_subparsers(dest="what", required=True)
    q = learned.add_parser("train", help="train the table on M random walks of N moves (Algorithm 1)")
    q.add_argument("--walks", type=int, default=100_000_000, help="M (default 10^8, the paper's)")
    q.add_argument("--steps", type=int, default=200, help="N, moves per walk (default 200)")
    q.add_argument("--seed", type=int, default=0)
    q.add_argument("--value-rule", default="min-diff", help="min-diff (default) or at-min-steps")
    q.add_argument("--allow-undo", action="store_true", help="let a walk step straight back")
    q = learned.add_parser("evaluate", help="V against Manhattan distance on random positions (see --positions-from)")
    q.add_argument("--positions", type=int, default=100)
    q.add_argument("--seed", type=int, default=0, help="which positions")
    q.add_argument("--table", default=None, help="a trained table's file name (default: the newest)")
    q.add_argument("--walks", type=int, default=None, help="the newest table trained with this M")
    q = learned.add_parser("curve", help="train (or load) one table per M and evaluate each on the same positions")
    q.add_argument("--positions", type=int, default=100)
    q.add_argument("--seed", type=int, default=0, help="which positions")
    q.add_argument("--train-seed", type=int, default=0)
    q.add_argument("--walks-list", default="", help="comma-separated M values (default 700000,2000000,10^7,10^8)")
    q.add_argument("--record", action="store_true",
                   help="also write the curve to engine/learned/recorded/ (what the Learned page shows until a curve "
                        "job runs)")
    for name, q in learned.choices.items():
        if name != "train":
            q.add_argument("--max-nodes", type=int, default=2_000_000_000, help="each search's node budget")
            q.add_argument("--max-seconds", type=float, default=3_600, help="each search's time budget")
            q.add_argument("--positions-from", default="uniform",
                           help="uniform (random from the solvable half, the default) or walk:N (N random slides "
                                "from the goal): the two readings of the paper's \"randomly made\"")
        q.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_learned)

    p = sub.add_parser("tables", help="large tables (pattern databases): list them, or build the missing ones")
    p.add_argument("what", choices=("list", "build"))
    p.add_argument("--only", action="append", metavar="NAME",
                   help="a table name, e.g. pdb-663/blank-first (repeatable; default: every table)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_tables)

    p = sub.add_parser("jobs", help="the kinds of background job, their lane and what each does")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_jobs)
    return parser


def cmd_jobs(args: argparse.Namespace) -> int:
    from engine.jobs import job_kinds

    kinds = {name: {"lane": kind.lane_label, "doc": kind.doc} for name, kind in sorted(job_kinds().items())}
    _emit(kinds, args.json, "\n".join(f"{name:22} {k['lane']:12} {k['doc']}" for name, k in kinds.items()))
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except PuzzleError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
