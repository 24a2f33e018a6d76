"""The Compare page's race on Korf's instance 1 (issue 50): IDA* + Manhattan distance against IDA* + a pattern
database, as one compare job on the embedded cluster. The job starts on the interactive lane and moves to the long
lane at the end of its 2 s slice; it should go on from where it stood. Prints, for each run, the job's time from
submission to its end against the two searches' own seconds, and whether the nodes its progress reported ever went
down. Needs the 6-6-3 database for the blank-first goal (``python -m engine tables build``) in ``--data``.

Usage: python bench/race.py [--runs 3] [--data ~/.cache/puzzle-playground]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from common import header, table

from engine.domains.tiles.korf import KORF_GOAL, korf_instances
from engine.serving.cluster import JobRunner


def one_race(runner: JobRunner, tiles: list[int], name: str) -> tuple[float, float, bool]:
    """Seconds from submission to the end, the searches' own seconds, and whether the reported nodes never fell."""
    start = time.perf_counter()
    job, _ = runner.submit("compare", {"size": "4x4", "goal": KORF_GOAL, "tiles": tiles, "solvers": [
        {"solver": "idastar", "heuristic": "manhattan"}, {"solver": "idastar", "heuristic": "pdb-663"}]},
        owner=f"race{name}")
    seen = []
    while (row := runner.get(job))["status"] in ("queued", "running"):
        text = row["info"].get("text", "")
        if text.startswith("idastar (1 of 2)") and row["info"].get("nodes") is not None:
            seen.append(row["info"]["nodes"])
        time.sleep(0.05)
    wall = time.perf_counter() - start
    if row["status"] != "done":
        raise SystemExit(f"the race ended {row['status']}: {row.get('error')}")
    results = row["result"]["results"]
    lengths = [result["length"] for result in results]
    if lengths != [57, 57]:  # Korf's published optimal length of instance 1
        raise SystemExit(f"wrong lengths {lengths}")
    own = sum(result["seconds"] for result in results)
    return wall, own, all(b >= a for a, b in zip(seen, seen[1:], strict=False))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--data", default=str(Path.home() / ".cache" / "puzzle-playground"))
    args = parser.parse_args()
    header("The Korf #1 race as one compare job: its time against its searches' own")
    tiles = list(korf_instances()[0][2])
    with tempfile.TemporaryDirectory() as folder:
        runner = JobRunner(str(Path(folder) / "jobs.sqlite"), data_dir=args.data)
        try:
            runs = [one_race(runner, tiles, str(n)) for n in range(args.runs)]
        finally:
            runner.shutdown()
    print(table(["run", "job, submission to end (s)", "the searches' own (s)", "ratio", "nodes never fell"],
                [[n + 1, f"{wall:.2f}", f"{own:.2f}", f"{wall / own:.2f}", rising]
                 for n, (wall, own, rising) in enumerate(runs)]))
    print(f"\nmedian ratio {statistics.median(wall / own for wall, own, _ in runs):.2f}")


if __name__ == "__main__":
    main()
