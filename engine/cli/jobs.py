"""``jobs``: the kinds of background job every subject registers, the lane each runs on and what it does."""

from __future__ import annotations

import argparse

from engine.cli.output import emit


def cmd_jobs(args: argparse.Namespace) -> int:
    from engine.serving.jobs import job_kinds

    kinds = {name: {"lane": kind.lane_label, "title": kind.view_for({}).title, "doc": kind.doc}
             for name, kind in sorted(job_kinds().items())}
    emit(kinds, args.json, "\n".join(f"{name:22} {k['lane']:12} {k['doc']}" for name, k in kinds.items()))
    return 0


def add_commands(sub) -> None:
    p = sub.add_parser("jobs", help="the kinds of background job, their lane and what each does")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_jobs)
