"""The compare page's "why" figures (app/race.py) against their textbook definitions."""

import math
import re
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.job_pages import result_fragment
from app.race import bar_width, effective_branching_factor, per_iteration, uses_log_scale
from engine.core.result import SolveResult
from engine.core.status import Status
from engine.core.units import duration
from engine.domains.tiles.jobs import check_compare, compare_job
from engine.serving.jobs import JobStore


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


def log_tree_size(b: float, d: int) -> float:
    """log(b + b² + … + b^d), summed term by term from the largest (the test's own way, not the page's formula)."""
    if b == 1:
        return math.log(d)
    top = d * math.log(b)
    return top + math.log(math.fsum(math.exp((i - d) * math.log(b)) for i in range(1, d + 1)))


def solves_the_definition(b: float, expanded: int, depth: int) -> bool:
    """b, rounded to two decimals, brackets the root of N = b + b² + … + b^d (N + 1 = 1 + b + … + b^d); with no more
    nodes than the path's own (a root below 1) b* is 1, no branching."""
    if expanded <= depth:
        return b == 1.0
    slack = 1e-9 * max(1.0, abs(math.log(expanded)))
    below, above = max(1.0, b - 0.005 - 1e-9), b + 0.005 + 1e-9 * b
    return (log_tree_size(below, depth) <= math.log(expanded) + slack
            and log_tree_size(above, depth) >= math.log(expanded) - slack)


def test_b_star_meets_hand_computed_roots():
    # 2 + 4 + … + 2^10 = 2046 and 10 + 100 + 1000 = 1110: the roots are 2 and 10 exactly
    assert effective_branching_factor(2046, 10) == 2.0
    assert effective_branching_factor(1110, 3) == 10.0
    assert effective_branching_factor(10**12, 1) == 10**12  # one level holds every node
    # the race of issue 42 (Korf's instance 1): b^(d+1) for b near N overflows a float; the root is near 1.35
    b = effective_branching_factor(102_945_789, 57)
    assert 1.3 < b < 1.4 and solves_the_definition(b, 102_945_789, 57)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(expanded=st.integers(0, 10**12), depth=st.integers(0, 200))
def test_b_star_solves_its_definition_for_any_count_and_depth(expanded, depth):
    b = effective_branching_factor(expanded, depth)
    if expanded == 0 or depth == 0:
        assert b is None
        return
    assert 1.0 <= b <= expanded
    assert solves_the_definition(b, expanded, depth)


counts = st.integers(0, 10**12)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(values=st.lists(counts | st.floats(0, 1e7, allow_nan=False), min_size=1, max_size=12), width=st.integers(1, 400))
def test_bars_stay_inside_their_chart_for_any_values(values, width):
    log = uses_log_scale(values)
    widths = [bar_width(v, values, width, log) for v in values]
    assert all(0 <= w <= width * (1 + 1e-9) for w in widths)
    ordered = sorted(zip(values, widths, strict=True))
    assert all(a[1] <= b[1] + 1e-9 for a, b in zip(ordered, ordered[1:], strict=False))  # a larger value, a longer bar


@settings(max_examples=200, deadline=None, derandomize=True)
@given(own=st.lists(counts, max_size=200), seconds=st.floats(0, 1e7, allow_nan=False))
def test_per_bound_rows_and_times_read_for_any_count(own, seconds):
    cumulative = [sum(own[:i + 1]) for i in range(len(own))]
    rows = per_iteration([{"bound": 40 + 2 * i, "expanded": c} for i, c in enumerate(cumulative)])
    assert [r["expanded"] for r in rows] == own
    assert isinstance(duration(seconds), str) and duration(seconds)


def korf_one_race(manhattan: int, pdb: int, depth: int, bounds: int) -> dict:
    """A compare job's result as ``compare_job`` stores it, for IDA* + Manhattan against IDA* + pdb on Korf's
    instance 1 (its 57 moves are stood in for: the page draws the figures, it does not replay them here)."""
    def row(heuristic, expanded, h0):
        steps = [max(1, expanded // 2 ** (bounds - i)) for i in range(1, bounds + 1)]
        steps[-1] = expanded  # the last iteration ends at the work done
        return SolveResult(Status.SOLVED, "R" * depth, True, expanded, expanded * 2, depth, 1234.5, "idastar",
                           heuristic, extra={"bounds": [{"bound": h0 + 2 * i, "expanded": c}
                                                        for i, c in enumerate(steps)]}).to_dict()
    tiles = [14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3]
    h0 = depth - 2 * (bounds - 1)
    return {"size": "4x4", "tiles": tiles, "goal": list(range(16)),
            "results": [row("manhattan", manhattan, h0), row("pdb", pdb, h0)]}


@pytest.mark.parametrize(("manhattan", "pdb", "depth", "bounds"),
                         [(102_945_789, 243_671, 57, 9), (10**12, 0 + 1, 200, 100), (1, 1, 1, 1)])
def test_the_race_page_draws_any_counts_from_a_stored_result(app, tmp_path, manhattan, pdb, depth, bounds):
    """Issue 42: the race on Korf's instance 1 finished and its page answered 500 for ever (b* overflowed). The
    result goes through the job database as a finished job's does, then the page draws both rows, b* and the bounds."""
    store = JobStore(str(tmp_path / "race.sqlite"))
    store.create("race", "compare", {"size": "4x4"}, "someone", "long")
    store.finish("race", Status.DONE, korf_one_race(manhattan, pdb, depth, bounds))
    job = store.get("race")
    with app.test_request_context():
        html = result_fragment("compare", job["result"], job)
    rows = table_rows(html)
    assert [r[4] for r in rows] == [f"{manhattan:,} expanded", f"{pdb:,} expanded"]
    for row, expanded in zip(rows, (manhattan, pdb), strict=True):
        assert solves_the_definition(float(row[7]), expanded, depth)
    charts = re.findall(r'<figure class="chart bounds-chart".*?</figure>', html, re.S)
    assert len(charts) == 2 and len(re.findall(r'class="bar-label">f ≤ ', charts[0])) == bounds
    widths = [float(w) for w in re.findall(r'<rect [^>]*width="([\d.e+-]+)"', html)]
    assert widths and all(0 < w <= 210 for w in widths)


def test_a_races_link_reopens_it_with_the_same_position_and_solvers(client):
    """The race's "Copy link": the compare page on the same board with the same solvers checked, raced on opening."""
    chosen = ["idastar:manhattan", "astar:linear-conflict", "bfs:"]
    html = client.post("/compare/run", data={"size": "3x3", "goal": "blank-last", "tiles": SEED_004, "mode": "sync",
                                              "choice": chosen}).get_data(as_text=True)
    link = re.search(r'data-copy-link="([^"]+)"', html).group(1).replace("&amp;", "&")
    page = client.get(link).get_data(as_text=True)
    checked = re.findall(r'<input type="checkbox" name="choice" value="([^"]*)" checked>', page)
    assert sorted(checked) == sorted(chosen)
    assert 'hx-trigger="submit, load"' in page
    assert f'name="tiles" value="{SEED_004}"' in page


def test_a_race_run_as_a_job_links_to_its_job(app):
    with app.test_request_context():
        link = result_fragment("compare", {"size": "3x3", "tiles": [0] * 9, "goal": [0] * 9, "results": []},
                               {"id": "abc123", "params": {}})
    assert 'data-copy-link="/jobs/abc123"' in link
