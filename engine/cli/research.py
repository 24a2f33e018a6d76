"""``research``: seed 000's computations (full BFS, max MD, the k-column sub-problem, the bounds table), the same
functions the Research page runs as jobs."""

from __future__ import annotations

import argparse
import sys
import time

from engine.cli.output import emit, progress_to_stderr
from engine.core.errors import PuzzleError
from engine.core.result import Watch
from engine.domains.tiles.board import parse_size


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
    from engine.subjects.research.fullbfs import full_bfs
    from engine.subjects.research.maxmd import max_md_brute, max_md_exact
    from engine.subjects.research.subproblem import solve_subproblem
    from engine.subjects.research.table import bounds_table

    live = sys.stderr.isatty()  # a progress line helps a person at a terminal, and is noise in a log file
    watch = Watch(progress=progress_to_stderr if live else None)
    if args.what == "bfs":
        from engine.subjects.research.fullbfs import ThreadWaves

        rows, cols = parse_size(args.size)
        if args.workers is not None and not 1 <= args.workers <= 256:
            raise PuzzleError("--workers must be from 1 to 256")
        data = full_bfs(rows, cols, Watch(progress=progress_to_stderr if live else _layers_to_stderr()),
                        ThreadWaves(None, args.workers))
        text = (f"{rows}x{cols}: diameter {data['diameter']}, {data['positions']:,} positions, "
                f"{data['hardest_count']:,} at the diameter, e.g. {data['hardest'][0]}\n"
                f"positions per distance: {data['histogram']}\n"
                f"{data['seconds']:.0f} s, peak memory {data['memory']['peak_rss'] / 2**30:.2f} GB, "
                f"{data['memory']['two_bit_files'] / 2**30:.2f} GB of partitions, on {data['machine']}")
        if args.record:
            from engine.core.records import Measurement

            path = Measurement().write("research", f"bfs-{rows}x{cols}", data)
            text += f"\nrecorded in {path}"
    elif args.what == "maxmd":
        data = max_md_brute(args.n) if args.brute else max_md_exact(args.n)
        text = (f"2x{args.n}: largest Manhattan distance of a solvable position {data['max_md']}, "
                f"e.g. {data['position']}")
    elif args.what == "subproblem":
        data = solve_subproblem(args.n, args.k, watch, blank_home=not args.blank_anywhere)
        text = (f"f_{args.k}({args.n}) = {data['f']} over {data['states']:,} states; "
                f"hardest {data['hardest']} solved by blank path {data['blank_path']}")
    else:
        data = bounds_table(args.n_max, progress=progress_to_stderr if live else None)
        lines = ["n  formula  maxMD  exact  paperUB  ourUB(k)"]
        for row in data["rows"]:
            lines.append(f"{row['n']:<3}{row['lower_formula']:>7}{row['max_md']:>7}{row['exact'] or '':>7}"
                         f"{row['paper_upper'] or '':>9}{row['upper']:>7}({row['upper_k']})"
                         + "".join(f"\n   ! {flag}" for flag in row["flags"]))
        text = "\n".join(lines)
    if live:
        print(file=sys.stderr)
    emit(data, args.json, text)
    return 0


def add_commands(sub) -> None:
    p = sub.add_parser("research", help="seed 000's 2xn computations: bfs, maxmd, subproblem, bounds")
    research = p.add_subparsers(dest="what", required=True)
    q = research.add_parser("bfs", help="full breadth-first search: diameter, histogram, hardest positions")
    q.add_argument("--size", default="2x4", help="a board of at most 14 cells, e.g. 2x5, 3x3, 3x4, 2x7 (goal blank "
                   "first); a stopped search of the same board continues from its last finished layer")
    q.add_argument("--workers", type=int, default=None, help="threads expanding partitions (default: every core)")
    q.add_argument("--record", action="store_true",
                   help="write the answer to engine/subjects/research/recorded/bfs-RxC.json, which the Research "
                        "page shows where the data folder holds no search of that board")
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
