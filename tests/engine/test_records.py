"""The recorded figures the pages show are files their commands write: each stored file has the shape the command
produces now (so a page never reads a field the command stopped writing), and its verdicts come from claims.py."""

from __future__ import annotations

import sys
from pathlib import Path

from engine.core.records import Measurement, load_record, shape
from engine.subjects.meta.claims import claims, figures, judge
from tests.support.meta import synthetic_experiment

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _bench_meta():
    sys.path.insert(0, str(BENCH))
    try:
        import meta as bench_meta
    finally:
        sys.path.remove(str(BENCH))
    return bench_meta


def test_the_recorded_experiment_is_the_figures_claims_judges():
    recorded = load_record("meta", "experiment")
    result = synthetic_experiment({10: 30, 30: 15, 50: 1}, {10: 25, 30: 10, 50: 1})
    assert shape(recorded["figures"]) == shape(figures(result))
    assert set(recorded) == {"figures", "result", "command", "measured"}
    assert judge(figures(result)) == claims(result)
    # the figures are those of the result stored beside them: every depth of the paper, 30 trials each
    assert figures(recorded["result"]) == recorded["figures"]
    assert [row["depth"] for row in recorded["result"]["table"]] == [10, 20, 30, 40, 50]
    assert all(row["trials"] == 30 for row in recorded["result"]["table"])
    verdicts = {row["key"]: row["verdict"] for row in judge(recorded["figures"])}
    assert verdicts["d10-solved"] == "reproduced" and verdicts["d50-section-6"] == "partly reproduced"


def test_the_recorded_tables_have_the_shape_the_bench_writes(tmp_path, monkeypatch):
    import engine.core.records

    bench_meta = _bench_meta()
    monkeypatch.setattr(engine.core.records, "ROOT", tmp_path)  # the bench's --record writes here, not into the tree
    written = Measurement(["python", "bench/meta.py", "--clamp", "--record"]).write(
        "meta", "clamp", bench_meta.clamp_table(runs=1, iterations=3))
    assert written == tmp_path / "meta" / "recorded" / "clamp.json"
    fresh = load_record("meta", "clamp")
    monkeypatch.undo()
    assert shape(fresh) == shape(load_record("meta", "clamp"))
    assert len(fresh["rows"]) == 8 and len(fresh["rows"][0]) == len(load_record("meta", "clamp")["rows"][0])
    selection = bench_meta.selection_table(trials=1, depths=(4,), generations=3)
    assert shape({**selection, "command": "", "measured": ""}) == shape(load_record("meta", "selection"))
