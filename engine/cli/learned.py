"""``learned``: seed 002's heuristic: train a table, evaluate it, the M curve."""

from __future__ import annotations

import argparse
import sys

from engine.cli.output import emit, progress_to_stderr
from engine.core.errors import PuzzleError
from engine.core.status import Status


def _evaluation_summary(result: dict, count: int) -> dict:
    """The evaluation's headline fields: fractions against Manhattan distance over the positions both
    finished, V's optimal share, and the per-group rows of the paper's Figure 3."""
    overall = result["overall"]
    return {"table": result["table"], "positions": count, "positions_from": result.get("positions_from", "uniform"),
            "node_reduction": overall["node_reduction"],
            "time_reduction": overall["time_reduction"], "optimal_share": overall["optimal_share"],
            "mean_excess": overall["learned_mean_excess"], "both_finished": overall["both_finished"],
            "groups": result["groups"], "overall": overall}


def cmd_learned(args: argparse.Namespace) -> int:
    """Seed 002: train a table, evaluate one against Manhattan distance, or the whole M curve."""
    from engine.core.result import Budget
    from engine.domains.tiles import goal_board
    from engine.subjects.learned.catalogue import check_params, table_for
    from engine.subjects.learned.curve import CURVE_WALKS, baseline, m_curve, point
    from engine.subjects.learned.train import train

    goal = goal_board(4, 4, "blank-first")
    live = sys.stderr.isatty()
    progress = progress_to_stderr if live else None
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
        from engine.core.records import Measurement
        from engine.subjects.learned.curve import record_name, recordable_curve

        measurement = Measurement()
        walks = tuple(int(w) for w in args.walks_list.split(",")) if args.walks_list else CURVE_WALKS
        data = m_curve(walks, args.positions, args.seed, Budget(args.max_nodes, args.max_seconds), args.train_seed,
                       progress, positions_from=args.positions_from)
        if args.record and data["status"] == Status.DONE:
            recorded_path = measurement.write("learned", record_name(args.positions_from), recordable_curve(data))
        data["points"] = [{**p, **_evaluation_summary(p, args.positions)} for p in data["points"]]
        text = "\n\n".join(f"M = {p['walks']:,}: " + _evaluation_text({**p, "positions_from": args.positions_from})
                           for p in data["points"])
        if args.record and data["status"] == Status.DONE:
            text += f"\nrecorded in {recorded_path}"
    if live:
        print(file=sys.stderr)
    emit(data, args.json, text)
    return 0


def _trained(goal) -> list[dict]:
    from engine.subjects.learned.catalogue import trained_tables

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


def add_commands(sub) -> None:
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
                   help="also write the curve to engine/subjects/learned/recorded/ (what the Learned page shows "
                        "until a curve job runs)")
    for name, q in learned.choices.items():
        if name != "train":
            q.add_argument("--max-nodes", type=int, default=2_000_000_000, help="each search's node budget")
            q.add_argument("--max-seconds", type=float, default=3_600, help="each search's time budget")
            q.add_argument("--positions-from", default="uniform",
                           help="uniform (random from the solvable half, the default) or walk:N (N random slides "
                                "from the goal): the two readings of the paper's \"randomly made\"")
        q.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_learned)
