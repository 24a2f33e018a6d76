"""The compare page's "why" figures (app/race.py) against their textbook definitions."""

import re
import threading

import pytest

from app.job_pages import result_fragment
from app.race import bar_width, effective_branching_factor, uses_log_scale
from engine.domains.tiles.jobs import check_compare, compare_job


def test_the_effective_branching_factor_is_russell_and_norvigs():
    # AIMA: "if A* finds a solution at depth 5 using 52 nodes, the effective branching factor is 1.92"
    assert effective_branching_factor(52, 5) == pytest.approx(1.92, abs=0.01)
    assert effective_branching_factor(3, 3) == 1.0  # a straight path: no branching at all
    assert effective_branching_factor(0, 5) is None and effective_branching_factor(10, 0) is None


def test_a_log_scale_gives_each_factor_of_ten_the_same_length():
    values = [1, 10, 100, 1000]
    assert uses_log_scale(values) and not uses_log_scale([30, 60])
    widths = [bar_width(v, values, 400, True) for v in values]
    steps = [b - a for a, b in zip(widths, widths[1:], strict=False)]
    assert widths[-1] == pytest.approx(400) and steps == pytest.approx([steps[0]] * 3)
    assert widths[0] == pytest.approx(100)  # the scale starts a decade below the smallest value
    assert bar_width(50, [50, 100], 200, False) == 100


SEED_004 = "8,6,7,2,5,4,3,0,1"  # docs/SPEC.md: 31 moves from the goal


def table_rows(html: str) -> list[list[str]]:
    table = re.search(r'<table class="compare-table">.*?</table>', html, re.S).group(0)
    return [re.findall(r"<td[^>]*>([^<]*)</td>", row) for row in re.findall(r"<tr><td>.*?</tr>", table, re.S)]


def test_a_solver_that_hands_the_position_to_ida_star_is_named_by_what_ran(client):
    """Fast answers a position close to home by IDA* + Manhattan: its row has the very figures of IDA* + Manhattan on
    the same position, so its name must say IDA* ran, not the row and column reduction."""
    html = client.post("/compare/run", data={"size": "3x3", "goal": "blank-last", "tiles": SEED_004, "mode": "sync",
                                              "choice": ["idastar:manhattan", "fast:"]}).get_data(as_text=True)
    ida, fast = table_rows(html)
    assert fast[4:6] == ida[4:6]  # the same work and generated nodes: the same search
    assert ida[0] == "IDA* + manhattan" and "IDA*" in fast[0] and "reduction" not in fast[0]


def test_a_row_stopped_by_time_says_the_budget_that_was_chosen(app):
    """A job handed from the interactive lane to the long one runs on with the rest of its seconds; the race still
    names the budget the person chose (the job's parameters), not that rest, and not a node count."""
    board = {"size": "4x4", "goal": [0, *range(1, 16)], "tiles": [14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3]}
    chosen = {**board, "solvers": [{"solver": "astar", "heuristic": "manhattan"}, {"solver": "fast", "heuristic": ""}],
              "max_seconds": 1.0,
              "max_nodes": 300_000_000}
    rest = compare_job(check_compare({**chosen, "max_seconds": 0.2}), lambda fraction, info: None, threading.Event())
    assert rest["results"][0]["status"] == "budget_exhausted"
    with app.test_request_context():
        html = result_fragment("compare", rest, {"params": chosen})
    assert "its time budget (1 s)" in html and "0.2 s)" not in html and "300,000,000" not in html
    assert table_rows(html)[0][-1] == "1 s"


def test_the_nodes_per_bound_are_each_iterations_own_and_add_up_to_the_work(client):
    """IDA* repeats its search once per bound: what the iterations expanded, added up, is the work the table shows
    (and the last iteration's bound is the answer's length, 31 for the seed's position)."""
    html = client.post("/compare/run", data={"size": "3x3", "goal": "blank-last", "tiles": SEED_004, "mode": "sync",
                                              "choice": ["idastar:manhattan", "bfs:"]}).get_data(as_text=True)
    work = int(table_rows(html)[0][4].split()[0].replace(",", ""))
    chart = re.search(r'<figure class="chart bounds-chart".*?</figure>', html, re.S).group(0)
    values = [int(v.replace(",", "")) for v in re.findall(r'class="bar-value">([\d,]+)<', chart)]
    assert sum(values) == work and min(values) > 0
    assert re.findall(r'class="bar-label">f ≤ (\d+)<', chart)[-1] == "31"
